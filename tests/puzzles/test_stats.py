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


def test_a_level_given_by_an_earlier_engine_version_is_a_level_of_its_own(db):
    from puzzles.models import Puzzle
    from puzzles.my_games import bests_section
    from puzzles.selectors import puzzle_bests_for_player

    player = PlayerFactory()
    today = play_some(player, kind="futoshiki", seed=6)
    older = play_some(player, kind="futoshiki", seed=7)
    # The second as if rated by engine version 2, with today's name of another level.
    Puzzle.objects.filter(pk=older.puzzle_id).update(
        engine_version=2, difficulty=today.puzzle.difficulty
    )
    label = today.puzzle.difficulty
    levels = [best["level"] for best in puzzle_bests_for_player(player=player)]
    assert levels == [label, f"{label} (engine version 2)"]
    shown = [row["cells"][2] for row in bests_section(player=player)["rows"]]
    assert shown == [label.capitalize(), f"{label.capitalize()} (engine version 2)"]
    assert sorted(t.difficulty for t in solve_times()) == sorted(levels)
