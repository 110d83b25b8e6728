"""The documentation in docs/ keeps up with the code.

Every ``manage.py`` command of the project (found in the apps'
``management/commands`` folders) is listed in docs/commands.md and each of its
options is documented in docs/ (a subcommand's too, with a usage line in
docs/commands.md naming every value its arguments accept), and every setting
the settings read from the environment (found by parsing
``decodoku_site/settings.py`` and ``decodoku_site/env.py``), must be named in
docs/. README.md stays short and points at docs/index.md, the index names
every page, and every relative link in the docs and the README resolves to a
file (and heading) that exists.
"""

from __future__ import annotations

import ast
import re
import unicodedata
from argparse import ArgumentParser, _SubParsersAction
from pathlib import Path

import pytest
from django.core.management import BaseCommand, load_command_class

ROOT = Path(__file__).resolve().parent.parent
DOCS = ROOT / "docs"
README = ROOT / "README.md"
SETTINGS_FILES = (ROOT / "decodoku_site" / "settings.py", ROOT / "decodoku_site" / "env.py")
SKIPPED_DIRS = {".venv", ".git", "node_modules", "staticfiles", "tests", "bench"}
README_MAX_LINES = 150

ENV_NAME = re.compile(r"[A-Z][A-Z0-9_]*")
MARKDOWN_LINK = re.compile(r"(?<!!)\[[^\]]*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")


def docs_text() -> str:
    return "\n".join(path.read_text(encoding="utf-8") for path in sorted(DOCS.glob("*.md")))


# -- discovering commands ------------------------------------------------------


def project_commands() -> list[tuple[str, str]]:
    """(app module, command name) of every management command in the project."""
    found = []
    for top in sorted(ROOT.iterdir()):
        if not top.is_dir() or top.name.startswith(".") or top.name in SKIPPED_DIRS:
            continue
        for path in sorted(top.glob("**/management/commands/*.py")):
            relative = path.relative_to(ROOT)
            if SKIPPED_DIRS & set(relative.parts) or path.name.startswith("_"):
                continue
            app = ".".join(relative.parts[: relative.parts.index("management")])
            found.append((app, path.stem))
    return found


def _long_options(parser: ArgumentParser) -> set[str]:
    return {
        option
        for action in parser._actions
        for option in action.option_strings
        if option.startswith("--")
    }


def command_options(app: str, name: str) -> set[str]:
    """The long options a command adds to Django's own."""
    command = load_command_class(app, name)
    parser = command.create_parser("manage.py", name)
    base = BaseCommand().create_parser("manage.py", name)
    return _long_options(parser) - _long_options(base)


def subcommands(app: str, name: str) -> dict[str, ArgumentParser]:
    """The subcommands of a command (``puzzle generate``, ...), by name; {} for none."""
    parser = load_command_class(app, name).create_parser("manage.py", name)
    return {
        sub_name: sub_parser
        for action in parser._actions
        if isinstance(action, _SubParsersAction)
        for sub_name, sub_parser in action.choices.items()
    }


def subcommand_choices(parser: ArgumentParser) -> dict[str, list[str]]:
    """Every argument of a subcommand that takes fixed values, with those values."""
    return {
        action.dest: [str(choice) for choice in action.choices]
        for action in parser._actions
        if action.choices is not None and not isinstance(action, _SubParsersAction)
    }


def usage_lines(command: str, sub: str, text: str) -> list[str]:
    """The lines of the docs that show ``manage.py COMMAND SUB ...``."""
    pattern = re.compile(rf"manage\.py {re.escape(command)} {re.escape(sub)}(?![\w-])")
    return [line for line in text.splitlines() if pattern.search(line)]


# -- discovering settings read from the environment ----------------------------


def _env_reader_methods(tree: ast.Module) -> set[str]:
    """Methods of ``Env`` whose first argument is the variable's name."""
    for node in tree.body:
        if isinstance(node, ast.ClassDef) and node.name == "Env":
            return {
                item.name
                for item in node.body
                if isinstance(item, ast.FunctionDef)
                and [arg.arg for arg in item.args.args[:2]] in (["self", "name"], ["name"])
            }
    raise AssertionError("decodoku_site/env.py defines no class Env")


def _first_string(call: ast.Call) -> str | None:
    if call.args and isinstance(call.args[0], ast.Constant) and isinstance(call.args[0].value, str):
        return call.args[0].value
    return None


def _is_os_environ(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "environ"
        and isinstance(node.value, ast.Name)
        and node.value.id == "os"
    )


def _reads_env(call: ast.Call, readers: set[str]) -> bool:
    func = call.func
    if isinstance(func, ast.Attribute) and func.attr in readers:
        return True
    if isinstance(func, ast.Attribute) and func.attr == "get" and _is_os_environ(func.value):
        return True
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "getenv"
        and isinstance(func.value, ast.Name)
        and func.value.id == "os"
    )


def _forwarders(tree: ast.Module, readers: set[str]) -> set[str]:
    """Module functions that pass their first parameter on as the variable's name."""
    names = set()
    for node in tree.body:
        if not isinstance(node, ast.FunctionDef) or not node.args.args:
            continue
        parameter = node.args.args[0].arg
        for call in ast.walk(node):
            if (
                isinstance(call, ast.Call)
                and _reads_env(call, readers)
                and call.args
                and isinstance(call.args[0], ast.Name)
                and call.args[0].id == parameter
            ):
                names.add(node.name)
    return names


def environment_settings() -> set[str]:
    trees = {path: ast.parse(path.read_text(encoding="utf-8")) for path in SETTINGS_FILES}
    readers = _env_reader_methods(trees[ROOT / "decodoku_site" / "env.py"])
    found = set()
    for tree in trees.values():
        forwarders = _forwarders(tree, readers)
        for node in ast.walk(tree):
            name = None
            if isinstance(node, ast.Call) and (
                _reads_env(node, readers)
                or (isinstance(node.func, ast.Name) and node.func.id in forwarders)
            ):
                name = _first_string(node)
            elif isinstance(node, ast.Subscript) and _is_os_environ(node.value):
                key = node.slice
                if isinstance(key, ast.Constant) and isinstance(key.value, str):
                    name = key.value
            if name is not None and ENV_NAME.fullmatch(name):
                found.add(name)
    return found


# -- links ---------------------------------------------------------------------


def heading_anchor(heading: str) -> str:
    """The anchor GitHub gives a Markdown heading."""
    text = re.sub(r"[`*]|\[([^\]]*)\]\([^)]*\)", r"\1", heading.strip()).lower()
    kept = "".join(
        char
        for char in text
        if char in " -" or unicodedata.category(char)[0] in ("L", "N") or char == "_"
    )
    return kept.replace(" ", "-")


def anchors(path: Path) -> set[str]:
    found: set[str] = set()
    in_code = False
    for line in path.read_text(encoding="utf-8").splitlines():
        if line.startswith("```"):
            in_code = not in_code
        elif not in_code and (match := re.match(r"#{1,6}\s+(.*?)\s*#*\s*$", line)):
            anchor = heading_anchor(match.group(1))
            candidate, number = anchor, 1
            while candidate in found:  # repeated headings get -1, -2, ...
                candidate, number = f"{anchor}-{number}", number + 1
            found.add(candidate)
    return found


def markdown_files() -> list[Path]:
    return [README, *sorted(DOCS.glob("*.md"))]


def relative_links(path: Path) -> list[str]:
    text = re.sub(r"```.*?```", "", path.read_text(encoding="utf-8"), flags=re.DOTALL)
    text = re.sub(r"`[^`\n]*`", "", text)
    return [
        target
        for target in MARKDOWN_LINK.findall(text)
        if not re.match(r"[a-z][a-z0-9+.-]*:", target, flags=re.IGNORECASE)
    ]


# -- the tests -----------------------------------------------------------------


def test_discovery_finds_the_commands_and_settings_of_the_project() -> None:
    # Guards the discovery itself: a parser that found nothing would pass everything.
    assert ("games", "check_save") in project_commands()
    assert {"--out", "--gzip"} <= command_options("research", "export_csv")
    assert {"DEBUG", "DATABASE_URL", "DECODOKU_THROTTLE_PLAYER"} <= environment_settings()


@pytest.mark.parametrize(("app", "name"), project_commands())
def test_every_management_command_and_its_options_are_documented(app: str, name: str) -> None:
    text = docs_text()
    listing = (DOCS / "commands.md").read_text(encoding="utf-8")
    assert f"`{name}`" in listing, f"manage.py {name} ({app}) is not listed in docs/commands.md"
    missing = sorted(
        option
        for option in command_options(app, name)
        if not re.search(re.escape(option) + r"(?![\w-])", text)
    )
    assert not missing, f"options of manage.py {name} not documented in docs/: {missing}"


def _commands_with_subcommands() -> list[tuple[str, str]]:
    return [(app, name) for app, name in project_commands() if subcommands(app, name)]


def test_the_discovery_finds_subcommands_and_their_values() -> None:
    found = subcommands("puzzles", "puzzle")
    assert {"generate", "solve"} <= set(found)
    assert "kenken" in subcommand_choices(found["generate"])["kind"]
    assert ("puzzles", "puzzle") in _commands_with_subcommands()


@pytest.mark.parametrize(("app", "name"), _commands_with_subcommands())
def test_every_subcommand_its_options_and_its_values_are_documented(app: str, name: str) -> None:
    """Each subcommand has a usage line (``manage.py puzzle generate ...``) in
    docs/commands.md that names every value an argument of it accepts, and each
    of its options is documented in docs/."""
    text = docs_text()
    listing = (DOCS / "commands.md").read_text(encoding="utf-8")
    problems = []
    for sub, parser in subcommands(app, name).items():
        lines = usage_lines(name, sub, listing)
        if not lines:
            problems.append(f"no usage line `manage.py {name} {sub} ...` in docs/commands.md")
            continue
        for dest, choices in subcommand_choices(parser).items():
            undocumented = [c for c in choices
                            if not any(re.search(rf"(?<![\w-]){re.escape(c)}(?![\w-])", line)
                                       for line in lines)]
            if undocumented:
                problems.append(f"{name} {sub} {dest}: {undocumented} not on its usage line")
        base = BaseCommand().create_parser("manage.py", name)
        for option in sorted(_long_options(parser) - _long_options(base)):
            if not re.search(re.escape(option) + r"(?![\w-])", text):
                problems.append(f"{name} {sub} {option} not documented")
    assert not problems, f"manage.py {name}: {problems}"


def test_every_setting_read_from_the_environment_is_documented() -> None:
    text = docs_text()
    missing = sorted(name for name in environment_settings() if f"`{name}`" not in text)
    assert not missing, f"settings not documented in docs/ (see docs/operations.md): {missing}"


def test_readme_is_short_and_points_to_the_docs() -> None:
    text = README.read_text(encoding="utf-8")
    assert len(text.splitlines()) < README_MAX_LINES
    assert "docs/index.md" in relative_links(README)


def test_the_index_names_every_page() -> None:
    index = (DOCS / "index.md").read_text(encoding="utf-8")
    missing = sorted(
        path.name
        for path in DOCS.glob("*.md")
        if path.name != "index.md" and path.name not in index
    )
    assert not missing, f"docs/index.md does not name: {missing}"


def resolves(path: Path, target: str) -> bool:
    """Whether a relative link of ``path`` names an existing file (and heading)."""
    file_part, _, anchor = target.partition("#")
    destination = (path.parent / file_part).resolve() if file_part else path
    if not destination.exists():
        return False
    if not anchor:
        return True
    return destination.suffix == ".md" and anchor in anchors(destination)


@pytest.mark.parametrize("path", markdown_files(), ids=lambda path: path.name)
def test_relative_links_resolve(path: Path) -> None:
    broken = [target for target in relative_links(path) if not resolves(path, target)]
    assert not broken, f"{path.relative_to(ROOT)}: links that do not resolve: {broken}"


def test_heading_anchor_follows_github() -> None:
    assert heading_anchor("Legacy save files (the later apps, 2016-2017)") == (
        "legacy-save-files-the-later-apps-2016-2017"
    )
    assert heading_anchor("The play API and research data") == "the-play-api-and-research-data"
    assert heading_anchor("`check_save`") == "check_save"
