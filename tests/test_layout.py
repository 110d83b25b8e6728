"""The test tree mirrors the apps: a module's tests are found under ``tests/<app>/``.

docs/development.md ("Where the tests live") describes the layout. A folder at
the top of tests/ is an app (a folder of the repository with an ``apps.py``),
``bench`` for the scripts in bench/, or one of the cross-cutting folders; a
folder inside an app's tests names a package (or module) of that app, so that
``tests/games/engine/bots/`` holds the tests of ``games/engine/bots/``.
"""

from __future__ import annotations

from pathlib import Path

TESTS = Path(__file__).resolve().parent
ROOT = TESTS.parent
# Not an app: the benchmark scripts, the attacks and outages replayed on every
# part of the site, the browser journeys, and the data files several apps' tests read.
OTHER_FOLDERS = {"bench", "hostile", "browser", "fixtures"}
# Folders that hold data or vendored files rather than test modules.
DATA_FOLDERS = {"fixtures", "vendor", "__pycache__"}


def apps() -> set[str]:
    return {path.parent.name for path in ROOT.glob("*/apps.py")}


def holds_files(folder: Path) -> bool:
    # A folder left with nothing but bytecode (after its tests moved) does not count.
    return any(
        path.is_file() and "__pycache__" not in path.relative_to(TESTS).parts
        for path in folder.rglob("*")
    )


def folders_of_tests(top: Path) -> list[Path]:
    """The folders of test modules below ``top`` (itself included)."""
    return [top] + [
        path
        for path in sorted(top.rglob("*"))
        if path.is_dir()
        and not DATA_FOLDERS & set(path.relative_to(top).parts)
        and holds_files(path)
    ]


def top_level_folders() -> set[str]:
    return {path.name for path in TESTS.iterdir() if path.is_dir() and holds_files(path)}


def test_every_top_level_folder_is_an_app_or_a_known_cross_cutting_one() -> None:
    assert {"core", "games", "results", "puzzles", "research", "dashboard"} <= apps()
    assert sorted(top_level_folders() - apps() - OTHER_FOLDERS) == []


def names_code(folder: Path) -> bool:
    """Whether the code beside ``folder``'s parent has a package or module of its name.

    tests/games/engine/bots/ names games/engine/bots/; tests/results/sweeps/ names
    results/services/sweeps/ (and results/analysis/sweeps.py), found deeper down.
    """
    code = ROOT / folder.parent.relative_to(TESTS)
    return any(code.rglob(f"{folder.name}/__init__.py")) or any(code.rglob(f"{folder.name}.py"))


def test_an_app_s_test_sub_folders_follow_its_packages() -> None:
    strays = [
        folder.relative_to(TESTS).as_posix()
        for app in sorted(apps() & top_level_folders())
        for folder in folders_of_tests(TESTS / app)[1:]
        if not names_code(folder)
    ]
    assert strays == []


def test_every_folder_of_tests_is_a_package() -> None:
    # Modules of the same name live in different folders (tests/games/test_services.py,
    # tests/puzzles/test_services.py): pytest imports them by their package path.
    missing = [
        folder.relative_to(ROOT).as_posix()
        for folder in folders_of_tests(TESTS)
        if not (folder / "__init__.py").is_file()
    ]
    assert missing == []
