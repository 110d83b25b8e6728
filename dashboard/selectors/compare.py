"""The plot of people against the planar decoders: success rate against p, with Wilson bars.

Read from ``results.comparison`` (people's ended planar games that are
research data, and each decoder's game on the same boards): one series for
the people and one per decoder at each (L, d), the success rate (a board
cleaned without a logical error; an abandoned game fails) at each error
rate p with its Wilson 95% interval. A decoder's points count only the
boards people played, each once however many people played it. The page
shows one (L, d) at a time. The board-size filter applies; the others
(variant, budget, source, dates) do not concern planar games.

Each point also carries the class odds (``results.comparison.Odds``): the
mean, over the boards that have them, of the probability that the class
chosen was the right one (an abandoned game 0), with its Student t 95%
interval, and the most likely class's on the same boards (the best any
decoder can do there); and ``words``, the page's sentence for each.
"""

from __future__ import annotations

from typing import Any

from core.stats.means import Mean
from results.comparison import Odds, Rate, comparison_groups, odds_words

from ..filters import Filters
from .plot import Plot, PlotSpec, number

# The series of the people (each decoder's series is named by the decoder).
PEOPLE = "people"


def plot_compare(*, filters: Filters) -> Plot:
    """People's and each decoder's success rate per (L, d) against p."""
    series: dict[tuple[str, int, int], dict[str, Any]] = {}
    rows: list[list[Any]] = []
    games = 0

    def add(who: str, size: int, modulus: int, rate: float, value: Rate,
            odds: Odds | None, mean: Mean | None) -> None:
        entry = series.setdefault(
            (who, size, modulus),
            {
                "who": who,
                "size": size,
                "modulus": modulus,
                "label": f"{who} L={size} d={modulus}",
                "rates": [],
                "success": [],
                "lower": [],
                "upper": [],
                "games": [],
                "successes": [],
                "odds_boards": [],
                "class_odds": [],
                "class_odds_lower": [],
                "class_odds_upper": [],
                "best_class_odds": [],
                "words": [],
            },
        )
        chosen = mean if odds is not None and odds.boards else None
        entry["rates"].append(rate)
        entry["success"].append(number(value.rate))
        entry["lower"].append(number(value.lower))
        entry["upper"].append(number(value.upper))
        entry["games"].append(value.trials)
        entry["successes"].append(value.successes)
        entry["odds_boards"].append(odds.boards if odds is not None else 0)
        entry["class_odds"].append(number(chosen.mean) if chosen else None)
        entry["class_odds_lower"].append(number(chosen.lower) if chosen else None)
        entry["class_odds_upper"].append(number(chosen.upper) if chosen else None)
        entry["best_class_odds"].append(number(odds.best.mean) if chosen and odds else None)
        entry["words"].append(
            odds_words(odds, bot_name="" if who == PEOPLE else who) if odds is not None else ""
        )
        rows.append(
            [
                who,
                size,
                modulus,
                rate,
                value.trials,
                value.successes,
                number(value.rate),
                number(value.lower),
                number(value.upper),
                odds.boards if odds is not None else 0,
                number(chosen.mean) if chosen else None,
                number(chosen.lower) if chosen else None,
                number(chosen.upper) if chosen else None,
                number(odds.best.mean) if chosen and odds else None,
            ]
        )

    for found in comparison_groups():
        key = found.key
        if filters.size and key.size != filters.size:
            continue
        games += found.human.trials
        odds = found.odds
        add(PEOPLE, key.size, key.modulus, key.error_rate, found.human, odds,
            odds.people if odds is not None else None)
        for side in found.decoders:
            add(side.decoder, key.size, key.modulus, key.error_rate, side.bot, side.odds,
                side.odds.decoder if side.odds is not None else None)
    ordered = sorted(
        series.values(), key=lambda s: (s["modulus"], s["size"], s["who"] != PEOPLE, s["who"])
    )
    return Plot(
        games=games,
        data={"series": ordered},
        columns=[
            "who",
            "size",
            "modulus",
            "rate",
            "games",
            "successes",
            "success_rate",
            "lower95",
            "upper95",
            "odds_boards",
            "class_odds",
            "class_odds_lower95",
            "class_odds_upper95",
            "best_class_odds",
        ],
        rows=rows,
    )


PLOT = PlotSpec(
    name="compare",
    title="People against the decoders",
    explanation=(
        "How often people clean a planar board without a logical error, beside each planar "
        "decoder on the very same boards (the decoders replay every planar game a person "
        "ended, from its seed), against the error rate p, one board size and d at a time. The "
        "bars are Wilson 95% intervals; a decoder's point counts one game per board, however "
        "many people played it. Below, the class odds: how likely the class each chose was the "
        "right one, against the most likely class's on the same boards. The test across "
        "boards is on the comparison page."
    ),
    select=plot_compare,
)
