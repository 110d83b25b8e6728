"""Threshold sweeps of the planar family: logical failure, the modulus, the hashing bound."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from django.core.management import CommandError, call_command

from games.engine.families import family_shot_seed, threshold_rules
from games.engine.planar import hashing_bound, play_planar_shot
from results import reports
from results.models import Sweep, SweepGame, SweepPoint, SweepThreshold
from results.selectors import threshold_results
from results.services import SweepError, sweep_start, threshold_sweep_create

pytestmark = pytest.mark.django_db


def test_a_planar_sweep_stores_shots_that_replay_and_counts_censored_shots_as_failures():
    sweep = threshold_sweep_create(family="planar", modulus=3, bots=["clustering"],
                                   sizes=[4, 6], rates=[0.05, 0.2], shots_per_point=30,
                                   seed=21, chunk_size=7)
    assert sweep.modulus == 3
    assert sweep.chunk_size == 7
    sweep = sweep_start(sweep=sweep)
    assert sweep.status == Sweep.Status.DONE
    for point in SweepPoint.objects.filter(sweep=sweep):
        assert point.summarised
        assert point.trials == 30 == point.games_done
        assert point.failures == point.losses
        rules = threshold_rules(family="planar", size=point.size, rate=point.rate, modulus=3)
        for index in (0, 29):
            seed = family_shot_seed(family="planar", seed=21, size=point.size,
                                    rate=point.rate, shot=index)
            shot = play_planar_shot(rules=rules, bot="clustering", seed=seed,
                                    max_moves=sweep.max_rounds * point.size**2)
            stored = SweepGame.objects.get(chunk__point=point, game_index=index)
            assert (stored.lost, stored.moves, stored.censored) == (
                shot.failed, shot.moves, shot.censored)


def test_planar_sweeps_need_a_modulus_their_decoders_decode():
    base = {"family": "planar", "sizes": [4], "rates": [0.1], "shots_per_point": 2, "seed": 1}
    with pytest.raises(SweepError, match="needs its modulus"):
        threshold_sweep_create(bots=["matching"], **base)
    with pytest.raises(SweepError, match="decodes d = 2, not d = 5"):
        threshold_sweep_create(bots=["matching"], modulus=5, **base)
    with pytest.raises(SweepError, match="unknown planar decoder 'greedy'"):
        threshold_sweep_create(bots=["greedy"], modulus=2, **base)
    with pytest.raises(SweepError, match="modulus must be between 2 and 10"):
        threshold_sweep_create(bots=["clustering"], modulus=11, **base)
    with pytest.raises(SweepError, match="--modulus belongs to the planar family"):
        threshold_sweep_create(family="one_shot", bots=["greedy"], sizes=[4], rates=[0.1],
                               shots_per_point=2, seed=1, modulus=2)
    assert not Sweep.objects.exists()


def test_the_command_names_the_criterion_and_the_hashing_bound(tmp_path: Path):
    out = io.StringIO()
    target = tmp_path / "planar.json"
    call_command("threshold", "--family", "planar", "--modulus", "2",
                 "--bots", "matching,clustering", "--sizes", "4,6", "--rates", "0.05:0.2:4",
                 "--shots", "40", "--seed", "3", "--json", str(target), "--no-progress",
                 stdout=out)
    text = out.getvalue()
    assert "criterion: logical failure of the planar Z2 code" in text
    assert "hashing bound for d = 2: p = 0.1100" in text
    results = json.loads(target.read_text())
    assert [r["bot"] for r in results] == ["matching", "clustering"]
    for result in results:
        assert result["family"] == "planar"
        assert result["criterion"] == "logical"
        assert result["modulus"] == 2
        assert result["hashing_bound"] == pytest.approx(hashing_bound(2))
        assert len(result["points"]) == 8
    assert threshold_results(sweep=Sweep.objects.get()) == results


def test_a_spanning_sweep_says_it_is_the_games_own_measure(tmp_path: Path):
    out = io.StringIO()
    target = tmp_path / "one-shot.json"
    call_command("threshold", "--family", "one-shot", "--bots", "greedy", "--sizes", "4,5",
                 "--rates", "0.1:0.4:3", "--shots", "4", "--seed", "8", "--json", str(target),
                 "--no-progress", stdout=out)
    assert "the game's spanning threshold, not a logical failure rate" in out.getvalue()
    (result,) = json.loads(target.read_text())
    assert result["criterion"] == "spanning"
    assert "modulus" not in result


@pytest.mark.parametrize(("arguments", "message"), [
    (["--family", "planar", "--bots", "matching"], "needs its modulus"),
    (["--family", "planar", "--modulus", "3", "--bots", "matching"], "not d = 3"),
    (["--family", "one-shot", "--modulus", "3"], "belongs to the planar family"),
    (["--family", "planar", "--modulus", "2", "--moves-per-cell", "1"], "sustained family"),
])
def test_the_command_explains_bad_planar_arguments_in_one_line(arguments, message):
    with pytest.raises(CommandError, match=message) as caught:
        call_command("threshold", *arguments, "--no-progress", stdout=io.StringIO())
    assert "\n" not in str(caught.value)
    assert not Sweep.objects.exists()


def test_the_printed_summary_names_the_warnings_the_json_holds(tmp_path: Path):
    out = io.StringIO()
    # A grid that starts at the crossing: the JSON flags a pair at the edge, the text must too.
    target = tmp_path / "edge.json"
    call_command("threshold", "--family", "planar", "--modulus", "2", "--bots", "matching",
                 "--sizes", "4,6,8", "--rates", "0.1,0.13,0.16", "--shots", "200", "--seed", "4",
                 "--json", str(target), "--no-progress", stdout=out)
    (result,) = json.loads(target.read_text())
    text = out.getvalue()
    edges = [pair for pair in result["threshold"]["crossing"]["pairs"] if pair["edge"]]
    assert edges
    for pair in edges:
        assert f"L={','.join(map(str, pair['sizes']))}: the crossing is at the edge" in text
    crossing = result["threshold"]["crossing"]["value"]
    assert crossing > hashing_bound(2)
    assert f"warning: crossing {crossing:.4f} is above the hashing bound 0.1100" in text
    # The bound is the rate random codes reach, not a ceiling: above it is unusual, not impossible.
    assert "the rate random codes reach: unusual: check" in text
    assert "ABOVE" not in text
    assert "no decoder beats" not in text
    assert result["message"] in text


def test_every_warning_of_the_json_is_printed():
    threshold = SweepThreshold(
        bot_name="clustering", crossing=0.12, crossing_low=0.11, crossing_high=0.13,
        crossing_at_edge=False, scaling_p_th=None, methods_agree=None, message="the message",
        detail={
            "pairs": [
                {"sizes": [8, 12], "value": 0.10, "lower": 0.09, "upper": 0.11,
                 "sign_changes": 3, "edge": False},
                {"sizes": [12, 16], "value": 0.14, "lower": 0.13, "upper": 0.15,
                 "sign_changes": 1, "edge": True},
            ],
            "excluded": [{"size": 16, "rate": 0.3, "reason": "every game failed"}],
            "drift": True,
        },
    )
    text = reports.rate_thresholds_table([threshold])
    assert "warning: L=8,12: the curves change order 3 times" in text
    assert "warning: L=12,16: the crossing is at the edge of the rates" in text
    assert "warning: pairs L=8,12 and L=12,16 disagree (their intervals do not overlap)" in text
    assert "left out: L=16 p=0.3: every game failed" in text
    assert "warning: finite-size drift" in text
    assert text.rstrip().endswith("the message")


def test_recorded_shots_are_the_shots_as_games_that_verify(tmp_path: Path):
    out = io.StringIO()
    call_command("threshold", "--family", "planar", "--modulus", "2", "--bots",
                 "matching,clustering", "--sizes", "4,5", "--rates", "0.08,0.2",
                 "--shots", "6", "--record", "2", "--seed", "12", "--no-progress", stdout=out)
    assert "the first 2 shots of each point recorded as games" in out.getvalue()
    sweep = Sweep.objects.get()
    recorded = SweepGame.objects.filter(chunk__point__sweep=sweep, game__isnull=False)
    assert recorded.count() == 2 * 2 * 2 * 2  # bots x sizes x rates x shots
    assert set(recorded.values_list("game_index", flat=True)) == {0, 1}
    assert not SweepGame.objects.filter(chunk__point__sweep=sweep, game_index__gte=2,
                                        game__isnull=False).exists()
    for shot in recorded.select_related("game", "chunk__point"):
        game = shot.game
        assert game is not None
        point = shot.chunk.point
        assert point.rate is not None
        assert game.seed == shot.seed == family_shot_seed(
            family="planar", seed=12, size=point.size, rate=point.rate, shot=shot.game_index)
        assert game.bot_name == point.bot_name
        assert game.rules_key == f"z2-planar-L{point.size}-p{point.rate:.3f}"
        assert game.logical_failure == shot.lost
        assert game.moves_count == shot.moves
    verify = io.StringIO()
    call_command("verify_games", stdout=verify)
    assert "16 match" in verify.getvalue() or "match: 16" in verify.getvalue(), verify.getvalue()


def test_only_planar_shots_can_be_recorded():
    with pytest.raises(SweepError, match="planar shots"):
        threshold_sweep_create(family="one_shot", bots=["greedy"], sizes=[4], rates=[0.1],
                               shots_per_point=2, seed=1, record_shots=1)
    with pytest.raises(SweepError, match="recorded shots must be an integer from 0 to 1000"):
        threshold_sweep_create(family="planar", modulus=2, bots=["matching"], sizes=[4],
                               rates=[0.1], shots_per_point=2, seed=1, record_shots=1001)


def test_the_optimal_decoder_sweeps_and_its_recorded_shots_verify():
    out = io.StringIO()
    call_command("threshold", "--family", "planar", "--modulus", "3", "--bots", "optimal",
                 "--sizes", "4,5", "--rates", "0.1,0.2", "--shots", "8", "--record", "2",
                 "--seed", "5", "--no-progress", stdout=out)
    sweep = Sweep.objects.get()
    assert sweep.status == Sweep.Status.DONE
    recorded = SweepGame.objects.filter(chunk__point__sweep=sweep, game__isnull=False)
    assert recorded.count() == 2 * 2 * 2  # sizes x rates x shots
    for shot in recorded.select_related("game"):
        assert shot.game is not None
        assert shot.game.bot_name == "optimal"
        assert shot.game.logical_failure == shot.lost
    verify = io.StringIO()
    call_command("verify_games", stdout=verify)
    assert "8 match" in verify.getvalue() or "match: 8" in verify.getvalue(), verify.getvalue()


def test_the_summary_opens_each_bot_with_its_headline_and_its_label():
    def threshold(method: str, finite_size: bool) -> SweepThreshold:
        return SweepThreshold(
            bot_name="matching", crossing=0.0986, crossing_low=0.0887, crossing_high=0.1058,
            crossing_at_edge=False, scaling_p_th=0.1004, scaling_low=0.0951,
            scaling_high=0.1049, methods_agree=True, message="the message",
            detail={"pairs": [], "headline": {
                "method": method, "value": 0.1004 if method == "scaling" else 0.0986,
                "lower": 0.0951 if method == "scaling" else 0.0887,
                "upper": 0.1049 if method == "scaling" else 0.1058,
                "finite_size": finite_size,
                "label": "finite-size estimate" if finite_size else "threshold"}},
        )

    four = reports.rate_thresholds_table([threshold("scaling", False)]).splitlines()
    assert four[1] == ("  threshold: p = 0.1004, 95% CI [0.0951, 0.1049] from finite-size "
                       "scaling with a correction term")
    three = reports.rate_thresholds_table([threshold("crossing", True)]).splitlines()
    assert three[1].startswith("  finite-size estimate: p = 0.0986, 95% CI [0.0887, 0.1058] "
                               "from crossings of adjacent-L curves (its interval does not "
                               "allow for drift of the crossing with L; with 4 sizes or more")
