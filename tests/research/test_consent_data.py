"""Consent and what counts as research data: bots named by the server, daily seeds kept.

Each test replays a way around the consent promise or the daily board's
secrecy that a tester found, and checks every door it reached.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.db.migrations.executor import MigrationExecutor
from django.test import Client
from rest_framework.test import APIClient

from core.pseudonyms import pseudonym
from games.daily import today
from games.models import DailyChallenge, Game, Player
from games.selectors import game_public_view, seed_withheld
from games.services import player_for_bot
from games.services.bots import planar_bot_game
from games.services.daily import daily_planar_start
from results.comparison import comparison_games, comparison_groups
from results.models import DecoderComparison
from results.services.comparison import (
    comparable_games,
    comparison_enqueue_pending,
    comparison_play,
)
from tests.factories import (
    GameFactory,
    PlanarGameFactory,
    PlayerFactory,
    api_token,
    platform_bot_player,
    play,
    play_planar,
)
from tests.research.conftest import body_of, csv_rows, finish

pytestmark = pytest.mark.django_db


def _token_client(player: Player) -> APIClient:
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {api_token(player)}")
    return client


def _export(client: Client, table: str, **params: str) -> list[dict[str, str]]:
    response = client.get(f"/research/export/{table}.csv", params)
    assert response.status_code == 200, response.content
    return csv_rows(body_of(response))


def _declared_bot_game(player: Player) -> Game:
    """A game whose client declared it a bot's (``bot_name``), played out and ended."""
    response = _token_client(player).post(
        "/api/v1/games/", {"bot_name": "x", "bot_version": "1"}, format="json"
    )
    assert response.status_code == 201, response.content
    game = Game.objects.get(pk=response.json()["id"])
    game = play(game, moves=3)
    finish(game)
    return Game.objects.get(pk=game.pk)


# -- bot identity comes from the server -----------------------------------------


def test_a_bot_name_sent_by_a_player_without_consent_gives_no_bot_game():
    refusing = PlayerFactory(consent_version=None)
    game = _declared_bot_game(refusing)
    assert (game.source, game.bot_name, game.bot_version) == (Game.Source.API, "", "")
    assert game.client_info["declared_bot_name"] == "x"
    assert game.client_info["declared_bot_version"] == "1"
    assert not Game.objects.research_data().filter(pk=game.pk).exists()
    assert Game.objects.human().filter(pk=game.pk).exists()
    assert not Game.objects.bots().filter(pk=game.pk).exists()


def test_a_bot_name_sent_by_a_consenting_player_is_their_own_research_data():
    game = _declared_bot_game(PlayerFactory())
    assert game.source == Game.Source.API
    assert Game.objects.research_data().human().filter(pk=game.pk).exists()


def test_a_game_stored_as_a_bots_by_a_person_without_consent_reaches_no_door(
    researcher_client,
):
    """A row recorded before the fix (source bot, a person's player) is not trusted."""
    refusing = PlayerFactory(consent_version=None)
    game = play(GameFactory(player=refusing), moves=3)
    finish(game)
    Game.objects.filter(pk=game.pk).update(source=Game.Source.BOT, bot_name="x")
    game_id = str(game.pk)
    assert not Game.objects.research_data().filter(pk=game_id).exists()
    assert not Game.objects.bots().filter(pk=game_id).exists()
    for table in ("games", "players", "moves", "boards", "noise_errors", "game_analyses"):
        text = body_of(researcher_client.get(f"/research/export/{table}.csv")).decode()
        assert game_id not in text, table
    players = body_of(researcher_client.get("/research/export/players.csv")).decode()
    assert pseudonym(refusing.pk) not in players
    assert game_id not in researcher_client.get("/research/games/").content.decode()
    assert researcher_client.get(f"/research/games/{game_id}/").status_code == 404
    assert researcher_client.get(f"/research/games/{game_id}/save.txt").status_code == 404


def test_the_platforms_bot_players_are_marked_by_the_server_and_need_no_consent():
    bot = player_for_bot(username="decodoku-bot-greedy")
    assert bot.is_platform_bot
    game = play(GameFactory(player=bot, source=Game.Source.BOT), moves=3)
    finish(game)
    Game.objects.filter(pk=game.pk).update(research_consent=False)
    assert Game.objects.research_data().bots().filter(pk=game.pk).exists()
    assert not Game.objects.human().filter(pk=game.pk).exists()


def test_a_person_cannot_mark_their_player_a_bot_through_the_api():
    player = PlayerFactory(consent_version=None)
    client = _token_client(player)
    client.post("/api/v1/games/", {"bot_name": "greedy"}, format="json")
    player.refresh_from_db()
    assert not player.is_platform_bot


@pytest.mark.django_db(transaction=True)
def test_the_migration_marks_the_bot_players_and_gives_declared_games_back_to_their_players():
    bot = platform_bot_player("greedy")
    Player.objects.filter(pk=bot.pk).update(is_platform_bot=False)
    bot_game = GameFactory(player=bot, source=Game.Source.API)
    person = PlayerFactory(consent_version=None)
    declared = GameFactory(player=person)
    Game.objects.filter(pk=bot_game.pk).update(source="bot", bot_name="greedy", bot_version="1")
    Game.objects.filter(pk=declared.pk).update(source="bot", bot_name="x", bot_version="2")
    executor = MigrationExecutor(connection)
    latest = executor.loader.graph.leaf_nodes()
    try:
        executor.migrate([("games", "0013_daily_planar_board")])
        executor = MigrationExecutor(connection)
        executor.migrate([("games", "0014_platform_bot_players")])
        # Only the columns this migration knows: later migrations add others.
        marked = Player.objects.filter(pk__in=[bot.pk, person.pk]).values_list(
            "pk", "is_platform_bot")
        assert dict(marked) == {bot.pk: True, person.pk: False}
        games = Game.objects.only("source", "bot_name", "bot_version", "client_info")
        kept = games.get(pk=bot_game.pk)
        assert (kept.source, kept.bot_name) == ("bot", "greedy")
        given_back = games.get(pk=declared.pk)
        assert (given_back.source, given_back.bot_name, given_back.bot_version) == ("api", "", "")
        assert given_back.client_info["declared_bot_name"] == "x"
        assert given_back.client_info["declared_bot_version"] == "2"
    finally:
        executor = MigrationExecutor(connection)
        executor.migrate(latest)


# -- the browse page refuses the admin's flags ----------------------------------


@pytest.mark.parametrize("flag", ["include_unconsented", "include_active"])
def test_the_games_page_refuses_the_admins_flags_as_the_exports_do(researcher_client, flag):
    game = play(GameFactory(player=PlayerFactory(consent_version=None)), moves=2)
    finish(game)
    response = researcher_client.get("/research/games/", {flag: "1"})
    assert response.status_code == 400
    page = response.content.decode()
    assert f"{flag}: is not a filter" in page
    assert str(game.pk) not in page
    export = researcher_client.get("/research/export/games.csv", {flag: "1"})
    assert export.status_code == 400
    assert export.json()["error"]["code"] == "invalid_filter"


# -- a daily planar board's seed stays hidden while its day is open --------------


def _finished_daily_planar_game(player: Player | None = None) -> Game:
    if player is None:
        player = PlayerFactory.create()
    game = play_planar(daily_planar_start(player=player))
    assert game.status == Game.Status.FINISHED
    return game


def test_the_decoders_do_not_play_an_open_daily_board(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = _finished_daily_planar_game()
    assert comparison_play(game_id=game.pk) == 0
    assert not Game.objects.filter(seed=game.seed).exclude(pk=game.pk).exists()
    assert not DecoderComparison.objects.exists()


def test_the_decoders_play_a_daily_board_once_its_day_is_over():
    game = _finished_daily_planar_game()
    assert comparison_enqueue_pending() == 0
    DailyChallenge.every_day.filter(pk=game.daily_id).update(date=today() - timedelta(days=1))
    assert comparable_games().filter(pk=game.pk).exists()
    assert comparison_play(game_id=game.pk) > 0


def test_a_decoders_game_on_an_open_daily_board_keeps_the_seed_everywhere(
    researcher_client, client
):
    """Decoder games played on today's board (e.g. before the decoders waited for the day's
    end) carry no ``daily``: the board's seed must still be withheld on every door."""
    game = _finished_daily_planar_game()
    seed = str(game.seed)
    bot_game = planar_bot_game(rules=game.rules, bot_name="clustering", seed=game.seed)
    DecoderComparison.objects.create(
        human_game=game, bot_game=bot_game, decoder="clustering", decoder_version="1",
        human_failed=bool(game.logical_failure), bot_failed=bool(bot_game.logical_failure),
        same_outcome=True,
    )
    assert bot_game.daily_id is None
    assert seed_withheld(game=bot_game)
    assert game_public_view(game=bot_game)["seed"] is None
    compare = client.get("/compare/")
    assert compare.status_code == 200
    assert str(game.pk) in compare.content.decode()
    assert seed not in compare.content.decode()
    assert "seed withheld until its day is over" in compare.content.decode()
    assert seed not in client.get(f"/compare/{game.pk}/").content.decode()
    assert [row.seed for group in comparison_groups()
            for row in comparison_games(key=group.key)] == [None]
    for table in ("games", "decoder_comparisons"):
        assert seed not in body_of(researcher_client.get(
            f"/research/export/{table}.csv")).decode(), table
    assert researcher_client.get(f"/research/games/{bot_game.pk}/").status_code == 404


BOARD_TABLES = ("games", "noise_errors", "moves", "boards", "logical_outcomes",
                "decoder_comparisons")


def test_no_row_of_a_game_on_an_open_daily_board_is_exported(researcher_client):
    """The noise errors and a correction of today's board are its answer key: the games on
    it (a person's, a decoder's) leave neither as rows nor as pages until the day is over."""
    game = _finished_daily_planar_game(PlayerFactory())
    bot_game = planar_bot_game(rules=game.rules, bot_name="clustering", seed=game.seed)
    open_ids = {str(game.pk), str(bot_game.pk)}
    for table in BOARD_TABLES:
        exported = {row.get("game_id") or row.get("human_game_id")
                    for row in _export(researcher_client, table)}
        assert not exported & open_ids, table
    for pk in open_ids:
        assert researcher_client.get(f"/research/games/{pk}/").status_code == 404
        assert researcher_client.get(f"/research/games/{pk}/save.txt").status_code == 404

    DailyChallenge.every_day.filter(pk=game.daily_id).update(date=today() - timedelta(days=1))
    for table in ("games", "noise_errors", "boards", "logical_outcomes"):
        exported = {row["game_id"] for row in _export(researcher_client, table)}
        assert open_ids <= exported, table
    assert researcher_client.get(f"/research/games/{bot_game.pk}/").status_code == 200


def test_the_seed_shows_again_once_the_day_is_over(researcher_client):
    game = _finished_daily_planar_game()
    bot_game = planar_bot_game(rules=game.rules, bot_name="clustering", seed=game.seed)
    DailyChallenge.every_day.filter(pk=game.daily_id).update(date=today() - timedelta(days=1))
    assert not seed_withheld(game=bot_game)
    assert game_public_view(game=bot_game)["seed"] == str(game.seed)
    seeds = {row["game_id"]: row["seed"] for row in _export(researcher_client, "games")}
    assert seeds[str(bot_game.pk)] == seeds[str(game.pk)] == str(game.seed)


def test_another_game_with_a_daily_seed_but_other_rules_keeps_its_seed():
    game = _finished_daily_planar_game()
    other = PlanarGameFactory(player=platform_bot_player("clustering"), source=Game.Source.BOT,
                              seed=game.seed)
    finish(other)
    other.refresh_from_db()
    assert other.rules_key != game.rules_key
    assert not seed_withheld(game=other)


# -- only research data is compared ----------------------------------------------


def test_a_planar_game_without_consent_gets_no_decoder_games(django_capture_on_commit_callbacks):
    refusing = PlayerFactory(consent_version=None)
    with django_capture_on_commit_callbacks(execute=True):
        game = play_planar(PlanarGameFactory(player=refusing))
    assert game.status == Game.Status.FINISHED
    assert not comparable_games().filter(pk=game.pk).exists()
    assert comparison_play(game_id=game.pk) == 0
    assert comparison_enqueue_pending() == 0
    assert not Game.objects.filter(seed=game.seed).exclude(pk=game.pk).exists()
    assert not DecoderComparison.objects.exists()


def test_a_consenting_players_planar_game_is_still_compared(django_capture_on_commit_callbacks):
    with django_capture_on_commit_callbacks(execute=True):
        game = play_planar(PlanarGameFactory(player=PlayerFactory()))
    compared = DecoderComparison.objects.filter(human_game=game)
    assert sorted(compared.values_list("decoder", flat=True)) == [
        "clustering", "matching", "optimal"]

