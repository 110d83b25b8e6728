"""Dependencies point one way: engine <- games <- results, research, dashboard, puzzles.

Walks the import statements (with ``ast``, so an import inside a function
counts too) of every Python file under ``games/`` and fails on one that
reaches an app built on top of it; the engine imports no Django at all.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from pathlib import Path

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
