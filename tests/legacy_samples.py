"""The original apps' sample save files, shared by the tests that read them.

They are the repository's own fixtures, in ``tests/fixtures/legacy-saves``
(their source is named in ``SOURCE.md`` there), so every test that reads them
runs on any checkout.
"""

from __future__ import annotations

from pathlib import Path

SAVES = Path(__file__).resolve().parent / "fixtures" / "legacy-saves"


def sample_path(name: str) -> Path:
    path = SAVES / name
    if not path.is_file():
        raise FileNotFoundError(f"the sample save {path} is missing from the fixtures")
    return path


def sample_bytes(name: str) -> bytes:
    return sample_path(name).read_bytes()
