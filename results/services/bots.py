"""Decoder bots playing recorded games, stored exactly like the games of people.

A bot plays through the same services as the API (``games.services``), so its
games have the same events, boards, checks and analysis. Each bot has one
pseudonymous player, tied to an inactive user named after the bot
(``games.services.player_for_bot``; the planar decoders record their games
through ``games.services.planar_bot_game``).
"""

from __future__ import annotations

from games.engine import Game as EngineGame
from games.engine import RuleSet
from games.engine.bots import BOT_NAMES, get_bot
from games.models import DailyChallenge, Game, Player
from games.services import game_abandon, game_move, game_start, player_for_bot
from results.selectors import bot_weights


def _bot_username(bot_name: str) -> str:
    return f"decodoku-bot-{bot_name}"


def bot_player(*, bot_name: str) -> Player:
    """The player under which ``bot_name`` records its games (made on first use)."""
    if bot_name not in BOT_NAMES:
        raise ValueError(f"unknown bot {bot_name!r}; known: {', '.join(BOT_NAMES)}")
    return player_for_bot(username=_bot_username(bot_name))


def bot_play_game(
    *,
    bot_name: str,
    rules: RuleSet,
    seed: int,
    max_moves: int | None = None,
    daily: DailyChallenge | None = None,
    fit_id: int | None = None,
) -> Game:
    """Have a bot play one whole game, recorded move by move like a player's game.

    The bot is seeded with the game's seed, so the game is replayable from
    (bot, bot version, rule set, seed, engine version). A game still going
    after ``max_moves`` moves is abandoned (a censored lifetime). ``daily``:
    the game is that day's challenge (``rules`` and ``seed`` must be its own).

    The ``learned`` bot plays with the weights of strategy fit ``fit_id``
    (default: the latest fit of all games) and records the fit's id as its
    version, so that the game replays with the same weights; no other bot
    takes a fit. ``ValueError`` when there is no such fit (nothing is stored).
    """
    weights = bot_weights(bot_name=bot_name, fit_id=fit_id)
    player = bot_player(bot_name=bot_name)
    bot = get_bot(bot_name, seed=seed, weights=weights)
    game = game_start(
        player=player,
        rules=rules,
        source=Game.Source.BOT,
        bot_name=bot_name,
        bot_version=str(bot.version),
        seed=seed,
        daily=daily,
    )
    engine = EngineGame.from_state(game.state, record=False)
    while game.status == Game.Status.ACTIVE:
        if max_moves is not None and game.moves_count >= max_moves:
            return game_abandon(game_id=game.pk, player=player)
        move = bot.choose(engine)
        result = game_move(
            game_id=game.pk, player=player, step=game.moves_count,
            from_row=move[0], from_col=move[1], to_row=move[2], to_col=move[3],
        )
        game = result.game
        engine.move(*move)
    return game
