"""The dashboard page and its data endpoints with known games: numbers computed by hand."""

from __future__ import annotations

import csv
import datetime
import io
import math

import pytest
from django.core.cache import cache
from django.test import Client

from core.pseudonyms import pseudonym
from core.sessions import PLAYER_SESSION_KEY
from dashboard.models import DemoData
from dashboard.services import aggregates_rebuild, aggregates_refresh
from games.engine.planar import hashing_bound
from games.services import player_set_display_name
from results.models import GameAnalysis
from tests.dashboard.helpers import (
    DAY,
    NEXT_DAY,
    add_analyses,
    add_planar_sweep,
    add_sweep,
    add_threshold_sweep,
    finished_game,
)

NOW = datetime.timedelta(0)
PLOTS = ("threshold", "spanning", "survival", "hazard", "budget", "lifetime", "noise",
         "strategy", "activity")


def get(client: Client, plot: str, **params: str) -> dict:
    response = client.get(f"/dashboard/data/{plot}/", params)
    assert response.status_code == 200, response.content
    return response.json()


def curve(body: dict, label: str) -> dict:
    (found,) = [c for c in body["curves"] if c["label"] == label]
    return found


def test_it_gives_the_survival_curves_computed_by_hand(client: Client, known: dict) -> None:
    body = get(client, "survival", size="7")

    assert body["games"] == 6
    human = curve(body, "human L=7 b=6")
    assert human["games"] == 4
    assert human["rounds"] == [2, 3, 5]
    assert human["survival"] == pytest.approx([0.75, 0.5, 0.0])
    assert human["at_risk"] == [4, 3, 1]
    greedy = curve(body, "greedy L=7 b=6")
    assert greedy["survival"] == pytest.approx([0.5, 0.0])
    # The band holds the curve.
    for low, s, high in zip(human["lower"], human["survival"], human["upper"], strict=True):
        assert low <= s <= high
    assert "mine" not in body
    assert client.get("/dashboard/data/mine/").json() == {"games": [], "research_consent": False}


def test_it_gives_the_hazard_per_round_computed_by_hand(client: Client, known: dict) -> None:
    human = curve(get(client, "hazard", size="7", source="human"), "human L=7 b=6")

    assert human["rounds"] == [1, 2, 3, 4, 5]
    assert human["at_risk"] == [4, 4, 3, 1, 1]
    assert human["hazard"] == pytest.approx([0, 0.25, 1 / 3, 0, 1])
    # Wilson interval of 1 loss in 4: centre and half-width by the formula.
    z = 1.959963984540054
    centre = (0.25 + z * z / 8) / (1 + z * z / 4)
    half = z * math.sqrt(0.25 * 0.75 / 4 + z * z / 64) / (1 + z * z / 4)
    assert human["lower"][1] == pytest.approx(centre - half, abs=1e-6)
    assert human["upper"][1] == pytest.approx(centre + half, abs=1e-6)
    assert human["plateau"] is None  # four games are far too few


def test_it_gives_the_lifetime_against_size(client: Client, known: dict) -> None:
    body = get(client, "lifetime", source="human")

    (series,) = body["series"]
    assert series["label"] == "human b=6"
    assert series["sizes"] == [5, 7]
    assert series["games"] == [1, 4]
    # L=7: area under S = 2 * 1 + 1 * 0.75 + 2 * 0.5; L=5: one game of 6 rounds.
    assert series["mean"] == pytest.approx([6.0, 3.75])
    assert series["median"] == [6, 3]


def test_it_shows_new_games_once_they_are_absorbed(client: Client, known: dict) -> None:
    assert get(client, "survival")["games"] == 7
    finished_game(player=known["alice"], rounds=9, ended_at=NEXT_DAY + datetime.timedelta(hours=1))
    # Cached until the aggregates change...
    assert get(client, "survival")["games"] == 7
    aggregates_refresh(settle=NOW)
    # ...and fresh right after.
    assert get(client, "survival")["games"] == 8
    assert get(client, "activity")["human_games"] == [4, 2]


def test_it_filters_by_date_variant_and_source(client: Client, known: dict) -> None:
    assert get(client, "survival", **{"from": "2026-11-03"})["games"] == 1
    assert get(client, "survival", to="2026-11-02")["games"] == 6
    assert get(client, "survival", **{"from": "2026-11-02", "to": "2026-11-03"})["games"] == 7
    assert get(client, "survival", **{"from": "2026-12-01"})["games"] == 0
    assert get(client, "survival", source="greedy")["games"] == 2
    assert get(client, "survival", source="human")["games"] == 5
    assert get(client, "survival", variant="phi_lambda")["games"] == 0
    assert get(client, "survival", budget="6")["games"] == 7
    assert get(client, "survival", budget="4.5")["games"] == 0


@pytest.mark.parametrize(
    "query",
    [
        "size=x", "size=2", "size=17", "variant=z11", "budget=nan", "budget=-1", "budget=abc",
        "from=2026-02-30", "to=yesterday", "from=2026-11-05&to=2026-11-01", "source=a%20b",
        "format=xml",
    ],
)
def test_it_answers_bad_filters_with_a_400(client: Client, known: dict, query: str) -> None:
    for plot in ("survival", "activity"):
        response = client.get(f"/dashboard/data/{plot}/?{query}")
        assert response.status_code == 400
        error = response.json()["error"]
        assert error["code"] == "invalid_request"
        assert error["message"]
    if "format" not in query:
        assert client.get(f"/dashboard/?{query}").status_code == 400


def test_it_answers_an_unknown_plot_with_a_404(client: Client, known: dict) -> None:
    response = client.get("/dashboard/data/pie/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_it_gives_activity_and_the_leaderboard(client: Client, known: dict) -> None:
    body = get(client, "activity")

    assert body["games"] == 7
    assert body["days"] == ["2026-11-02", "2026-11-03"]
    assert body["human_games"] == [4, 1]
    assert body["bot_games"] == [2, 0]
    assert body["moves"] == [9 + 14 + 12 + 24 + 4 + 19, 29]
    assert body["players"] == [2, 1]
    assert body["new_players"] == [2, 0]  # alice played at L=7 the day before
    board = body["leaderboard"]
    assert [row["player"] for row in board] == [
        pseudonym(known["alice"].pk), pseudonym(known["bob"].pk),
    ]
    assert [row["best_score"] for row in board] == [29, 24]
    assert board[0]["games"] == 3  # two at L=7, one at L=5
    assert str(known["alice"].pk) not in str(body)


def test_the_leaderboard_shows_a_display_name_in_place_of_the_pseudonym(
    client: Client, known: dict
) -> None:
    player_set_display_name(player=known["bob"], display_name="Bob the Decoder")
    board = get(client, "activity")["leaderboard"]
    assert [row["player"] for row in board] == [
        pseudonym(known["alice"].pk), "Bob the Decoder",
    ]
    assert pseudonym(known["bob"].pk) not in str(board)


def test_it_counts_a_player_of_two_rule_sets_on_one_day_once(
    client: Client, known: dict
) -> None:
    finished_game(player=known["bob"], rounds=4, size=5, moves=17)
    aggregates_rebuild(settle=NOW)  # it ended before the watermark

    body = get(client, "activity")

    assert body["human_games"] == [5, 1]
    assert body["players"] == [2, 1]
    assert body["new_players"] == [2, 0]
    # At L=5 alone, bob is new on the first day and alice on the second.
    assert get(client, "activity", size="5")["new_players"] == [1, 1]


def test_it_ranks_the_leaderboard_within_the_date_range(client: Client, known: dict) -> None:
    first_day = get(client, "activity", to="2026-11-02")
    second_day = get(client, "activity", **{"from": "2026-11-03"})

    assert first_day["new_players"] == [2]
    assert [(row["player"], row["best_score"], row["games"], row["rule_set"])
            for row in first_day["leaderboard"]] == [
        (pseudonym(known["bob"].pk), 24, 2, "human L=7 b=6"),
        (pseudonym(known["alice"].pk), 14, 2, "human L=7 b=6"),
    ]
    assert second_day["players"] == [1]
    assert second_day["new_players"] == [0]
    assert [(row["player"], row["best_score"], row["games"], row["rule_set"])
            for row in second_day["leaderboard"]] == [
        (pseudonym(known["alice"].pk), 29, 1, "human L=5 b=6"),
    ]


def test_it_downloads_the_numbers_as_csv(client: Client, known: dict) -> None:
    for plot in PLOTS:
        response = client.get(f"/dashboard/data/{plot}/", {"format": "csv", "size": "7"})
        assert response.status_code == 200
        assert response["Content-Type"].startswith("text/csv")
        assert f'filename="decodoku-{plot}.csv"' in response["Content-Disposition"]
    text = client.get("/dashboard/data/survival/?format=csv&source=human&size=7").content.decode()
    rows = list(csv.DictReader(io.StringIO(text)))
    assert [(r["round"], r["at_risk"], r["lost"], r["censored"]) for r in rows] == [
        ("2", "4", "1", "0"), ("3", "3", "1", "1"), ("5", "1", "1", "0"),
    ]
    assert [float(r["survival"]) for r in rows] == pytest.approx([0.75, 0.5, 0.0])


def test_it_marks_the_players_own_games(client: Client, known: dict) -> None:
    session = client.session
    session[PLAYER_SESSION_KEY] = str(known["bob"].pk)
    session.save()

    body = get(client, "mine", size="7")

    mine = sorted((g["rounds"], g["lost"], g["percentile"]) for g in body["games"])
    # Among 2, 3, 3, 5: a 3 beats one game and ties two (50%); a 5 beats three (87.5%).
    assert mine == [(3, False, 50.0), (5, True, 87.5)]
    assert get(client, "mine", size="5") == {"games": [], "research_consent": True}
    assert client.get("/dashboard/data/mine/")["Cache-Control"] == "private, no-store"
    assert client.get("/dashboard/data/mine/?size=99").status_code == 400


def test_it_counts_the_analyses_of_known_games(client: Client, known: dict) -> None:
    games = add_analyses()
    aggregates_refresh(settle=NOW)

    noise = get(client, "noise", source="human")
    assert noise["games"] == 2
    (series,) = noise["series"]
    assert series["rounds"] == [1, 2]
    assert series["errors"] == pytest.approx([5, 6])
    assert series["light_errors"] == pytest.approx([1, 2])
    assert series["mean_errors"] == pytest.approx(5.5)

    strategy = get(client, "strategy")
    assert strategy["source"] == "human"
    assert strategy["stand_in"] is False
    assert strategy["days"] == ["2026-11-02"]
    assert strategy["shares"]["annihilation"] == pytest.approx([4 / 6])
    assert strategy["shares"]["merge_groups"] == pytest.approx([2 / 6])
    (agreement,) = strategy["agreements"]
    assert (agreement["bot"], agreement["compared"], agreement["top1"], agreement["top3"]) == (
        "greedy", 6, 2, 4,
    )

    # A recomputed analysis comes back with a later time; it is not counted twice.
    GameAnalysis.objects.filter(game=games[0]).update(
        computed_at=datetime.datetime.now(tz=datetime.UTC)
    )
    aggregates_refresh(settle=NOW)
    assert get(client, "noise", source="human")["games"] == 2


def test_the_spanning_plot_shows_the_latest_one_shot_sweep_and_where_the_game_is_played(
    client: Client, known: dict
) -> None:
    add_sweep()  # a budget sweep: not on this plot
    add_planar_sweep()  # the planar code's: on the QEC threshold plot only
    sweep = add_threshold_sweep()
    add_analyses()
    aggregates_refresh(settle=NOW)

    body = get(client, "spanning")

    assert body["criterion"] == "spanning"
    assert body["modulus"] is None
    assert body["hashing_bound"] is None
    assert body["sweep"]["id"] == str(sweep.pk)
    assert body["sweep"]["family"] == "one_shot"
    assert body["games"] == 8 * 100
    by_size = {s["size"]: s for s in body["series"]}
    assert by_size[10]["rates"] == [0.1, 0.2, 0.3, 0.4]
    assert by_size[10]["failure"] == [0.0, 0.06, 0.55, 0.9]
    assert by_size[6]["shots"] == [100] * 4
    (threshold,) = body["thresholds"]
    assert threshold["bot"] == "clustering"
    # L=6 against L=10: the logit difference changes sign between 0.2 and 0.3.
    assert 0.2 < threshold["crossing"] < 0.3
    assert threshold["lower"] <= threshold["crossing"] <= threshold["upper"]
    assert threshold["message"].startswith("finite-size estimate p = ")  # two sizes
    assert threshold["headline"]["finite_size"] is True
    assert threshold["below_hashing_bound"] is None
    # The two analysed players' games at L=7, b=6 met 5 + 6 errors in their two rounds
    # each: 22 errors in 4 game-rounds over 2 * 7 * 6 = 84 edges.
    (game,) = body["game"]
    assert game["size"] == 7
    assert game["rate"] == pytest.approx(22 / 4 / 84, abs=1e-6)
    assert game["moves_per_cell"] == pytest.approx(5 / 49, abs=1e-6)
    assert get(client, "spanning", size="6")["games"] == 4 * 100
    assert get(client, "spanning", size="5")["game"] == []


def test_the_threshold_plot_shows_the_latest_planar_sweep_with_the_hashing_bound(
    client: Client, known: dict
) -> None:
    planar = add_planar_sweep()
    one_shot = add_threshold_sweep()  # finished later, but the game's measure: not here
    add_analyses()
    aggregates_refresh(settle=NOW)

    body = get(client, "threshold")

    assert body["criterion"] == "logical"
    assert body["modulus"] == 2
    assert body["hashing_bound"] == pytest.approx(0.110028, abs=1e-6)
    assert body["sweep"]["id"] == str(planar.pk)
    assert body["sweep"]["family"] == "planar"
    assert body["sweep"]["modulus"] == 2
    assert body["games"] == 8 * 100
    by_size = {s["size"]: s for s in body["series"]}
    assert by_size[10]["rates"] == [0.06, 0.09, 0.12, 0.15]
    assert by_size[10]["failure"] == [0.01, 0.05, 0.3, 0.45]
    assert {s["bot"] for s in body["series"]} == {"matching"}
    (threshold,) = body["thresholds"]
    assert threshold["bot"] == "matching"
    assert 0.09 < threshold["crossing"] < 0.11
    assert threshold["below_hashing_bound"] == pytest.approx(
        hashing_bound(2) - threshold["crossing"], abs=1e-5)
    # Players' games are played by the game's rule: they are not marked on a code's plot.
    assert body["game"] == []
    rows = list(csv.DictReader(io.StringIO(
        client.get("/dashboard/data/threshold/", {"format": "csv"}).content.decode())))
    assert {(r["family"], r["criterion"], r["modulus"]) for r in rows} == {("planar", "logical",
                                                                             "2")}
    assert len(rows) == 8

    # The spanning plot reads the one-shot sweep, even with a later planar sweep.
    later = add_planar_sweep()
    later.finished_at = datetime.datetime(2026, 11, 30, tzinfo=datetime.UTC)
    later.save(update_fields=["finished_at"])
    cache.clear()  # a finished sweep does not change the aggregates the cache follows
    assert get(client, "threshold")["sweep"]["id"] == str(later.pk)
    spanning = get(client, "spanning")
    assert spanning["sweep"]["id"] == str(one_shot.pk)
    assert spanning["criterion"] == "spanning"


@pytest.mark.django_db
def test_the_latest_threshold_sweep_by_criterion() -> None:
    from results.selectors import threshold_sweep_latest_done

    assert threshold_sweep_latest_done(criterion="logical") is None
    planar = add_planar_sweep()
    one_shot = add_threshold_sweep()
    add_sweep()  # a budget sweep is no threshold sweep

    assert threshold_sweep_latest_done() == one_shot  # any family: the latest
    assert threshold_sweep_latest_done(criterion="logical") == planar
    assert threshold_sweep_latest_done(criterion="spanning") == one_shot
    with pytest.raises(ValueError, match="criterion"):
        threshold_sweep_latest_done(criterion="code capacity")


def test_with_no_threshold_sweep_the_plots_say_so(client: Client, known: dict) -> None:
    for plot, criterion in (("threshold", "logical"), ("spanning", "spanning")):
        body = get(client, plot)
        assert body["criterion"] == criterion
        assert body["sweep"] is None
        assert body["series"] == []
        assert body["thresholds"] == []
    assert get(client, "threshold")["view"]["families"][0]["caption"] == (
        "No finished planar threshold sweep yet.")
    assert get(client, "spanning")["view"]["families"][0]["caption"] == (
        "No finished one-shot or sustained threshold sweep yet.")


def test_it_shows_the_latest_finished_budget_sweep(client: Client, known: dict) -> None:
    sweep = add_sweep()

    body = get(client, "budget")

    assert body["sweep"]["id"] == str(sweep.pk)
    assert body["games"] == 40 + 5  # the sweep's games and the players' games
    by_size = {s["size"]: s for s in body["series"]}
    assert by_size[7]["budgets"] == [4.0, 6.0]
    assert by_size[7]["mean"] == [20.0, 4.0]
    assert body["thresholds"] == [
        {"bot": "greedy", "budget": 5.2, "lower": 4.8, "upper": 5.6, "note": ""}
    ]
    humans = {h["label"]: h["mean"] for h in body["humans"]}
    assert humans["human L=7 b=6"] == pytest.approx(3.75)
    assert get(client, "budget", size="5")["games"] == 20 + 1


def test_it_renders_the_page_with_every_plot(client: Client, known: dict) -> None:
    response = client.get("/dashboard/", {"size": "7"})
    assert response.status_code == 200
    html = response.content.decode()
    for plot in PLOTS:
        assert f'data-plot="{plot}"' in html
        assert f"/dashboard/data/{plot}/?format=csv&amp;size=7" in html
    assert 'data-query="size=7"' in html
    assert "Demo data" not in html
    assert 'aria-current="page">Dashboard' in html

    DemoData.objects.create(id=1, created_at=DAY, games=24)
    assert "Demo data" in client.get("/dashboard/").content.decode()


@pytest.mark.django_db
def test_it_serves_an_empty_dashboard(client: Client) -> None:
    assert client.get("/dashboard/").status_code == 200
    for plot in PLOTS:
        assert get(client, plot)["games"] == 0


def test_it_maps_every_module_of_the_page() -> None:
    from pathlib import Path

    from dashboard.apps import JS_MODULES

    folder = Path(__file__).resolve().parents[2] / "dashboard" / "static" / "dashboard"
    modules = sorted(str(p.relative_to(folder)) for p in folder.rglob("*.js"))
    assert modules == sorted(JS_MODULES)
    assert (folder / "vendor" / "uplot" / "LICENSE").is_file()
