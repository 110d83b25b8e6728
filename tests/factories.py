"""factory-boy factories for the games app.

Players and games are made through the services, exactly as the API makes
them, so that every factory game is a valid record (events, boards, state).
``PlayerFactory`` leaves the raw API token on ``player.token``.
"""

from __future__ import annotations

from typing import Any

import factory

from games.engine import Family, RuleSet, game_from_state
from games.engine.planar import PlanarGame, get_decoder
from games.models import Game, Player
from games.services import game_move, game_start, player_create, player_for_bot


class PlayerFactory(factory.django.DjangoModelFactory[Player]):
    class Meta:
        model = Player

    consent_version = "2026-11-v1"
    user = None

    @classmethod
    def _create(cls, model_class: type[Player], *args: Any, **kwargs: Any) -> Player:
        player, token = player_create(
            consent_version=kwargs.get("consent_version"), user=kwargs.get("user")
        )
        player.token = token  # type: ignore[attr-defined]  # the raw token, for api_token()
        return player


def platform_bot_player(name: str = "greedy") -> Player:
    """The player of the platform's bot ``name``, made as the bots' own services make it."""
    return player_for_bot(username=f"decodoku-bot-{name}")


class GameFactory(factory.django.DjangoModelFactory[Game]):
    class Meta:
        model = Game

    player = factory.SubFactory(PlayerFactory)
    size = 7
    variant = "z10"
    noise_budget = 6.0
    moves_per_round = 5
    merge_label = "destination"
    mode = Game.Mode.NORMAL
    source = Game.Source.API
    seed = factory.Sequence(lambda n: 1000 + n)

    @classmethod
    def _create(cls, model_class: type[Game], *args: Any, **kwargs: Any) -> Game:
        rules = RuleSet(
            size=kwargs["size"],
            variant=kwargs["variant"],
            noise_budget=kwargs["noise_budget"],
            moves_per_round=kwargs["moves_per_round"],
            merge_label=kwargs["merge_label"],
        )
        return game_start(
            player=kwargs["player"],
            rules=rules,
            mode=kwargs["mode"],
            source=kwargs["source"],
            seed=kwargs["seed"],
        )


class PlanarGameFactory(factory.django.DjangoModelFactory[Game]):
    """A game of the planar code (``games.engine.planar``), started through the service."""

    class Meta:
        model = Game

    player = factory.SubFactory(PlayerFactory)
    size = 5
    modulus = 2
    error_rate = 0.1
    source = Game.Source.API
    seed = factory.Sequence(lambda n: 5000 + n)

    @classmethod
    def _create(cls, model_class: type[Game], *args: Any, **kwargs: Any) -> Game:
        rules = RuleSet(
            size=kwargs["size"],
            family=Family.PLANAR,
            modulus=kwargs["modulus"],
            error_rate=kwargs["error_rate"],
        )
        return game_start(
            player=kwargs["player"], rules=rules, source=kwargs["source"], seed=kwargs["seed"]
        )


def next_legal_move(game: Game) -> tuple[int, int, int, int]:
    """The first legal move of the game's current board (deterministic)."""
    engine = game_from_state(game.state, record=False)
    return next(engine.legal_moves())


def play(game: Game, moves: int | None = None) -> Game:
    """Play ``moves`` moves (or until the game is over) through the service."""
    played = 0
    while game.status == Game.Status.ACTIVE and (moves is None or played < moves):
        from_row, from_col, to_row, to_col = next_legal_move(game)
        result = game_move(
            game_id=game.pk,
            player=game.player,
            step=game.moves_count,
            from_row=from_row,
            from_col=from_col,
            to_row=to_row,
            to_col=to_col,
        )
        game = result.game
        played += 1
    return game


def api_token(player: Player) -> str:
    """The raw API token of a player made by ``PlayerFactory``."""
    return str(player.__dict__["token"])


def decoder_moves(game: Game, decoder: str = "clustering") -> list[tuple[int, int, int, int]]:
    """The moves a planar decoder plans for a planar game's current board."""
    engine = game_from_state(game.state, record=False)
    assert isinstance(engine, PlanarGame)
    return get_decoder(decoder).plan(engine.values, size=engine.size, modulus=engine.modulus,
                                     rate=engine.rules.error_rate)


def play_planar(game: Game, moves: int | None = None, decoder: str = "clustering") -> Game:
    """Play a planar decoder's moves (``moves`` of them, or all) through the service."""
    for from_row, from_col, to_row, to_col in decoder_moves(game, decoder)[:moves]:
        game = game_move(
            game_id=game.pk,
            player=game.player,
            step=game.moves_count,
            from_row=from_row,
            from_col=from_col,
            to_row=to_row,
            to_col=to_col,
        ).game
    return game
