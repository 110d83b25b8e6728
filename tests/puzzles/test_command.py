"""``manage.py puzzle generate|solve``."""

from __future__ import annotations

import json
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError


def run(*args: str) -> list[dict]:
    out = StringIO()
    call_command("puzzle", *args, stdout=out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def test_generate_prints_one_json_object_per_puzzle_with_consecutive_seeds():
    lines = run("generate", "kenken", "--size", "4", "--seed", "7", "--count", "3")
    assert [line["seed"] for line in lines] == [7, 8, 9]
    first = lines[0]
    assert set(first) == {
        "kind",
        "size",
        "seed",
        "engine_version",
        "cages",
        "solution",
        "difficulty",
    }
    assert first["kind"] == "kenken"
    assert first["size"] == 4
    assert {"cells", "op", "target"} == set(first["cages"][0])


def test_generate_futoshiki_has_givens_and_relations():
    (line,) = run("generate", "futoshiki", "--size", "5", "--seed", "3", "--difficulty", "easy")
    assert line["kind"] == "futoshiki"
    assert all(len(given) == 3 for given in line["givens"])
    assert all(set(rel) == {"a", "b", "op"} for rel in line["relations"])


def test_generate_is_repeatable_from_the_seed():
    assert run("generate", "futoshiki", "--seed", "5") == run(
        "generate", "futoshiki", "--seed", "5"
    )


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (("generate", "kenken", "--size", "10"), "between 3 and 9"),
        (("generate", "futoshiki", "--size", "3"), "between 4 and 10"),
        (("generate", "kenken", "--difficulty", "insane"), "difficulty must be one of"),
        (("generate", "kenken", "--count", "0"), "at least 1"),
        (("generate", "kenken", "--seed", "-1"), "seeds must lie"),
    ],
)
def test_generate_refuses_bad_arguments(args, message):
    with pytest.raises(CommandError, match=message):
        call_command("puzzle", *args, stdout=StringIO())


def test_generate_gives_the_level_asked_for_and_names_what_it_reached_otherwise():
    (line,) = run("generate", "kenken", "--size", "5", "--seed", "2", "--difficulty", "hard")
    assert line["difficulty"]["label"] == "hard"
    assert line["engine_version"] == 3
    # Seed 1 gives no 4 x 4 Futoshiki that needs subsets (it reaches easy 24 times).
    with pytest.raises(CommandError, match=r"rated tricky from seed 1 in 24 tries \(reached: "):
        call_command(
            "puzzle",
            "generate",
            "futoshiki",
            "--size",
            "4",
            "--seed",
            "1",
            "--difficulty",
            "tricky",
            stdout=StringIO(),
        )


def test_generate_takes_the_other_kinds_level_name_as_the_same_rank():
    # Unequal's Tricky is the third level, as Keen's Hard.
    (line,) = run("generate", "kenken", "--size", "4", "--seed", "3", "--difficulty", "tricky")
    assert line["difficulty"]["label"] == "hard"


def test_generate_engine_version_1_gives_the_old_puzzles():
    (old,) = run("generate", "kenken", "--size", "4", "--seed", "7", "--engine-version", "1")
    (new,) = run("generate", "kenken", "--size", "4", "--seed", "7")
    assert old["engine_version"] == 1
    assert new["engine_version"] == 3
    assert old["difficulty"]["label"] in ("easy", "medium", "hard", "expert")
    with pytest.raises(CommandError, match="engine version must be one of 1, 2, 3"):
        call_command("puzzle", "generate", "futoshiki", "--engine-version", "7", stdout=StringIO())


def test_solve_counts_and_traces_generated_puzzles(tmp_path):
    lines = run("generate", "kenken", "--size", "4", "--seed", "1", "--count", "2")
    lines += run("generate", "futoshiki", "--size", "4", "--seed", "1")
    for line in lines:
        del line["solution"]
    path = tmp_path / "puzzles.jsonl"
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n\n")
    results = run("solve", str(path))
    assert [r["line"] for r in results] == [1, 2, 3]
    assert all(r["solutions"] == 1 for r in results)
    assert all(r["trace"] and r["steps"] == len(r["trace"]) for r in results)


def test_solve_reports_ambiguous_puzzles_and_wrong_stated_solutions(tmp_path):
    puzzle = {
        "kind": "futoshiki",
        "size": 4,
        "givens": [],
        "relations": [],
        "solution": [[1, 2, 3, 4]] * 4,
    }
    path = tmp_path / "open.jsonl"
    path.write_text(json.dumps(puzzle) + "\n")
    (result,) = run("solve", str(path))
    assert result["solutions"] == ">=2"
    assert result["stated_solution_valid"] is False


@pytest.mark.parametrize(
    ("content", "message"),
    [
        ('{"kind": "kenken", "size": 4}\n', "line 1: cages must be a non-empty list"),
        ('\n{"kind": "futoshiki", "size": 5, "givens": [[0, 0, 9]]}\n', "line 2: given 0 value"),
        ("{not json\n", "line 1: not JSON"),
        ('["kenken"]\n', "line 1: the line must hold a JSON object"),
        ('{"kind": "sudoku", "size": 9}\n', "line 1: unknown puzzle kind 'sudoku'"),
        ('{"kind": "futoshiki", "size": 4, "solution": [[1]]}\n', "line 1: solution must be"),
    ],
)
def test_solve_names_the_malformed_line(tmp_path, content, message):
    path = tmp_path / "bad.jsonl"
    path.write_text(content)
    with pytest.raises(CommandError, match=message):
        call_command("puzzle", "solve", str(path), stdout=StringIO())


def test_solve_names_an_unreadable_file(tmp_path):
    with pytest.raises(CommandError, match="cannot be read"):
        call_command("puzzle", "solve", str(tmp_path / "missing.jsonl"), stdout=StringIO())
    binary = tmp_path / "binary.jsonl"
    binary.write_bytes(b"\xff\xfe\x00")
    with pytest.raises(CommandError, match="not UTF-8"):
        call_command("puzzle", "solve", str(binary), stdout=StringIO())


def test_2mino_levels_are_generated_exactly_or_fail_naming_what_was_reached():
    from puzzles.engines import twomino

    (line,) = run("generate", "2mino", "--size", "6", "--seed", "1", "--difficulty", "hard")
    assert line["difficulty"] == "hard"
    assert line["solutions"] == 1
    board = twomino.puzzle_from_json(line)
    assert twomino.grade(board).label == "hard"
    # The same arguments give the same board.
    assert run("generate", "2mino", "--size", "6", "--seed", "1", "--difficulty", "hard") == [line]
    # The stored difficulties keep their boards.
    assert twomino.generate(size=6, seed=1, difficulty="unique") == twomino.make_unique(
        twomino.generate(size=6, seed=1)
    )
    with pytest.raises(CommandError, match=r"rated hard from seed 0 in 24 tries \(reached: "):
        call_command(
            "puzzle",
            "generate",
            "2mino",
            "--size",
            "4",
            "--seed",
            "0",
            "--difficulty",
            "hard",
            stdout=StringIO(),
        )
