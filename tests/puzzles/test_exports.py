"""Puzzles, attempts and actions in the research exports, through the shared declarations."""

from __future__ import annotations

import pytest

from core.pseudonyms import pseudonym
from puzzles.models import Attempt
from puzzles.services import (
    attempt_act,
    attempt_finish,
    attempt_start,
    attempts_set_excluded,
    own_puzzle_start,
)
from research.exports import writer
from research.exports.filters import filtered_queryset, parse_filters
from research.exports.tables import all_tables
from tests.factories import PlayerFactory
from tests.research.conftest import body_of, csv_rows

PUZZLE_TABLES = ("puzzles", "puzzle_attempts", "puzzle_actions")
# The 4 x 4 KenKen of this seed has a hint on an empty grid (checked below).
HINT_SEED = 7


def play_some(player, *, kind: str = "kenken", seed: int = HINT_SEED):
    attempt = attempt_start(player=player, kind=kind, size=4, seed=seed)
    solution = attempt.puzzle.solution
    empty = [
        (r, c) for r, row in enumerate(attempt.state["entries"]) for c, v in enumerate(row) if not v
    ]
    (r0, c0), (r1, c1) = empty[0], empty[1]
    plan = [
        ("entry", {"cell": [r0, c0], "value": solution[r0][c0] % 4 + 1}),
        ("check", {}),
        ("undo", {}),
        ("hint", {}),
        ("candidate", {"cell": [r1, c1], "value": 2}),
    ]
    plan += [("entry", {"cell": [r, c], "value": solution[r][c]}) for r, c in empty]
    for kind_, payload in plan:
        attempt = attempt_act(
            attempt_id=attempt.pk, player=player, step=attempt.steps, kind=kind_, payload=payload
        ).attempt
    return attempt


@pytest.fixture
def recorded(db):
    consenting = play_some(PlayerFactory())
    unconsented = play_some(PlayerFactory(consent_version=None), seed=5)
    excluded = play_some(PlayerFactory(), kind="futoshiki", seed=6)
    attempts_set_excluded(attempt_ids=[excluded.pk], excluded=True)
    return consenting, unconsented, excluded


def rows(client, table: str, query: str = "") -> list[dict[str, str]]:
    return csv_rows(body_of(client.get(f"/research/export/{table}.csv{query}")))


def test_only_consenting_not_excluded_attempts_are_exported(researcher_client, recorded):
    consenting, _, _ = recorded
    attempts = rows(researcher_client, "puzzle_attempts")
    assert [row["attempt_id"] for row in attempts] == [str(consenting.pk)]
    (row,) = attempts
    assert row["status"] == "solved"
    assert row["player"] == pseudonym(consenting.player_id)
    assert row["wrong_entries"] == "1"
    actions = rows(researcher_client, "puzzle_actions")
    assert {r["attempt_id"] for r in actions} == {str(consenting.pk)}
    assert [int(r["step"]) for r in actions] == list(range(1, consenting.steps + 1))


def test_actions_carry_cells_tags_and_what_the_player_was_told(researcher_client, recorded):
    from puzzles.engines import kenken
    from puzzles.engines.solver import find_hint

    empty_grid = [[0] * 4 for _ in range(4)]
    assert find_hint(kenken.generate(size=4, seed=HINT_SEED).puzzle, empty_grid) is not None
    actions = rows(researcher_client, "puzzle_actions")
    first, check, undo, hint = actions[:4]
    assert (first["action"], first["row"], first["col"], first["correct"]) == (
        "entry",
        "0",
        "0",
        "false",
    )
    assert check["wrong_cells"] == "1"
    assert undo["row"] == ""
    assert hint["hint"] in {"single_candidate", "single_place", "no_candidate"}
    assert hint["hint_row"] != ""
    entries = [r for r in actions if r["action"] == "entry"]
    assert all(r["technique"] for r in entries)


def test_puzzles_table_regenerates_each_puzzle(researcher_client, recorded):
    from puzzles.engines.registry import get_kind

    puzzles = rows(researcher_client, "puzzles")
    assert len(puzzles) == 3
    for row in puzzles:
        made = get_kind(row["kind"]).generate(
            size=int(row["size"]),
            seed=int(row["seed"]),
            difficulty=row["requested_difficulty"] or None,
        )
        assert "".join(str(v) for r in made.solution for v in r) == row["solution"]


def test_puzzle_tables_refuse_game_filters(researcher_client, recorded):
    response = researcher_client.get("/research/export/puzzle_attempts.csv?size=4")
    assert response.status_code == 400


@pytest.mark.postgres
@pytest.mark.parametrize("table", PUZZLE_TABLES)
def test_copy_and_portable_paths_agree_on_puzzle_tables(recorded, table):
    spec = all_tables()[table]
    queryset = filtered_queryset(table=spec, filters=parse_filters({}, table=spec))
    portable = b"".join(writer.portable_chunks(table=spec, queryset=queryset))
    fast = b"".join(writer.copy_chunks(table=spec, queryset=queryset))
    assert portable == fast
    assert portable.count(b"\n") >= 2


def test_allowed_values_follow_the_registered_kinds():
    from puzzles.engines.registry import KINDS
    from puzzles.research_tables import ACTIONS, DIFFICULTIES, PUZZLES

    kind_column = next(c for c in PUZZLES.columns if c.name == "kind")
    assert set(kind_column.allowed) == set(KINDS)
    for kind in KINDS.values():
        assert set(kind.difficulties) <= set(DIFFICULTIES)
        assert set(kind.play.ACTION_KINDS) <= set(ACTIONS)


def test_open_attempts_and_their_actions_stay_out_of_the_exports(researcher_client, db):
    player = PlayerFactory()
    open_attempt = attempt_start(player=player, kind="kenken", size=4, seed=HINT_SEED)
    attempt_act(attempt_id=open_attempt.pk, player=player, step=0, kind="hint", payload={})
    ended = play_some(PlayerFactory(), seed=5)
    attempts = rows(researcher_client, "puzzle_attempts")
    assert [row["attempt_id"] for row in attempts] == [str(ended.pk)]
    actions = rows(researcher_client, "puzzle_actions")
    assert {row["attempt_id"] for row in actions} == {str(ended.pk)}


def test_an_attempt_enters_the_exports_when_it_ends(researcher_client, db):
    player = PlayerFactory()
    attempt = attempt_start(player=player, kind="kenken", size=4, seed=HINT_SEED)
    assert rows(researcher_client, "puzzle_attempts") == []
    attempt_finish(attempt_id=attempt.pk, player=player)
    (row,) = rows(researcher_client, "puzzle_attempts")
    assert (row["attempt_id"], row["status"]) == (str(attempt.pk), "abandoned")
    assert row["finished_at"] != ""


def puzzle_rows(client) -> dict[str, dict[str, str]]:
    return {row["puzzle_id"]: row for row in rows(client, "puzzles")}


def test_an_own_puzzle_is_exported_only_when_its_author_consented(researcher_client, db):
    from tests.puzzles.test_own_puzzles import futoshiki_missing_one, kenken_single_cells

    unconsented = PlayerFactory(consent_version=None)
    private = own_puzzle_start(player=unconsented, definition=futoshiki_missing_one())
    consenting = PlayerFactory()
    shared = own_puzzle_start(player=consenting, definition=kenken_single_cells())
    # A consenting player plays the other's puzzle: their attempt is theirs, the puzzle not.
    replay = own_puzzle_start(player=consenting, definition=futoshiki_missing_one())
    assert replay.puzzle_id == private.puzzle_id
    attempt_finish(attempt_id=replay.pk, player=consenting)
    attempt_finish(attempt_id=shared.pk, player=consenting)
    listed = puzzle_rows(researcher_client)
    assert set(listed) == {str(shared.puzzle_id)}
    assert listed[str(shared.puzzle_id)]["requested_difficulty"] == "own"
    attempts = {row["attempt_id"] for row in rows(researcher_client, "puzzle_attempts")}
    assert attempts == {str(shared.pk), str(replay.pk)}


def test_an_own_puzzle_whose_author_was_deleted_is_not_exported(researcher_client, db):
    from tests.puzzles.test_own_puzzles import kenken_single_cells

    author = PlayerFactory()
    made = own_puzzle_start(player=author, definition=kenken_single_cells())
    later = PlayerFactory()
    attempt_finish(
        attempt_id=own_puzzle_start(player=later, definition=kenken_single_cells()).pk,
        player=later,
    )
    author.delete()
    assert puzzle_rows(researcher_client) == {}
    assert made.puzzle_id in {a.puzzle_id for a in Attempt.objects.all()}


def test_seed_and_solution_are_withheld_while_an_attempt_at_the_puzzle_is_open(
    researcher_client, db
):
    solved = play_some(PlayerFactory())
    someone = PlayerFactory(consent_version=None)
    still_open = attempt_start(player=someone, kind="kenken", size=4, seed=HINT_SEED)
    row = puzzle_rows(researcher_client)[str(solved.puzzle_id)]
    assert (row["seed"], row["solution"]) == ("", "")
    attempt_finish(attempt_id=still_open.pk, player=someone)
    row = puzzle_rows(researcher_client)[str(solved.puzzle_id)]
    assert (row["seed"], row["solution"]) == (str(HINT_SEED), solved.puzzle.solution_cells)


def test_an_open_copy_entered_from_the_puzzle_s_definition_withholds_the_seed(
    researcher_client, db
):
    solved = play_some(PlayerFactory())
    someone = PlayerFactory()
    own_puzzle_start(player=someone, definition=dict(solved.puzzle.definition))
    listed = puzzle_rows(researcher_client)
    assert (listed[str(solved.puzzle_id)]["seed"], listed[str(solved.puzzle_id)]["solution"]) == (
        "",
        "",
    )


@pytest.mark.django_db(transaction=True)
def test_the_migration_names_the_first_player_of_an_own_puzzle_its_author():
    from django.db import connection
    from django.db.migrations.executor import MigrationExecutor

    from puzzles.models import Puzzle
    from tests.puzzles.test_own_puzzles import kenken_single_cells

    author, later = PlayerFactory(), PlayerFactory()
    made = own_puzzle_start(player=author, definition=kenken_single_cells())
    own_puzzle_start(player=later, definition=kenken_single_cells())
    generated = attempt_start(player=later, kind="kenken", size=4, seed=HINT_SEED)
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([("puzzles", "0007_puzzle_solution_digest")])
        executor = MigrationExecutor(connection)
        executor.migrate([("puzzles", "0008_own_puzzle_author")])
        authors = dict(Puzzle.objects.values_list("pk", "author_id"))
        assert authors == {made.puzzle_id: author.pk, generated.puzzle_id: None}
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)
