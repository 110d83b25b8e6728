"""Starting attempts, recording actions (idempotent retries, stale steps), finishing, replay."""

from __future__ import annotations

import pytest

from games.errors import GameOver, IllegalMoveError, InvalidInput, NotFound, StaleStep
from puzzles.models import Action, Attempt, Puzzle
from puzzles.selectors import attempt_replay
from puzzles.services import attempt_act, attempt_finish, attempt_start, puzzle_get_or_create
from tests.factories import PlayerFactory


def empty_cells(attempt: Attempt) -> list[tuple[int, int]]:
    entries = attempt.state["entries"]
    return [(r, c) for r, row in enumerate(entries) for c, v in enumerate(row) if not v]


def solve(attempt: Attempt, player) -> Attempt:
    solution = attempt.puzzle.solution
    for r, c in empty_cells(attempt):
        result = attempt_act(
            attempt_id=attempt.pk,
            player=player,
            step=attempt.steps,
            kind="entry",
            payload={"cell": [r, c], "value": solution[r][c]},
        )
        attempt = result.attempt
    return attempt


def test_the_same_generation_arguments_give_the_same_stored_puzzle(db):
    first = puzzle_get_or_create(kind="kenken", size=4, seed=5)
    again = puzzle_get_or_create(kind="kenken", size=4, seed=5)
    assert first.pk == again.pk
    assert Puzzle.objects.count() == 1
    assert first.solver_steps == sum(first.solver_techniques.values())
    other = puzzle_get_or_create(kind="kenken", size=4, seed=5, difficulty="easy")
    assert other.pk != first.pk


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"kind": "sudoku"}, "unknown puzzle kind"),
        ({"kind": "kenken", "size": 12}, "between 3 and 9"),
        ({"kind": "futoshiki", "difficulty": "brutal"}, "difficulty must be one of"),
        ({"kind": "kenken", "seed": -4}, "seed must be between"),
    ],
)
def test_bad_generation_arguments_are_refused(db, kwargs, message):
    with pytest.raises(InvalidInput, match=message):
        puzzle_get_or_create(**kwargs)
    assert not Puzzle.objects.exists()


def test_solving_records_every_entry_with_its_tag_and_ends_solved(player):
    attempt = attempt_start(player=player, kind="kenken", size=4, seed=3)
    attempt = solve(attempt, player)
    assert attempt.status == Attempt.Status.SOLVED
    assert attempt.finished_at is not None
    actions = list(Action.objects.filter(attempt=attempt))
    assert [a.step for a in actions] == list(range(1, 17))
    assert all(a.correct for a in actions)
    # Entered in reading order the first entries are not always forced, the last ones are.
    assert actions[-1].technique == "naked_single"
    assert all(a.technique for a in actions)
    assert attempt.entries_count == 16
    with pytest.raises(GameOver):
        attempt_act(attempt_id=attempt.pk, player=player, step=16, kind="hint")


def test_a_retried_action_is_answered_from_the_record(player):
    attempt = attempt_start(player=player, kind="futoshiki", size=4, seed=1)
    r, c = empty_cells(attempt)[0]
    payload = {"cell": [r, c], "value": 1}
    first = attempt_act(attempt_id=attempt.pk, player=player, step=0, kind="entry", payload=payload)
    again = attempt_act(attempt_id=attempt.pk, player=player, step=0, kind="entry", payload=payload)
    assert not first.replayed
    assert again.replayed
    assert again.action.pk == first.action.pk
    assert Action.objects.filter(attempt=attempt).count() == 1


def test_a_stale_step_is_refused_with_the_current_step(player):
    attempt = attempt_start(player=player, kind="futoshiki", size=4, seed=1)
    r, c = empty_cells(attempt)[0]
    attempt_act(
        attempt_id=attempt.pk,
        player=player,
        step=0,
        kind="entry",
        payload={"cell": [r, c], "value": 1},
    )
    with pytest.raises(StaleStep) as caught:
        attempt_act(
            attempt_id=attempt.pk,
            player=player,
            step=0,
            kind="entry",
            payload={"cell": [r, c], "value": 2},
        )
    assert caught.value.extra["current_step"] == 1
    with pytest.raises(StaleStep):
        attempt_act(attempt_id=attempt.pk, player=player, step=5, kind="hint")


@pytest.mark.parametrize(
    ("kind", "payload", "error", "message"),
    [
        ("entry", {"cell": [0, 0], "value": 9}, InvalidInput, "at most 4"),
        ("entry", {"cell": [7, 0], "value": 1}, InvalidInput, "cell row"),
        ("entry", {"cell": "a1", "value": 1}, InvalidInput, r"\[row, col\]"),
        ("entry", {"cell": [0, 0], "value": 1, "extra": 2}, InvalidInput, "unknown payload"),
        ("erase", {"cell": [0, 0]}, IllegalMoveError, "already empty"),
        ("undo", {}, IllegalMoveError, "nothing to undo"),
        ("dance", {}, InvalidInput, "unknown action kind"),
    ],
)
def test_bad_actions_change_nothing(db, kind, payload, error, message):
    player = PlayerFactory()
    attempt = attempt_start(player=player, kind="kenken", size=4, seed=2)
    with pytest.raises(error, match=message):
        attempt_act(attempt_id=attempt.pk, player=player, step=0, kind=kind, payload=payload)
    attempt.refresh_from_db()
    assert attempt.steps == 0
    assert not Action.objects.exists()


def test_given_cells_cannot_change(player):
    attempt = attempt_start(player=player, kind="futoshiki", size=5, seed=4, difficulty="easy")
    givens = attempt.puzzle.definition["givens"]
    assert givens
    r, c, _value = givens[0]
    with pytest.raises(IllegalMoveError, match="is given"):
        attempt_act(
            attempt_id=attempt.pk, player=player, step=0, kind="erase", payload={"cell": [r, c]}
        )


def test_another_players_attempt_is_not_found(player):
    attempt = attempt_start(player=player, kind="kenken", size=4, seed=2)
    with pytest.raises(NotFound):
        attempt_act(attempt_id=attempt.pk, player=PlayerFactory(), step=0, kind="hint")


def test_undo_hint_check_and_candidates_are_recorded_and_replay(player):
    attempt = attempt_start(player=player, kind="kenken", size=4, seed=3)
    solution = attempt.puzzle.solution
    wrong = solution[0][0] % 4 + 1
    plan = [
        ("candidate", {"cell": [0, 0], "value": 2}),
        ("entry", {"cell": [0, 0], "value": wrong}),
        ("check", {}),
        ("undo", {}),
        ("hint", {}),
        ("entry", {"cell": [0, 1], "value": solution[0][1]}),
        ("erase", {"cell": [0, 1]}),
    ]
    for kind, payload in plan:
        attempt = attempt_act(
            attempt_id=attempt.pk, player=player, step=attempt.steps, kind=kind, payload=payload
        ).attempt
    actions = list(Action.objects.filter(attempt=attempt))
    assert [a.kind for a in actions] == [kind for kind, _ in plan]
    assert actions[1].correct is False
    assert actions[2].result["wrong"] == [[0, 0]]
    assert actions[4].result["hint"] is not None
    assert attempt.wrong_entries == 1
    assert attempt.undos_count == 1
    assert attempt.hints_count == 1
    assert attempt.checks_count == 1
    states = attempt_replay(attempt=attempt)
    assert len(states) == len(plan) + 1
    assert states[-1]["entries"] == attempt.state["entries"]
    assert states[2]["entries"][0][0] == wrong
    assert states[4]["entries"][0][0] == 0
    assert states[4]["marks"][0][0] == 2  # undo restored the mark of value 2 (bit 1)


def test_finish_abandons_an_unsolved_attempt_once(player):
    attempt = attempt_start(player=player, kind="kenken", size=4, seed=2)
    ended = attempt_finish(attempt_id=attempt.pk, player=player)
    assert ended.status == Attempt.Status.ABANDONED
    again = attempt_finish(attempt_id=attempt.pk, player=player)
    assert again.finished_at == ended.finished_at


# -- attempts after the solution was shown: marked, not research data ----------


def test_an_attempt_started_after_the_solution_was_shown_is_marked(player):
    first = attempt_start(player=player, kind="kenken", size=4, seed=21)
    assert not first.seen_solution
    attempt_finish(attempt_id=first.pk, player=player)
    again = attempt_start(player=player, kind="kenken", size=4, seed=21)
    assert again.seen_solution
    # Asking for the difficulty the puzzle has anyway gives the same grid: marked too.
    asked = attempt_start(
        player=player, kind="kenken", size=4, seed=21, difficulty=first.puzzle.difficulty
    )
    assert asked.seen_solution
    solved = solve(again, player)
    assert solved.status == Attempt.Status.SOLVED
    assert Attempt.objects.get(pk=solved.pk).seen_solution
    first.refresh_from_db()
    assert not first.seen_solution
    assert set(Attempt.objects.research_data()) == {first}


def test_solving_marks_the_players_other_open_attempts_at_the_puzzle(player):
    open_one = attempt_start(player=player, kind="futoshiki", size=4, seed=8)
    solved = solve(attempt_start(player=player, kind="futoshiki", size=4, seed=8), player)
    other_seed = attempt_start(player=player, kind="futoshiki", size=4, seed=9)
    someone_else = attempt_start(player=PlayerFactory.create(), kind="futoshiki", size=4, seed=8)
    assert not Attempt.objects.get(pk=solved.pk).seen_solution
    assert Attempt.objects.get(pk=open_one.pk).seen_solution
    assert not Attempt.objects.get(pk=other_seed.pk).seen_solution
    assert not Attempt.objects.get(pk=someone_else.pk).seen_solution


def test_an_attempt_ending_after_another_ended_is_marked_then(player):
    """The open attempt was not marked (as when two requests cross): its end marks it."""
    open_one = attempt_start(player=player, kind="kenken", size=4, seed=22)
    given_up = attempt_start(player=player, kind="kenken", size=4, seed=22)
    attempt_finish(attempt_id=given_up.pk, player=player)
    Attempt.objects.filter(pk=open_one.pk).update(seen_solution=False)
    open_one.refresh_from_db()
    assert solve(open_one, player).seen_solution
    assert Attempt.objects.get(pk=open_one.pk).seen_solution


@pytest.mark.django_db(transaction=True)
def test_the_migration_marks_the_attempts_made_after_a_solution_was_shown():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    player = PlayerFactory.create()
    first = attempt_start(player=player, kind="kenken", size=4, seed=23)
    attempt_finish(attempt_id=first.pk, player=player)
    replayed = solve(attempt_start(player=player, kind="kenken", size=4, seed=23), player)
    still_open = attempt_start(player=player, kind="kenken", size=4, seed=23)
    fresh = attempt_start(player=player, kind="kenken", size=4, seed=24)
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([("puzzles", "0003_twomino_export_columns")])
        executor = MigrationExecutor(connection)
        executor.migrate([("puzzles", "0004_attempt_seen_solution")])
        marked = set(Attempt.objects.filter(seen_solution=True).values_list("pk", flat=True))
        assert marked == {replayed.pk, still_open.pk}
        assert fresh.pk not in marked
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
