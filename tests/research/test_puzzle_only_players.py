"""players.csv lists the players who only did puzzles (research data), not only those with games."""

from __future__ import annotations

import pytest

from core.pseudonyms import pseudonym
from games.models import Player
from puzzles.services import attempt_finish, attempt_start
from tests.factories import PlayerFactory
from tests.research.conftest import body_of, csv_rows

pytestmark = pytest.mark.django_db


def players(client, **params: str) -> dict[str, dict[str, str]]:
    response = client.get("/research/export/players.csv", params)
    assert response.status_code == 200
    return {row["player"]: row for row in csv_rows(body_of(response))}


def puzzle_only_player(*, consent: bool = True) -> Player:
    player = PlayerFactory.create() if consent else PlayerFactory.create(consent_version=None)
    # Research data holds ended attempts only: the player gives this one up.
    attempt = attempt_start(player=player, kind="kenken", size=4, seed=3)
    attempt_finish(attempt_id=attempt.pk, player=player)
    return player


def test_a_player_who_only_did_puzzles_is_listed_with_no_games(researcher_client):
    player = puzzle_only_player()
    rows = players(researcher_client)
    assert rows[pseudonym(player.pk)]["games"] == "0"


def test_a_player_whose_puzzles_are_not_research_data_is_not_listed(researcher_client):
    player = puzzle_only_player(consent=False)
    assert pseudonym(player.pk) not in players(researcher_client)


def test_filters_that_select_games_leave_puzzle_only_players_out(researcher_client):
    player = puzzle_only_player()
    assert pseudonym(player.pk) not in players(researcher_client, variant="planar")
    assert pseudonym(player.pk) not in players(researcher_client, size="7")


def test_the_player_and_date_filters_apply_to_puzzle_only_players(researcher_client):
    player = puzzle_only_player()
    other = puzzle_only_player()
    chosen = players(researcher_client, player=pseudonym(player.pk))
    assert list(chosen) == [pseudonym(player.pk)]
    assert pseudonym(other.pk) not in players(researcher_client, date_to="2000-01-01")
