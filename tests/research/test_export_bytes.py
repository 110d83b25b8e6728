"""Every export table and the codebook keep their bytes, whoever declares the tables.

The digests in ``fixtures/export_bytes.json`` were taken from the fixed
database of ``tests/research/export_bytes.py``. To store them again after a
deliberate change of the exports, run this test with
``DECODOKU_WRITE_EXPORT_BYTES=1`` and review the difference of the fixture.
"""

from __future__ import annotations

import json

import pyarrow
import pytest

from tests.research.export_bytes import (
    FIXTURE,
    PSEUDONYM_KEY,
    build_dataset,
    capture,
    fixture_wanted,
    write_fixture,
)

pytestmark = [pytest.mark.slow, pytest.mark.django_db(transaction=True, reset_sequences=True)]


@pytest.fixture
def captured(settings) -> dict:
    settings.DECODOKU_PSEUDONYM_KEY = PSEUDONYM_KEY
    build_dataset()
    return capture()


def test_every_table_and_the_codebook_keep_their_bytes(captured) -> None:
    if fixture_wanted():
        write_fixture(captured)
    stored = json.loads(FIXTURE.read_text(encoding="utf-8"))
    assert captured["table_order"] == stored["table_order"]
    assert captured["codebook_sha256"] == stored["codebook_sha256"]
    same_arrow = stored["pyarrow"] == pyarrow.__version__
    for name, entry in stored["tables"].items():
        now = captured["tables"][name]
        assert now["columns"] == entry["columns"], name
        for variant in ("default", "included"):
            if variant not in entry:
                assert variant not in now, name
                continue
            expected, got = entry[variant], now[variant]
            assert got["csv_rows"] == expected["csv_rows"], (name, variant)
            assert got["csv_sha256"] == expected["csv_sha256"], (name, variant)
            assert got["parquet_rows_sha256"] == expected["parquet_rows_sha256"], (name, variant)
            if same_arrow:  # the file also names the writer's version
                assert got["parquet_sha256"] == expected["parquet_sha256"], (name, variant)


def test_the_fixed_database_fills_every_table(captured) -> None:
    tables = captured["tables"]
    empty = [name for name, entry in tables.items() if entry["default"]["csv_rows"] == 0]
    assert empty == []
