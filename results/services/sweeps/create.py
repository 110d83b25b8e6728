"""Creating a sweep: one validator and one creation path for every family.

``sweep_create`` (a budget sweep of the original game) and
``threshold_sweep_create`` (a rule family) only pick the family's
specification (``specs.SWEEP_SPECS``) and name their arguments; everything
else is ``sweep_create_from_spec``.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from django.db import transaction
from django.utils import timezone

from games.engine import ENGINE_VERSION, InvalidRuleSet
from games.engine.bots import WEIGHTED_BOTS
from games.engine.families import NO_FAMILY, Family
from games.engine.planar import DECODERS as PLANAR_DECODERS
from games.engine.rules import MAX_MODULUS, MIN_MODULUS, MIN_SIZE
from results.models import Sweep, SweepPoint
from results.selectors import learned_weights
from results.services.sweeps.specs import (
    DEFAULT_CHUNK_SIZE,
    DEFAULT_MAX_ROUNDS,
    DEFAULT_MOVES_PER_CELL,
    DEFAULT_MOVES_PER_ROUND,
    SWEEP_SPECS,
    PointRules,
    SweepError,
    SweepSpec,
    family_spec,
)

MAX_GAMES_PER_POINT = 1_000_000
MAX_SEED = 2**63 - 1
MAX_RECORDED_SHOTS = 1000  # per point: each is a full game with its events in the database
MAX_CHUNK_SIZE = 100_000
MAX_MAX_ROUNDS = 1_000_000


@dataclass(frozen=True, slots=True, kw_only=True)
class SweepRequest:
    """A sweep as asked for, before validation; None: the family's default."""

    bots: Sequence[str]
    sizes: Sequence[int]
    values: Sequence[float]  # the noise budgets or the error rates
    per_point: int
    seed: int
    chunk_size: int | None = None
    max_rounds: int | None = None
    moves_per_round: int = DEFAULT_MOVES_PER_ROUND
    moves_per_cell: float | None = None
    modulus: int | None = None
    record_shots: int = 0
    fit_id: int | None = None  # the learned bot's fit; None: the latest fit of all games


@dataclass(frozen=True, slots=True, kw_only=True)
class CheckedSweep:
    """A validated ``SweepRequest`` with the family's defaults filled in."""

    bots: list[str]
    sizes: list[int]
    values: list[float]
    per_point: int
    seed: int
    chunk_size: int
    max_rounds: int
    moves_per_round: int
    moves_per_cell: float | None
    modulus: int | None
    record_shots: int
    versions: dict[str, int]  # each bot's version: a weighted bot's is its fit's id


def _integer(name: str, value: object, low: int, high: int) -> None:
    if isinstance(value, bool) or not isinstance(value, int) or not low <= value <= high:
        raise SweepError(f"{name} must be an integer from {low} to {high}, got {value!r}")


def _check_modulus(spec: SweepSpec, request: SweepRequest) -> None:
    modulus = request.modulus
    if not spec.takes_modulus:
        if modulus is not None:
            raise SweepError("--modulus belongs to the planar family")
        return
    if modulus is None:
        raise SweepError(f"a planar sweep needs its modulus d ({MIN_MODULUS} to {MAX_MODULUS})")
    if (
        isinstance(modulus, bool)
        or not isinstance(modulus, int)
        or not MIN_MODULUS <= modulus <= MAX_MODULUS
    ):
        raise SweepError(
            f"modulus must be between {MIN_MODULUS} and {MAX_MODULUS}, got {modulus!r}"
        )
    for bot in request.bots:
        moduli = PLANAR_DECODERS[bot].moduli
        if modulus not in moduli:
            allowed = ", ".join(str(d) for d in sorted(moduli))
            raise SweepError(f"the {bot} decoder decodes d = {allowed}, not d = {modulus}")


def sweep_validate(*, spec: SweepSpec, request: SweepRequest) -> CheckedSweep:
    """``request`` with the family's defaults filled in; ``SweepError`` says what is wrong."""
    bots, sizes, values = request.bots, request.sizes, request.values
    if not bots or not sizes or not values:
        raise SweepError(f"a {spec.what} needs at least one bot, one size and one {spec.axis}")
    unknown = [b for b in bots if b not in spec.bots]
    if unknown:
        raise SweepError(
            f"unknown {spec.bot_kind} {unknown[0]!r}; known: {', '.join(sorted(spec.bots))}"
        )
    _check_modulus(spec, request)
    versions = _versions(spec, request)
    for name, items in (("bots", bots), ("sizes", sizes), (f"{spec.axis}s", values)):
        if len(set(items)) != len(items):
            raise SweepError(f"{name} must not repeat a value")
    for size in sizes:
        if (
            isinstance(size, bool)
            or not isinstance(size, int)
            or not MIN_SIZE <= size <= spec.max_size
        ):
            raise SweepError(
                f"sizes must be integers from {MIN_SIZE} to {spec.max_size}, got {size!r}"
            )
    if spec.check_value is not None:
        for value in values:
            spec.check_value(value)
    if request.moves_per_cell is not None and not spec.takes_moves_per_cell:
        raise SweepError("--moves-per-cell belongs to the sustained family")
    params = PointRules(
        moves_per_round=request.moves_per_round,
        moves_per_cell=request.moves_per_cell,
        modulus=request.modulus,
    )
    try:
        for value in values:
            spec.point_rules(size=sizes[0], value=value, params=params)
    except (InvalidRuleSet, TypeError, ValueError) as exc:
        raise SweepError(str(exc)) from exc
    chunk_size = spec.default_chunk_size if request.chunk_size is None else request.chunk_size
    max_rounds = spec.default_max_rounds if request.max_rounds is None else request.max_rounds
    for name, value, low, high in (
        (f"{spec.count} per point", request.per_point, 1, MAX_GAMES_PER_POINT),
        ("seed", request.seed, 0, MAX_SEED),
        ("chunk size", chunk_size, 1, MAX_CHUNK_SIZE),
        ("max rounds", max_rounds, 1, MAX_MAX_ROUNDS),
        ("recorded shots", request.record_shots, 0, MAX_RECORDED_SHOTS),
    ):
        _integer(name, value, low, high)
    if request.record_shots and not spec.records_shots:
        raise SweepError(
            "--record keeps planar shots as games; the one-shot and sustained "
            "families are not recorded as games"
        )
    moves_per_cell = request.moves_per_cell
    if spec.takes_moves_per_cell and moves_per_cell is None:
        moves_per_cell = DEFAULT_MOVES_PER_CELL
    return CheckedSweep(
        bots=list(bots),
        sizes=list(sizes),
        values=[float(v) for v in values],
        per_point=request.per_point,
        seed=request.seed,
        chunk_size=chunk_size,
        max_rounds=max_rounds,
        moves_per_round=request.moves_per_round,
        moves_per_cell=moves_per_cell,
        modulus=request.modulus,
        record_shots=request.record_shots,
        versions=versions,
    )


def _versions(spec: SweepSpec, request: SweepRequest) -> dict[str, int]:
    """Each bot's version; a bot of ``WEIGHTED_BOTS`` gets its fit's, which must exist."""
    weighted = [bot for bot in request.bots if bot in WEIGHTED_BOTS]
    if request.fit_id is not None and not weighted:
        raise SweepError(f"--fit belongs to the {', '.join(WEIGHTED_BOTS)} bot")
    versions = {bot: spec.bots[bot].version for bot in request.bots}
    if weighted:
        try:
            weights = learned_weights(fit_id=request.fit_id)
        except ValueError as exc:
            raise SweepError(str(exc)) from exc
        for bot in weighted:
            versions[bot] = weights.fit_id
    return versions


@transaction.atomic
def sweep_create_from_spec(*, spec: SweepSpec, request: SweepRequest) -> Sweep:
    """Validate and store a pending sweep of ``spec``'s family and its points (nothing runs)."""
    checked = sweep_validate(spec=spec, request=request)
    budget = not spec.kind.threshold
    sweep = Sweep.objects.create(
        family=spec.family,
        bots=checked.bots,
        sizes=checked.sizes,
        budgets=checked.values if budget else [],
        rates=[] if budget else checked.values,
        moves_per_cell=checked.moves_per_cell,
        modulus=checked.modulus,
        record_shots=checked.record_shots,
        games_per_point=checked.per_point,
        seed=checked.seed,
        chunk_size=checked.chunk_size,
        max_rounds=checked.max_rounds,
        moves_per_round=checked.moves_per_round,
        engine_version=ENGINE_VERSION,
        status=Sweep.Status.PENDING,
        created_at=timezone.now(),
    )
    SweepPoint.objects.bulk_create(
        SweepPoint(
            sweep=sweep,
            bot_name=bot,
            bot_version=checked.versions[bot],
            size=size,
            games_target=checked.per_point,
            **({"noise_budget": value} if budget else {"rate": value}),
        )
        for bot in checked.bots
        for size in checked.sizes
        for value in checked.values
    )
    return sweep


def sweep_create(
    *,
    bots: Sequence[str],
    sizes: Sequence[int],
    budgets: Sequence[float],
    games_per_point: int,
    seed: int,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
    max_rounds: int = DEFAULT_MAX_ROUNDS,
    moves_per_round: int = DEFAULT_MOVES_PER_ROUND,
    fit_id: int | None = None,
) -> Sweep:
    """Store a pending budget sweep of the original game and its points (nothing runs yet).

    ``fit_id``: the strategy fit the ``learned`` bot plays with (default: the
    latest fit of all games); its points record it as their bot version.
    """
    return sweep_create_from_spec(
        spec=SWEEP_SPECS[NO_FAMILY],
        request=SweepRequest(
            bots=bots,
            sizes=sizes,
            values=budgets,
            per_point=games_per_point,
            seed=seed,
            chunk_size=chunk_size,
            max_rounds=max_rounds,
            moves_per_round=moves_per_round,
            fit_id=fit_id,
        ),
    )


def threshold_sweep_create(
    *,
    family: Family | str,
    bots: Sequence[str],
    sizes: Sequence[int],
    rates: Sequence[float],
    shots_per_point: int,
    seed: int,
    moves_per_cell: float | None = None,
    chunk_size: int | None = None,
    max_rounds: int | None = None,
    modulus: int | None = None,
    record_shots: int = 0,
    fit_id: int | None = None,
) -> Sweep:
    """Store a pending threshold sweep of a rule family and its (bot, L, p) points.

    ``max_rounds`` and ``chunk_size`` default to the family's
    (``specs.SWEEP_SPECS``): one-shot and planar stop a shot after 3 moves per
    cell, sustained after 1000 rounds; planar chunks hold 500 shots, the others
    10. ``modulus`` (d) is the planar family's and required there.
    ``record_shots`` (planar only) keeps the first that many shots of every
    point as recorded games as well (``SweepGame.game``). ``fit_id``: the
    strategy fit the ``learned`` bot plays with (default: the latest fit of all
    games); its points record it as their bot version.
    """
    return sweep_create_from_spec(
        spec=family_spec(family),
        request=SweepRequest(
            bots=bots,
            sizes=sizes,
            values=rates,
            per_point=shots_per_point,
            seed=seed,
            chunk_size=chunk_size,
            max_rounds=max_rounds,
            moves_per_cell=moves_per_cell,
            modulus=modulus,
            record_shots=record_shots,
            fit_id=fit_id,
        ),
    )
