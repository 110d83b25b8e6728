"""The daily challenge: one seed per day for everyone, one try each, leaderboards, the bots."""

from __future__ import annotations

from datetime import date, timedelta

import pytest
from django.core.management import CommandError, call_command
from django.test import Client, override_settings
from rest_framework.test import APIClient

from core.pseudonyms import pseudonym
from games.daily import SEED_BITS, daily_seed, day_is_open, today
from games.engine import DEFAULT_RULES
from games.errors import DailyAlreadyPlayed, InvalidInput
from games.models import DailyChallenge, Game, Player
from games.selectors import daily_leaderboard, game_public_view
from games.services import game_abandon, game_start, player_set_display_name
from games.services.daily import daily_challenge_get_or_create, daily_start
from results.services import daily_bots_play
from tests.factories import GameFactory, PlayerFactory, play

pytestmark = pytest.mark.django_db


def new_client() -> tuple[APIClient, str]:
    client = APIClient()
    # A web player who answered the research question ("no"): their games may start.
    body = {"consent_version": None}
    player_id = client.post("/api/v1/players/", body, format="json").json()["player_id"]
    return client, player_id


def yesterday_challenge() -> DailyChallenge:
    return daily_challenge_get_or_create(day=today() - timedelta(days=1))


def past_daily_game(player: Player, challenge: DailyChallenge, moves: int | None = None) -> Game:
    game = game_start(player=player, rules=challenge.rules, daily=challenge)
    return play(game, moves)


# -- the seed ------------------------------------------------------------------


def test_the_seed_depends_on_the_date_and_the_secret_only():
    day = date(2026, 11, 23)
    seed = daily_seed(day=day)
    assert seed == daily_seed(day=date(2026, 11, 23))
    assert 0 <= seed < 2**SEED_BITS
    assert seed != daily_seed(day=day + timedelta(days=1))
    with override_settings(DECODOKU_DAILY_SECRET="another secret"):
        assert daily_seed(day=day) != seed
    with override_settings(SECRET_KEY="another key for the test"):
        assert daily_seed(day=day) != seed  # unset secret: derived from SECRET_KEY


def test_a_day_is_open_until_it_is_over():
    assert day_is_open(day=today())
    assert not day_is_open(day=today() - timedelta(days=1))


# -- playing it once -------------------------------------------------------------


def test_two_players_get_the_same_first_board_at_the_original_rules_and_no_seed():
    first, _ = new_client()
    second, _ = new_client()
    one = first.post("/api/v1/daily/")
    two = second.post("/api/v1/daily/")
    assert one.status_code == two.status_code == 201
    one_game, two_game = one.json(), two.json()
    assert one_game["board"]["rows"] == two_game["board"]["rows"]
    assert one_game["rules"]["key"] == two_game["rules"]["key"] == DEFAULT_RULES.key
    assert one_game["daily_date"] == today().isoformat()
    assert one_game["seed"] is None
    assert two_game["seed"] is None
    games = Game.objects.filter(pk__in=[one_game["id"], two_game["id"]])
    assert {game.seed for game in games} == {daily_seed(day=today())}
    assert {game.source for game in games} == {Game.Source.WEB}


def test_a_second_attempt_is_refused_with_409_and_creates_nothing():
    client, player_id = new_client()
    first = client.post("/api/v1/daily/").json()
    before = Game.objects.count()
    again = client.post("/api/v1/daily/")
    assert again.status_code == 409
    error = again.json()["error"]
    assert error["code"] == "daily_already_played"
    assert error["game_id"] == first["id"]
    assert Game.objects.count() == before
    assert Game.objects.filter(player_id=player_id).count() == 1


def test_the_service_refuses_a_second_attempt_even_after_the_first_ended(player):
    game = play(daily_start(player=player), moves=3)
    with pytest.raises(DailyAlreadyPlayed):
        daily_start(player=player)
    assert Game.objects.filter(player=player).count() == 1
    assert game.daily is not None


def test_a_daily_game_cannot_be_practice_or_take_another_seed(player):
    challenge = daily_challenge_get_or_create(day=today())
    with pytest.raises(InvalidInput):
        game_start(player=player, rules=challenge.rules, daily=challenge, mode=Game.Mode.PRACTICE)
    with pytest.raises(InvalidInput):
        game_start(player=player, rules=challenge.rules, daily=challenge, seed=challenge.seed + 1)
    assert not Game.objects.exists()


def test_starting_needs_a_player():
    response = APIClient().post("/api/v1/daily/")
    assert response.status_code == 401
    assert response.json()["error"]["code"] == "not_authenticated"
    assert not Game.objects.exists()


# -- the seed stays hidden while the day is open -----------------------------------


def test_a_finished_daily_game_hides_its_seed_until_the_day_is_over(player):
    game = play(daily_start(player=player))
    assert game.status == Game.Status.LOST
    assert game_public_view(game=game)["seed"] is None
    ordinary = play(GameFactory.create(player=player, seed=5), moves=None)
    assert game_public_view(game=ordinary)["seed"] == "5"

    closed = past_daily_game(player, yesterday_challenge(), moves=None)
    assert game_public_view(game=closed)["seed"] == str(closed.seed)


def test_the_api_gives_the_days_seed_only_once_it_is_over(player):
    client = APIClient()
    today_view = client.get("/api/v1/daily/").json()
    assert today_view["open"] is True
    assert today_view["seed"] is None
    challenge = yesterday_challenge()
    past = client.get(f"/api/v1/daily/{challenge.date.isoformat()}/").json()
    assert past["open"] is False
    assert past["seed"] == str(daily_seed(day=challenge.date))


# -- leaderboards ------------------------------------------------------------------


def test_the_leaderboard_ranks_finished_games_by_name_or_pseudonym(player):
    named = PlayerFactory.create()
    player_set_display_name(player=named, display_name="Ada L")
    challenge = yesterday_challenge()
    long_game = past_daily_game(named, challenge)
    short_game = game_abandon(
        game_id=past_daily_game(player, challenge, moves=2).pk, player=player
    )
    game_start(player=PlayerFactory.create(), rules=challenge.rules, daily=challenge)  # playing
    board = daily_leaderboard(challenge=challenge, player=player)
    assert board["playing"] == 1
    assert long_game.score > short_game.score
    assert [(entry["player"], entry["score"], entry["you"]) for entry in board["entries"]] == [
        ("Ada L", long_game.score, False),
        (pseudonym(player.pk), short_game.score, True),
    ]
    assert [entry["rank"] for entry in board["entries"]] == [1, 2]


def test_the_days_api_and_page_show_each_other(player):
    first, _first_id = new_client()
    second, _ = new_client()
    first.post("/api/v1/me/display-name/", {"display_name": "First One"}, format="json")
    for client in (first, second):
        game = client.post("/api/v1/daily/").json()
        client.post(f"/api/v1/games/{game['id']}/abandon/")
    view = second.get("/api/v1/daily/").json()
    assert [entry["you"] for entry in view["entries"]].count(True) == 1
    assert "First One" in [entry["player"] for entry in view["entries"]]
    assert view["my_game"]["status"] == "abandoned"
    page = Client()
    page.cookies = first.cookies
    html = page.get("/daily/").content.decode()
    assert "First One" in html
    assert "(you)" in html
    assert "Play today's challenge" not in html  # played: no second start


@pytest.mark.parametrize("day", ["2026-13-01", "yesterday", "2026-1-01", "20261123"])
def test_a_malformed_day_is_a_400_with_the_error_body(day):
    response = APIClient().get(f"/api/v1/daily/{day}/")
    assert response.status_code == 400
    assert response.json()["error"]["code"] == "invalid_request"


def test_a_day_without_a_challenge_is_a_404():
    response = APIClient().get("/api/v1/daily/2001-01-01/")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
    assert Client().get("/daily/2001-01-01/").status_code == 404


def test_past_days_are_listed_newest_first(player):
    older = daily_challenge_get_or_create(day=today() - timedelta(days=3))
    newer = yesterday_challenge()
    past_daily_game(player, older, moves=None)
    daily_challenge_get_or_create(day=today())
    days = APIClient().get("/api/v1/daily/days/").json()
    assert [day["date"] for day in days] == [newer.date.isoformat(), older.date.isoformat()]
    assert days[1]["players"] == 1
    assert days[0]["players"] == 0


def test_the_home_page_links_to_the_daily_challenge():
    html = Client().get("/").content.decode()
    assert 'href="/daily/"' in html


# -- the bots on the day's seed ---------------------------------------------------------


def test_the_bots_play_a_closed_day_once_at_its_seed(player):
    challenge = yesterday_challenge()
    past_daily_game(player, challenge)
    played = daily_bots_play(challenge_id=challenge.pk, max_moves=8)
    bot_games = Game.objects.bots().filter(daily=challenge)
    assert played == bot_games.count() >= 4
    assert {game.seed for game in bot_games} == {challenge.seed}
    assert daily_bots_play(challenge_id=challenge.pk, max_moves=8) == 0
    assert Game.objects.bots().filter(daily=challenge).count() == played
    challenge.refresh_from_db()
    assert challenge.bots_played_at is not None
    board = daily_leaderboard(challenge=challenge)
    assert len(board["entries"]) == 1
    assert len(board["bots"]) == played
    html = Client().get(f"/daily/{challenge.date.isoformat()}/").content.decode()
    assert str(challenge.seed) in html
    assert "greedy" in html


def test_the_bots_never_play_an_open_day(player):
    challenge = daily_challenge_get_or_create(day=today())
    assert daily_bots_play(challenge_id=challenge.pk, max_moves=8) == 0
    assert not Game.objects.bots().exists()


def test_a_finished_daily_game_queues_the_bots_of_closed_days(
    player, monkeypatch, django_capture_on_commit_callbacks
):
    monkeypatch.setattr("results.services.daily.DAILY_BOT_MAX_MOVES", 5)
    closed = yesterday_challenge()
    with django_capture_on_commit_callbacks(execute=True):
        game = daily_start(player=player)
    with django_capture_on_commit_callbacks(execute=True):
        APIClient().get("/")  # nothing: no game ended
    assert not Game.objects.bots().exists()
    with django_capture_on_commit_callbacks(execute=True):
        game_abandon(game_id=game.pk, player=player)
    assert Game.objects.bots().filter(daily=closed).count() >= 4
    assert not Game.objects.bots().filter(daily=game.daily).exists()


def test_the_command_plays_pending_closed_days_and_refuses_open_or_unknown_days(
    player, monkeypatch, capsys
):
    monkeypatch.setattr("results.services.daily.DAILY_BOT_MAX_MOVES", 5)
    closed = yesterday_challenge()
    open_day = daily_challenge_get_or_create(day=today())
    call_command("daily_bots")
    out = capsys.readouterr().out
    assert f"{closed.date}: " in out
    assert str(open_day.date) not in out
    assert Game.objects.bots().filter(daily=closed).count() >= 4
    assert not Game.objects.bots().filter(daily=open_day).exists()
    call_command("daily_bots", "--day", closed.date.isoformat())
    assert f"{closed.date}: 0 bot games played" in capsys.readouterr().out
    for bad in (today().isoformat(), "2001-01-01", "tomorrow"):
        with pytest.raises(CommandError):
            call_command("daily_bots", "--day", bad)


def test_the_admin_lists_the_days_and_hides_an_open_days_seed(player):
    from django.contrib.auth.models import User

    admin = User.objects.create_superuser("root", password="a-long-test-password")
    client = Client()
    client.force_login(admin)
    open_day = daily_challenge_get_or_create(day=today())
    closed = yesterday_challenge()
    html = client.get("/admin/games/dailychallenge/").content.decode()
    assert str(closed.seed) in html
    assert str(open_day.seed) not in html
    assert "hidden until the day ends" in html
    page = client.get(f"/admin/games/dailychallenge/{open_day.pk}/change/")
    assert page.status_code == 200
    assert str(open_day.seed) not in page.content.decode()


# -- sharing waits for the day to close ----------------------------------------------


def test_a_daily_game_cannot_be_shared_while_its_day_is_open(player):
    from games.errors import DailyDayOpen
    from games.services.sharing import game_share

    game = play(daily_start(player=player))
    assert game.status == Game.Status.LOST
    with pytest.raises(DailyDayOpen):
        game_share(game_id=game.id, player=player)
    game.refresh_from_db()
    assert game.share_token is None

    closed = past_daily_game(player, yesterday_challenge(), moves=None)
    assert game_share(game_id=closed.id, player=player).share_token is not None


def test_the_share_api_refuses_an_open_days_game_with_409(player):
    client, _ = new_client()
    started = client.post("/api/v1/daily/")
    assert started.status_code == 201, started.content
    game = play(Game.objects.get(pk=started.json()["id"]))
    answer = client.post(f"/api/v1/games/{game.id}/share/", {}, format="json")
    assert answer.status_code == 409
    assert answer.json()["error"]["code"] == "daily_day_open"
    assert Game.objects.get(pk=game.id).share_token is None


def test_a_shared_daily_game_is_hidden_while_its_day_is_open(player):
    from games.errors import NotFound
    from games.selectors import shared_game_by_token

    game = play(daily_start(player=player))
    # As if shared by another path: the public page still shows nothing while the day is open.
    Game.objects.filter(pk=game.pk).update(share_token="t" * 22)
    with pytest.raises(NotFound):
        shared_game_by_token(token="t" * 22)
