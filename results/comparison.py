"""Reads of the comparison of people with the planar decoders (``results.services.comparison``).

Keyword-only functions returning plain data. Only research data counts
(``Game.objects.research_data()``: consent, no curator exclusion, normal
mode): people's finished planar games (web page, API) and the rows that pair
each with a decoder's game on the same board.

Per (L, p, d):

- the people's success rate (a success: the board cleaned without a logical
  error), with its Wilson 95% interval;
- per decoder, paired on the same boards (only seeds a person played): its
  success rate and interval, the discordant boards (the person succeeded
  where the decoder failed, and the other way round) with the exact McNemar
  p-value, and how often the two corrections agree: the same logical outcome,
  the same homology class, the same net charge on every edge.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass, field

from django.db.models import BigIntegerField, Case, F, QuerySet, Value, When

from games.models import Game, seed_withheld_condition
from results.models import DecoderComparison
from results.services.comparison import HUMAN_SOURCES
from results.stats import wilson_interval
from results.stats.paired import mcnemar_exact

# Games listed per (L, p, d) on the comparison page, the latest first.
GAMES_LISTED = 50


@dataclass(frozen=True, slots=True)
class Rate:
    """Successes out of trials, with the Wilson 95% interval (None without trials)."""

    successes: int
    trials: int

    @property
    def rate(self) -> float | None:
        return self.successes / self.trials if self.trials else None

    @property
    def interval(self) -> tuple[float, float] | None:
        return wilson_interval(self.successes, self.trials) if self.trials else None

    @property
    def lower(self) -> float | None:
        interval = self.interval
        return interval[0] if interval is not None else None

    @property
    def upper(self) -> float | None:
        interval = self.interval
        return interval[1] if interval is not None else None


@dataclass(frozen=True, slots=True)
class DecoderSide:
    """One decoder against the people, on the boards both played."""

    decoder: str
    human: Rate  # the people on these boards
    bot: Rate  # the decoder on the same boards
    human_only: int  # boards the person solved and the decoder failed
    bot_only: int  # boards the decoder solved and the person failed
    same_outcome: Rate  # both failed or neither
    same_class: Rate  # the same homology class (boards the decoder cleaned)
    same_chain: Rate  # the same net charge on every edge (boards the decoder cleaned)

    @property
    def p_value(self) -> float:
        """The exact McNemar p-value of the discordant boards."""
        return mcnemar_exact(self.human_only, self.bot_only)


@dataclass(frozen=True, slots=True)
class GroupKey:
    size: int
    error_rate: float
    modulus: int

    @property
    def label(self) -> str:
        return f"L={self.size}, p={self.error_rate:g}, d={self.modulus}"


@dataclass
class ComparisonGroup:
    """People and decoders at one (L, p, d)."""

    key: GroupKey
    human: Rate
    decoders: list[DecoderSide] = field(default_factory=list)


@dataclass(frozen=True, slots=True)
class BotOutcome:
    decoder: str
    bot_game_id: uuid.UUID
    failed: bool
    same_outcome: bool
    same_class: bool | None
    same_chain: bool | None


@dataclass
class GameRow:
    """One person's game and the decoders' outcomes on its board."""

    game_id: uuid.UUID
    key: GroupKey
    seed: int | None  # None while withheld (a daily planar board's, its day still open)
    moves: int
    failed: bool
    ended_at: object
    bots: list[BotOutcome] = field(default_factory=list)


def human_games() -> QuerySet[Game]:
    """People's finished planar games (web, API) that are research data.

    ``shown_seed`` is the seed, or None while it is withheld
    (``seed_withheld_condition``: a daily planar board's until its day is over).
    """
    return (
        Game.objects.research_data()
        .human()
        .planar()
        .finished()
        .filter(source__in=HUMAN_SOURCES, status=Game.Status.FINISHED)
        .annotate(
            shown_seed=Case(
                When(seed_withheld_condition(), then=Value(None)),
                default=F("seed"),
                output_field=BigIntegerField(),
            )
        )
    )


def comparison_rows() -> QuerySet[DecoderComparison]:
    """The pairs (person's game, decoder's game) whose person's game is research data."""
    return DecoderComparison.objects.filter(human_game__in=human_games())


def _key(size: int, error_rate: float | None, modulus: int | None) -> GroupKey:
    return GroupKey(size=size, error_rate=error_rate or 0.0, modulus=modulus or 0)


def comparison_groups() -> list[ComparisonGroup]:
    """Per (L, p, d), people's success rate beside each decoder's on the same boards."""
    people: dict[GroupKey, list[int]] = defaultdict(lambda: [0, 0])
    for size, rate, modulus, failed in (
        human_games().values_list("size", "error_rate", "modulus", "logical_failure").iterator()
    ):
        counts = people[_key(size, rate, modulus)]
        counts[0] += int(not failed)
        counts[1] += 1
    # Per (group, decoder): human successes, bot successes, human only, bot only, pairs,
    # same outcome, same class, class compared, same chain.
    tallies: dict[tuple[GroupKey, str], list[int]] = defaultdict(lambda: [0] * 9)
    for size, rate, modulus, decoder, human_failed, bot_failed, outcome, klass, chain in (
        comparison_rows()
        .values_list(
            "human_game__size",
            "human_game__error_rate",
            "human_game__modulus",
            "decoder",
            "human_failed",
            "bot_failed",
            "same_outcome",
            "same_class",
            "same_chain",
        )
        .iterator()
    ):
        t = tallies[(_key(size, rate, modulus), decoder)]
        t[0] += int(not human_failed)
        t[1] += int(not bot_failed)
        t[2] += int(bot_failed and not human_failed)
        t[3] += int(human_failed and not bot_failed)
        t[4] += 1
        t[5] += int(outcome)
        if klass is not None:
            t[6] += int(klass)
            t[7] += 1
            t[8] += int(bool(chain))
    groups = {key: ComparisonGroup(key=key, human=Rate(c[0], c[1])) for key, c in people.items()}
    for (key, decoder), t in sorted(tallies.items(), key=lambda item: item[0][1]):
        group = groups.setdefault(key, ComparisonGroup(key=key, human=Rate(0, 0)))
        group.decoders.append(
            DecoderSide(
                decoder=decoder,
                human=Rate(t[0], t[4]),
                bot=Rate(t[1], t[4]),
                human_only=t[2],
                bot_only=t[3],
                same_outcome=Rate(t[5], t[4]),
                same_class=Rate(t[6], t[7]),
                same_chain=Rate(t[8], t[7]),
            )
        )
    return [groups[key] for key in sorted(groups, key=lambda k: (k.modulus, k.size, k.error_rate))]


def _outcomes(game_ids: list[uuid.UUID]) -> dict[uuid.UUID, list[BotOutcome]]:
    found: dict[uuid.UUID, list[BotOutcome]] = defaultdict(list)
    for row in DecoderComparison.objects.filter(human_game_id__in=game_ids).order_by(
        "human_game_id", "decoder"
    ):
        found[row.human_game_id].append(
            BotOutcome(
                decoder=row.decoder,
                bot_game_id=row.bot_game_id,
                failed=row.bot_failed,
                same_outcome=row.same_outcome,
                same_class=row.same_class,
                same_chain=row.same_chain,
            )
        )
    return found


def _rows(games: QuerySet[Game]) -> list[GameRow]:
    rows = [
        GameRow(
            game_id=game.pk,
            key=_key(game.size, game.error_rate, game.modulus),
            # Annotated by human_games(): None while the seed is withheld.
            seed=getattr(game, "shown_seed", None),
            moves=game.moves_count,
            failed=bool(game.logical_failure),
            ended_at=game.ended_at,
        )
        for game in games
    ]
    outcomes = _outcomes([row.game_id for row in rows])
    for row in rows:
        row.bots = outcomes.get(row.game_id, [])
    return rows


def comparison_games(*, key: GroupKey, limit: int = GAMES_LISTED) -> list[GameRow]:
    """The latest people's games at ``key`` with the decoders' outcomes on their boards."""
    games = (
        human_games()
        .filter(size=key.size, error_rate=key.error_rate, modulus=key.modulus)
        .order_by("-ended_at", "-id")[:limit]
    )
    return _rows(games)


def comparison_game(*, game_id: uuid.UUID) -> GameRow | None:
    """One person's game (research data) with the decoders' outcomes on its board."""
    return next(iter(_rows(human_games().filter(pk=game_id))), None)
