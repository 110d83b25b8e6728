"""``manage.py puzzle generate 2mino`` and ``puzzle solve`` on 2mino lines."""

from __future__ import annotations

import json
from io import StringIO
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from puzzles.engines import twomino


def run(*args: str) -> list[dict]:
    out = StringIO()
    call_command("puzzle", *args, stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_generate_prints_the_issue_json_with_consecutive_seeds():
    lines = run("generate", "2mino", "--size", "5", "--seed", "11", "--count", "3")
    assert [line["seed"] for line in lines] == [11, 12, 13]
    first = lines[0]
    assert set(first) == {
        "kind",
        "size",
        "seed",
        "engine_version",
        "difficulty",
        "rows",
        "cols",
        "grid",
        "locked_bars",
        "solution",
        "solutions",
    }
    assert (first["rows"], first["cols"], first["engine_version"]) == (6, 5, 1)
    assert first == twomino.generate(size=5, seed=11).to_json()


def test_generate_unique_gives_one_solution():
    (line,) = run("generate", "2mino", "--size", "4", "--seed", "3", "--difficulty", "unique")
    assert line["difficulty"] == "unique"
    assert line["solutions"] == 1


@pytest.mark.parametrize("args", [["--size", "2"], ["--size", "13"], ["--difficulty", "extreme"]])
def test_generate_refuses_bad_arguments(args):
    with pytest.raises(CommandError):
        run("generate", "2mino", *args)


def test_solve_reads_2mino_lines(tmp_path: Path):
    lines = run("generate", "2mino", "--size", "4", "--seed", "0", "--count", "2")
    unique = twomino.generate(size=4, seed=5).to_json()
    unique.pop("solution")
    path = tmp_path / "boards.jsonl"
    path.write_text("\n".join(json.dumps(x) for x in [*lines, unique]) + "\n")
    solved = run("solve", str(path))
    assert [s["line"] for s in solved] == [1, 2, 3]
    assert solved[0]["solutions"] == ">=2"
    assert solved[0]["stated_solution_valid"] is True
    assert solved[2]["solutions"] == 1
    assert "stated_solution_valid" not in solved[2]
    for result in solved:
        for step in result["trace"]:
            d = ((step["a"][0], step["a"][1]), (step["b"][0], step["b"][1]))
            assert step["reason"] in {"only_place", "only_partner"}
            assert (
                d in {((x["a"][0], x["a"][1]), (x["b"][0], x["b"][1])) for x in result["solution"]}
                or result["solutions"] != 1
            )
    # The unique board's forced steps all lie in its one solution.
    board = twomino.generate(size=4, seed=5)
    assert {(tuple(s["a"]), tuple(s["b"])) for s in solved[2]["trace"]} <= set(board.solution)


def test_solve_names_the_line_of_a_bad_board(tmp_path: Path):
    good = twomino.generate(size=3, seed=1).to_json()
    bad = dict(good, grid=[[0, 0, 0]] * 4)
    path = tmp_path / "boards.jsonl"
    path.write_text(json.dumps(good) + "\n" + json.dumps(bad) + "\n")
    with pytest.raises(CommandError, match=r"line 2: .*symbol"):
        run("solve", str(path))
