"""The original apps' sample save files, shared by the tests that read them.

They live beside the repository in ``shared/data/legacy-saves``;
``DECODOKU_SHARED_DIR`` names another ``shared`` folder. A test that needs
them is skipped when they are missing, except where ``DECODOKU_REQUIRE_SERVICES``
is set (CI), where their absence is a failure.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import services_required


def _saves_dir() -> Path:
    shared = os.environ.get("DECODOKU_SHARED_DIR", "").strip()
    root = Path(shared) if shared else Path(__file__).resolve().parents[1].parent / "shared"
    return root / "data" / "legacy-saves"


SAVES = _saves_dir()
REQUIRED = services_required()

# For tests that read SAVES themselves: where the samples are required they run
# (and fail on the missing file) instead of skipping.
needs_saves = pytest.mark.skipif(
    not SAVES.is_dir() and not REQUIRED, reason=f"the sample saves are not at {SAVES}"
)


def sample_path(name: str) -> Path:
    path = SAVES / name
    if not path.exists():
        if REQUIRED:
            pytest.fail(f"the sample save {path} is missing")
        pytest.skip(f"the sample saves are not at {SAVES}")
    return path


def sample_bytes(name: str) -> bytes:
    return sample_path(name).read_bytes()
