"""The conditional logit of what players do: the fit, its intervals, held-out scores."""

from __future__ import annotations

import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from core.stats.choice import (
    ChoiceData,
    calibration,
    cap_weights,
    choice_data,
    cross_validate,
    fit_choice,
    fit_temperature,
    grouped_folds,
    independent_features,
    probabilities,
    score_predictions,
)

TRUE = np.array([1.0, -0.5, 0.3])


def simulated(*, boards: int, per_player: int, seed: int, coefficients: np.ndarray = TRUE,
              explanations: bool = False) -> ChoiceData:
    """Boards of 2-8 alternatives whose choices follow the model with ``coefficients``.

    With ``explanations`` every board repeats its chosen alternative's twin
    (the same move the other way round: other features, same board after),
    and both count as chosen.
    """
    rng = np.random.default_rng(seed)
    made = []
    for b in range(boards):
        m = int(rng.integers(2, 9))
        x = rng.normal(size=(m, len(coefficients)))
        p = np.exp(x @ coefficients)
        p /= p.sum()
        pick = int(rng.choice(m, p=p))
        rows, chosen = x.tolist(), [pick]
        if explanations and b % 2 == 0:
            twin = x[pick] + rng.normal(scale=0.5, size=len(coefficients))
            rows.append(twin.tolist())
            chosen.append(m)
        made.append((rows, chosen, f"player-{b // per_player}"))
    return choice_data(boards=made)


def test_coefficients_match_statsmodels_conditional_logit() -> None:
    # statsmodels is a development requirement: the reference is always there.
    from statsmodels.discrete import conditional_models as statsmodels
    data = simulated(boards=300, per_player=6, seed=5)
    ours = fit_choice(data)
    reference = statsmodels.ConditionalLogit(
        data.chosen.astype(float), data.features, groups=data.board_of_alternative()
    ).fit(method="newton", maxiter=100, tol=1e-12, disp=False)
    assert np.max(np.abs(ours.coefficients - reference.params)) < 1e-6
    assert ours.loglik == pytest.approx(reference.llf, abs=1e-8)


def test_a_move_with_two_explanations_has_their_summed_probability() -> None:
    data = choice_data(boards=[([[0.0], [1.0], [2.0]], [0, 2], "a"),
                               ([[0.0], [1.0]], [1], "b")])
    fit = fit_choice(data)
    p = probabilities(data, fit.coefficients)
    assert fit.loglik == pytest.approx(np.log(p[0] + p[2]) + np.log(p[4]))


def test_the_fit_is_a_maximum_when_moves_have_several_explanations() -> None:
    data = simulated(boards=200, per_player=4, seed=2, explanations=True)
    fit = fit_choice(data)
    for k in range(3):
        for h in (-1e-4, 1e-4):
            nudged = fit.coefficients.copy()
            nudged[k] += h
            p = probabilities(data, nudged)
            chosen = np.add.reduceat(np.where(data.chosen, p, 0.0), data.offsets[:-1])
            assert float(np.log(chosen).sum()) <= fit.loglik + 1e-12


def test_the_fit_recovers_the_weights_that_made_the_choices() -> None:
    fit = fit_choice(simulated(boards=3000, per_player=10, seed=11), names=("a", "b", "c"))
    # Four standard errors: a 95% interval misses one of three weights too often for a test.
    assert np.all(np.abs(fit.coefficients - TRUE) < 4 * fit.standard_errors)
    assert np.all(fit.standard_errors < 0.05)
    assert np.allclose(fit.upper - fit.coefficients, fit.coefficients - fit.lower)
    assert [row["name"] for row in fit.table()] == ["a", "b", "c"]


def test_moves_of_one_player_are_not_counted_as_independent() -> None:
    once = simulated(boards=400, per_player=1, seed=3)
    # Every board four times over, by the same player: no new information.
    fourfold = once.subset(np.repeat(np.arange(once.n_boards), 4))
    single, repeated = fit_choice(once), fit_choice(fourfold)
    assert np.allclose(single.coefficients, repeated.coefficients, atol=1e-8)
    assert np.allclose(single.standard_errors, repeated.standard_errors, rtol=1e-6)


boards = st.lists(
    st.tuples(st.lists(st.lists(st.floats(-3, 3), min_size=2, max_size=2), min_size=2,
                       max_size=6),
              st.integers(0, 5), st.floats(-5, 5)),
    min_size=1, max_size=8,
)


@given(boards=boards, w=st.lists(st.floats(-4, 4), min_size=2, max_size=2))
@settings(max_examples=60, deadline=None)
def test_probabilities_sum_to_one_and_ignore_a_constant_added_per_board(
    boards: list[tuple[list[list[float]], int, float]], w: list[float],
) -> None:
    made = [(rows, [pick % len(rows)], 0) for rows, pick, _ in boards]
    shifted = [([[a + shift, b] for a, b in rows], [pick % len(rows)], 0)
               for rows, pick, shift in boards]
    p = probabilities(choice_data(boards=made), np.array(w))
    totals = np.add.reduceat(p, choice_data(boards=made).offsets[:-1])
    assert np.allclose(totals, 1.0)
    assert np.allclose(p, probabilities(choice_data(boards=shifted), np.array(w)))


def test_a_constant_added_per_board_leaves_the_fit_unchanged() -> None:
    data = simulated(boards=150, per_player=3, seed=8)
    shift = np.repeat(np.arange(data.n_boards, dtype=float) * 7.0, np.diff(data.offsets))
    moved = ChoiceData(data.features + shift[:, None], data.chosen, data.offsets,
                       data.players, data.weights)
    assert np.allclose(fit_choice(data).coefficients, fit_choice(moved).coefficients, atol=1e-7)


@given(players=st.lists(st.integers(0, 30), min_size=5, max_size=200),
       folds=st.integers(2, 5), seed=st.integers(0, 2**32))
@settings(max_examples=80, deadline=None)
def test_folds_never_share_a_player_and_repeat_with_the_seed(
    players: list[int], folds: int, seed: int,
) -> None:
    if len(set(players)) < folds:
        with pytest.raises(ValueError, match="cannot fill"):
            grouped_folds(players, folds=folds, seed=seed)
        return
    fold = grouped_folds(players, folds=folds, seed=seed)
    for player in set(players):
        assert len({int(f) for p, f in zip(players, fold, strict=True) if p == player}) == 1
    assert set(fold.tolist()) == set(range(folds))
    assert np.array_equal(fold, grouped_folds(players, folds=folds, seed=seed))


def test_a_prolific_player_counts_for_at_most_the_cap() -> None:
    players = ["a"] * 50 + ["b"] * 3
    weights = cap_weights(players, 10)
    assert weights[:50].sum() == pytest.approx(10)
    assert weights[50:].tolist() == [1.0, 1.0, 1.0]


def test_ties_count_as_a_fair_random_order_would() -> None:
    data = choice_data(boards=[([[0.0]] * 4, [2], "a"), ([[0.0], [1.0]], [0], "b")])
    p = np.array([0.25, 0.25, 0.25, 0.25, 0.5, 0.5])
    scores = score_predictions(data, p)
    assert scores.top1.value == pytest.approx((0.25 + 0.5) / 2)
    assert scores.top3.value == pytest.approx((0.75 + 1.0) / 2)
    assert scores.loglik.value == pytest.approx((np.log(0.25) + np.log(0.5)) / 2)


def test_calibration_adds_up_to_one_move_per_board() -> None:
    data = simulated(boards=200, per_player=2, seed=4, explanations=True)
    p = probabilities(data, TRUE)
    rows = calibration(data, p, bins=5)
    assert sum(row.alternatives for row in rows) == len(p)
    observed = sum(row.observed * row.alternatives for row in rows)
    predicted = sum(row.predicted * row.alternatives for row in rows)
    assert observed == pytest.approx(data.n_boards)
    assert predicted == pytest.approx(data.n_boards)


def test_the_temperature_of_a_bot_is_fitted_from_its_scores() -> None:
    data = simulated(boards=2000, per_player=5, seed=9, coefficients=np.array([2.0, 0.0, 0.0]))
    beta = fit_temperature(data, data.features[:, 0] * 4)  # the bot's score: 4 x feature 0
    assert beta == pytest.approx(0.5, abs=0.06)
    assert fit_temperature(data, np.zeros(len(data.chosen))) == 0.0


def test_held_out_players_are_predicted_better_by_the_model_than_by_a_partial_bot() -> None:
    data = simulated(boards=600, per_player=6, seed=6)
    result = cross_validate(data, folds=5, seed=1, bot_scores={"first": data.features[:, 0]})
    assert result.model.loglik.value > result.bots["first"].loglik.value
    assert result.model.top1.lower < result.model.top1.value < result.model.top1.upper
    assert len(result.per_fold) == 5
    again = cross_validate(data, folds=5, seed=1, bot_scores={"first": data.features[:, 0]})
    assert again.model == result.model


@pytest.mark.parametrize(("boards", "message"), [
    ([([[1.0]], [0], "a")], "fewer than two"),
    ([([[1.0], [2.0]], [], "a")], "needs chosen"),
    ([([[1.0], [2.0]], [5], "a")], "needs chosen"),
    ([([[1.0], [2.0, 3.0]], [0], "a")], "different lengths"),
    ([([[1.0], [float("nan")]], [0], "a")], "finite"),
])
def test_malformed_boards_are_refused(boards: list, message: str) -> None:
    with pytest.raises(ValueError, match=message):
        choice_data(boards=boards)


def test_a_feature_that_never_varies_within_a_board_is_refused() -> None:
    data = choice_data(boards=[([[1.0, 0.0], [1.0, 1.0]], [0], "a"),
                               ([[2.0, 1.0], [2.0, 0.0]], [1], "b")])
    with pytest.raises(ValueError, match="never vary within a board: flat"):
        fit_choice(data, names=("flat", "useful"))


def test_features_that_add_up_to_another_are_refused() -> None:
    data = simulated(boards=100, per_player=2, seed=12)
    tied = np.column_stack([data.features, data.features[:, 0] + data.features[:, 1]])
    dependent = ChoiceData(tied, data.chosen, data.offsets, data.players, data.weights)
    with pytest.raises(ValueError, match="linearly dependent"):
        fit_choice(dependent)


def test_a_feature_that_adds_up_from_earlier_ones_is_the_one_left_out() -> None:
    data = simulated(boards=100, per_player=2, seed=13)
    x = data.features
    constant = np.repeat(np.arange(data.n_boards, dtype=float), np.diff(data.offsets))
    wide = np.column_stack([x[:, 0], x[:, 0] + x[:, 1], constant, x[:, 1], x[:, 2]])
    keep = independent_features(ChoiceData(wide, data.chosen, data.offsets, data.players,
                                           data.weights))
    assert keep.tolist() == [True, True, False, False, True]


def test_a_prior_keeps_the_weight_of_a_perfect_separator_finite() -> None:
    data = simulated(boards=200, per_player=4, seed=14)
    # A fourth feature that is 1 exactly on the chosen moves: its best weight is infinite.
    separating = ChoiceData(np.column_stack([data.features, data.chosen.astype(float)]),
                            data.chosen, data.offsets, data.players, data.weights)
    # Without a prior the fit either stops far out, where the slope vanishes in
    # floating point, or finds the information singular there and refuses by
    # name: which one depends on the last bits of the linear algebra library.
    try:
        drifting = fit_choice(separating).coefficients[3]
    except ValueError as refused:
        message = str(refused)
        drifting = np.inf
    else:
        message = "separates the chosen moves perfectly"
    assert "separates the chosen moves perfectly" in message
    held = fit_choice(separating, prior_sd=10.0).coefficients[3]
    assert 5 < held < 15 < drifting
    plain, wide = fit_choice(data), fit_choice(data, prior_sd=10.0)
    assert np.allclose(plain.coefficients, wide.coefficients, atol=0.01)
