"""Sharing a finished game: the services, the selectors and the preview image."""

from __future__ import annotations

import io

import pytest
from PIL import Image

from games.errors import GameNotFinished, NotFound
from games.models import Game
from games.selectors import share_text, shared_game_by_token, shared_game_view
from games.services import game_abandon, game_share, game_unshare
from games.share_image import HEIGHT, WIDTH, group_colour, render_share_card
from tests.factories import GameFactory, PlayerFactory, play

pytestmark = pytest.mark.django_db


def _lost_game(**kwargs: object) -> Game:
    return play(GameFactory.create(size=5, **kwargs))


def test_a_finished_game_is_shared_under_an_unguessable_token():
    game = _lost_game()
    shared = game_share(game_id=game.pk, player=game.player)
    token = shared.share_token
    assert token is not None
    assert len(token) >= 22
    assert str(game.pk) not in token
    assert str(game.player.pk) not in token
    assert shared.shared_at is not None
    assert shared_game_by_token(token=token) == game
    # Sharing again keeps the link already given out.
    assert game_share(game_id=game.pk, player=game.player).share_token == token


def test_two_games_get_different_tokens():
    first, second = _lost_game(), _lost_game()
    one = game_share(game_id=first.pk, player=first.player).share_token
    two = game_share(game_id=second.pk, player=second.player).share_token
    assert one != two


def test_an_active_game_cannot_be_shared_and_nothing_changes():
    game = GameFactory.create(size=5)
    play(game, moves=2)
    with pytest.raises(GameNotFinished):
        game_share(game_id=game.pk, player=game.player)
    game.refresh_from_db()
    assert game.share_token is None
    assert game.shared_at is None
    assert not Game.objects.exclude(share_token=None).exists()


def test_an_abandoned_game_can_be_shared():
    game = GameFactory.create(size=5)
    game_abandon(game_id=game.pk, player=game.player)
    assert game_share(game_id=game.pk, player=game.player).share_token


def test_another_players_game_is_not_found_and_stays_unshared():
    game = _lost_game()
    other = PlayerFactory.create()
    with pytest.raises(NotFound):
        game_share(game_id=game.pk, player=other)
    game.refresh_from_db()
    assert game.share_token is None


def test_unsharing_kills_the_link_and_sharing_again_makes_a_new_one():
    game = _lost_game()
    old = game_share(game_id=game.pk, player=game.player).share_token
    assert old is not None
    game_unshare(game_id=game.pk, player=game.player)
    with pytest.raises(NotFound):
        shared_game_by_token(token=old)
    new = game_share(game_id=game.pk, player=game.player).share_token
    assert new is not None
    assert new != old
    # Unsharing an unshared game changes nothing.
    game_unshare(game_id=game.pk, player=game.player)
    game_unshare(game_id=game.pk, player=game.player)
    game.refresh_from_db()
    assert game.share_token is None


@pytest.mark.parametrize("token", ["", "short", "x" * 33, "a/b" * 8, "é" * 22, "0" * 22])
def test_malformed_or_unknown_tokens_are_not_found(token: str):
    _lost_game()
    with pytest.raises(NotFound):
        shared_game_by_token(token=token)


def test_the_public_view_holds_the_replay_and_nothing_of_the_player():
    game = _lost_game()
    game.refresh_from_db()
    moves = game.moves_count
    view = shared_game_view(game=game)
    assert view["score"] == game.score
    assert view["step"] == moves
    assert len(view["replay"]) == moves + 1
    assert view["loss"] is not None
    assert "group" in view["loss"]
    text = repr(view)
    for secret in (str(game.pk), str(game.player.pk), str(game.seed), game.player.token_prefix):
        assert secret not in text
    assert "note" not in view
    assert "events" not in view
    assert "seed" not in view


def test_the_public_view_reveals_the_numbers_of_a_phi_lambda_game():
    game = _lost_game(variant="phi_lambda")
    view = shared_game_view(game=game)
    cells = "".join("".join(board["rows"]) for board in view["replay"])
    assert set(cells) <= set("0123456789")
    assert set(cells) - {"0", "5"}, "the numbers behind Phi are shown"


def test_the_share_text_names_score_variant_size_and_the_link():
    game = _lost_game(variant="phi_lambda", mode=Game.Mode.PRACTICE)
    text = share_text(game=game, url="https://example.org/shared/abc/")
    assert text.startswith(f"I scored {game.score} in Decodoku (Phi-Lambda, 5\u00d75, practice, ")
    assert text.endswith("Watch the replay: https://example.org/shared/abc/")
    assert "round" in text


def test_the_preview_image_is_a_png_of_the_board_and_the_card():
    png = render_share_card(
        rows=["305", "0P0", "L09"],
        groups=[[1, 0, 2], [0, 3, 0], [4, 0, 2]],
        spanning=2,
        score=42,
        headline="Z10, 3 by 3",
        details=["12 moves, 2 rounds"],
    )
    image = Image.open(io.BytesIO(png))
    assert image.format == "PNG"
    assert image.size == (WIDTH, HEIGHT)
    # The first cell (group 1) is drawn in group 1's colour, at its top-left corner.
    rgb = image.convert("RGB")
    colours = {rgb.getpixel((x, y)) for x in range(60, 120) for y in range(60, 70)}
    assert group_colour(1) in colours


def test_group_colours_differ_between_neighbouring_ids():
    assert len({group_colour(label) for label in range(1, 8)}) == 7
