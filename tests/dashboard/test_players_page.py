"""The "What players do" page: the latest strategy fit, its scores, and the learned decoder."""

from __future__ import annotations

import datetime
import re
from typing import Any

import pytest
from django.test import Client

from games.engine.strategy import FEATURES
from results.models import StrategyFit
from tests.dashboard.helpers import _rate_sweep

pytestmark = pytest.mark.django_db

FITTED = ("sure_annihilation", "merge_groups", "number_neighbours")


def _row(name: str, coef: float, half: float) -> dict[str, Any]:
    return {"name": name, "coef": coef, "se": half / 1.96, "lower": coef - half,
            "upper": coef + half}


def _scores(top1: float) -> dict[str, Any]:
    return {"top1": top1, "top3": top1 + 0.2, "loglik": -2.5,
            "intervals": {"top1": [top1 - 0.05, top1 + 0.05], "top3": [top1 + 0.1, top1 + 0.3],
                          "loglik": [-2.7, -2.3]}}


def store_fit(*, split: bool = False) -> StrategyFit:
    by_cohort = None
    if split:
        by_cohort = {
            "by": "variant",
            "cohorts": [
                {"name": "z10", "n_moves": 40, "n_players": 3, "loglik": -90.0,
                 "features": [_row("sure_annihilation", 6.5, 0.4),
                              _row("merge_groups", -0.8, 0.9)]},
                {"name": "phi_lambda", "n_moves": 30, "n_players": 1, "loglik": -70.0,
                 "features": [_row("sure_annihilation", 1.3, 1.4), _row("merge_groups", 2.1, 2.0),
                              {"name": "number_neighbours", "coef": -0.8, "se": None,
                               "lower": None, "upper": None}]},
            ],
            "test": {"lr": 12.5, "df": 3, "lr_p": 0.006},
            "verdict": "No evidence that the two variants (z10, phi_lambda) weigh the features "
                       "differently (a stand-in sentence).",
        }
    return StrategyFit.objects.create(
        data_cutoff=100, feature_set_version=1, model_version=1, features=list(FITTED),
        cohort="variant" if split else "", folds=3, seed=0, player_cap=500, n_moves=70,
        n_players=6, n_games=6, loglik=-170.0,
        coefficients=[_row("sure_annihilation", 5.4, 1.5), _row("merge_groups", 2.7, 2.0),
                      _row("number_neighbours", -1.54, 0.52)],
        heldout={"model": _scores(0.35),
                 "bots": {"random": _scores(0.03), "greedy": _scores(0.14),
                          "clustering": _scores(0.16), "player": _scores(0.13)}},
        by_cohort=by_cohort,
    )


def page(client: Client) -> str:
    response = client.get("/dashboard/players/")
    assert response.status_code == 200
    return response.content.decode()


def test_before_any_fit_the_page_says_so_and_links_from_the_menu(client: Client) -> None:
    html = page(client)
    assert "No fit yet" in html
    assert "No sweep of the learned bot yet" in html
    assert 'href="/dashboard/players/" aria-current="page">Players</a>' in html  # the menu
    dashboard = client.get("/dashboard/").content.decode()
    assert 'href="/dashboard/players/">Players</a>' in dashboard
    assert 'href="/dashboard/players/">What players do</a>' in dashboard  # the page's intro


def test_the_latest_fit_shows_each_weight_with_its_sentence_and_the_scores(client: Client) -> None:
    store_fit()
    latest = store_fit()
    latest.coefficients[0]["coef"] = 5.25
    StrategyFit.objects.filter(pk=latest.pk).update(coefficients=latest.coefficients)
    html = page(client)
    assert f"Fit {latest.pk} of" in html
    sentences = {feature.name: feature.description for feature in FEATURES}
    for name in FITTED:
        assert f'id="feature-{name}"' in html
        assert sentences[name].replace("'", "&#x27;") in html
    assert "5.25 <span" in html  # the latest fit's weight, not the earlier one's
    assert "Not fitted" in html
    assert "possible_annihilation" in html
    for who in ("model", "random", "greedy", "clustering", "player"):
        assert f'data-who="{who}"' in html
    assert "0.350 <span" in html
    assert "[0.300, 0.400]" in html
    assert "No sweep of the learned bot yet" in html


def test_a_split_fit_shows_a_bar_per_cohort_and_the_answer_in_words(client: Client) -> None:
    fit = store_fit(split=True)
    html = page(client)
    assert fit.by_cohort is not None
    assert fit.by_cohort["verdict"] in html
    feature = html[html.index('id="feature-number_neighbours"'):]
    feature = feature[:feature.index("</li>")]
    # Pooled and the one cohort that fitted it; the Z10 cohort has no such weight.
    assert re.findall(r"<dt>([^<]+)</dt>", feature) == ["all moves", "Phi-Lambda"]
    assert "-0.80 <span class=\"ci-range\">(no interval)</span>" in feature
    annihilation = html[html.index('id="feature-sure_annihilation"'):]
    annihilation = annihilation[:annihilation.index("</li>")]
    assert re.findall(r"<dt>([^<]+)</dt>", annihilation) == ["all moves", "Z10", "Phi-Lambda"]
    # Every bar lies on the plot.
    for x in re.findall(r'x[12]="([-0-9.]+)"', html):
        assert 0 <= float(x) <= 300


def test_a_later_plain_fit_still_shows_the_cohorts_of_the_latest_split_fit(client: Client) -> None:
    split = store_fit(split=True)
    plain = store_fit()
    html = page(client)
    assert f"Fit {plain.pk} of" in html
    assert f"(fit {split.pk})" in html


def test_a_sweep_of_the_learned_bot_draws_its_curve_and_threshold(client: Client) -> None:
    store_fit()
    _rate_sweep(family="one_shot", bot="learned", rates=(0.1, 0.2, 0.3, 0.4),
                failures={6: (3, 18, 45, 72), 10: (1, 8, 58, 92)},
                finished_at=datetime.datetime(2026, 11, 22, tzinfo=datetime.UTC))
    html = page(client)
    assert "No sweep of the learned bot yet" not in html
    assert html.count('class="curve curve-learned') == 2  # one per board size
    assert 'data-bot="learned"' in html
    assert "threshold 0.2" in html
