"""Dependencies point one way: engine <- games <- results, research, dashboard, puzzles.

Walks the import statements (with ``ast``, so an import inside a function
counts too) of every Python file under ``games/`` and fails on one that
reaches an app built on top of it; the engine imports no Django at all.

Among the apps on top of ``games`` the rules are :data:`MAY_USE`: which app
may use which (``core`` none). They hold for imports, and also for what an
import walk cannot see: a model named by a string (``"games.Game"``,
``apps.get_model("games", "Game")``), which no app may do for another app's
model (it imports the model instead, so that the walk sees the dependency),
and a URL name of another app (``reverse("research:index")``,
``{% url 'dashboard:page' %}``), allowed only where the app may use that app.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Iterator
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = ROOT / "games"
ENGINE = GAMES / "engine"
ABOVE_GAMES = ("results", "research", "dashboard", "puzzles", "bench")


def python_files(folder: Path) -> list[Path]:
    return sorted(path for path in folder.rglob("*.py") if "migrations" not in path.parts)


def imported_modules(path: Path) -> Iterator[tuple[int, str]]:
    """(line, module) of every absolute import in the file."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            for alias in node.names:
                yield node.lineno, alias.name
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            yield node.lineno, node.module
        elif isinstance(node, ast.Call) and _is_import_module_call(node):
            argument = node.args[0]
            if isinstance(argument, ast.Constant) and isinstance(argument.value, str):
                yield node.lineno, argument.value


def _is_import_module_call(node: ast.Call) -> bool:
    function = node.func
    name = function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")
    return name in ("import_module", "__import__") and bool(node.args)


def top_package(module: str) -> str:
    return module.split(".", 1)[0]


def offending(folder: Path, forbidden: tuple[str, ...]) -> list[str]:
    """``file:line imports module`` for every import of a forbidden top-level package."""
    return [
        f"{path.relative_to(folder)}:{line} imports {module}"
        for path in python_files(folder)
        for line, module in imported_modules(path)
        if top_package(module) in forbidden
    ]


def test_the_walk_sees_imports_of_every_kind(tmp_path: Path) -> None:
    sample = tmp_path / "sample.py"
    sample.write_text(
        "import results.models\n"
        "from research.exports import pseudonyms\n"
        "def later():\n"
        "    from dashboard import services\n"
        "    importlib.import_module('puzzles.models')\n"
        "from . import sibling\n",
        encoding="utf-8",
    )
    assert sorted(module for _, module in imported_modules(sample)) == [
        "dashboard", "puzzles.models", "research.exports", "results.models",
    ]
    assert sorted(offending(tmp_path, ABOVE_GAMES)) == [
        "sample.py:1 imports results.models",
        "sample.py:2 imports research.exports",
        "sample.py:4 imports dashboard",
        "sample.py:5 imports puzzles.models",
    ]


def test_there_are_files_to_walk() -> None:
    assert len(python_files(GAMES)) > 20
    assert len(python_files(ENGINE)) > 10


def test_games_imports_no_app_built_on_it() -> None:
    assert offending(GAMES, ABOVE_GAMES) == []


def test_the_engine_imports_no_django() -> None:
    assert offending(ENGINE, ("django", "rest_framework", "celery", *ABOVE_GAMES)) == []


def test_the_engine_imports_nothing_of_the_games_app_around_it() -> None:
    outside = [
        f"{path.relative_to(ENGINE)}:{line} imports {module}"
        for path in python_files(ENGINE)
        for line, module in imported_modules(path)
        if top_package(module) == "games" and not module.startswith("games.engine")
    ]
    assert outside == []


def test_core_imports_none_of_the_apps() -> None:
    assert offending(ROOT / "core", ("games", *ABOVE_GAMES)) == []


def test_benchmark_scripts_import_each_other_as_a_package() -> None:
    """``bench/`` is a package run with ``python -m bench.<name>``: no script edits sys.path."""
    edits = []
    for path in python_files(ROOT / "bench"):
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
            if (
                isinstance(node, ast.Attribute)
                and node.attr in ("insert", "append")
                and isinstance(node.value, ast.Attribute)
                and node.value.attr == "path"
                and isinstance(node.value.value, ast.Name)
                and node.value.value.id == "sys"
            ):
                edits.append(f"{path.relative_to(ROOT)}:{node.lineno}")
    assert (ROOT / "bench" / "__init__.py").is_file()
    assert edits == []


def test_move_tuple_is_defined_once_in_the_engine() -> None:
    definitions = [
        f"{path.relative_to(ROOT)}:{node.lineno}"
        for folder in ("games", "results", "research", "dashboard", "puzzles", "core")
        for path in python_files(ROOT / folder)
        for node in ast.walk(ast.parse(path.read_text(encoding="utf-8")))
        if isinstance(node, ast.Assign | ast.AnnAssign)
        and any(
            isinstance(target, ast.Name) and target.id == "MoveTuple"
            for target in (node.targets if isinstance(node, ast.Assign) else [node.target])
        )
    ]
    assert definitions == ["games/engine/events.py:19"]


# -- the rules among the apps -------------------------------------------------

# Which app may use which (imports, model names, URL names); games/engine is
# part of games. The project package (decodoku_site) wires them all together.
MAY_USE: dict[str, frozenset[str]] = {
    "core": frozenset(),
    "games": frozenset({"core"}),
    "results": frozenset({"core", "games"}),
    "puzzles": frozenset({"core", "games"}),
    "dashboard": frozenset({"core", "games", "results"}),
    "research": frozenset({"core", "games", "results"}),
}
APPS = tuple(MAY_USE)

# Known references against the rules, in files whose owners have yet to
# change them: (file, what it names). Each is reported, none is hidden.
ALLOWED_REFERENCES = frozenset({
    # The site's navigation in the base template links to every app's pages.
    ("core/templates/core/base.html", "url web:home"),
    ("core/templates/core/base.html", "url web:tutorial"),
    ("core/templates/core/base.html", "url web:play"),
    ("core/templates/core/base.html", "url web:me"),
    ("core/templates/core/base.html", "url puzzles:play"),
    ("core/templates/core/base.html", "url research:index"),
    ("core/templates/core/base.html", "url dashboard:page"),
    ("core/templates/core/base.html", "url dashboard:players"),
    ("core/templates/core/base.html", "url results:compare"),
    # Its footer links to the research consent's wording, on every page.
    ("core/templates/core/base.html", "url web:consent"),
})

_MODEL_LABEL = re.compile(rf"^({'|'.join(APPS)})\.([A-Z]\w*)$")
_URL_TAG = re.compile(r"""\{%\s*url\s+["']([\w-]+):([\w-]+)["']""")
_URL_CALLS = ("reverse", "reverse_lazy", "redirect", "resolve_url")


def app_of(module: str) -> str:
    return top_package(module)


def forbidden_imports(app: str) -> list[str]:
    """``file:line imports module`` for every import of an app that ``app`` may not use."""
    others = tuple(other for other in APPS if other != app and other not in MAY_USE[app])
    return [f"{app}/{entry}" for entry in offending(ROOT / app, others)]


def url_namespaces() -> dict[str, str]:
    """Each URL namespace (``app_name``) and the app whose URL module declares it."""
    namespaces = {}
    for app in APPS:
        for path in (ROOT / app).rglob("urls.py"):
            for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
                if (
                    isinstance(node, ast.Assign)
                    and any(isinstance(t, ast.Name) and t.id == "app_name" for t in node.targets)
                    and isinstance(node.value, ast.Constant)
                ):
                    namespaces[str(node.value.value)] = app
    return namespaces


def _call_name(node: ast.Call) -> str:
    function = node.func
    return function.attr if isinstance(function, ast.Attribute) else getattr(function, "id", "")


def named_references(path: Path) -> Iterator[tuple[int, str, str]]:
    """(line, kind, name) of every model (``model app.Model``) and URL (``url ns:name``) named."""
    if path.suffix == ".html":
        text = path.read_text(encoding="utf-8")
        for match in _URL_TAG.finditer(text):
            yield text.count("\n", 0, match.start()) + 1, "url", ":".join(match.groups())
        return
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if isinstance(node, ast.Constant) and isinstance(node.value, str):
            if _MODEL_LABEL.match(node.value):
                yield node.lineno, "model", node.value
        elif isinstance(node, ast.Call) and node.args:
            first = node.args[0]
            if not (isinstance(first, ast.Constant) and isinstance(first.value, str)):
                continue
            if _call_name(node) == "get_model" and len(node.args) > 1:
                second = node.args[1]
                model = str(second.value) if isinstance(second, ast.Constant) else "?"
                yield node.lineno, "model", f"{first.value}.{model}"
            elif _call_name(node) in _URL_CALLS and ":" in first.value:
                yield node.lineno, "url", first.value


def _reference_files(folder: Path) -> list[Path]:
    return sorted(
        path for path in [*folder.rglob("*.py"), *folder.rglob("*.html")]
        if "migrations" not in path.parts
    )


def references_against_the_rules(app: str, folder: Path | None = None) -> list[tuple[str, str]]:
    """(place, what) for every model of another app named by a string, and every URL
    name of an app that ``app`` may not use."""
    folder = folder or ROOT / app
    namespaces = url_namespaces()
    found = []
    for path in _reference_files(folder):
        relative = f"{app}/{path.relative_to(folder)}"
        for line, kind, name in named_references(path):
            owner = name.split(".", 1)[0] if kind == "model" else namespaces.get(name.split(":")[0])
            if owner is None or owner == app:
                continue  # the app's own name, or a namespace of no app (admin)
            if kind == "url" and owner in MAY_USE[app]:
                continue
            place = relative if path.suffix == ".html" else f"{relative}:{line}"
            found.append((place, f"{kind} {name}"))
    return found


def test_the_rules_cover_every_app_and_point_one_way() -> None:
    assert {path.parent.name for path in ROOT.glob("*/apps.py")} >= set(APPS)
    for app, used in MAY_USE.items():
        assert app not in used
        for other in used:
            assert app not in MAY_USE[other], f"{app} and {other} may not use each other"


@pytest.mark.parametrize("app", APPS)
def test_each_app_imports_only_the_apps_it_may_use(app: str) -> None:
    assert forbidden_imports(app) == []


# An app's HTTP layers: what one app shares with others lives below them (its
# models, selectors, services, ``games.authentication``) or in core (``core.api``).
HTTP_PACKAGES = ("api", "web")


def imports_of_other_apps_http_layers(app: str, folder: Path | None = None) -> list[str]:
    """``file:line imports module`` for every import of another app's ``api`` or ``web``
    (core's ``core.api`` is the one every app shares)."""
    folder = folder or ROOT / app
    return [
        f"{app}/{path.relative_to(folder)}:{line} imports {module}"
        for path in python_files(folder)
        for line, module in imported_modules(path)
        if top_package(module) in APPS
        and top_package(module) not in (app, "core")
        and module.split(".")[1:2] in ([name] for name in HTTP_PACKAGES)
    ]


@pytest.mark.parametrize("app", APPS)
def test_no_app_imports_another_apps_api_or_web(app: str) -> None:
    assert imports_of_other_apps_http_layers(app) == []


def test_the_http_layer_walk_sees_api_and_web(tmp_path: Path) -> None:
    (tmp_path / "views.py").write_text(
        "from games.api.views import GameView\n"
        "from games.web import sections\n"
        "import games.webhooks\n"
        "from games.authentication import request_player\n"
        "from puzzles.api import serializers\n"
        "from core.api.views import PlayerAPIView\n",
        encoding="utf-8",
    )
    assert imports_of_other_apps_http_layers("puzzles", tmp_path) == [
        "puzzles/views.py:1 imports games.api.views",
        "puzzles/views.py:2 imports games.web",
    ]


def test_games_api_and_games_web_do_not_import_each_other() -> None:
    found = [
        f"{path.relative_to(GAMES)}:{line} imports {module}"
        for layer, other in (("api", "games.web"), ("web", "games.api"))
        for path in python_files(GAMES / layer)
        for line, module in imported_modules(path)
        if module == other or module.startswith(other + ".")
    ]
    assert found == []


def test_no_import_cycles_among_the_production_modules() -> None:
    """Services queue tasks by name (``core.tasks.enqueue``), so tasks -> services is one way;
    ``python -m bench.import_census`` prints the cycles this finds."""
    from bench.import_census import census, cycles

    assert cycles(census()[1]) == []


@pytest.mark.parametrize("app", APPS)
def test_no_app_names_another_apps_models_or_urls_against_the_rules(app: str) -> None:
    found = [entry for entry in references_against_the_rules(app)
             if entry not in ALLOWED_REFERENCES]
    assert found == []


def test_every_allowed_reference_still_exists() -> None:
    """An entry whose reference has gone must leave the list."""
    found = {entry for app in APPS for entry in references_against_the_rules(app)}
    assert sorted(ALLOWED_REFERENCES - found) == []


def test_the_reference_walk_sees_every_kind(tmp_path: Path) -> None:
    (tmp_path / "models.py").write_text(
        "game = ForeignKey('games.Game', on_delete=CASCADE)\n"
        "attempt = apps.get_model('puzzles', 'Attempt')\n"
        "own = apps.get_model('results', 'Sweep')\n"
        "page = reverse('research:index')\n"
        "plot = reverse_lazy('dashboard:page')\n"
        "admin = reverse('admin:index')\n"
        "text = 'games.Game is a model, in a sentence'\n",
        encoding="utf-8",
    )
    (tmp_path / "page.html").write_text(
        "<a href=\"{% url 'dashboard:page' %}\">x</a>\n{% url \"web:play\" %}\n",
        encoding="utf-8",
    )
    assert sorted(references_against_the_rules("results", tmp_path)) == [
        ("results/models.py:1", "model games.Game"),
        ("results/models.py:2", "model puzzles.Attempt"),
        ("results/models.py:4", "url research:index"),
        ("results/models.py:5", "url dashboard:page"),
        ("results/page.html", "url dashboard:page"),
    ]
    assert url_namespaces()["web"] == "games"


# -- the measured drawing in docs/architecture.md ----------------------------

ARCHITECTURE = ROOT / "docs" / "architecture.md"
DRAWING_COMMAND = "python -m bench.import_census --drawing"


def documented_drawing(text: str) -> list[str]:
    """The lines of the first fenced block after the sentence naming the command."""
    after = text[text.index(DRAWING_COMMAND):]
    start = after.index("```\n") + len("```\n")
    return after[start:after.index("```", start)].splitlines()


def without_counts(lines: list[str]) -> list[str]:
    """The drawing's layers and edges, without how many import statements make each edge
    (those move with every import; an edge or a layer that changes is news)."""
    return [re.sub(r" \d+(?=,|$)", "", line) for line in lines]


def test_the_documented_app_drawing_is_the_codes() -> None:
    """Paste ``python -m bench.import_census --drawing`` into docs/architecture.md
    after changing which app imports which."""
    from bench.import_census import app_edges, census, drawing

    measured = drawing(app_edges(census()[0]))
    documented = documented_drawing(ARCHITECTURE.read_text(encoding="utf-8"))
    assert without_counts(documented) == without_counts(measured)


def test_the_drawing_comparison_ignores_counts_but_not_edges() -> None:
    line = "2  results          -> core 7, core.stats 8, games 27, games.engine 46"
    assert without_counts([line]) == without_counts([line.replace("46", "48")])
    assert without_counts([line]) != without_counts([line.replace(", core.stats 8", "")])


def test_core_and_the_pure_packages_import_no_app() -> None:
    from bench.import_census import app_edges, census

    used: dict[str, set[str]] = {}
    for source, target in app_edges(census()[0]):
        used.setdefault(source, set()).add(target)
    assert used.get("core", set()) == set()
    assert used.get("core.stats", set()) == set()
    assert used.get("games.engine", set()) == set()
    assert used.get("puzzles.engines", set()) <= {"games.engine"}


def test_the_app_census_counts_statements_between_apps() -> None:
    from bench.import_census import Import, app_edges, drawing

    imports = [
        Import("results.services", "games.models", 3, False),
        Import("results.services", "games.selectors", 3, False),  # the same statement
        Import("results.services", "games.engine.rules", 4, True),
        Import("results.tasks", "results.services", 1, False),  # inside the app
        Import("games.models", "core.errors", 2, False),
    ]
    edges = app_edges(imports)
    assert edges == {
        ("results", "games"): 1,
        ("results", "games.engine"): 1,
        ("games", "core"): 1,
    }
    # Every app is drawn, those that import nothing at the bottom.
    assert drawing(edges) == [
        "2  results        -> games 1, games.engine 1",
        "1  games          -> core 1",
        "0  core           -> nothing",
        "0  dashboard      -> nothing",
        "0  decodoku_site  -> nothing",
        "0  games.engine   -> nothing",
        "0  puzzles        -> nothing",
        "0  research       -> nothing",
    ]
