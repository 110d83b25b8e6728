"""Error codes are one closed list (core.api.ERROR_CODES), and the schema says so.

A client generated from the schema reads ``error.code`` as an enum and fails
on a value it does not know, so the list must hold every code the site can
put in an error body. The code base is read (not imported) to find them: the
first argument of every ``error_body(...)`` call, every ``code="..."``
keyword and every ``code = "..."`` class attribute, and DRF's codes.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator
from functools import cache
from pathlib import Path

import pytest
from rest_framework.test import APIClient

from core.api import DRF_CODES, ERROR_CODES

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = ("core", "decodoku_site", "games", "puzzles", "research", "dashboard", "results")
# Modules whose codes never become an error body's code:
NOT_ERROR_BODY_CODES = (
    # the save-file reader's codes become the error's ``reason``
    # (games.services.legacy: save_breaks_rules / invalid_save_file with reason=...)
    "games/engine/legacy/",
    # simulations run by commands and benchmarks, not by the API
    "games/engine/simulate.py",
    # rebuilding stored events, replaying stored games, and the engine's base classes:
    # a failure there is a corrupt record or a bug (500), never an answer to input
    "games/engine/events.py",
    "games/engine/replay.py",
    "games/engine/errors.py",
)


def _string(node: ast.AST) -> str | None:
    return node.value if isinstance(node, ast.Constant) and isinstance(node.value, str) else None


def _codes_in(tree: ast.AST) -> Iterator[str]:
    for node in ast.walk(tree):
        if isinstance(node, ast.Call):
            name = getattr(node.func, "id", None) or getattr(node.func, "attr", None)
            if name == "error_body" and node.args and (code := _string(node.args[0])):
                yield code
            for keyword in node.keywords:
                if keyword.arg == "code" and (code := _string(keyword.value)):
                    yield code
        elif isinstance(node, ast.ClassDef):
            for statement in node.body:
                if (
                    isinstance(statement, ast.Assign)
                    and any(getattr(t, "id", None) == "code" for t in statement.targets)
                    and (code := _string(statement.value))
                ):
                    yield code


@cache
def codes_in_the_code_base() -> dict[str, str]:
    """Every code found, with the first file that uses it."""
    found: dict[str, str] = {code: "core/api.py (DRF_CODES)" for _, code in DRF_CODES}
    for package in PACKAGES:
        for path in sorted((ROOT / package).rglob("*.py")):
            relative = path.relative_to(ROOT).as_posix()
            if "/migrations/" in relative or relative.startswith(NOT_ERROR_BODY_CODES):
                continue
            for code in _codes_in(ast.parse(path.read_text(encoding="utf-8"))):
                found.setdefault(code, relative)
    return found


def test_every_code_the_code_base_raises_is_listed():
    found = codes_in_the_code_base()
    missing = {code: where for code, where in found.items() if code not in ERROR_CODES}
    assert not missing, f"add these to core.api.ERROR_CODES: {missing}"


def test_every_listed_code_is_raised_somewhere():
    unused = set(ERROR_CODES) - set(codes_in_the_code_base())
    assert not unused


def test_the_scan_finds_codes_of_every_kind():
    """The scan itself works: a class attribute, a keyword, error_body, DRF's."""
    found = codes_in_the_code_base()
    assert found["stale_step"] == "games/errors.py"
    assert found["off_grid"] == "games/engine/game.py"
    assert found["uri_too_long"] == "decodoku_site/errors.py"
    assert found["throttled"].endswith("(DRF_CODES)")
    assert "unclosed_quote" not in found  # a reason, not a code


@pytest.mark.django_db
def test_the_schema_lists_the_codes_as_an_enum():
    schema = APIClient().get(
        "/api/v1/schema/", HTTP_ACCEPT="application/vnd.oai.openapi+json"
    ).json()
    components = schema["components"]["schemas"]
    code = components["ErrorDetail"]["properties"]["code"]
    ref = code.get("$ref") or code["allOf"][0]["$ref"]
    assert ref == "#/components/schemas/ErrorCodeEnum"
    assert components["ErrorCodeEnum"]["enum"] == list(ERROR_CODES)
    for meaning in ERROR_CODES.values():
        assert meaning in code["description"]
