"""The lock files are what uv generates from the .in files: complete, pinned and hashed.

``bin/start``, ``bin/test`` and the Dockerfile install the locks with
``pip install --require-hashes``, which refuses a requirement without a hash
or without an exact pin. A package added by hand to a ``.txt`` lock (instead
of to the ``.in`` file, followed by ``uv pip compile``) would break every
install; these tests catch it first, reading the files only (no network).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LOCKS = {"requirements.in": "requirements.txt", "requirements-dev.in": "requirements-dev.txt"}

REQUIREMENT = re.compile(r"^([A-Za-z0-9][A-Za-z0-9._-]*)(\[[^\]]*\])?==([^\s;\\]+)")


def canonical(name: str) -> str:
    """A package name as pip compares them (PEP 503)."""
    return re.sub(r"[-_.]+", "-", name).lower()


def lock_entries(path: Path) -> dict[str, tuple[str, int]]:
    """name -> (version, number of hashes) of every requirement in a lock file."""
    entries: dict[str, tuple[str, int]] = {}
    current: str | None = None
    for line in path.read_text(encoding="utf-8").splitlines():
        if not line.strip() or line.lstrip().startswith("#"):
            continue
        if not line.startswith((" ", "\t")):
            match = REQUIREMENT.match(line)
            assert match, f"{path.name}: not an exact pin: {line!r}"
            current = canonical(match.group(1))
            entries[current] = (match.group(3), 0)
        elif "--hash=sha256:" in line:
            assert current is not None, f"{path.name}: a hash before any requirement"
            version, hashes = entries[current]
            entries[current] = (version, hashes + 1)
    return entries


def input_pins(path: Path) -> dict[str, str]:
    """name -> version of the pins written in an .in file (its own lines only)."""
    pins = {}
    for line in path.read_text(encoding="utf-8").splitlines():
        line = line.split("#", 1)[0].strip()
        if not line or line.startswith("-"):
            continue
        match = REQUIREMENT.match(line)
        assert match, f"{path.name}: pin direct dependencies exactly (name==version): {line!r}"
        pins[canonical(match.group(1))] = match.group(3)
    return pins


@pytest.mark.parametrize("lock", sorted(LOCKS.values()))
def test_every_locked_package_is_pinned_and_hashed(lock: str) -> None:
    entries = lock_entries(ROOT / lock)
    assert entries, f"{lock} locks nothing"
    unhashed = sorted(name for name, (_, hashes) in entries.items() if hashes == 0)
    assert not unhashed, f"{lock}: no hash for {unhashed}; regenerate it (docs/operations.md)"


@pytest.mark.parametrize(("source", "lock"), sorted(LOCKS.items()))
def test_every_pin_of_the_input_is_in_its_lock(source: str, lock: str) -> None:
    locked = lock_entries(ROOT / lock)
    wrong = {
        name: (version, locked.get(name, ("missing", 0))[0])
        for name, version in input_pins(ROOT / source).items()
        if locked.get(name, ("missing", 0))[0] != version
    }
    assert not wrong, f"{source} and {lock} disagree (pin, lock): {wrong}; regenerate the lock"


def test_the_development_lock_holds_the_runtime_lock() -> None:
    runtime = lock_entries(ROOT / "requirements.txt")
    development = lock_entries(ROOT / "requirements-dev.txt")
    differ = {
        name: (version, development.get(name, ("missing", 0))[0])
        for name, (version, _) in runtime.items()
        if development.get(name, ("missing", 0))[0] != version
    }
    assert not differ, f"runtime packages locked differently for development: {differ}"
