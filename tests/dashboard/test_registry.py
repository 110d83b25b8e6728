"""The plot registry: the page, the data endpoint and the CSV download all follow it."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from django.test import Client

from dashboard.filters import Filters
from dashboard.selectors import Plot, PlotSpec, plot_specs, registry

# The QEC threshold leads, then the game's own spanning threshold, then the games' plots.
PAGE_ORDER = ("threshold", "spanning", "survival", "hazard", "budget", "lifetime", "noise",
              "strategy", "activity", "compare")
DASHBOARD_JS = Path(__file__).resolve().parents[2] / "dashboard" / "static" / "dashboard"


def select_nothing(*, filters: Filters) -> Plot:
    return Plot(games=3, data={"points": [1, 2], "size": filters.size}, columns=["x", "y"],
                rows=[[1, None], [2, 0.5]])


EXTRA = PlotSpec(name="extra", title="An extra plot", explanation="Only in this test.",
                 select=select_nothing)


@pytest.fixture
def extra_plot(monkeypatch: pytest.MonkeyPatch) -> PlotSpec:
    monkeypatch.setattr(registry, "PLOT_ORDER", (*registry.PLOT_ORDER, EXTRA))
    monkeypatch.setattr(registry, "PLOTS", {**registry.PLOTS, EXTRA.name: EXTRA})
    return EXTRA


def test_it_lists_the_plots_in_the_page_order() -> None:
    assert [spec.name for spec in plot_specs()] == list(PAGE_ORDER)
    assert list(registry.PLOTS) == list(PAGE_ORDER)
    for spec in plot_specs():
        assert re.fullmatch(r"[a-z][a-z0-9-]*", spec.name)
        assert spec.title
        assert spec.explanation.endswith(".")


@pytest.mark.django_db
def test_the_page_shows_each_registered_plot_in_order(client: Client) -> None:
    html = client.get("/dashboard/").content.decode()
    positions = [html.index(f'data-plot="{spec.name}"') for spec in plot_specs()]
    assert positions == sorted(positions)
    for number, spec in enumerate(plot_specs(), start=1):
        assert f"{number}. {spec.title}</h2>".replace("'", "&#x27;") in html
        assert spec.explanation.replace("'", "&#x27;") in html


@pytest.mark.django_db
def test_the_page_leads_with_the_qec_threshold_and_labels_the_spanning_one(
    client: Client,
) -> None:
    html = client.get("/dashboard/").content.decode()
    first, second, third = (html.index(f'data-plot="{name}"')
                            for name in ("threshold", "spanning", "survival"))
    assert first < second < third
    assert "1. QEC threshold: logical failure of the planar code</h2>" in html
    assert "2. Spanning threshold: the game&#x27;s own loss rule</h2>" in html
    qec, spanning = registry.PLOTS["threshold"], registry.PLOTS["spanning"]
    # Each says plainly what it measures.
    assert "logical error" in qec.explanation
    assert "from one side of the board to the other" in qec.explanation
    assert "hashing bound" in qec.explanation
    assert "game's own loss rule" in spanning.explanation
    assert "not a logical failure rate" in spanning.explanation
    # The hazard's plateau is the game's loss rate, not a logical error rate.
    assert "the game's steady loss rate per round" in registry.PLOTS["hazard"].explanation
    assert "the logical error rate per round" not in html


@pytest.mark.django_db
def test_a_registered_plot_is_served_without_touching_the_views(
    client: Client, extra_plot: PlotSpec
) -> None:
    html = client.get("/dashboard/").content.decode()
    assert 'data-plot="extra"' in html
    assert f"{len(PAGE_ORDER) + 1}. An extra plot</h2>" in html

    body = client.get("/dashboard/data/extra/", {"size": "5"}).json()
    # With no families of its own, the plot is one family with no caption.
    assert body == {"plot": "extra", "filters": {"size": "5"}, "games": 3,
                    "points": [1, 2], "size": 5,
                    "view": {"families": [{"key": "all", "label": "all", "members": [],
                                           "names": [], "games": 0, "caption": ""}],
                             "default": 0}}
    response = client.get("/dashboard/data/extra/", {"format": "csv"})
    assert response.content.decode() == "x,y\n1,\n2,0.5\n"
    assert 'filename="decodoku-extra.csv"' in response["Content-Disposition"]


@pytest.mark.django_db
def test_an_unregistered_plot_is_not_found(client: Client) -> None:
    response = client.get("/dashboard/data/extra/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"


def test_the_page_script_draws_every_registered_plot() -> None:
    text = (DASHBOARD_JS / "dashboard.js").read_text()
    table = re.search(r"const DRAW = \{(.*?)\};", text, re.S)
    assert table is not None
    drawn = re.findall(r"^\s*([a-z][a-z0-9]*):", table.group(1), re.M)
    assert drawn == [spec.name for spec in plot_specs()]
