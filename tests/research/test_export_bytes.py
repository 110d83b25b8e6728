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
    FITTED_TABLES,
    FIXTURE,
    PSEUDONYM_KEY,
    build_dataset,
    capture,
    fitted_csv_differences,
    fitted_values_close,
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
            if name in FITTED_TABLES:  # a fit's last bits depend on the CPU: see export_bytes
                assert fitted_csv_differences(got["csv"], expected["csv"]) == [], (name, variant)
                assert fitted_values_close(got["parquet"], expected["parquet"]), (name, variant)
                continue
            assert got["csv_sha256"] == expected["csv_sha256"], (name, variant)
            assert got["parquet_rows_sha256"] == expected["parquet_rows_sha256"], (name, variant)
            if same_arrow:  # the file also names the writer's version
                assert got["parquet_sha256"] == expected["parquet_sha256"], (name, variant)


def test_the_fixed_database_fills_every_table(captured) -> None:
    tables = captured["tables"]
    empty = [name for name, entry in tables.items() if entry["default"]["csv_rows"] == 0]
    assert empty == []


@pytest.mark.parametrize(("got", "differs"), [
    ("fit_id,loglik\n1,-64.21593112773292\n", False),
    ("fit_id,loglik\n1,-64.21593112773300\n", False),  # 1.2e-15 relative: another CPU's kernel
    ("fit_id,loglik\n1,-64.215932\n", True),            # 1.4e-8 relative: another fit
    ("fit_id,loglik\n2,-64.21593112773292\n", True),    # integers compare exactly
    ("fit_id,loglik\n1,\n", True),
    ("fit_id,loglik\n", True),
])
def test_a_fitted_table_is_compared_to_its_tolerance_only_in_its_floats(got, differs) -> None:
    expected = "fit_id,loglik\n1,-64.21593112773292\n"
    assert bool(fitted_csv_differences(got, expected)) is differs
    assert fitted_values_close({"rows": [{"loglik": -64.21593112773292}]},
                               {"rows": [{"loglik": -64.21593112773300}]})
    assert not fitted_values_close({"rows": [{"loglik": -64.215932}]},
                                   {"rows": [{"loglik": -64.21593112773292}]})
