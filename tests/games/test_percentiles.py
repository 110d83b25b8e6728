"""My games: each finished game's percentile among everyone's games at the same rules."""

from __future__ import annotations

import pytest
from django.core.cache import cache
from django.test import Client

from games.models import Game, Player
from games.selectors import player_games_view, score_percentiles
from games.services import game_abandon
from tests.factories import GameFactory, PlayerFactory, play

pytestmark = pytest.mark.django_db


def ended(player: Player, *, moves: int, size: int = 5, mode: str = Game.Mode.NORMAL,
          source: str = Game.Source.API, seed: int = 1) -> Game:
    game = play(GameFactory.create(player=player, size=size, mode=mode, source=source,
                                   seed=seed), moves=moves)
    if game.is_active:
        game = game_abandon(game_id=game.pk, player=player)
    return game


def test_the_percentile_counts_lower_scores_and_half_the_ties(player):
    others = PlayerFactory.create()
    low = ended(others, moves=1, seed=11)
    mid = ended(others, moves=3, seed=12)
    tie = ended(others, moves=3, seed=13)
    high = ended(others, moves=6, seed=14)
    scores = [low.score, mid.score, tie.score, high.score]
    assert scores == sorted(scores)
    assert mid.score == tie.score
    assert low.score < mid.score < high.score
    mine = ended(player, moves=3, seed=15)
    assert mine.score == mid.score
    # 5 games: one lower, three equal (mid, tie and mine) -> (1 + 1.5) / 5.
    assert score_percentiles(games=[mine])[mine.pk] == (50.0, 5)
    assert score_percentiles(games=[high])[high.pk] == (90.0, 5)
    assert score_percentiles(games=[low])[low.pk] == (10.0, 5)


def test_other_rules_practice_bots_and_active_games_are_not_compared(player):
    mine = ended(player, moves=2, seed=21)
    ended(player, moves=4, size=6, seed=22)  # another size
    ended(player, moves=4, mode=Game.Mode.PRACTICE, seed=23)  # practice apart
    ended(player, moves=4, source=Game.Source.WEB, seed=24)  # same rules: compared
    active = GameFactory.create(player=player, size=5, seed=25)
    result = score_percentiles(games=[mine, active])
    assert result[mine.pk][1] == 2
    assert active.pk not in result


def test_my_games_show_percentiles_and_a_resume_link_for_an_active_game():
    browser = Client()
    player_id = browser.post("/api/v1/players/", {}, content_type="application/json").json()[
        "player_id"
    ]
    player = Player.objects.get(pk=player_id)
    finished = ended(player, moves=2, seed=31)
    active = GameFactory.create(player=player, size=5, seed=32)
    rows = {row["id"]: row for row in browser.get("/api/v1/me/games/").json()["games"]}
    assert rows[str(finished.pk)]["percentile"] == 50.0
    assert rows[str(finished.pk)]["compared_with"] == 1
    assert rows[str(active.pk)]["percentile"] is None
    html = browser.get("/me/").content.decode()
    assert f'href="/play/?game={active.pk}">Resume</a>' in html
    assert f'href="/play/?game={finished.pk}">Replay</a>' in html
    assert "50.0" in html
    view = player_games_view(player=player, today=finished.started_at.date())
    assert {row["daily_date"] for row in view["games"]} == {None}


def test_everyones_scores_are_cached_briefly_and_a_new_game_still_counts_itself(player):
    others = PlayerFactory.create()
    first = ended(others, moves=2, seed=41)
    assert score_percentiles(games=[first])[first.pk] == (50.0, 1)
    # Counted now and cached: another player's new game is not seen for a while...
    ended(others, moves=4, seed=42)
    assert score_percentiles(games=[first])[first.pk] == (50.0, 1)
    # ...but the game of the player asking, ended since, counts itself.
    mine = ended(player, moves=6, seed=43)
    percentile, compared = score_percentiles(games=[mine])[mine.pk]
    assert compared == 2
    assert percentile == (75.0 if mine.score > first.score else 25.0 if mine.score < first.score
                          else 50.0)
    cache.clear()
    assert score_percentiles(games=[mine])[mine.pk][1] == 3
