"""Reads of the comparison of people with the planar decoders (``results.services.comparison``).

Keyword-only functions returning plain data. Only research data counts
(``Game.objects.research_data()``: consent, no curator exclusion, normal
mode): people's ended planar games (web page, API) and the rows that pair
each with a decoder's game on the same board. A game that did not clean its
board (abandoned: a person who gave up, a decoder stopped by its move cap)
counts as a failure, for people and decoders alike.

Per (L, p, d):

- the people's success rate (a success: the board cleaned without a logical
  error), with its Wilson 95% interval;
- per decoder, on the boards people played (a board: a rule set and seed):
  how many boards and people; the people's and the decoder's success rates
  and intervals (the decoder's counted once per board, however many people
  played it); the boards where the people did better on average and those
  where the decoder did, with the exact sign test across boards
  (``core.stats.paired.board_sign_test``); and, per person's game, how
  often the two corrections agree: the same logical outcome, the same
  homology class, the same net charge on every edge.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import BigIntegerField, Case, F, QuerySet, Value, When

from core.stats import wilson_interval
from core.stats.paired import BoardSignTest, board_sign_test
from games.models import Game, seed_withheld_condition
from games.selectors import class_odds_text
from results.models import DecoderComparison
from results.services.comparison import HUMAN_SOURCES

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
    """One decoder against the people, on the boards both played.

    The board is the unit of the test: a decoder plays a board once, so its
    outcome there is one observation however many people played the board.
    """

    decoder: str
    boards: int  # distinct boards (rule set and seed) both played
    people: int  # distinct players on these boards
    human: Rate  # the people's games on these boards
    bot: Rate  # the decoder's games on these boards (one per board)
    pairing: BoardSignTest  # people's success rate against the decoder's, per board
    human_abandoned: int  # people's games on these boards that were abandoned (failed)
    bot_abandoned: int  # the decoder's games on these boards that did not clean it (failed)
    same_outcome: Rate  # both failed or neither (per person's game)
    same_class: Rate  # the same homology class (games both cleaned)
    same_chain: Rate  # the same net charge on every edge (games both cleaned)

    @property
    def people_ahead(self) -> int:
        """Boards on which the people's success rate beat the decoder's."""
        return self.pairing.first_ahead

    @property
    def decoder_ahead(self) -> int:
        """Boards on which the decoder's success rate beat the people's."""
        return self.pairing.second_ahead

    @property
    def p_value(self) -> float:
        """The exact two-sided sign test across boards."""
        return self.pairing.p_value


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
    abandoned: bool  # the decoder's game did not clean the board (counted as failed)
    same_outcome: bool
    same_class: bool | None
    same_chain: bool | None
    class_odds: float | None = None  # the probability of the class its game ended in


@dataclass
class GameRow:
    """One person's game and the decoders' outcomes on its board."""

    game_id: uuid.UUID
    key: GroupKey
    seed: int | None  # None while withheld (a daily planar board's, its day still open)
    moves: int
    failed: bool  # a logical error, or the board not cleaned (abandoned)
    abandoned: bool
    ended_at: object
    bots: list[BotOutcome] = field(default_factory=list)
    # The probability of the class the person's game ended in and of the most likely class
    # (Game.class_odds, best_class_odds), and the two in words; empty when there are none.
    class_odds: float | None = None
    best_class_odds: float | None = None
    odds_text: str = ""


def human_games() -> QuerySet[Game]:
    """People's ended planar games (web, API) that are research data.

    A game ended when its board was cleaned (finished) or when the person gave
    up (abandoned): both count, an abandoned game as a failure, as a decoder's
    game that did not clean its board does.

    ``shown_seed`` is the seed, or None while it is withheld
    (``seed_withheld_condition``: a daily planar board's until its day is over).
    """
    return (
        Game.objects.research_data()
        .human()
        .planar()
        .finished()
        .filter(source__in=HUMAN_SOURCES)
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


def succeeded(logical_failure: bool | None) -> bool:
    """A success: the board cleaned without a logical error (an uncleaned board has None)."""
    return logical_failure is False


@dataclass
class _BoardTally:
    """People's games and the decoder's games on one board (one rule set and seed)."""

    people_successes: int = 0
    people_games: int = 0
    players: set[uuid.UUID] = field(default_factory=set)
    bot_games: dict[uuid.UUID, bool] = field(default_factory=dict)  # bot game -> succeeded

    def difference(self) -> Fraction:
        """The people's success rate on the board minus the decoder's, exactly."""
        people = Fraction(self.people_successes, self.people_games)
        bot = Fraction(sum(self.bot_games.values()), len(self.bot_games))
        return people - bot


@dataclass
class _SideTally:
    boards: dict[tuple[str, int | None], _BoardTally] = field(default_factory=dict)
    human_abandoned: int = 0
    bot_abandoned: set[uuid.UUID] = field(default_factory=set)  # bot games not cleaned
    same_outcome: int = 0
    pairs: int = 0
    same_class: int = 0
    class_compared: int = 0
    same_chain: int = 0


def _side(decoder: str, tally: _SideTally) -> DecoderSide:
    boards = list(tally.boards.values())
    bot_outcomes = {game: ok for board in boards for game, ok in board.bot_games.items()}
    return DecoderSide(
        decoder=decoder,
        boards=len(boards),
        people=len({player for board in boards for player in board.players}),
        human=Rate(
            sum(board.people_successes for board in boards),
            sum(board.people_games for board in boards),
        ),
        bot=Rate(sum(bot_outcomes.values()), len(bot_outcomes)),
        pairing=board_sign_test([board.difference() for board in boards]),
        human_abandoned=tally.human_abandoned,
        bot_abandoned=len(tally.bot_abandoned),
        same_outcome=Rate(tally.same_outcome, tally.pairs),
        same_class=Rate(tally.same_class, tally.class_compared),
        same_chain=Rate(tally.same_chain, tally.class_compared),
    )


def comparison_groups() -> list[ComparisonGroup]:
    """Per (L, p, d), people's success rate beside each decoder's on the same boards."""
    people: dict[GroupKey, list[int]] = defaultdict(lambda: [0, 0])
    for size, rate, modulus, failure in (
        human_games().values_list("size", "error_rate", "modulus", "logical_failure").iterator()
    ):
        counts = people[_key(size, rate, modulus)]
        counts[0] += int(succeeded(failure))
        counts[1] += 1
    tallies: dict[tuple[GroupKey, str], _SideTally] = defaultdict(_SideTally)
    for (
        size, rate, modulus, rules_key, seed, player, human_status, decoder, bot_game,
        bot_status, human_failed, bot_failed, outcome, klass, chain,
    ) in (
        comparison_rows()
        .values_list(
            "human_game__size",
            "human_game__error_rate",
            "human_game__modulus",
            "human_game__rules_key",
            "human_game__seed",
            "human_game__player_id",
            "human_game__status",
            "decoder",
            "bot_game_id",
            "bot_game__status",
            "human_failed",
            "bot_failed",
            "same_outcome",
            "same_class",
            "same_chain",
        )
        .iterator()
    ):
        tally = tallies[(_key(size, rate, modulus), decoder)]
        board = tally.boards.setdefault((rules_key, seed), _BoardTally())
        board.people_successes += int(not human_failed)
        board.people_games += 1
        board.players.add(player)
        board.bot_games[bot_game] = not bot_failed
        tally.human_abandoned += int(human_status == Game.Status.ABANDONED)
        if bot_status != Game.Status.FINISHED:
            tally.bot_abandoned.add(bot_game)
        tally.pairs += 1
        tally.same_outcome += int(outcome)
        if klass is not None:
            tally.same_class += int(klass)
            tally.class_compared += 1
            tally.same_chain += int(bool(chain))
    groups = {key: ComparisonGroup(key=key, human=Rate(c[0], c[1])) for key, c in people.items()}
    for (key, decoder), tally in sorted(tallies.items(), key=lambda item: item[0][1]):
        group = groups.setdefault(key, ComparisonGroup(key=key, human=Rate(0, 0)))
        group.decoders.append(_side(decoder, tally))
    return [groups[key] for key in sorted(groups, key=lambda k: (k.modulus, k.size, k.error_rate))]


def _outcomes(game_ids: list[uuid.UUID]) -> dict[uuid.UUID, list[BotOutcome]]:
    found: dict[uuid.UUID, list[BotOutcome]] = defaultdict(list)
    for row in (
        DecoderComparison.objects.filter(human_game_id__in=game_ids)
        .select_related("bot_game")
        .order_by("human_game_id", "decoder")
    ):
        found[row.human_game_id].append(
            BotOutcome(
                decoder=row.decoder,
                bot_game_id=row.bot_game_id,
                failed=row.bot_failed,
                abandoned=row.bot_game.status != Game.Status.FINISHED,
                same_outcome=row.same_outcome,
                same_class=row.same_class,
                same_chain=row.same_chain,
                class_odds=row.bot_game.class_odds,
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
            failed=not succeeded(game.logical_failure),
            abandoned=game.status == Game.Status.ABANDONED,
            ended_at=game.ended_at,
            class_odds=game.class_odds,
            best_class_odds=game.best_class_odds,
            odds_text=class_odds_text(odds=game.class_odds, best_odds=game.best_class_odds,
                                      second_person=False),
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
