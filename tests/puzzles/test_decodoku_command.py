"""``manage.py decodoku_puzzle solve|list|generate``."""

from __future__ import annotations

import json
import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def run(*args: str) -> list[dict]:
    out = StringIO()
    call_command("decodoku_puzzle", *args, stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_solve_prints_one_json_line_with_the_corner_links_and_ties() -> None:
    grid = "?" + "0" * 6 + "5" + "0" * 55 + "?"
    assert run("solve", "--grid", grid) == [{"corner": 0, "links": 7, "optimal": True, "ties": [5]}]


def test_solve_ignores_the_digits_at_the_corners() -> None:
    published = "6003907404044709030003000700000004550000064037642865550000000582"
    hidden = "?" + published[1:-1] + "?"
    other = "1" + published[1:-1] + "9"
    answers = [run("solve", "--grid", grid) for grid in (published, hidden, other)]
    assert answers[0] == answers[1] == answers[2]
    assert answers[0][0]["optimal"] is True


@pytest.mark.parametrize(
    ("grid", "message"),
    [
        ("12345", "--grid: the grid has 5 characters, not 64"),
        ("?" + "0" * 30 + "x" + "0" * 31 + "?", "character 32 ('x') is not a digit"),
        ("?" + "0" * 62 + "*", "character 64 ('*') is a corner"),
        ("?" + "0" * 63 + "?", "has 65 characters"),
    ],
)
def test_a_bad_grid_is_a_command_error_naming_the_problem(grid: str, message: str) -> None:
    with pytest.raises(CommandError, match=re.escape(message)):
        run("solve", "--grid", grid)


def test_list_prints_every_distinct_published_grid_with_its_numbers() -> None:
    lines = run("list")
    assert len(lines) == 96
    assert lines[0] == {
        "number": 0,
        "numbers": [0],
        "grid": "6003907404044709030003000700000004550000064037642865550000000582",
    }
    assert {"number": 46, "numbers": [46, 53]}.items() <= lines[46].items()
    assert sorted(n for line in lines for n in line["numbers"]) == list(range(103))


def test_generate_prints_puzzles_with_consecutive_seeds_and_true_corners() -> None:
    lines = run("generate", "--seed", "7", "--rate", "0.2", "--count", "2")
    assert [line["seed"] for line in lines] == [7, 8]
    assert lines[0]["corners"] == [6, 0]
    assert lines[0]["grid"][0] == lines[0]["grid"][-1] == "?"
    small = run("generate", "--seed", "1", "--rate", "0.5", "--size", "4")
    assert len(small[0]["grid"]) == 16


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("--seed", "1", "--rate", "2"), "noise rate"),
        (("--seed", "1", "--rate", "0.1", "--count", "0"), "--count"),
        (("--seed", "1", "--rate", "0.1", "--size", "40"), "3 to 16"),
    ],
)
def test_bad_generate_arguments_are_command_errors(args: tuple[str, ...], message: str) -> None:
    with pytest.raises(CommandError, match=message):
        run("generate", *args)
