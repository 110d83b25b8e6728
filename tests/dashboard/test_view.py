"""How each plot opens (one family of curves at a time) and what its caption says."""

from __future__ import annotations

import datetime
from typing import Any

import pytest
from django.test import Client

from dashboard.filters import Filters
from dashboard.selectors import plot_specs
from dashboard.selectors.view import CURVE_GROUPS, MIN_GAMES, Point, plot_view, trend
from dashboard.services import aggregates_refresh
from tests.dashboard.helpers import (
    add_analyses,
    add_planar_sweep,
    add_sweep,
    add_threshold_sweep,
)


def km(source: str, size: int, games: int, survival: list[float], band: float = 0.05,
       budget: float = 6.0) -> dict[str, Any]:
    """A survival curve as the survival plot gives it, with a band of +-``band``."""
    return {
        "source": source, "variant": "z10", "size": size, "noise_budget": budget,
        "label": f"{source} L={size} b={budget:g}", "games": games,
        "rounds": list(range(1, len(survival) + 1)), "survival": survival,
        "lower": [max(0.0, s - band) for s in survival],
        "upper": [min(1.0, s + band) for s in survival],
    }


SHORT = [0.9, 0.7, 0.4, 0.2, 0.1, 0.0]  # median 3
LONG = [1.0, 1.0, 0.95, 0.9, 0.8, 0.7, 0.6, 0.45, 0.3]  # median 8


def test_every_registered_plot_has_its_families_and_captions() -> None:
    assert set(CURVE_GROUPS) == {spec.name for spec in plot_specs()}


def test_curves_open_one_family_at_a_time_across_board_sizes() -> None:
    curves = [km("human", 5, 40, SHORT), km("human", 7, 40, LONG),
              km("greedy", 5, 200, SHORT), km("greedy", 7, 200, LONG),
              km("greedy", 5, 30, SHORT, budget=4.0)]
    view = plot_view(name="survival", data={"curves": curves}, filters=Filters())
    families = view["families"]
    assert [f["label"] for f in families] == ["players, b=6", "greedy, b=6", "greedy, b=4"]
    assert [f["members"] for f in families] == [[0, 1], [2, 3], [4]]
    assert families[0]["names"] == ["L=5 (40 games)", "L=7 (40 games)"]
    # The family with the most games opens first.
    assert view["default"] == 1


def test_with_the_size_fixed_a_family_compares_who_played() -> None:
    curves = [km("human", 7, 40, SHORT), km("greedy", 7, 200, LONG)]
    view = plot_view(name="survival", data={"curves": curves}, filters=Filters(size=7))
    (family,) = view["families"]
    assert family["label"] == "L=7, b=6"
    assert family["names"] == ["players (40 games)", "greedy (200 games)"]
    assert "players 3 rounds (40 games), greedy 8 rounds (200 games)" in family["caption"]
    assert family["caption"].endswith("the longest: greedy.")


def test_the_caption_says_below_threshold_when_lifetimes_clearly_grow_with_l() -> None:
    curves = [km("greedy", 5, 200, SHORT), km("greedy", 7, 200, LONG)]
    (family,) = plot_view(name="survival", data={"curves": curves}, filters=Filters())["families"]
    assert "Below threshold: bigger boards do better here" in family["caption"]
    assert "median lifetime 3 rounds at L=5, 8 rounds at L=7" in family["caption"]


def test_the_caption_says_above_threshold_when_lifetimes_clearly_shrink_with_l() -> None:
    curves = [km("greedy", 5, 200, LONG), km("greedy", 7, 200, SHORT)]
    (family,) = plot_view(name="survival", data={"curves": curves}, filters=Filters())["families"]
    assert "Above threshold: bigger boards do worse here" in family["caption"]


def test_overlapping_intervals_are_not_called_a_trend() -> None:
    # Wide bands: the medians rise, but the intervals of L=5 and L=7 overlap.
    curves = [km("greedy", 5, 200, SHORT, band=0.4), km("greedy", 7, 200, LONG, band=0.4)]
    (family,) = plot_view(name="survival", data={"curves": curves}, filters=Filters())["families"]
    assert "seem to do better" in family["caption"]
    assert "more games are needed" in family["caption"]
    assert "Below threshold" not in family["caption"]


def test_too_few_games_are_said_to_be_too_few() -> None:
    curves = [km("human", 5, 3, SHORT), km("human", 7, MIN_GAMES - 1, LONG)]
    (family,) = plot_view(name="survival", data={"curves": curves}, filters=Filters())["families"]
    assert "Too few games to compare board sizes yet (L=5: 3 games, L=7: 9 games" in (
        family["caption"])
    assert "threshold" not in family["caption"]


def test_a_median_beyond_the_data_counts_as_longer() -> None:
    never = [1.0, 0.9, 0.8, 0.7]  # never reaches a half
    points = [Point("L=5", 5, 3.0, 2.0, 4.0, 50), Point("L=7", 7, None, 9.0, None, 50)]
    assert trend(points) == "up"
    curves = [km("greedy", 5, 200, SHORT), km("greedy", 7, 200, never)]
    (family,) = plot_view(name="survival", data={"curves": curves}, filters=Filters())["families"]
    assert "beyond the data rounds at L=7" in family["caption"]


@pytest.mark.parametrize(
    ("values", "expected"),
    [([1.0, 2.0, 3.0], "up"), ([3.0, 2.0, 1.0], "down"), ([1.0, 3.0, 2.0], "mixed")],
)
def test_trend_reads_the_order_of_the_estimates(values: list[float], expected: str) -> None:
    points = [Point(f"L={x}", x, v, v - 0.1, v + 0.1, 100) for x, v in zip((3, 5, 7), values,
                                                                            strict=True)]
    assert trend(points) == expected


def test_the_hazard_caption_reads_the_plateaus() -> None:
    def curve(size: int, hazard: float, games: int = 100) -> dict[str, Any]:
        return {"source": "greedy", "variant": "z10", "size": size, "noise_budget": 6.0,
                "games": games, "plateau": {"hazard": hazard, "lower": hazard - 0.01,
                                            "upper": hazard + 0.01}}

    view = plot_view(name="hazard", data={"curves": [curve(5, 0.2), curve(7, 0.1)]},
                     filters=Filters())
    assert "Below threshold" in view["families"][0]["caption"]
    assert "loss rate per round 0.2 at L=5, 0.1 at L=7" in view["families"][0]["caption"]
    none = dict(curve(5, 0.2), plateau=None)
    view = plot_view(name="hazard", data={"curves": [none]}, filters=Filters())
    assert "No plateau yet" in view["families"][0]["caption"]


def test_an_empty_plot_has_one_family_that_says_so() -> None:
    view = plot_view(name="survival", data={"curves": []}, filters=Filters())
    assert view == {"families": [{"key": "all", "label": "all", "members": [], "names": [],
                                  "games": 0,
                                  "caption": "No finished games match these filters yet."}],
                    "default": 0}


def threshold_data(criterion: str, family: str, crossing: float | None) -> dict[str, Any]:
    """A threshold plot's data with one bot at two sizes, as the threshold selector gives it."""
    bound = 0.110028 if criterion == "logical" else None
    series = [{"bot": "matching", "size": size, "shots": [100, 100]} for size in (6, 10)]
    return {
        "criterion": criterion, "modulus": 2 if bound else None, "hashing_bound": bound,
        "sweep": {"family": family}, "series": series,
        "thresholds": [{
            "bot": "matching", "crossing": crossing, "lower": 0.1, "upper": 0.13,
            "message": "no threshold between 0.06 and 0.15",
            "below_hashing_bound": (None if bound is None or crossing is None
                                    else round(bound - crossing, 6)),
        }],
    }


def test_a_logical_crossing_above_the_hashing_bound_is_said_to_be_so() -> None:
    data = threshold_data("logical", "planar", 0.12)
    (family,) = plot_view(name="threshold", data=data, filters=Filters())["families"]
    # The bound is the rate random codes reach, not a ceiling: above it is unusual, not wrong.
    assert family["caption"].endswith(
        "The hashing bound for d=2 is p = 0.11; the crossing is 0.01 above it: unusual: check "
        "the sizes (small boards) and the shots.")


def test_a_threshold_plot_with_no_crossing_says_why() -> None:
    data = threshold_data("logical", "planar", None)
    (family,) = plot_view(name="threshold", data=data, filters=Filters())["families"]
    assert family["caption"].endswith("no threshold between 0.06 and 0.15")
    assert "hashing" not in family["caption"]


def test_a_sustained_sweep_reads_as_a_loss_rate_on_the_spanning_plot() -> None:
    data = threshold_data("spanning", "sustained", 0.2)
    (family,) = plot_view(name="spanning", data=data, filters=Filters())["families"]
    assert "loses by the game's rule" in family["caption"]
    assert "below it a bigger board has less loss rate, above it more." in family["caption"]
    assert "logical" not in family["caption"]


def test_the_endpoints_carry_the_view(client: Client, known: dict) -> None:
    add_sweep()
    add_threshold_sweep()
    add_planar_sweep()
    survival = client.get("/dashboard/data/survival/").json()
    labels = [f["label"] for f in survival["view"]["families"]]
    assert labels == ["players, b=6", "greedy, b=6"]
    # Four players' games at L=7 and one at L=5: too few to read a trend.
    assert "Too few games" in survival["view"]["families"][0]["caption"]

    spanning = client.get("/dashboard/data/spanning/").json()
    (family,) = spanning["view"]["families"]
    assert family["names"] == ["L=6", "L=10"]
    assert family["caption"].startswith(
        "How often clustering loses by the game's rule (a group spanning the board)")
    assert "The curves cross at p = 0.2" in family["caption"]
    assert "below it a bigger board has less failure" in family["caption"]
    assert "hashing" not in family["caption"]

    threshold = client.get("/dashboard/data/threshold/").json()
    (family,) = threshold["view"]["families"]
    assert family["label"] == "matching"
    assert family["names"] == ["L=6", "L=10"]
    assert family["caption"].startswith(
        "How often matching's correction leaves a logical error (a charge carried across the "
        "board)")
    assert "The curves cross at p = 0.1" in family["caption"]
    assert "below it a bigger board has less logical failure" in family["caption"]
    crossing = threshold["thresholds"][0]["crossing"]
    assert family["caption"].endswith(
        f"The hashing bound for d=2 is p = 0.11; the crossing is "
        f"{round(threshold['hashing_bound'] - crossing, 3):g} below it.")

    budget = client.get("/dashboard/data/budget/").json()
    (family,) = budget["view"]["families"]
    # greedy: 12 -> 20 rounds at b=4 (intervals apart), 5 -> 4 at b=6 (intervals overlap).
    assert family["caption"].endswith(
        "b=4: longer on bigger boards; "
        "b=6: shorter on bigger boards, but the 95% intervals overlap.")
    # greedy's two games at L=7, b=6 last 1 and 4 rounds.
    assert survival["view"]["families"][1]["caption"].endswith(
        "Only L=7 here (2 games), median lifetime 1 round.")

    strategy = client.get("/dashboard/data/strategy/").json()
    assert strategy["view"]["families"][0]["caption"] == (
        "No analysed moves match these filters yet.")
    activity = client.get("/dashboard/data/activity/").json()
    assert activity["view"]["families"][0]["caption"].startswith(
        "5 players' games and 2 bot games over 2 days with games")


def test_the_lifetime_caption_reads_each_budget_across_l() -> None:
    def series(budget: float, means: list[float], games: int) -> dict[str, Any]:
        return {"source": "greedy", "variant": "z10", "noise_budget": budget,
                "sizes": [5, 7, 9][: len(means)], "mean": means,
                "lower": [m - 1 for m in means], "upper": [m + 1 for m in means],
                "games": [games] * len(means)}

    data = {"series": [series(4.0, [10.0, 20.0, 30.0], 50), series(8.0, [6.0, 3.0], 50),
                       series(10.0, [3.0], 50), series(12.0, [3.0, 3.5], 2)]}
    (family,) = plot_view(name="lifetime", data=data, filters=Filters())["families"]
    assert family["names"] == ["b=4", "b=8", "b=10", "b=12"]
    caption = family["caption"]
    assert "At b=4: below threshold: bigger boards do better here" in caption
    assert "(mean lifetime 10 rounds at L=5, 20 rounds at L=7, 30 rounds at L=9)" in caption
    assert "At b=8: above threshold: bigger boards do worse here" in caption
    assert "At b=10 only L=5 has games." in caption
    assert "At b=12: too few games to compare board sizes yet" in caption


def test_the_noise_caption_gives_the_means_per_round() -> None:
    data = {"series": [
        {"source": "human", "games": [10, 8], "mean_errors": 5.5, "mean_new_numbers": 8.0},
        {"source": "greedy", "games": [4], "mean_errors": 3.25, "mean_new_numbers": 6.0},
    ]}
    families = plot_view(name="noise", data=data, filters=Filters())["families"]
    # The menu counts games (as many as reach the first round), not game-rounds.
    assert [f["games"] for f in families] == [10, 4]
    assert [f["caption"] for f in families] == [
        "The noise per round in players' games: on average 5.5 errors and 8 new numbers a "
        "round, over 18 game-rounds.",
        "The noise per round in the greedy bot's games: on average 3.25 errors and 6 new "
        "numbers a round, over 4 game-rounds.",
    ]


def test_the_strategy_caption_names_the_commonest_move_and_the_agreement(
    client: Client, known: dict
) -> None:
    add_analyses()
    aggregates_refresh(settle=datetime.timedelta(0))
    body = client.get("/dashboard/data/strategy/").json()
    # Two games of three analysed moves: annihilation, annihilation, merge_groups; greedy's
    # first choice for one move in three.
    assert body["view"]["families"][0]["caption"] == (
        "The most common kind of players' moves is annihilation (67% on the last day shown). "
        "Compared with greedy over 6 moves: its first choice 33% of the time (95% interval "
        "10% to 70%)."
    )


def test_the_caption_names_the_corrected_fit_as_the_threshold_and_a_crossing_as_finite_size(
) -> None:
    data = threshold_data("logical", "planar", 0.099)
    data["thresholds"][0]["headline"] = {"method": "scaling", "value": 0.1004, "lower": 0.0951,
                                         "upper": 0.1049, "finite_size": False}
    (family,) = plot_view(name="threshold", data=data, filters=Filters())["families"]
    assert ("The finite-size-scaling fit with its correction term puts the threshold at "
            "p = 0.1 (95% interval 0.095 to 0.105); the crossing of these sizes is a finite-size "
            "estimate.") in family["caption"]
    data["thresholds"][0]["headline"] = {"method": "crossing", "value": 0.099, "lower": 0.1,
                                         "upper": 0.13, "finite_size": True}
    (family,) = plot_view(name="threshold", data=data, filters=Filters())["families"]
    assert ("That crossing is a finite-size estimate, not the threshold: with fewer than four "
            "sizes no interval allows for its drift with L.") in family["caption"]
    assert "puts the threshold" not in family["caption"]
