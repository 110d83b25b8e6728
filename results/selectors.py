"""Reads of the results app: keyword-only functions returning querysets or plain data."""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, field
from types import SimpleNamespace
from typing import Any
from uuid import UUID

from django.db.models import Count, Max, Q, QuerySet, Sum

from core.stats import (
    HazardPlateau,
    KMRow,
    LifetimeSummary,
    hazard_plateau,
    kaplan_meier,
    lifetime_summary,
)
from games.engine.bots import BOT_NAMES, WEIGHTED_BOTS, LearnedWeights, LearnedWeightsError
from games.engine.families import Family, FamilyKind, kind_of
from games.engine.planar import hashing_bound
from games.engine.rules import Variant
from games.models import Event, Game
from games.rulesets import RULE_GROUP_FIELDS, rule_group
from results.analysis import ANALYSIS_VERSION
from results.analysis.strategy import (
    SKILL_TERTILES,
    ChoiceBoard,
    ImportedMove,
    imported_choices,
    seeded_choices,
    skill_tertiles,
)
from results.models import (
    StrategyFit,
    Sweep,
    SweepChunk,
    SweepGame,
    SweepPoint,
    SweepThreshold,
)

# -- per-game analyses --------------------------------------------------------------


def games_needing_analysis() -> QuerySet[Game]:
    """Finished games with no analysis, or one older than the current version, oldest first.

    Only games of the original rules: planar games have no per-game analysis.
    """
    return (
        Game.objects.original().exclude(status=Game.Status.ACTIVE)
        .filter(Q(analysis__isnull=True) | Q(analysis__analysis_version__lt=ANALYSIS_VERSION))
        .order_by("ended_at", "id")
    )


# -- sweeps -------------------------------------------------------------------------

ORIGINAL_KIND = kind_of(None)
"""The original game's kind: its sweeps are the budget sweeps."""


def sweep_get(*, sweep_id: str) -> Sweep | None:
    return Sweep.objects.filter(pk=sweep_id).first()


def sweep_latest_done(*, kind: FamilyKind = ORIGINAL_KIND) -> Sweep | None:
    """The most recently finished sweep of ``kind``'s family (by default the original
    game's: the budget sweeps)."""
    sweeps = Sweep.objects.filter(status=Sweep.Status.DONE, family=kind.stored)
    return sweeps.order_by("-finished_at", "-created_at").first()


def threshold_sweep_latest_done(*, criterion: str | None = None) -> Sweep | None:
    """The most recently finished threshold sweep of a rule family.

    ``criterion`` narrows it to the families whose failed shot means that
    (``FamilyKind.criterion``): ``"logical"``, a logical error of the planar code;
    ``"spanning"``, the game's loss rule (one-shot or sustained). None: any family.
    """
    sweeps = Sweep.objects.filter(status=Sweep.Status.DONE).exclude(family="")
    if criterion is not None:
        families = [str(family) for family in Family if kind_of(family).criterion == criterion]
        if not families:
            raise ValueError(f"no rule family has the failure criterion {criterion!r}")
        sweeps = sweeps.filter(family__in=families)
    return sweeps.order_by("-finished_at", "-created_at").first()


def sweep_points(*, sweep: Sweep) -> QuerySet[SweepPoint]:
    """The sweep's points, by bot, size and budget (or rate)."""
    return SweepPoint.objects.filter(sweep=sweep).order_by("bot_name", "size", "noise_budget",
                                                           "rate")


def sweep_thresholds(*, sweep: Sweep) -> QuerySet[SweepThreshold]:
    return SweepThreshold.objects.filter(sweep=sweep).order_by("bot_name")


@dataclass(frozen=True, slots=True)
class SweepProgress:
    chunks_done: int
    chunks_total: int
    games_done: int
    games_total: int

    @property
    def fraction(self) -> float:
        return self.games_done / self.games_total if self.games_total else 1.0


def sweep_progress(*, sweep: Sweep) -> SweepProgress:
    """How many chunks and games of the sweep are stored."""
    targets = list(SweepPoint.objects.filter(sweep=sweep).values_list("games_target", flat=True))
    chunk = max(1, sweep.chunk_size)
    chunks = SweepChunk.objects.filter(point__sweep=sweep).aggregate(
        n=Count("id"), games=Sum("games")
    )
    return SweepProgress(
        chunks_done=chunks["n"],
        chunks_total=sum(math.ceil(t / chunk) for t in targets),
        games_done=chunks["games"] or 0,
        games_total=sum(targets),
    )


@dataclass(frozen=True, slots=True)
class ChunkSpec:
    point_id: int
    index: int


def sweep_missing_chunks(*, sweep: Sweep) -> list[ChunkSpec]:
    """The chunks of the sweep that have no stored result, point by point."""
    done = set(SweepChunk.objects.filter(point__sweep=sweep).values_list("point_id", "index"))
    missing = []
    for point_id, target in sweep_points(sweep=sweep).values_list("id", "games_target"):
        for index in range(math.ceil(target / max(1, sweep.chunk_size))):
            if (point_id, index) not in done:
                missing.append(ChunkSpec(point_id, index))
    return missing


def sweep_point_lifetimes(*, point: SweepPoint) -> list[tuple[int, bool]]:
    """(rounds, lost) of every stored game of the point, in game order."""
    return list(
        SweepGame.objects.filter(chunk__point=point)
        .order_by("game_index")
        .values_list("rounds", "lost")
    )


def sweep_point_shots(*, point: SweepPoint) -> list[tuple[int, bool, bool]]:
    """(rounds, lost or failed, censored) of every stored game of the point, in game order."""
    return list(
        SweepGame.objects.filter(chunk__point=point)
        .order_by("game_index")
        .values_list("rounds", "lost", "censored")
    )


def threshold_results(*, sweep: Sweep) -> list[dict[str, Any]]:
    """A threshold sweep's results per bot, as plain data (the command's ``--json``).

    One object per bot: ``family``, ``bot``, ``threshold`` (``crossing`` and
    ``scaling`` side by side), ``points`` and ``message``.
    """
    thresholds = {t.bot_name: t for t in sweep_thresholds(sweep=sweep)}
    results = []
    for bot in sweep.bots:
        t = thresholds.get(bot)
        detail = t.detail if t is not None else {}
        points = [
            {
                "size": p.size,
                "rate": p.rate,
                "shots": p.games_done,
                "failures": p.losses,
                "censored": p.censored,
                "trials": p.trials,
                "failures_in_trials": p.failures,
                "failure_rate": p.failure_rate,
                "lower": p.failure_ci_low,
                "upper": p.failure_ci_high,
                "plateau_hazard": p.plateau_hazard,
                "mean_rounds": p.mean_rounds,
            }
            for p in sweep_points(sweep=sweep).filter(bot_name=bot)
        ]
        results.append({
            "family": sweep.family,
            "criterion": kind_of(Family(sweep.family)).criterion,
            **({"modulus": sweep.modulus, "hashing_bound": hashing_bound(sweep.modulus)}
               if sweep.modulus is not None else {}),
            "bot": bot,
            "sweep": str(sweep.pk),
            "seed": sweep.seed,
            "moves_per_cell": sweep.moves_per_cell,
            "threshold": {
                "crossing": {
                    "value": t.crossing if t else None,
                    "lower": t.crossing_low if t else None,
                    "upper": t.crossing_high if t else None,
                    "level": detail.get("level"),
                    "at_edge": t.crossing_at_edge if t else None,
                    "resamples_crossing": t.crossing_fraction if t else None,
                    "pairs": detail.get("pairs", []),
                    "message": detail.get("crossing_message", ""),
                },
                "scaling": {
                    "p_th": t.scaling_p_th if t else None,
                    "lower": t.scaling_low if t else None,
                    "upper": t.scaling_high if t else None,
                    "nu": t.scaling_nu if t else None,
                    "nu_lower": t.scaling_nu_low if t else None,
                    "nu_upper": t.scaling_nu_high if t else None,
                    "chi2_dof": t.scaling_chi2_dof if t else None,
                    "coefficients": detail.get("scaling_coefficients"),
                    "points": detail.get("scaling_points"),
                    "correction": detail.get("scaling_correction"),
                    "omega": detail.get("scaling_omega"),
                    "message": detail.get("scaling_message", ""),
                },
                "drift": detail.get("drift"),
                "headline": detail.get("headline"),
                "methods_agree": t.methods_agree if t else None,
                "direction": t.direction if t else "",
                "excluded": detail.get("excluded", []),
            },
            "points": points,
            "message": t.message if t else "not finished",
        })
    return results


# -- human games on the sweep's curves ----------------------------------------------


@dataclass(frozen=True)
class HumanPoint:
    """Human games of one size and budget, summarised like a sweep point (in rounds)."""

    size: int
    noise_budget: float
    games: int
    summary: LifetimeSummary | None
    curve: list[KMRow]
    plateau: HazardPlateau | None


def human_lifetimes(*, size: int, noise_budget: float = 6.0) -> list[tuple[int, bool]]:
    """(rounds, lost) of the finished human Z10 games of one size and budget.

    Lost games are observed losses; abandoned games are censored at the round
    they reached. Only research data counts (``Game.objects.research_data()``:
    not excluded, consented, not practice), as on the dashboard.
    """
    games = (
        Game.objects.research_data()
        .human()
        .finished()
        .filter(
            variant="z10",
            size=size,
            noise_budget=noise_budget,
            moves_per_round=5,
            rounds__gte=1,
        )
        .order_by("ended_at", "id")
        .values_list("rounds", "status")
    )
    return [(rounds, status == Game.Status.LOST) for rounds, status in games]


def human_points(
    *, sizes: Sequence[int] = (7, 8), noise_budget: float = 6.0, n_resamples: int = 1000
) -> list[HumanPoint]:
    """Human games placed on the sweep's curves: L = 7 and 8 at the original budget."""
    points = []
    for size in sizes:
        pairs = human_lifetimes(size=size, noise_budget=noise_budget)
        durations = [d for d, _ in pairs]
        observed = [o for _, o in pairs]
        if not pairs:
            points.append(HumanPoint(size, noise_budget, 0, None, [], None))
            continue
        points.append(HumanPoint(
            size,
            noise_budget,
            len(pairs),
            lifetime_summary(durations, observed, n_resamples=n_resamples),
            kaplan_meier(durations, observed),
            hazard_plateau(durations, observed),
        ))
    return points


# -- the moves of the strategy model --------------------------------------------------

STRATEGY_SPLITS: dict[str, tuple[str, ...]] = {
    "skill": SKILL_TERTILES,
    "variant": tuple(v.value for v in Variant),
    "source": ("played_here", "imported"),
}
"""The ways a fit can split every game into cohorts, and the cohorts of each, in order."""

STRATEGY_COHORTS = ("all", "z10", "phi_lambda", "played_here", "imported", *STRATEGY_SPLITS)
"""The sets of games a strategy fit can take: every one, one variant, or one source; or every
one split into cohorts of skill, variant or source (``STRATEGY_SPLITS``)."""


@dataclass(frozen=True)
class StrategyMoves:
    """People's moves of research data as the strategy model takes them."""

    boards: list[ChoiceBoard]
    units: list[str]  # per board: the player it counts for (see ``strategy_moves``)
    games: int
    data_cutoff: int  # the id of the last stored event when they were read
    # Per board: the game and the ``seq`` of the move event it was made from.
    sources: list[tuple[UUID, int]] = field(default_factory=list)


def _strategy_games(*, cohort: str) -> QuerySet[Game]:
    """The games whose moves the strategy model takes (see ``strategy_moves``)."""
    if cohort not in STRATEGY_COHORTS:
        raise ValueError(f"unknown cohort {cohort!r}; known: {', '.join(STRATEGY_COHORTS)}")
    games = (Game.objects.research_data().human().original()
             .filter(variant__in=[v.value for v in Variant]))
    if cohort in ("z10", "phi_lambda"):  # a split (skill, variant, source) takes every game
        games = games.filter(variant=cohort)
    elif cohort == "played_here":
        games = games.filter(seed__isnull=False)
    elif cohort == "imported":
        games = games.filter(seed__isnull=True)
    return games


def strategy_new_moves(*, cohort: str = "all", after_event_id: int) -> int:
    """Moves stored after event ``after_event_id`` in the games the strategy model takes.

    Every recorded move counts, including those the model will leave out (a
    move hidden by noise in a save file): this says whether a refit is worth
    its cost, not how many moves it will fit.
    """
    return Event.objects.filter(
        kind="move", id__gt=after_event_id, game__in=_strategy_games(cohort=cohort)
    ).count()


def strategy_fit_latest(*, cohort: str = "all") -> StrategyFit | None:
    """The fit of ``cohort`` that saw the most recent data (the latest stored among equals)."""
    return (StrategyFit.objects.filter(cohort="" if cohort == "all" else cohort)
            .order_by("-data_cutoff", "-id").first())


def learned_weights(*, fit_id: int | None = None, cohort: str = "all") -> LearnedWeights:
    """The weights the ``learned`` bot plays with: those of fit ``fit_id``.

    Without ``fit_id``, the latest fit of ``cohort`` (``strategy_fit_latest``).
    ``LearnedWeightsError`` (a ``ValueError``) says why there are none: no
    such fit, no fit of the cohort yet, or a fit of another feature set.
    """
    if fit_id is None:
        fit = strategy_fit_latest(cohort=cohort)
        if fit is None:
            raise LearnedWeightsError(
                f"no strategy fit of cohort {cohort!r} is stored: the learned bot plays with the "
                "weights of one (make one with manage.py strategy fit)"
            )
    else:
        if isinstance(fit_id, bool) or not isinstance(fit_id, int):
            raise LearnedWeightsError(f"a fit id is an integer, got {fit_id!r}")
        found = StrategyFit.objects.filter(pk=fit_id).first()
        if found is None:
            raise LearnedWeightsError(f"there is no strategy fit {fit_id}")
        fit = found
    coefficients = {}
    for row in fit.coefficients:
        coef = row.get("coef")
        if not isinstance(coef, int | float) or isinstance(coef, bool):
            raise LearnedWeightsError(
                f"fit {fit.pk} has no finite weight of {row.get('name')!r}: the learned bot "
                "cannot play with it"
            )
        coefficients[str(row["name"])] = float(coef)
    return LearnedWeights.of(fit_id=fit.pk, coefficients=coefficients,
                             feature_set_version=fit.feature_set_version)


def bot_weights(*, bot_name: str, fit_id: int | None = None) -> LearnedWeights | None:
    """What bot ``bot_name`` plays with besides its seed: a fit's weights, or None.

    A bot of ``WEIGHTED_BOTS`` gets the weights of fit ``fit_id`` (default:
    the latest fit of all games); any other bot gets None and takes no fit.
    ``ValueError`` for an unknown bot, a fit given to a bot that takes none,
    or a fit that cannot be played.
    """
    if bot_name not in BOT_NAMES:
        raise ValueError(f"unknown bot {bot_name!r}; known: {', '.join(BOT_NAMES)}")
    if bot_name in WEIGHTED_BOTS:
        return learned_weights(fit_id=fit_id)
    if fit_id is not None:
        raise ValueError(f"the {bot_name} bot plays without a fit (only {', '.join(WEIGHTED_BOTS)} "
                         "takes one)")
    return None


def strategy_moves(*, cohort: str = "all") -> StrategyMoves:
    """Every human move of research data in ``cohort`` (``results.analysis.strategy``).

    Games played here count for their player. An uploaded save file counts
    for itself: the file does not say who played it (one account may upload
    the saves of several people), so each file is its own unit.
    """
    cutoff = Event.objects.aggregate(last=Max("id"))["last"] or 0
    games = _strategy_games(cohort=cohort).order_by("started_at", "id")
    boards: list[ChoiceBoard] = []
    units: list[str] = []
    sources: list[tuple[UUID, int]] = []
    counted = 0
    for game in games.iterator():
        moves = game.events.filter(kind="move", id__lte=cutoff).order_by("seq")
        if game.seed is not None:
            read = list(moves)
            found = seeded_choices(
                rules=game.rules, seed=game.seed, engine_version=game.engine_version,
                moves=[(m.from_row, m.from_col, m.to_row, m.to_col) for m in read],  # type: ignore[misc]
            )
            unit = f"player:{game.player_id}"
        else:
            read = [m for m in moves if m.t is not None]
            stored = dict(game.snapshots.values_list("step", "values"))
            found = imported_choices(size=game.size, boards=stored, moves=[
                ImportedMove(m.t, (m.from_row, m.from_col, m.to_row, m.to_col),  # type: ignore[arg-type]
                             bool(m.move_certain), m.explanations or 1)
                for m in read
            ])
            unit = f"file:{game.pk}"
        if found:
            counted += 1
            boards.extend(found)
            units.extend([unit] * len(found))
            sources.extend((game.pk, read[board.move_index].seq) for board in found)
    return StrategyMoves(boards, units, counted, cutoff, sources)


@dataclass(frozen=True)
class StrategyCohorts:
    """The cohort of every board of a ``StrategyMoves`` (``strategy_cohorts``)."""

    cohorts: tuple[str, ...]  # the cohorts that have boards, in ``STRATEGY_SPLITS`` order
    of_board: list[int]  # per board: its cohort's index in ``cohorts``
    cells: list[str]  # per board: the players whose cohort a permutation moves together
    strata: list[str]  # per board: the cells a permutation shuffles among


def strategy_cohorts(*, by: str, moves: StrategyMoves) -> StrategyCohorts:
    """Split the boards of ``moves`` by ``by`` (a key of ``STRATEGY_SPLITS``).

    - ``variant``: Z10 or Phi-Lambda; ``source``: played here (the game has a
      seed) or imported.
    - ``skill``: a player's score tertile (``skill_tertiles``) among the
      players of a rule group (``games.rulesets.RULE_GROUP_FIELDS``), by the
      mean final score (the clock t) of their games there that gave moves. A
      player (a save file for imported games) of two rule groups has a tertile
      in each, and their moves in each count as a cell of their own; a
      permutation shuffles the tertiles among the cells of each rule group.
    """
    if by not in STRATEGY_SPLITS:
        raise ValueError(f"unknown split {by!r}; known: {', '.join(STRATEGY_SPLITS)}")
    game_ids = {game_id for game_id, _ in moves.sources}
    games = {row["id"]: row for row in Game.objects.filter(id__in=game_ids).values(
        "id", "seed", "score", *RULE_GROUP_FIELDS)}
    names: list[str] = []
    cells: list[str] = []
    strata: list[str] = []
    if by == "skill":
        group_of = {game_id: rule_group(SimpleNamespace(**row)).label
                    for game_id, row in games.items()}
        per_cell: dict[str, tuple[str, list[int]]] = {}
        for (game_id, _), unit in zip(moves.sources, moves.units, strict=True):
            cell = f"{unit}|{group_of[game_id]}"
            cells.append(cell)
            strata.append(group_of[game_id])
            per_cell.setdefault(cell, (group_of[game_id], []))
        for game_id, unit in {(g, u) for (g, _), u in zip(moves.sources, moves.units,
                                                          strict=True)}:
            per_cell[f"{unit}|{group_of[game_id]}"][1].append(games[game_id]["score"])
        tertile = skill_tertiles({cell: (group, sum(scores) / len(scores))
                                  for cell, (group, scores) in per_cell.items()})
        names = [tertile[cell] for cell in cells]
    else:
        for (game_id, _), unit in zip(moves.sources, moves.units, strict=True):
            row = games[game_id]
            if by == "variant":
                names.append(row["variant"])
            else:
                names.append("played_here" if row["seed"] is not None else "imported")
            cells.append(unit)
            strata.append("")
    present = tuple(name for name in STRATEGY_SPLITS[by] if name in set(names))
    index = {name: k for k, name in enumerate(present)}
    return StrategyCohorts(present, [index[name] for name in names], cells, strata)
