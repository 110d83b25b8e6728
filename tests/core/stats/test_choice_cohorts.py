"""Cohorts of players fitted apart, and the tests of whether they weigh the features differently."""

from __future__ import annotations

import numpy as np
import pytest
from scipy.stats import chi2

from core.stats.choice import ChoiceData, choice_data, compare_cohorts
from tests.core.stats.test_choice import simulated


def two_kinds(
    *, seed: int, players: int = 40, per_player: int = 15,
    second: tuple[float, float, float] = (1.0, -0.5, 0.3),
) -> tuple[ChoiceData, list[int]]:
    """Players of even number choose by (1, -0.5, 0.3), the others by ``second``."""
    rng = np.random.default_rng(seed)
    boards, cohort = [], []
    for player in range(players):
        weights = np.array((1.0, -0.5, 0.3) if player % 2 == 0 else second)
        for _ in range(per_player):
            m = int(rng.integers(2, 9))
            x = rng.normal(size=(m, 3))
            p = np.exp(x @ weights)
            pick = int(rng.choice(m, p=p / p.sum()))
            boards.append((x.tolist(), [pick], f"player-{player}"))
            cohort.append(player % 2)
    return choice_data(boards=boards), cohort


def test_the_likelihood_ratio_equals_one_computed_with_statsmodels() -> None:
    from statsmodels.discrete import conditional_models as statsmodels

    data = simulated(boards=300, per_player=6, seed=5)
    cohort = [int(player) % 3 for player in data.players]
    ours = compare_cohorts(data, cohort, cohorts=("a", "b", "c"))

    def llf(boards: np.ndarray) -> float:
        part = data.subset(boards)
        return float(statsmodels.ConditionalLogit(
            part.chosen.astype(float), part.features, groups=part.board_of_alternative(),
        ).fit(method="newton", maxiter=100, tol=1e-12, disp=False).llf)

    separate = sum(llf(np.flatnonzero(np.asarray(cohort) == c)) for c in range(3))
    expected = 2 * (separate - llf(np.arange(data.n_boards)))
    assert ours.lr == pytest.approx(expected, abs=1e-6)
    assert ours.df == 2 * 3
    assert ours.lr_p == pytest.approx(chi2.sf(expected, 6), abs=1e-9)


def test_cohorts_that_weigh_alike_are_not_told_apart_and_different_ones_are() -> None:
    alike, cohort = two_kinds(seed=2)
    same = compare_cohorts(alike, cohort, cohorts=("even", "odd"))
    assert same.lr_p > 0.01
    assert same.wald_p is not None
    assert same.wald_p > 0.01
    unlike, cohort = two_kinds(seed=2, second=(-0.5, 1.0, 0.3))
    differ = compare_cohorts(unlike, cohort, cohorts=("even", "odd"))
    assert differ.lr_p < 1e-6
    assert differ.wald_p is not None
    assert differ.wald_p < 1e-6
    # Each cohort's fit recovers its own weights.
    assert differ.fits[0].coefficients[0] > 0.5 > differ.fits[1].coefficients[0]


def test_repeating_every_players_moves_inflates_the_ratio_but_not_the_clustered_tests() -> None:
    data, cohort = two_kinds(seed=4, second=(0.8, -0.3, 0.3))
    once = compare_cohorts(data, cohort, cohorts=("even", "odd"))
    repeated = choice_data(
        boards=[(data.features[data.offsets[b]:data.offsets[b + 1]].tolist(),
                 np.flatnonzero(data.chosen[data.offsets[b]:data.offsets[b + 1]]).tolist(),
                 int(data.players[b]))
                for _ in range(4) for b in range(data.n_boards)],
    )
    four = compare_cohorts(repeated, cohort * 4, cohorts=("even", "odd"))
    assert four.lr == pytest.approx(4 * once.lr, rel=1e-6)
    assert four.wald == pytest.approx(once.wald, rel=1e-6)


def test_the_permutation_test_tries_every_arrangement_of_few_players() -> None:
    data, cohort = two_kinds(seed=3, players=6, per_player=30, second=(-1.0, 1.0, 0.3))
    found = compare_cohorts(data, cohort, cohorts=("even", "odd"), permutations=100)
    assert found.permutation_exact
    assert found.permutations == 20  # 6 players, 3 in each cohort: C(6, 3) arrangements
    # The arrangement seen is among them and, with its mirror image (the two cohorts'
    # names swapped: the same ratio), the most extreme: p = 2/20.
    assert found.permutation_p == pytest.approx(2 / 20)
    assert found.wald is not None  # six players can support three differences


def test_too_few_players_for_the_clustered_wald_test_say_so() -> None:
    data, cohort = two_kinds(seed=3, players=3, per_player=40)
    found = compare_cohorts(data, cohort, cohorts=("even", "odd"), permutations=10)
    assert found.wald is None
    assert found.wald_p is None
    assert "3 players" in found.wald_note
    assert found.permutations == 3
    assert found.permutation_exact


def test_random_permutations_repeat_with_the_seed() -> None:
    data, cohort = two_kinds(seed=5, players=16, per_player=10)
    first = compare_cohorts(data, cohort, cohorts=("even", "odd"), permutations=9, seed=7)
    again = compare_cohorts(data, cohort, cohorts=("even", "odd"), permutations=9, seed=7)
    assert not first.permutation_exact
    assert first.permutations == 9
    assert first.permutation_p == again.permutation_p
    assert first.permutation_p is not None
    assert 0.1 <= first.permutation_p <= 1


def test_a_player_in_two_cohorts_leaves_the_permutation_test_out() -> None:
    data, _ = two_kinds(seed=5, players=8, per_player=10)
    by_board = [b % 2 for b in range(data.n_boards)]
    found = compare_cohorts(data, by_board, cohorts=("a", "b"), permutations=9)
    assert found.permutation_p is None
    assert "more than one cohort" in found.permutation_note


def test_a_feature_one_cohort_cannot_fit_has_no_weight_there_and_no_difference_tested() -> None:
    data, cohort = two_kinds(seed=6)
    features = data.features.copy()
    odd_boards = np.flatnonzero(np.asarray(cohort) == 1)
    for b in odd_boards:  # the third feature never varies within an odd player's board
        features[data.offsets[b]:data.offsets[b + 1], 2] = 1.0
    flat = ChoiceData(features, data.chosen, data.offsets, data.players, data.weights,
                      data.player_keys)
    found = compare_cohorts(flat, cohort, cohorts=("even", "odd"))
    assert [mask.tolist() for mask in found.features] == [[True, True, True],
                                                         [True, True, False]]
    assert [len(fit.coefficients) for fit in found.fits] == [3, 2]
    assert found.kept.tolist() == [True, True, False]
    assert found.df == 3 + 2 - 3  # the odd cohort's third weight is no free parameter
    assert found.wald is not None  # two differences, of the features both fit


@pytest.mark.parametrize(("cohort", "message"), [
    ([0] * 600, "at least two cohorts"),
    ([0, 2] * 300, "not among"),
    ([0, 1], "one cohort per board"),
])
def test_bad_cohorts_are_refused(cohort: list[int], message: str) -> None:
    data, _ = two_kinds(seed=1)
    with pytest.raises(ValueError, match=message):
        compare_cohorts(data, cohort, cohorts=("a", "b"))


def test_permutations_keep_each_stratum_s_cohorts_within_it() -> None:
    # Two strata (rule groups) of two players each, one of each cohort in each:
    # 2 x 2 arrangements, not the C(4, 2) = 6 of one stratum.
    data, _ = two_kinds(seed=8, players=4, per_player=30)
    cohort = [int(player) % 2 for player in data.players]
    stratum = [int(player) // 2 for player in data.players]
    found = compare_cohorts(data, cohort, cohorts=("a", "b"), strata=stratum, permutations=50)
    assert found.permutation_exact
    assert found.permutations == 4
    unstratified = compare_cohorts(data, cohort, cohorts=("a", "b"), permutations=50)
    assert unstratified.permutations == 6
