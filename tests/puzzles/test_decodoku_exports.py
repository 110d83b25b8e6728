"""Decodoku attempts, actions and bot answers in the research exports and the comparison page."""

from __future__ import annotations

import json
import math

import pytest

from core.stats.intervals import Z95, wilson_interval
from puzzles.decodoku_selectors import comparison_view
from puzzles.engines.decodoku.bots import BOTS
from puzzles.engines.decodoku.solver import solve
from puzzles.models import Puzzle
from puzzles.services import (
    attempt_act,
    attempt_finish,
    attempt_start,
    decodoku_bots_run,
    decodoku_published_get_or_create,
)
from tests.factories import PlayerFactory
from tests.research.conftest import body_of, csv_rows

NUMBER = 1


def solve_published(player, *, number: int = NUMBER, extra: bool = False):
    """Draw the fewest links (and one useless link more if ``extra``), check, answer."""
    puzzle = decodoku_published_get_or_create(number=number)
    best = solve(decodoku_board(puzzle))
    links = sorted(best.explanations[best.corner])
    attempt = attempt_start(player=player, kind="decodoku", number=number)
    plan: list[tuple[str, dict]] = [("link", {"link": n}) for n in links]
    if extra:  # a link inside a group already summing to 0 keeps the explanation valid
        spare = next(n for n in range(112) if n not in links)
        plan += [("link", {"link": spare}), ("check", {})]
    else:
        plan.append(("check", {}))
    for kind, payload in plan:
        attempt = attempt_act(
            attempt_id=attempt.pk, player=player, step=attempt.steps, kind=kind, payload=payload
        ).attempt
    answers = attempt.actions.get(step=attempt.steps).result["answers"]
    if answers:
        attempt = attempt_act(
            attempt_id=attempt.pk,
            player=player,
            step=attempt.steps,
            kind="answer",
            payload={"value": best.corner if best.corner in answers else answers[0]},
        ).attempt
    else:
        attempt = attempt_finish(attempt_id=attempt.pk, player=player)
    return attempt, best


def decodoku_board(puzzle: Puzzle):
    from puzzles.engines.decodoku import parse_grid

    return parse_grid(puzzle.definition["grid"])


def rows(client, table: str) -> list[dict[str, str]]:
    return csv_rows(body_of(client.get(f"/research/export/{table}.csv")))


@pytest.mark.django_db
def test_only_research_data_is_exported_with_answers_links_and_bots(researcher_client) -> None:
    consenting = PlayerFactory()
    hidden = PlayerFactory(consent_version=None)
    attempt, best = solve_published(consenting)
    solve_published(hidden)
    # Inside the test's transaction the task queued at the commit does not run: run it here.
    assert decodoku_bots_run(puzzle_id=attempt.puzzle_id) == len(BOTS)
    (row,) = rows(researcher_client, "decodoku_attempts")
    assert row["attempt_id"] == str(attempt.pk)
    assert row["number"] == str(NUMBER)
    assert row["seed"] == ""
    assert row["minimum"] == row["links"] == str(best.links)
    assert row["excess"] == "0"
    assert row["answer"] == str(best.corner)
    assert row["corners_source"] == "published"
    assert row["status"] == "solved"
    actions = rows(researcher_client, "decodoku_actions")
    assert {r["attempt_id"] for r in actions} == {str(attempt.pk)}
    assert [r["action"] for r in actions] == ["link"] * best.links + ["check", "answer"]
    assert sorted(int(r["link"]) for r in actions if r["action"] == "link") == sorted(
        best.explanations[best.corner]
    )
    check = next(r for r in actions if r["action"] == "check")
    assert check["unbalanced_groups"] == "0"
    bots = rows(researcher_client, "decodoku_bot_answers")
    assert {r["bot"] for r in bots} == set(BOTS)
    exact = next(r for r in bots if r["bot"] == "exact")
    assert exact["links"] == exact["minimum"] == str(best.links)
    assert exact["optimal"] in ("true", "True", "1")


@pytest.mark.django_db(transaction=True)
def test_the_comparison_counts_research_attempts_only_with_a_wilson_interval() -> None:
    first, best = solve_published(PlayerFactory())
    solve_published(PlayerFactory(), extra=True)
    solve_published(PlayerFactory(consent_version=None))
    view = comparison_view(puzzle=first.puzzle)
    players = view["players"]
    assert players["ended"] == 2
    assert players["answered"] == 2
    assert players["interval"] == wilson_interval(players["correct"], 2, Z95)
    assert {bot["bot"] for bot in view["bots"] if bot["decoded"]} == set(BOTS)
    exact = next(bot for bot in view["bots"] if bot["bot"] == "exact")
    assert exact["links"] == best.links
    assert exact["excess"] == 0
    assert players["fewest_links_answers"] == 1


def test_the_players_interval_is_the_wilson_interval_at_95_percent() -> None:
    """The comparison uses the statistics' one Wilson interval (core.stats), at z = Z95."""
    assert wilson_interval(0, 0, Z95) == (0.0, 1.0)
    low, high = wilson_interval(5, 10, Z95)
    assert math.isclose(low + high, 1.0)  # symmetric around one half
    assert low < 0.5 < high
    low, high = wilson_interval(10, 10, Z95)
    assert high == 1.0
    assert 0.6 < low < 1.0
    # The interval is the set of p whose score test does not reject: its ends solve
    # (k - n p)^2 = z^2 n p (1 - p).
    z = 1.959963984540054
    for k, n in ((3, 17), (40, 41), (1, 2)):
        for p in wilson_interval(k, n, Z95):
            assert math.isclose((k - n * p) ** 2, z * z * n * p * (1 - p), rel_tol=1e-9)


def test_the_comparison_page_of_an_unknown_puzzle_is_404(client, db) -> None:
    response = client.get("/puzzles/decodoku/compare/00000000-0000-0000-0000-000000000000/")
    assert response.status_code == 404
    assert client.get("/puzzles/decodoku/200/").status_code == 404
    assert client.get("/puzzles/decodoku/7/").status_code == 200


TIED = 26  # a published grid where 0 and 2 need equally few links; 2 was published


@pytest.mark.django_db
def test_a_tied_grid_exports_its_ties_links_grid_and_corners(researcher_client) -> None:
    """The exact solver's correct on a tied grid depends on its tie-break: the exports say so."""
    puzzle = decodoku_published_get_or_create(number=TIED)
    assert decodoku_bots_run(puzzle_id=puzzle.pk) == len(BOTS)
    answers = {row["bot"]: row for row in rows(researcher_client, "decodoku_bot_answers")}
    exact = answers["exact"]
    assert (exact["corner"], exact["ties"], exact["correct"]) == ("0", "[2]", "false")
    stored = puzzle.bot_answers.get(bot="exact")
    assert json.loads(exact["link_numbers"]) == stored.links
    assert len(stored.links) == int(exact["links"])
    assert answers["clustering"]["ties"] == "[]"
    [row] = [r for r in rows(researcher_client, "puzzles") if r["puzzle_id"] == str(puzzle.pk)]
    assert row["grid"] == puzzle.definition["grid"]
    assert len(row["grid"]) == 64
    assert (row["corner_top_left"], row["corners_source"]) == ("2", "published")
    assert row["corner_bottom_right"] == str(puzzle.solution["corners"][1])
    assert row["number"] == row["seed"] == str(TIED)
    # The recorded value is one of the tied answers: reproducible from the exports alone.
    tied = [int(exact["corner"]), *json.loads(exact["ties"])]
    assert int(row["corner_top_left"]) in tied


@pytest.mark.django_db
def test_other_puzzle_kinds_have_no_decodoku_columns(researcher_client) -> None:
    attempt_start(player=PlayerFactory.create(), kind="kenken", size=4, seed=3)
    [row] = rows(researcher_client, "puzzles")
    assert row["kind"] == "kenken"
    assert (row["grid"], row["corner_top_left"], row["corners_source"], row["number"]) == (
        "", "", "", ""
    )


@pytest.mark.django_db
def test_a_decodoku_puzzles_corners_wait_until_no_attempt_at_it_is_open(researcher_client) -> None:
    """The corners are the puzzle's answer: withheld as a solution is while anyone solves it."""
    player = PlayerFactory.create()
    attempt = attempt_start(player=player, kind="decodoku", number=NUMBER)

    def exported() -> tuple[str, str]:
        [row] = [r for r in rows(researcher_client, "puzzles")
                 if r["puzzle_id"] == str(attempt.puzzle_id)]
        return row["corner_top_left"], row["corner_bottom_right"]

    assert exported() == ("", "")
    attempt_finish(attempt_id=attempt.pk, player=player)
    corners = attempt.puzzle.solution["corners"]
    assert exported() == (str(corners[0]), str(corners[1]))
