"""The puzzles' statistics: solve times, technique use against the solver's, error rates."""

from __future__ import annotations

from puzzles.stats import error_rates, solve_times, technique_use
from tests.factories import PlayerFactory
from tests.puzzles.test_exports import play_some


def test_statistics_count_research_attempts_only(client, db):
    play_some(PlayerFactory(), seed=4)
    play_some(PlayerFactory(consent_version=None), seed=5)
    (times,) = solve_times()
    assert (times.kind, times.size, times.solved) == ("kenken", 4, 1)
    assert times.median_seconds >= 0
    (errors,) = error_rates()
    assert errors.attempts == 1
    assert errors.wrong_entries == 1
    assert errors.error_rate == errors.wrong_entries / errors.entries
    assert errors.hints_per_attempt == 1
    uses = {row.technique: row for row in technique_use()}
    assert sum(row.player_entries for row in uses.values()) == errors.entries
    assert abs(sum(row.player_share for row in uses.values()) - 1) < 1e-9
    assert abs(sum(row.solver_share for row in uses.values()) - 1) < 1e-9
    assert uses["cage_arithmetic"].solver_steps > 0
    page = client.get("/puzzles/stats/")
    assert page.status_code == 200
    assert "cage_arithmetic" in page.content.decode()


def test_empty_statistics_page(client, db):
    page = client.get("/puzzles/stats/")
    assert page.status_code == 200
    assert "No solved puzzles yet" in page.content.decode()
