"""One game in the original apps' save format."""

from __future__ import annotations

import pytest

from games.engine.legacy import read_save, verify_save
from games.models import BoardSnapshot
from games.services.legacy import legacy_import
from tests.legacy_samples import SAVES


def test_a_played_game_downloads_as_a_save_file_the_legacy_tools_accept(
    researcher_client, lost_game
):
    response = researcher_client.get(f"/research/games/{lost_game.pk}/save.txt")
    assert response.status_code == 200
    assert f"decodoku-game-{lost_game.pk}.txt" in response["Content-Disposition"]
    save = read_save(response.content.decode(), name="download")
    boards = list(BoardSnapshot.objects.filter(game=lost_game).order_by("step"))
    assert [step.t for step in save.steps] == [board.t for board in boards]
    for step, board in zip(save.steps, boards, strict=True):
        assert "".join("0" if s == "." else s for s in step.symbols) == board.values
    assert save.score == lost_game.score
    assert verify_save(save).ok


@pytest.mark.parametrize("name", ["Z10_normal_480.csv", "PL_hard_219.csv", "PL_annotated_336.csv"])
def test_an_uploaded_save_downloads_with_its_boards_and_comments(
    researcher_client, consenting_player, name
):
    original = read_save((SAVES / name).read_bytes(), name=name)
    game = legacy_import(
        player=consenting_player, filename=name, data=(SAVES / name).read_bytes()
    ).game
    response = researcher_client.get(f"/research/games/{game.pk}/save.txt")
    assert response.status_code == 200
    save = read_save(response.content.decode(), name="download")
    assert [step.t for step in save.steps] == [step.t for step in original.steps]
    assert [step.symbols for step in save.steps] == [step.symbols for step in original.steps]
    assert [step.labels for step in save.steps] == [step.labels for step in original.steps]
    assert [[c.shown for c in step.cells] for step in save.steps] == [
        [c.shown for c in step.cells] for step in original.steps
    ]
    assert save.comments == original.comments


@pytest.mark.parametrize("game_id", ["nope", "00000000-0000-0000-0000-000000000000"])
def test_unknown_games_are_404_in_the_error_format(researcher_client, game_id):
    response = researcher_client.get(f"/research/games/{game_id}/save.txt")
    assert response.status_code == 404
    assert response.json()["error"]["code"] == "not_found"
