"""Strategy fits split into cohorts of skill, variant or source, and the tests of their
differences."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command
from hypothesis import given, settings
from hypothesis import strategies as st

from games.models import Game
from results.analysis.strategy import SKILL_TERTILES, skill_tertiles
from results.models import StrategyCoefficient, StrategyFit
from results.selectors import strategy_cohorts, strategy_moves
from tests.factories import GameFactory, PlayerFactory
from tests.results.test_strategy_fits import play_randomly

TERTILE = {name: k for k, name in enumerate(SKILL_TERTILES)}


@given(st.dictionaries(st.integers(0, 200), st.tuples(st.sampled_from("ab"), st.integers(0, 9)),
                       min_size=1, max_size=60))
@settings(max_examples=150, deadline=None)
def test_skill_tertiles_rank_players_within_their_rule_group_only(
    scores: dict[int, tuple[str, int]],
) -> None:
    found = skill_tertiles(scores)
    for one, (group, score) in scores.items():
        for other, (other_group, other_score) in scores.items():
            if group != other_group:
                continue
            if score == other_score:
                assert found[one] == found[other]
            elif score > other_score:
                assert TERTILE[found[one]] >= TERTILE[found[other]]
    for group in "ab":  # a group's tertiles ignore the other group's players
        alone = {key: value for key, value in scores.items() if value[0] == group}
        assert skill_tertiles(alone) == {key: found[key] for key in alone}


@pytest.mark.parametrize("m", [1, 2, 5])
def test_distinct_scores_fill_the_tertiles_equally(m: int) -> None:
    found = skill_tertiles({k: ("g", float(k)) for k in range(3 * m)})
    assert [found[k] for k in range(3 * m)] == ["low"] * m + ["middle"] * m + ["high"] * m


def _game(*, player: object = None, size: int = 5, variant: str = "z10", score: int,
          seed: int) -> Game:
    game = GameFactory.create(size=size, variant=variant, noise_budget=3.0, seed=seed,
                              **({"player": player} if player is not None else {}))
    play_randomly(game, 6, seed=seed)
    Game.objects.filter(pk=game.pk).update(score=score)
    return game


@pytest.mark.django_db
def test_skill_is_the_tertile_of_a_players_mean_score_within_the_rule_group() -> None:
    twice = PlayerFactory.create()
    low = _game(score=10, seed=1)
    middle_a = _game(player=twice, score=15, seed=2)
    _game(player=twice, score=25, seed=3)  # the player's mean: 20
    high = _game(score=30, seed=4)
    other_rules = _game(player=twice, size=7, score=5, seed=5)  # alone in its rule group
    moves = strategy_moves()
    split = strategy_cohorts(by="skill", moves=moves)
    assert split.cohorts == ("low", "middle", "high")
    by_game: dict[object, set[str]] = {}
    for (game_id, _), index, stratum in zip(moves.sources, split.of_board, split.strata,
                                            strict=True):
        by_game.setdefault(game_id, set()).add(split.cohorts[index])
        assert stratum == ("z10-L7-b3-m5" if game_id == other_rules.pk else "z10-L5-b3-m5")
    assert by_game[low.pk] == {"low"}
    assert by_game[middle_a.pk] == {"middle"}
    assert by_game[high.pk] == {"high"}
    assert by_game[other_rules.pk] == {"low"}
    # The two-group player is a cell in each rule group.
    cells = {cell for (game_id, _), cell in zip(moves.sources, split.cells, strict=True)
             if game_id in (middle_a.pk, other_rules.pk)}
    assert len(cells) == 2


@pytest.mark.django_db
def test_variant_and_source_cohorts() -> None:
    z10 = _game(score=1, seed=1)
    phi = _game(variant="phi_lambda", score=1, seed=2)
    moves = strategy_moves()
    by_variant = strategy_cohorts(by="variant", moves=moves)
    assert by_variant.cohorts == ("z10", "phi_lambda")
    for (game_id, _), index in zip(moves.sources, by_variant.of_board, strict=True):
        assert by_variant.cohorts[index] == ("z10" if game_id == z10.pk else "phi_lambda")
    assert phi.pk in {game_id for game_id, _ in moves.sources}
    assert strategy_cohorts(by="source", moves=moves).cohorts == ("played_here",)
    with pytest.raises(ValueError, match="unknown split"):
        strategy_cohorts(by="colour", moves=moves)


@pytest.mark.django_db
def test_a_fit_by_variant_stores_each_cohorts_weights_and_the_tests(
    tmp_path: Path, capsys: pytest.CaptureFixture[str],
) -> None:
    for n in range(3):
        _game(score=10 + n, seed=40 + n)
        _game(variant="phi_lambda", score=10 + n, seed=50 + n)
    out = tmp_path / "fit.json"
    call_command("strategy", "fit", "--cohort", "variant", "--folds", "2", "--permutations", "30",
                 "--json", str(out))
    fit = StrategyFit.objects.get()
    assert fit.cohort == "variant"
    summary = json.loads(out.read_text())
    by_cohort = summary["by_cohort"]
    assert by_cohort["by"] == "variant"
    assert [c["name"] for c in by_cohort["cohorts"]] == ["z10", "phi_lambda"]
    assert [c["n_players"] for c in by_cohort["cohorts"]] == [3, 3]
    assert sum(c["n_moves"] for c in by_cohort["cohorts"]) == summary["n_moves"]
    test = by_cohort["test"]
    fitted = sum(len(c["features"]) for c in by_cohort["cohorts"])
    assert test["df"] == fitted - len(summary["features"])
    assert test["lr"] == pytest.approx(
        2 * (sum(c["loglik"] for c in by_cohort["cohorts"]) - test["pooled_loglik"]))
    # Six players, three of each variant: C(6, 3) = 20 arrangements, all tried.
    assert test["permutations"] == 20
    assert test["permutation_exact"]
    assert 0 < test["permutation_p"] <= 1
    # The fit's own weights, and each cohort's, as rows.
    rows = StrategyCoefficient.objects.filter(fit=fit)
    assert rows.filter(cohort="").count() == len(summary["features"])
    for cohort in by_cohort["cohorts"]:
        assert list(rows.filter(cohort=cohort["name"]).order_by("position")
                    .values_list("feature", flat=True)) == [f["name"] for f in cohort["features"]]
    printed = capsys.readouterr().out
    assert by_cohort["verdict"] in printed
    assert "the two variants (z10, phi_lambda)" in by_cohort["verdict"]
    assert f"LR = {test['lr']:.1f} on {test['df']} degrees of freedom" in by_cohort["verdict"]
    call_command("strategy", "show", str(fit.pk))
    assert json.loads(capsys.readouterr().out)["by_cohort"] == by_cohort


@pytest.mark.django_db
def test_a_split_with_one_cohort_is_a_clear_error_and_stores_nothing() -> None:
    for n in range(3):
        _game(score=1, seed=60 + n)
    with pytest.raises(CommandError, match="only one cohort of variant"):
        call_command("strategy", "fit", "--cohort", "variant", "--folds", "2")
    with pytest.raises(CommandError, match="permutations cannot be negative"):
        call_command("strategy", "fit", "--cohort", "skill", "--permutations", "-1")
    assert not StrategyFit.objects.exists()


@pytest.mark.django_db
def test_a_cohort_of_one_player_has_weights_but_no_intervals() -> None:
    for n in range(3):
        _game(score=10 * (n + 1), seed=70 + n)
    call_command("strategy", "fit", "--cohort", "skill", "--folds", "2")
    fit = StrategyFit.objects.get()
    assert fit.by_cohort is not None
    cohorts = fit.by_cohort["cohorts"]
    assert [(c["name"], c["n_players"]) for c in cohorts] == [
        ("low", 1), ("middle", 1), ("high", 1)]
    for cohort in cohorts:
        assert all(row["coef"] is not None for row in cohort["features"])
        assert all(row["lower"] is None and row["upper"] is None for row in cohort["features"])
    rows = StrategyCoefficient.objects.filter(fit=fit, cohort="high")
    assert rows.exists()
    assert not rows.filter(lower__isnull=False).exists()
