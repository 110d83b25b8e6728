"""A solution once shown is recognised by its answer key, however the puzzle is started again."""

from __future__ import annotations

from typing import Any

import pytest
from hypothesis import given
from hypothesis import strategies as st

from puzzles.engines import puzzle_id
from puzzles.engines.answer_key import solution_digest
from puzzles.models import Attempt, Puzzle
from puzzles.services import attempt_act, attempt_finish, attempt_start, own_puzzle_start
from tests.factories import PlayerFactory
from tests.research.conftest import body_of, csv_rows

ATTEMPTS = "/api/v1/puzzles/"
FROM_ID = "/api/v1/puzzles/from-id/"
OWN_URL = "/api/v1/puzzles/own/"


def solve(attempt: Attempt, player) -> Attempt:
    solution = attempt.puzzle.solution
    entries = attempt.state["entries"]
    for r, row in enumerate(entries):
        for c, value in enumerate(row):
            if not value:
                attempt = attempt_act(
                    attempt_id=attempt.pk,
                    player=player,
                    step=attempt.steps,
                    kind="entry",
                    payload={"cell": [r, c], "value": solution[r][c]},
                ).attempt
    return attempt


def start_and_give_up(api, **body: Any) -> dict[str, Any]:
    started = api.post(ATTEMPTS, body, format="json").json()
    ended = api.post(f"{ATTEMPTS}{started['id']}/finish/", format="json").json()
    assert "solution" in ended
    return {**ended, "puzzle_id": started["puzzle_id"]}


def test_an_id_replayed_after_giving_up_is_marked_and_not_exported(
    api, player, researcher_client
) -> None:
    shown = start_and_give_up(api, kind="futoshiki", size=5, seed=3)
    replay = api.post(FROM_ID, {"id": shown["puzzle_id"]}, format="json")
    assert replay.status_code == 201
    attempt = Attempt.objects.get(pk=replay.json()["id"])
    assert attempt.puzzle_id != Attempt.objects.get(pk=shown["id"]).puzzle_id
    assert attempt.puzzle.requested_difficulty == "own"
    assert attempt.seen_solution
    solved = solve(attempt, player)
    assert solved.status == Attempt.Status.SOLVED
    assert solved.wrong_entries == 0
    exported = csv_rows(body_of(researcher_client.get("/research/export/puzzle_attempts.csv")))
    assert str(solved.pk) not in {row["attempt_id"] for row in exported}
    assert not Attempt.objects.research_data().filter(pk=solved.pk).exists()


def test_the_same_puzzle_with_one_more_given_is_the_same_answer_key(api) -> None:
    shown = start_and_give_up(api, kind="futoshiki", size=5, seed=3)
    definition = puzzle_id.decode(shown["puzzle_id"])
    given_cells = {(r, c) for r, c, _ in definition.get("givens", [])}
    solution = shown["solution"]
    extra = next(
        [r, c, solution[r][c]] for r in range(5) for c in range(5) if (r, c) not in given_cells
    )
    body = {**definition, "givens": [*definition.get("givens", []), extra]}
    started = api.post(OWN_URL, body, format="json")
    assert started.status_code == 201, started.json()
    attempt = Attempt.objects.get(pk=started.json()["id"])
    assert (
        attempt.puzzle.definition
        != Puzzle.objects.get(pk=Attempt.objects.get(pk=shown["id"]).puzzle_id).definition
    )
    assert attempt.seen_solution


def test_an_open_attempt_from_an_id_is_marked_when_the_original_ends(api) -> None:
    original = api.post(ATTEMPTS, {"kind": "kenken", "size": 4, "seed": 11}, format="json").json()
    copy = api.post(FROM_ID, {"id": original["puzzle_id"]}, format="json").json()
    assert not Attempt.objects.get(pk=copy["id"]).seen_solution
    api.post(f"{ATTEMPTS}{original['id']}/finish/", format="json")
    assert Attempt.objects.get(pk=copy["id"]).seen_solution
    assert not Attempt.objects.get(pk=original["id"]).seen_solution


def test_an_own_puzzle_given_up_marks_the_generated_one_with_its_solution(player) -> None:
    generated = attempt_start(player=player, kind="kenken", size=4, seed=12)
    from_editor = own_puzzle_start(player=player, definition=dict(generated.puzzle.definition))
    attempt_finish(attempt_id=from_editor.pk, player=player)
    assert Attempt.objects.get(pk=generated.pk).seen_solution


def test_other_players_and_other_solutions_are_not_marked(player) -> None:
    shown = attempt_start(player=player, kind="kenken", size=4, seed=13)
    attempt_finish(attempt_id=shown.pk, player=player)
    definition = dict(shown.puzzle.definition)
    someone_else = own_puzzle_start(player=PlayerFactory.create(), definition=definition)
    assert not someone_else.seen_solution
    other = attempt_start(player=player, kind="kenken", size=4, seed=14)
    assert other.puzzle.solution != shown.puzzle.solution
    assert not other.seen_solution


def test_every_stored_puzzle_carries_the_digest_of_its_solution(player) -> None:
    attempt_start(player=player, kind="kenken", size=4, seed=15)
    attempt_start(player=player, kind="2mino", size=4, seed=15)
    attempt_start(player=player, kind="decodoku", number=3)
    for puzzle in Puzzle.objects.all():
        expected = solution_digest(kind=puzzle.kind, size=puzzle.size, solution=puzzle.solution)
        assert puzzle.solution_digest == expected


CHECK_URL = "/api/v1/puzzles/check/"


def test_a_solution_revealed_by_the_checker_marks_the_open_attempt_and_later_ones(
    api, player
) -> None:
    started = api.post(ATTEMPTS, {"kind": "futoshiki", "size": 5, "seed": 3}, format="json")
    attempt = Attempt.objects.get(pk=started.json()["id"])
    definition = puzzle_id.decode(started.json()["puzzle_id"])
    shown = api.post(CHECK_URL, {**definition, "reveal": True}, format="json").json()
    assert shown["solution"] == attempt.puzzle.solution
    attempt.refresh_from_db()
    assert attempt.seen_solution
    solved = solve(attempt, player)
    assert not Attempt.objects.research_data().filter(pk=solved.pk).exists()
    again = api.post(FROM_ID, {"id": started.json()["puzzle_id"]}, format="json").json()
    assert Attempt.objects.get(pk=again["id"]).seen_solution


def test_a_check_without_reveal_marks_nothing_and_a_reveal_marks_only_its_player(api) -> None:
    started = api.post(ATTEMPTS, {"kind": "kenken", "size": 4, "seed": 18}, format="json").json()
    definition = puzzle_id.decode(started["puzzle_id"])
    hidden = api.post(CHECK_URL, definition, format="json").json()
    assert "solution" not in hidden
    assert not Attempt.objects.get(pk=started["id"]).seen_solution
    someone = PlayerFactory.create()
    theirs = attempt_start(player=someone, kind="kenken", size=4, seed=18)
    api.post(CHECK_URL, {**definition, "reveal": True}, format="json")
    assert Attempt.objects.get(pk=started["id"]).seen_solution
    assert not Attempt.objects.get(pk=theirs.pk).seen_solution
    assert not attempt_start(player=someone, kind="kenken", size=4, seed=18).seen_solution


# -- the digest itself (pure) ----------------------------------------------------------

latin_rows = st.lists(st.lists(st.integers(1, 9), min_size=3, max_size=3), min_size=3, max_size=3)


@given(latin_rows)
def test_a_digest_reads_a_solution_as_json(grid: list[list[int]]) -> None:
    as_tuples = tuple(tuple(row) for row in grid)
    assert solution_digest(kind="kenken", size=3, solution=grid) == solution_digest(
        kind="kenken", size=3, solution=as_tuples
    )
    assert len(solution_digest(kind="kenken", size=3, solution=grid)) == 64


@given(latin_rows, st.integers(0, 2), st.integers(0, 2))
def test_a_digest_changes_with_any_cell(grid: list[list[int]], r: int, c: int) -> None:
    changed = [list(row) for row in grid]
    changed[r][c] = grid[r][c] % 9 + 1
    assert solution_digest(kind="kenken", size=3, solution=grid) != solution_digest(
        kind="kenken", size=3, solution=changed
    )


def test_a_digest_names_the_kind_and_size_and_ignores_key_order() -> None:
    grid = [[1, 2], [2, 1]]
    assert solution_digest(kind="kenken", size=2, solution=grid) != solution_digest(
        kind="futoshiki", size=2, solution=grid
    )
    assert solution_digest(kind="d", size=8, solution={"a": 1, "b": [2]}) == solution_digest(
        kind="d", size=8, solution={"b": [2], "a": 1}
    )


# -- the migration that adds the digest -------------------------------------------------


@pytest.mark.django_db(transaction=True)
def test_the_migration_fills_the_digests_and_marks_replays_made_from_an_id():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    player = PlayerFactory.create()
    original = attempt_start(player=player, kind="kenken", size=4, seed=16)
    attempt_finish(attempt_id=original.pk, player=player)
    replay = own_puzzle_start(player=player, definition=dict(original.puzzle.definition))
    fresh = attempt_start(player=player, kind="kenken", size=4, seed=17)
    # As stored before the digest existed: the replay under another row was not seen.
    Attempt.objects.filter(pk=replay.pk).update(seen_solution=False)
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([("puzzles", "0006_kind_length")])
        executor = MigrationExecutor(connection)
        executor.migrate([("puzzles", "0007_puzzle_solution_digest")])
        marked = set(Attempt.objects.filter(seen_solution=True).values_list("pk", flat=True))
        assert marked == {replay.pk}
        assert fresh.pk not in marked
        # Only the columns that migration knows (later ones add more to the model).
        stored = Puzzle.objects.values_list("kind", "size", "solution", "solution_digest")
        for kind, size, solution, digest in stored:
            assert digest == solution_digest(kind=kind, size=size, solution=solution)
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
