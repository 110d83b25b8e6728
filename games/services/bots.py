"""Planar games played by the planar decoders, recorded like any game.

A decoder (``games.engine.planar.DECODERS``: ``matching``, ``clustering``, ``optimal``)
sees the first board's values and plans every move that cleans it; its
moves are then played one at a time through ``game_move``, exactly as a
player's moves through the API, so the game has the same events, boards,
state and checks (``manage.py verify_games``). The decoders are
deterministic, so the game is replayable from (decoder, its version, rule
set, seed, engine version). Each decoder records under its own bot player
(an inactive user ``decodoku-bot-planar-<decoder>``), apart from the game's
bots of the same name.
"""

from __future__ import annotations

from games.engine import EngineError, RuleSet, game_from_state
from games.engine.planar import DECODERS, PlanarGame, get_decoder
from games.errors import InvalidInput, InvalidRules
from games.models import Game, Player
from games.services.play import game_abandon, game_move, game_start
from games.services.players import player_for_bot


def planar_bot_player(*, bot_name: str) -> Player:
    """The player under which the planar bot ``bot_name`` records its games."""
    if bot_name not in DECODERS:
        known = ", ".join(sorted(DECODERS))
        raise InvalidInput(f"unknown planar decoder {bot_name!r}; known: {known}")
    return player_for_bot(username=f"decodoku-bot-planar-{bot_name}")


def planar_bot_game(
    *, rules: RuleSet, bot_name: str, seed: int, max_moves: int | None = None
) -> Game:
    """Record one planar game of ``rules`` from ``seed``, played by the bot ``bot_name``.

    The game is a bot game (source ``bot``, ``bot_name`` the decoder's name,
    ``bot_version`` its version), research data like every bot game. It ends
    finished with its logical outcome when the decoder has cleaned the board.
    A plan longer than ``max_moves`` is stopped after ``max_moves`` moves and
    the game abandoned (the sweeps' move cap: a censored shot, which they
    count as failed); so is a plan that would leave a number on the board.
    ``seed`` must be below 2**63, as every recorded game's.
    """
    if not isinstance(rules, RuleSet) or rules.kind.grouped:
        raise InvalidRules("planar_bot_game plays rule sets of the planar family")
    if max_moves is not None and max_moves < 0:
        raise InvalidInput("max_moves must not be negative")
    player = planar_bot_player(bot_name=bot_name)
    bot = get_decoder(bot_name)
    modulus = rules.modulus if rules.modulus is not None else 0
    if modulus not in bot.moduli:
        allowed = ", ".join(str(d) for d in sorted(bot.moduli))
        raise InvalidRules(f"the {bot_name} decoder decodes d = {allowed}, not d = {modulus}")
    game = game_start(
        player=player,
        rules=rules,
        source=Game.Source.BOT,
        bot_name=bot_name,
        bot_version=str(bot.version),
        seed=seed,
    )
    board = game_from_state(game.state, record=False)
    if not isinstance(board, PlanarGame):  # pragma: no cover - a planar rule set's state
        raise InvalidRules("the game started is not a planar game")
    try:
        plan = bot.plan(board.values, size=board.size, modulus=board.modulus,
                        rate=rules.error_rate)
    except EngineError as exc:  # pragma: no cover - the modulus was checked above
        raise InvalidRules(str(exc), code=exc.code) from exc
    for move in plan:
        if game.status != Game.Status.ACTIVE:
            break
        if max_moves is not None and game.moves_count >= max_moves:
            break
        result = game_move(
            game_id=game.pk, player=player, step=game.moves_count,
            from_row=move[0], from_col=move[1], to_row=move[2], to_col=move[3],
        )
        game = result.game
    if game.status == Game.Status.ACTIVE:
        game = game_abandon(game_id=game.pk, player=player)
    return game
