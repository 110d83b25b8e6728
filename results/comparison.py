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
  homology class, the same net charge on every edge;
- the class odds (``Game.class_odds``, ``best_class_odds``: the posterior
  probability of the class a game ended in and of the most likely class),
  per board and averaged across boards with Student t 95% intervals: the
  people's, each decoder's and the optimum's (the most likely class's) on the
  same boards. An abandoned game ended in no class; its odds count as 0 (the
  probability that it succeeds), as its outcome counts as a failure. Boards
  beyond the exact computation have no odds and are left out of these means.
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from dataclasses import dataclass, field
from fractions import Fraction

from django.db.models import BigIntegerField, Case, F, QuerySet, Value, When

from core.stats import wilson_interval
from core.stats.means import Mean, mean_interval
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
class Odds:
    """Class odds on the boards that have them, one value per board, averaged across boards.

    ``people``: per board the mean over the people's games there of the probability of the
    class each ended in (an abandoned game 0); ``best``: the most likely class's (what the
    optimal decoder chooses); ``decoder`` and ``difference`` (people minus decoder) only for
    a decoder's side.
    """

    boards: int
    people: Mean
    best: Mean
    decoder: Mean | None = None
    difference: Mean | None = None
    # People's games on these boards, and those that ended in a most likely class.
    games: int = 0
    games_best: int = 0

    @property
    def words(self) -> str:
        return odds_words(self)


def odds_words(odds: Odds, *, bot_name: str = "") -> str:
    """The odds of a group or a planar bot's side (``bot_name``) in a sentence; empty without
    boards."""
    if not odds.boards:
        return ""

    def said(mean: Mean) -> str:
        if mean.mean is None:
            return "\u2013"
        if mean.lower is None or mean.upper is None:
            return f"{mean.mean:.2f}"
        return f"{mean.mean:.2f} (95% interval {mean.lower:.2f}\u2013{mean.upper:.2f})"

    boards = f"{odds.boards} board{'s' if odds.boards != 1 else ''}"
    if odds.decoder is not None and bot_name:
        # A decoder's side: the three on its boards, in one line.
        return (f"On the {boards} {bot_name} played with odds: people's class right with "
                f"probability {said(odds.people)}, {bot_name}'s {said(odds.decoder)}, the most "
                f"likely class's {said(odds.best)}.")
    text = (f"On {boards} with odds, the class people chose was right with probability "
            f"{said(odds.people)} on average; the most likely class's (the best decoder's) "
            f"{said(odds.best)}.")
    if odds.games:
        text += (f" {odds.games_best} of {odds.games} people's game{'s' if odds.games != 1 else ''}"
                 " ended in the class the best decoder would have chosen.")
    return text


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
    odds: Odds | None = None  # the class odds on the boards both played (those that have them)

    @property
    def odds_words(self) -> str:
        return odds_words(self.odds, bot_name=self.decoder) if self.odds is not None else ""

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
    odds: Odds | None = None  # the people's class odds on every board of the group with odds


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
    best_class_odds: float | None = None  # the most likely class's, on this board


@dataclass
class GameRow:
    """One person's game and the decoders' outcomes on its board."""

    game_id: uuid.UUID
    player_id: uuid.UUID
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

    @property
    def board_best(self) -> float | None:
        """The most likely class's probability on this board, from any game on it."""
        if self.best_class_odds is not None:
            return self.best_class_odds
        return next((bot.best_class_odds for bot in self.bots
                     if bot.best_class_odds is not None), None)

    @property
    def in_best_class(self) -> bool:
        return ended_in_best(self.class_odds, self.best_class_odds)


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


def odds_of(*, status: str, class_odds: float | None) -> float | None:
    """A game's class odds as the means count them: an abandoned game's (no class) is 0."""
    if status != Game.Status.FINISHED:
        return 0.0
    return class_odds


def ended_in_best(class_odds: float | None, best_class_odds: float | None) -> bool:
    """Whether a game ended in a most likely class (its odds those of the best class)."""
    # The two are entries of one posterior: the same class (or a tie) gives the same float.
    return class_odds is not None and best_class_odds is not None and class_odds >= best_class_odds


BoardKey = tuple[str, int | None]


@dataclass
class _BoardTally:
    """People's games and the decoder's games on one board (one rule set and seed)."""

    people_successes: int = 0
    people_games: int = 0
    players: set[uuid.UUID] = field(default_factory=set)
    bot_games: dict[uuid.UUID, bool] = field(default_factory=dict)  # bot game -> succeeded
    people_odds: list[float | None] = field(default_factory=list)  # per person's game
    people_best: int = 0  # people's games that ended in a most likely class
    bot_odds: dict[uuid.UUID, float | None] = field(default_factory=dict)

    def difference(self) -> Fraction:
        """The people's success rate on the board minus the decoder's, exactly."""
        people = Fraction(self.people_successes, self.people_games)
        bot = Fraction(sum(self.bot_games.values()), len(self.bot_games))
        return people - bot


@dataclass
class _SideTally:
    boards: dict[BoardKey, _BoardTally] = field(default_factory=dict)
    human_abandoned: int = 0
    bot_abandoned: set[uuid.UUID] = field(default_factory=set)  # bot games not cleaned
    same_outcome: int = 0
    pairs: int = 0
    same_class: int = 0
    class_compared: int = 0
    same_chain: int = 0


def _mean_of(values: list[float | None]) -> float | None:
    """The mean of a board's values; None when one is missing (no odds for that board)."""
    if not values or any(value is None for value in values):
        return None
    return sum(value for value in values if value is not None) / len(values)


def _odds(boards: dict[BoardKey, _BoardTally], best: dict[BoardKey, float],
          *, with_decoder: bool) -> Odds:
    """The class odds of ``boards``: those whose best class, people's and decoder's odds are
    all known (a board beyond the exact computation has none)."""
    people: list[float] = []
    decoder: list[float] = []
    optimum: list[float] = []
    games = games_best = 0
    for key, board in boards.items():
        board_best = best.get(key)
        people_mean = _mean_of(board.people_odds)
        bot_mean = _mean_of(list(board.bot_odds.values())) if with_decoder else 0.0
        if board_best is None or people_mean is None or bot_mean is None:
            continue
        people.append(people_mean)
        decoder.append(bot_mean)
        optimum.append(board_best)
        games += len(board.people_odds)
        games_best += board.people_best
    return Odds(
        boards=len(people),
        people=mean_interval(people),
        best=mean_interval(optimum),
        decoder=mean_interval(decoder) if with_decoder else None,
        difference=(
            mean_interval([a - b for a, b in zip(people, decoder, strict=True)], low=-1.0)
            if with_decoder else None
        ),
        games=games,
        games_best=games_best,
    )


def _side(decoder: str, tally: _SideTally, best: dict[BoardKey, float]) -> DecoderSide:
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
        odds=_odds(tally.boards, best, with_decoder=True),
    )


def comparison_groups() -> list[ComparisonGroup]:
    """Per (L, p, d), people's success rate beside each decoder's on the same boards."""
    people: dict[GroupKey, list[int]] = defaultdict(lambda: [0, 0])
    people_boards: dict[GroupKey, dict[BoardKey, _BoardTally]] = defaultdict(dict)
    # The most likely class's probability per board, from any game on it that has odds.
    best: dict[BoardKey, float] = {}
    for size, rate, modulus, failure, rules_key, seed, status, odds, best_odds in (
        # shown_seed is human_games()'s annotation, which the type checker cannot see.
        human_games().values_list(  # type: ignore[misc]
            "size", "error_rate", "modulus", "logical_failure", "rules_key", "shown_seed",
            "status", "class_odds", "best_class_odds")
        .iterator()
    ):
        key = _key(size, rate, modulus)
        counts = people[key]
        counts[0] += int(succeeded(failure))
        counts[1] += 1
        if seed is None:  # withheld (a daily board's open day): its odds wait with its seed
            continue
        board = people_boards[key].setdefault((rules_key, seed), _BoardTally())
        board.people_odds.append(odds_of(status=status, class_odds=odds))
        board.people_best += int(ended_in_best(odds, best_odds))
        if best_odds is not None:
            best[(rules_key, seed)] = best_odds
    tallies: dict[tuple[GroupKey, str], _SideTally] = defaultdict(_SideTally)
    for (
        size, rate, modulus, rules_key, seed, player, human_status, decoder, bot_game,
        bot_status, human_failed, bot_failed, outcome, klass, chain,
        human_odds, human_best, bot_odds, bot_best,
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
            "human_game__class_odds",
            "human_game__best_class_odds",
            "bot_game__class_odds",
            "bot_game__best_class_odds",
        )
        .iterator()
    ):
        tally = tallies[(_key(size, rate, modulus), decoder)]
        board = tally.boards.setdefault((rules_key, seed), _BoardTally())
        board.people_successes += int(not human_failed)
        board.people_games += 1
        board.players.add(player)
        board.bot_games[bot_game] = not bot_failed
        board.people_odds.append(odds_of(status=human_status, class_odds=human_odds))
        board.people_best += int(ended_in_best(human_odds, human_best))
        board.bot_odds[bot_game] = odds_of(status=bot_status, class_odds=bot_odds)
        for known in (human_best, bot_best):
            if known is not None:
                best[(rules_key, seed)] = known
        tally.human_abandoned += int(human_status == Game.Status.ABANDONED)
        if bot_status != Game.Status.FINISHED:
            tally.bot_abandoned.add(bot_game)
        tally.pairs += 1
        tally.same_outcome += int(outcome)
        if klass is not None:
            tally.same_class += int(klass)
            tally.class_compared += 1
            tally.same_chain += int(bool(chain))
    groups = {
        key: ComparisonGroup(key=key, human=Rate(c[0], c[1]),
                             odds=_odds(people_boards[key], best, with_decoder=False))
        for key, c in people.items()
    }
    for (key, decoder), tally in sorted(tallies.items(), key=lambda item: item[0][1]):
        group = groups.setdefault(key, ComparisonGroup(key=key, human=Rate(0, 0)))
        group.decoders.append(_side(decoder, tally, best))
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
                best_class_odds=row.bot_game.best_class_odds,
            )
        )
    return found


def _shown(game: Game) -> bool:
    """Whether the game's seed is shown (``human_games`` annotates None while withheld)."""
    return getattr(game, "shown_seed", None) is not None


def _rows(games: QuerySet[Game]) -> list[GameRow]:
    rows = [
        GameRow(
            game_id=game.pk,
            player_id=game.player_id,
            key=_key(game.size, game.error_rate, game.modulus),
            # Annotated by human_games(): None while the seed is withheld.
            seed=getattr(game, "shown_seed", None),
            moves=game.moves_count,
            failed=not succeeded(game.logical_failure),
            abandoned=game.status == Game.Status.ABANDONED,
            ended_at=game.ended_at,
            # A withheld board's odds wait with its seed (they tell something of its noise).
            class_odds=game.class_odds if _shown(game) else None,
            best_class_odds=game.best_class_odds if _shown(game) else None,
            odds_text=class_odds_text(odds=game.class_odds, best_odds=game.best_class_odds,
                                      second_person=False) if _shown(game) else "",
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


def player_compared_games(*, player_id: uuid.UUID, limit: int = GAMES_LISTED) -> list[GameRow]:
    """The player's latest ended planar games that are research data, with the decoders'."""
    games = human_games().filter(player_id=player_id).order_by("-ended_at", "-id")[:limit]
    return _rows(games)
