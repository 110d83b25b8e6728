"""The daily planar board: one planar board per UTC day, the same for everyone, once each."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.db import IntegrityError, transaction
from django.test import Client, override_settings

from core.sessions import PLAYER_SESSION_KEY
from games.daily import DAILY_PLANAR_RULES, SEED_BITS, daily_planar_seed, daily_seed, today
from games.engine.rules import Family
from games.errors import DailyAlreadyPlayed, InvalidInput
from games.models import DailyChallenge, Game, Player
from games.rulesets import rules_columns
from games.selectors import daily_today_view, game_public_view
from games.services.daily import (
    daily_challenge_get_or_create,
    daily_planar_get_or_create,
    daily_planar_start,
    daily_start,
)
from tests.factories import PlayerFactory, play_planar

pytestmark = pytest.mark.django_db


def _browser_of(player: Player) -> Client:
    browser = Client()
    session = browser.session
    session[PLAYER_SESSION_KEY] = str(player.pk)
    session.save()
    return browser


def test_the_planar_seed_is_the_days_own_and_not_the_challenges():
    day = date(2026, 11, 26)
    seed = daily_planar_seed(day=day)
    assert seed == daily_planar_seed(day=date(2026, 11, 26))
    assert 0 <= seed < 2**SEED_BITS
    assert seed != daily_seed(day=day)
    assert seed != daily_planar_seed(day=day + timedelta(days=1))
    with override_settings(DECODOKU_DAILY_SECRET="another secret"):
        assert daily_planar_seed(day=day) != seed


def test_a_day_has_one_planar_board_beside_its_challenge():
    day = today()
    challenge = daily_challenge_get_or_create(day=day)
    board = daily_planar_get_or_create(day=day)
    assert board.pk != challenge.pk
    assert board.rules == DAILY_PLANAR_RULES
    assert board.rules.family is Family.PLANAR
    assert board.seed == daily_planar_seed(day=day)
    assert daily_planar_get_or_create(day=day).pk == board.pk
    # The original challenge's readers see the original challenge only.
    assert list(DailyChallenge.objects.filter(date=day)) == [challenge]
    assert list(DailyChallenge.planar.filter(date=day)) == [board]
    assert DailyChallenge.every_day.filter(date=day).count() == 2
    assert daily_challenge_get_or_create(day=day).pk == challenge.pk
    assert str(board) == f"daily planar board {day:%Y-%m-%d}"


def test_the_database_keeps_one_board_per_day_and_family():
    board = daily_planar_get_or_create(day=today())
    with pytest.raises(IntegrityError), transaction.atomic():
        DailyChallenge.every_day.create(
            date=board.date, seed=1, **rules_columns(DAILY_PLANAR_RULES)
        )


def test_the_original_daily_view_is_unchanged_by_the_planar_board():
    player = PlayerFactory()
    daily_planar_start(player=player)
    view = daily_today_view(player=player)
    assert view["rules"]["family"] in ("", None)
    assert view["my_game"] is None
    assert view["playing"] == 0


def test_everyone_gets_the_same_planar_board_and_plays_it_once():
    first, second = PlayerFactory(), PlayerFactory()
    game = daily_planar_start(player=first)
    other = daily_planar_start(player=second)
    assert game.seed == other.seed == daily_planar_seed(day=today())
    assert game.daily_id == other.daily_id
    assert game.family == "planar"
    assert game.size == DAILY_PLANAR_RULES.size
    assert game.modulus == DAILY_PLANAR_RULES.modulus
    assert (
        game_public_view(game=game)["board"]["rows"]
        == (game_public_view(game=other)["board"]["rows"])
    )
    with pytest.raises(DailyAlreadyPlayed) as refused:
        daily_planar_start(player=first)
    assert refused.value.extra["game_id"] == str(game.pk)
    assert Game.objects.filter(player=first).count() == 1


def test_the_challenge_and_the_planar_board_are_played_separately():
    player = PlayerFactory()
    challenge_game = daily_start(player=player)
    planar_game = daily_planar_start(player=player)
    assert challenge_game.daily_id != planar_game.daily_id
    assert planar_game.daily.family == "planar"
    with pytest.raises(DailyAlreadyPlayed):
        daily_start(player=player)


def test_bots_do_not_play_the_daily_planar_board():
    with pytest.raises(InvalidInput):
        daily_planar_start(player=PlayerFactory(), source=Game.Source.BOT)


def test_a_finished_daily_planar_game_hides_its_seed_while_the_day_is_open():
    game = play_planar(daily_planar_start(player=PlayerFactory()))
    assert game.status == Game.Status.FINISHED
    view = game_public_view(game=game)
    assert view["seed"] is None
    assert view["outcome"] is not None
    assert view["daily_date"] == today().isoformat()


def test_the_play_page_starts_todays_planar_board_once():
    player = PlayerFactory()
    browser = _browser_of(player)
    response = browser.post("/play/daily-planar/")
    game = Game.objects.get(player=player)
    assert response.status_code == 302
    assert response["Location"] == f"/play/?game={game.pk}"
    assert game.source == Game.Source.WEB
    assert game.daily is not None
    again = browser.post("/play/daily-planar/")
    assert again["Location"] == f"/play/?game={game.pk}"
    assert Game.objects.filter(player=player).count() == 1


def test_the_planar_board_needs_a_player_and_a_post():
    browser = Client()
    assert browser.get("/play/daily-planar/").status_code == 405
    response = browser.post("/play/daily-planar/")
    assert response.status_code == 302
    assert response["Location"] == "/play/"
    assert not Game.objects.exists()


def test_my_games_names_a_planar_game_by_its_code_and_outcome():
    player = PlayerFactory()
    game = play_planar(daily_planar_start(player=player))
    html = _browser_of(player).get("/me/").content.decode()
    rules = DAILY_PLANAR_RULES
    assert f"Planar code, d = {rules.modulus}, p = {rules.error_rate:g}" in html
    outcome = "a logical error" if game.logical_failure else "no logical error"
    assert f"Finished: {outcome} · daily planar board" in html
    # The day's page is the original challenge's: a planar row does not link to it.
    assert f"/daily/{today().isoformat()}/" not in html


def test_a_shared_planar_game_names_its_code_and_its_moves():
    from games.engine.rules import RuleSet
    from games.services import game_start
    from games.services.sharing import game_share

    player = PlayerFactory()
    rules = RuleSet(size=5, family=Family.PLANAR, modulus=2, error_rate=0.1)
    game = play_planar(game_start(player=player, rules=rules, seed=7))
    assert game.status == Game.Status.FINISHED
    token = game_share(game_id=game.pk, player=player).share_token
    html = Client().get(f"/shared/{token}/").content.decode()
    assert "Planar code, d = 2, p = 0.1, 5 \u00d7 5" in html
    moves = f"{game.moves_count} move{'' if game.moves_count == 1 else 's'}"
    assert f'<meta property="og:title" content="Decodoku: a planar board cleaned in {moves}' in html
