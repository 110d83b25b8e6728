"""How each plot opens, and what its caption says: read from the plot's own numbers.

A plot can hold many curves (every source, board size and budget under the
filters). Drawn all at once they overlap, so the page shows one *curve group* at
a time: curves that differ in one thing only, e.g. one source and budget across
board sizes. When the filters fix the board size the curves differ by who
played instead. The group with the most games opens first; the page offers
the others in a menu.

Every curve group carries a caption in plain words: what the curves show and what
the numbers say (a trend with L only when the 95% intervals bear it out, and
"too few games" when they do not).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from typing import Any

from games.engine import DEFAULT_RULES
from games.engine.families import stored_kind

from ..filters import Filters
from ..models import HUMAN
from .cohorts import rules_note
from .compare import PEOPLE

# Fewer games than this in a curve and the caption does not read a trend into it.
MIN_GAMES = 10


@dataclass(frozen=True, slots=True)
class CurveGroup:
    key: str
    label: str  # what the group's menu entry says
    members: list[int]  # indices into the plot's curves
    names: list[str]  # each member's name in the legend
    games: int
    caption: str


def who(source: str) -> str:
    return "players" if source == HUMAN else source


def _budget(value: float) -> str:
    return f"b={value:g}"


def _moves(item: dict[str, Any]) -> tuple[int, ...]:
    """A curve's moves per round for a curve group's key: none when they are the original rules'
    (so those keys read as before moves per round told cohorts apart)."""
    moves = int(item.get("moves_per_round", DEFAULT_RULES.moves_per_round))
    return () if moves == DEFAULT_RULES.moves_per_round else (moves,)


def _rules(item: dict[str, Any]) -> str:
    """The variant and moves per round of a curve, when they are not the usual ones."""
    moves = item.get("moves_per_round", DEFAULT_RULES.moves_per_round)
    return rules_note(variant=item["variant"], moves_per_round=moves)


def _n(value: float | None, digits: int = 1) -> str:
    if value is None:
        return "unknown"
    text = f"{value:.{digits}f}"
    return text.rstrip("0").rstrip(".") if "." in text else text


def _games(count: int) -> str:
    return f"{count} game{'' if count == 1 else 's'}"


def _list(parts: Sequence[str]) -> str:
    if len(parts) <= 1:
        return "".join(parts)
    return ", ".join(parts[:-1]) + " and " + parts[-1]


@dataclass(frozen=True, slots=True)
class Point:
    """One curve's summary for a caption: an estimate with its 95% interval."""

    name: str
    x: float  # what the curve group varies (L), for ordering
    value: float | None  # None: beyond what the data reaches (a median not reached)
    lower: float | None
    upper: float | None
    games: int


def _higher(a: float | None, b: float | None) -> bool:
    """b above a, where None is 'beyond the data' (above any number)."""
    if b is None:
        return a is not None
    return a is not None and b > a


def trend(points: Sequence[Point]) -> str:
    """'up', 'down', 'up?' / 'down?' (the estimates do, the intervals overlap), 'mixed' or 'few'.

    Only curves of at least ``MIN_GAMES`` games count; fewer than two of them is 'few'.
    """
    usable = sorted((p for p in points if p.games >= MIN_GAMES), key=lambda p: p.x)
    if len(usable) < 2:
        return "few"
    pairs = list(itertools.pairwise(usable))
    first, last = usable[0], usable[-1]
    if all(_higher(a.value, b.value) for a, b in pairs):
        clear = first.upper is not None and last.lower is not None and last.lower > first.upper
        return "up" if clear else "up?"
    if all(_higher(b.value, a.value) for a, b in pairs):
        clear = first.lower is not None and last.upper is not None and last.upper < first.lower
        return "down" if clear else "down?"
    return "mixed"


def _few(points: Sequence[Point], what: str) -> str:
    counted = ", ".join(f"{p.name}: {_games(p.games)}" for p in sorted(points, key=lambda p: p.x))
    return (
        f"Too few games to compare {what} yet ({counted}; a trend is read from "
        f"{MIN_GAMES} games or more per curve)."
    )


def size_trend_sentence(points: Sequence[Point], *, quantity: str, unit: str,
                        higher_is_better: bool = True) -> str:
    """A sentence on how ``quantity`` changes with L across the points."""
    shown = sorted(points, key=lambda p: p.x)
    values = ", ".join(
        f"{_n(p.value, 3 if unit == '' else 1) if p.value is not None else 'beyond the data'}"
        f"{unit} at {p.name}"
        for p in shown
    )
    direction = trend(points)
    if direction == "few":
        return _few(points, "board sizes")
    better = "up" if higher_is_better else "down"
    if direction == better:
        return (f"Below threshold: bigger boards do better here, and the 95% intervals of the "
                f"smallest and largest L do not overlap ({quantity} {values}).")
    if direction == f"{better}?":
        return (f"Bigger boards seem to do better ({quantity} {values}), but the 95% intervals "
                f"overlap: more games are needed to be sure.")
    worse = "down" if higher_is_better else "up"
    if direction == worse:
        return (f"Above threshold: bigger boards do worse here, and the 95% intervals of the "
                f"smallest and largest L do not overlap ({quantity} {values}).")
    if direction == f"{worse}?":
        return (f"Bigger boards seem to do worse ({quantity} {values}), but the 95% intervals "
                f"overlap: more games are needed to be sure.")
    return f"No consistent trend with L ({quantity} {values})."


def source_sentence(points: Sequence[Point], *, quantity: str, unit: str) -> str:
    """A sentence comparing who played, for curve groups at one board size."""
    usable = [p for p in points if p.games >= MIN_GAMES]
    values = ", ".join(
        f"{p.name} {_n(p.value) if p.value is not None else 'beyond the data'}{unit}"
        f" ({_games(p.games)})"
        for p in points
    )
    if len(points) < 2:
        return f"{quantity.capitalize()}: {values}. Choose all board sizes to compare L."
    if len(usable) < 2:
        return _few(points, "who played")
    best = max(usable, key=lambda p: float("inf") if p.value is None else p.value)
    return f"{quantity.capitalize()}: {values}; the longest: {best.name}."


# -- grouping ----------------------------------------------------------------------------


def group(
    items: Sequence[dict[str, Any]],
    *,
    key: Callable[[dict[str, Any]], tuple[Any, ...]],
    label: Callable[[dict[str, Any]], str],
    name: Callable[[dict[str, Any]], str],
    games: Callable[[dict[str, Any]], int],
    caption: Callable[[list[dict[str, Any]]], str],
) -> list[CurveGroup]:
    """The items grouped into curve groups by ``key``, in the order they first appear."""
    members: dict[tuple[Any, ...], list[int]] = {}
    for index, item in enumerate(items):
        members.setdefault(key(item), []).append(index)
    groups = []
    for group_key, indices in members.items():
        chosen = [items[i] for i in indices]
        groups.append(CurveGroup(
            key="|".join(str(part) for part in group_key),
            label=label(chosen[0]),
            members=indices,
            names=[name(item) for item in chosen],
            games=sum(games(item) for item in chosen),
            caption=caption(chosen),
        ))
    return groups


def _cohort_grouping(filters: Filters) -> dict[str, Any]:
    """Across board sizes, or (with L fixed by the filters) across who played."""
    if filters.size is None:
        return {
            "key": lambda c: (c["source"], c["variant"], c["noise_budget"], *_moves(c)),
            "label": lambda c: f"{who(c['source'])}, {_budget(c['noise_budget'])}{_rules(c)}",
            "name": lambda c: f"L={c['size']} ({_games(c['games'])})",
            "by_size": True,
        }
    return {
        "key": lambda c: (c["variant"], c["size"], c["noise_budget"], *_moves(c)),
        "label": lambda c: f"L={c['size']}, {_budget(c['noise_budget'])}{_rules(c)}",
        "name": lambda c: f"{who(c['source'])} ({_games(c['games'])})",
        "by_size": False,
    }


def _median(curve: dict[str, Any]) -> Point:
    """The Kaplan-Meier median lifetime with its interval from the 95% band."""

    def first(values: list[float | None]) -> float | None:
        for rounds, value in zip(curve["rounds"], values, strict=True):
            if value is not None and value <= 0.5:
                return float(rounds)
        return None

    return Point(
        name=f"L={curve['size']}" if "size" in curve else curve["label"],
        x=curve["size"],
        value=first(curve["survival"]),
        lower=first(curve["upper"]),
        upper=first(curve["lower"]),
        games=curve["games"],
    )


def _survival_caption(by_size: bool) -> Callable[[list[dict[str, Any]]], str]:
    def caption(curves: list[dict[str, Any]]) -> str:
        points = [_median(c) for c in curves]
        lead = "The share of games still going after each round."
        if by_size:
            if len(points) == 1:
                p = points[0]
                return (f"{lead} Only L={curves[0]['size']} here ({_games(p.games)}), median "
                        f"lifetime {_rounds(p.value)}.")
            sentence = size_trend_sentence(points, quantity="median lifetime", unit=" rounds")
            return f"{lead} {sentence}"
        named = [Point(who(c["source"]), i, p.value, p.lower, p.upper, p.games)
                 for i, (c, p) in enumerate(zip(curves, points, strict=True))]
        return f"{lead} {source_sentence(named, quantity='median lifetime', unit=' rounds')}"

    return caption


def _rounds(value: float | None) -> str:
    if value is None:
        return "beyond the rounds played"
    return f"{_n(value)} round{'' if value == 1 else 's'}"


def _hazard_caption(by_size: bool) -> Callable[[list[dict[str, Any]]], str]:
    def caption(curves: list[dict[str, Any]]) -> str:
        lead = "The chance of losing in each round."
        with_plateau = [c for c in curves if c.get("plateau")]
        if not with_plateau:
            return (f"{lead} No plateau yet: too few games reach the later rounds to read a "
                    f"steady loss rate.")
        points = [
            Point(f"L={c['size']}" if by_size else who(c["source"]), c["size"] if by_size else i,
                  c["plateau"]["hazard"], c["plateau"]["lower"], c["plateau"]["upper"],
                  c["games"])
            for i, c in enumerate(with_plateau)
        ]
        if by_size and len(points) > 1:
            sentence = size_trend_sentence(points, quantity="loss rate per round", unit="",
                                           higher_is_better=False)
            return f"{lead} {sentence}"
        rates = ", ".join(f"{p.name} {_n(p.value, 3)} ({_n(p.lower, 3)} to {_n(p.upper, 3)})"
                          for p in points)
        return f"{lead} The steady loss rate per round (plateau, 95% interval): {rates}."

    return caption


def _lifetime_caption(series: list[dict[str, Any]]) -> str:
    lead = "Mean lifetime against board size, one curve per noise budget."
    sentences = []
    for s in series:
        points = [Point(f"L={size}", size, mean, lower, upper, games)
                  for size, mean, lower, upper, games in zip(
                      s["sizes"], s["mean"], s["lower"], s["upper"], s["games"], strict=True)]
        if len(points) < 2:
            sentences.append(f"At {_budget(s['noise_budget'])} only L={s['sizes'][0]} has games.")
            continue
        sentence = size_trend_sentence(points, quantity="mean lifetime", unit=" rounds")
        sentences.append(f"At {_budget(s['noise_budget'])}: {sentence[0].lower()}{sentence[1:]}")
    return " ".join([lead, *sentences])


def _threshold_caption(data: dict[str, Any]) -> Callable[[list[dict[str, Any]]], str]:
    """Captions of a threshold plot's curve groups: the bot's crossing in the plot's measure.

    A logical (planar code) sweep's crossing is set against the hashing bound for its d.
    """
    thresholds: list[dict[str, Any]] = data["thresholds"]
    family = (data.get("sweep") or {}).get("family", "")
    logical = data.get("criterion") == "logical"
    bound, modulus = data.get("hashing_bound"), data.get("modulus")

    def caption(series: list[dict[str, Any]]) -> str:
        bot = series[0]["bot"]
        if logical:
            lead = (f"How often {bot}'s correction leaves a logical error (a charge carried "
                    f"across the board) against the error rate p per edge, one curve per L.")
        else:
            lead = (f"How often {bot} loses by the game's rule (a group spanning the board) "
                    f"against the error rate p per edge, one curve per L.")
        if len(series) < 2:
            return f"{lead} Only one board size here: a threshold needs two curves to cross."
        found = next((t for t in thresholds if t["bot"] == bot), None)
        if found is None:
            return f"{lead} No threshold estimate for {bot} in this sweep."
        if found["crossing"] is None:
            return f"{lead} {found['message']}"
        what = ("logical failure" if logical
                else "loss rate" if stored_kind(family).per_round else "failure")
        text = (f"{lead} The curves cross at p = {_n(found['crossing'], 3)} (95% interval "
                f"{_n(found['lower'], 3)} to {_n(found['upper'], 3)}): below it a bigger board "
                f"has less {what}, above it more.")
        headline = found.get("headline")
        if headline and headline.get("method") == "scaling":
            text += (f" The finite-size-scaling fit with its correction term puts the threshold "
                     f"at p = {_n(headline['value'], 3)} (95% interval "
                     f"{_n(headline['lower'], 3)} to {_n(headline['upper'], 3)}); the crossing "
                     "of these sizes is a finite-size estimate.")
        elif headline and headline.get("finite_size"):
            text += (" That crossing is a finite-size estimate, not the threshold: with fewer "
                     "than four sizes no interval allows for its drift with L.")
        gap = found.get("below_hashing_bound")
        if logical and bound is not None and gap is not None:
            if abs(gap) < 0.0005:
                where = "at it, to three decimals"
            elif gap > 0:
                where = f"{_n(gap, 3)} below it"
            else:
                where = (f"{_n(-gap, 3)} above it: unusual: check the sizes (small boards) "
                         "and the shots")
            text += (f" The hashing bound for d={modulus} is p = {_n(bound, 3)}; the crossing "
                     f"is {where}.")
        return text

    return caption


def _budget_caption(series: list[dict[str, Any]]) -> str:
    source = series[0]["source"]
    lead = f"Mean lifetime of {source} against the noise budget, one curve per L."
    by_budget: dict[float, list[Point]] = {}
    for s in series:
        for budget, mean, lower, upper, games in zip(
            s["budgets"], s["mean"], s["lower"], s["upper"], s["games"], strict=True
        ):
            by_budget.setdefault(budget, []).append(
                Point(f"L={s['size']}", s["size"], mean, lower, upper, games))
    compared = {b: trend(p) for b, p in sorted(by_budget.items()) if len(p) > 1}
    if not compared:
        return f"{lead} Only one board size here."
    if all(t == "few" for t in compared.values()):
        return f"{lead} Too few games per point to compare board sizes yet."
    up = [_n(b) for b, t in compared.items() if t == "up"]
    if len(up) == len(compared):
        return (f"{lead} A bigger board lives longer at every budget swept, as expected: "
                f"the budget is noise for the whole board.")
    parts = [f"{_budget(b)}: {_TREND_WORDS[t]}" for b, t in compared.items()]
    return f"{lead} Lifetime against L at each budget: {'; '.join(parts)}."


_TREND_WORDS = {
    "up": "longer on bigger boards",
    "up?": "longer on bigger boards, but the 95% intervals overlap",
    "down": "shorter on bigger boards",
    "down?": "shorter on bigger boards, but the 95% intervals overlap",
    "mixed": "no consistent order",
    "few": "too few games",
}


def _noise_caption(series: list[dict[str, Any]]) -> str:
    s = series[0]
    rounds = sum(s["games"])
    whose = "players'" if s["source"] == HUMAN else f"the {s['source']} bot's"
    return (f"The noise per round in {whose} games: on average "
            f"{_n(s['mean_errors'], 2)} errors and {_n(s['mean_new_numbers'], 2)} new numbers a "
            f"round, over {rounds} game-rounds.")


def _single(caption: str, count: int) -> list[CurveGroup]:
    return [CurveGroup(key="all", label="all", members=list(range(count)), names=[], games=0,
                   caption=caption)]


def _strategy_caption(data: dict[str, Any]) -> str:
    whose = "players'" if data["source"] == HUMAN else f"the {data['source']} bot's"
    if not data["days"]:
        return "No analysed moves match these filters yet."
    totals = {name: sum(v for v in shares if v is not None) for name, shares in
              data["shares"].items()}
    top = max(totals, key=lambda name: totals[name])
    last = data["shares"][top][-1]
    parts = [f"The most common kind of {whose} moves is {top.replace('_', ' ')}"
             f" ({_n(100 * last if last is not None else None, 0)}% on the last day shown)."]
    compared = [a for a in data["agreements"] if a["compared"]]
    if compared:
        a = max(compared, key=lambda a: a["compared"])
        parts.append(
            f"Compared with {a['bot']} over {a['compared']} moves: its first choice "
            f"{_n(100 * a['top1_rate'], 0)}% of the time (95% interval "
            f"{_n(100 * a['top1_lower'], 0)}% to {_n(100 * a['top1_upper'], 0)}%)."
        )
    return " ".join(parts)


def _activity_caption(data: dict[str, Any]) -> str:
    if not data["days"]:
        return "No finished games match these filters yet."
    games = [h + b for h, b in zip(data["human_games"], data["bot_games"], strict=True)]
    busiest = max(range(len(games)), key=lambda i: games[i])
    humans = sum(data["human_games"])
    players = f"{humans} player's game" if humans == 1 else f"{humans} players' games"
    return (f"{players} and {_games(sum(data['bot_games'])).replace('game', 'bot game')} "
            f"over {len(games)} day{'' if len(games) == 1 else 's'} with games; the busiest was "
            f"{data['days'][busiest]} ({_games(games[busiest])}).")


EMPTY = {
    "survival": "No finished games match these filters yet.",
    "hazard": "No finished games match these filters yet.",
    "threshold": "No finished planar threshold sweep yet.",
    "spanning": "No finished one-shot or sustained threshold sweep yet.",
    "budget": "No finished budget sweep yet.",
    "lifetime": "No finished games match these filters yet.",
    "noise": "No analysed games match these filters yet.",
    "compare": "No person has finished a planar game that is research data yet.",
}


CurveGroupsOf = Callable[[dict[str, Any], Filters], list[CurveGroup]]


def _cohort_groups(name: str) -> CurveGroupsOf:
    make = _survival_caption if name == "survival" else _hazard_caption

    def groups(data: dict[str, Any], filters: Filters) -> list[CurveGroup]:
        grouping = _cohort_grouping(filters)
        return group(data["curves"], key=grouping["key"], label=grouping["label"],
                     name=grouping["name"], games=lambda c: c["games"],
                     caption=make(grouping["by_size"]))

    return groups


def _threshold_groups(data: dict[str, Any], filters: Filters) -> list[CurveGroup]:
    return group(data["series"], key=lambda s: (s["bot"],), label=lambda s: s["bot"],
                 name=lambda s: f"L={s['size']}", games=lambda s: sum(s["shots"]),
                 caption=_threshold_caption(data))


def _budget_groups(data: dict[str, Any], filters: Filters) -> list[CurveGroup]:
    return group(data["series"], key=lambda s: (s["source"],), label=lambda s: s["source"],
                 name=lambda s: f"L={s['size']}", games=lambda s: sum(s["games"]),
                 caption=_budget_caption)


def _lifetime_groups(data: dict[str, Any], filters: Filters) -> list[CurveGroup]:
    return group(data["series"], key=lambda s: (s["source"], s["variant"], *_moves(s)),
                 label=lambda s: f"{who(s['source'])}{_rules(s)}",
                 name=lambda s: _budget(s["noise_budget"]),
                 games=lambda s: sum(s["games"]), caption=_lifetime_caption)


def _noise_groups(data: dict[str, Any], filters: Filters) -> list[CurveGroup]:
    return group(data["series"], key=lambda s: (s["source"],),
                 label=lambda s: who(s["source"]), name=lambda s: who(s["source"]),
                 # Games reaching each round: the most reach the first one.
                 games=lambda s: max(s["games"], default=0), caption=_noise_caption)


def _compare_caption(series: list[dict[str, Any]]) -> str:
    people = next((s for s in series if s["who"] == PEOPLE), None)
    if people is None or not sum(people["games"]):
        return "No person's planar game here yet."
    count = sum(people["games"])
    whose = "1 person's game" if count == 1 else f"{count} people's games"
    parts = [
        f"{whose} over {len(people['rates'])} error rate{'' if len(people['rates']) == 1 else 's'}"
    ]
    for s in series:
        if s["who"] != PEOPLE:
            parts.append(f"{s['who']} on {sum(s['games'])} of the same boards")
    return "; ".join(parts) + ". Bars: Wilson 95% intervals."


def _compare_groups(data: dict[str, Any], filters: Filters) -> list[CurveGroup]:
    """One curve group per (L, d): the people and each decoder."""
    return group(
        data["series"],
        key=lambda s: (s["size"], s["modulus"]),
        label=lambda s: f"L={s['size']}, d={s['modulus']}",
        name=lambda s: s["who"],
        games=lambda s: sum(s["games"]) if s["who"] == PEOPLE else 0,
        caption=_compare_caption,
    )


# Each plot's curve groups, by the plot's name. A plot not listed shows all its data as
# one group with no caption.
CURVE_GROUPS: dict[str, CurveGroupsOf] = {
    "survival": _cohort_groups("survival"),
    "hazard": _cohort_groups("hazard"),
    "threshold": _threshold_groups,
    "spanning": _threshold_groups,
    "budget": _budget_groups,
    "lifetime": _lifetime_groups,
    "noise": _noise_groups,
    "strategy": lambda data, filters: _single(_strategy_caption(data), 0),
    "activity": lambda data, filters: _single(_activity_caption(data), 0),
    "compare": _compare_groups,
}


def shows_a_loss(*, name: str, data: dict[str, Any], group: CurveGroup) -> bool:
    """Whether a survival or hazard curve group has a loss to show: without one its survival is a
    flat 100% line and its hazard a row of zeros under a wide band. Other plots: always."""
    column = {"survival": "survival", "hazard": "hazard"}.get(name)
    if column is None:
        return True
    curves = [data["curves"][i] for i in group.members if i < len(data.get("curves", []))]
    if name == "survival":
        return any(value < 1 for curve in curves for value in curve.get(column) or [])
    return any(value > 0 for curve in curves for value in curve.get(column) or [])


def plot_view(*, name: str, data: dict[str, Any], filters: Filters) -> dict[str, Any]:
    """The curve groups of a plot, the one that opens first, and their captions.

    The group with the most games opens first, preferring those that show a loss. The
    page's JSON calls the groups ``families``.
    """
    make = CURVE_GROUPS.get(name)
    groups = make(data, filters) if make is not None else []
    if not groups:
        groups = _single(EMPTY.get(name, ""), 0)
    default = max(range(len(groups)), key=lambda i: (
        shows_a_loss(name=name, data=data, group=groups[i]), groups[i].games, -i))
    return {"families": [asdict(g) for g in groups], "default": default}
