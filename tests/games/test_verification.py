"""verify_games: every stored game replays exactly, and tampering is reported."""

from __future__ import annotations

from datetime import timedelta
from io import StringIO

import pytest
from django.core.management import CommandError, call_command
from django.utils import timezone

from games.models import BoardSnapshot, Event, Game
from games.services.legacy import legacy_import
from games.verification import game_verify, games_to_verify
from tests.factories import GameFactory, play
from tests.games.test_legacy_import import Z10_SAVE

pytestmark = pytest.mark.django_db


@pytest.fixture
def played(player) -> Game:
    return play(GameFactory.create(player=player), 12)


def _verify_command(*args: str) -> tuple[str, bool]:
    out = StringIO()
    try:
        call_command("verify_games", *args, stdout=out)
    except CommandError:
        return out.getvalue(), False
    return out.getvalue(), True


def test_a_game_played_here_replays_exactly(played):
    check = game_verify(game=played)
    assert check.ok, check.problems
    assert check.events_checked == played.next_seq
    assert check.boards_checked == played.moves_count + 1


def test_a_finished_and_an_abandoned_game_replay_exactly(player):
    lost = play(GameFactory.create(player=player, size=5))
    abandoned = play(GameFactory.create(player=player, variant="phi_lambda", mode="practice"), 7)
    Game.objects.filter(pk=abandoned.pk).update(status="abandoned", ended_at=timezone.now())
    for game in Game.objects.all():
        assert game_verify(game=game).ok, game_verify(game=game).problems
    assert lost.status == "lost"


def test_a_tampered_event_is_reported(played):
    noise = Event.objects.filter(game=played, kind="noise").order_by("-seq").first()
    Event.objects.filter(pk=noise.pk).update(a=(noise.a % 9) + 1)
    check = game_verify(game=played)
    assert not check.ok
    assert f"seq {noise.seq}" in check.problems[0]


def test_a_tampered_move_is_reported(played):
    move = Event.objects.filter(game=played, kind="move", index=3).get()
    Event.objects.filter(pk=move.pk).update(value=(move.value % 9) + 1)
    assert not game_verify(game=played).ok


def test_a_missing_event_is_reported(played):
    Event.objects.filter(game=played, seq=5).delete()
    problems = game_verify(game=played).problems
    assert any("seq numbers" in problem for problem in problems)


def test_a_tampered_board_state_and_score_are_reported(played):
    snapshot = BoardSnapshot.objects.get(game=played, step=4)
    values = "9" + snapshot.values[1:] if snapshot.values[0] != "9" else "1" + snapshot.values[1:]
    BoardSnapshot.objects.filter(pk=snapshot.pk).update(values=values)
    Game.objects.filter(pk=played.pk).update(score=played.score + 1)
    problems = game_verify(game=Game.objects.get(pk=played.pk)).problems
    assert any("step 4" in problem for problem in problems)
    assert any(problem.startswith("score is") for problem in problems)


def test_a_tampered_state_is_reported(played):
    state = dict(played.state)
    state["rng"] = "12345"
    Game.objects.filter(pk=played.pk).update(state=state)
    problems = game_verify(game=Game.objects.get(pk=played.pk)).problems
    assert problems == ["the stored state is not the state the replay reaches"]


def test_an_uploaded_save_is_checked_against_its_boards(player):
    game = legacy_import(player=player, filename="tiny.csv", data=Z10_SAVE.encode()).game
    assert game_verify(game=game).ok
    snapshot = BoardSnapshot.objects.get(game=game, step=1)
    BoardSnapshot.objects.filter(pk=snapshot.pk).update(values=snapshot.values.replace("8", "7"))
    check = game_verify(game=game)
    assert not check.ok
    assert "break a rule" in check.problems[0]


def test_a_move_of_an_upload_that_the_boards_do_not_show_is_reported(player):
    game = legacy_import(player=player, filename="tiny.csv", data=Z10_SAVE.encode()).game
    Event.objects.filter(game=game, kind="move").update(from_col=1, to_col=1)
    assert game_verify(game=game).problems == [
        "the move stored at t=1 is not what the boards show"
    ]


def test_games_can_be_selected_by_id_source_and_date(player, played):
    upload = legacy_import(player=player, filename="tiny.csv", data=Z10_SAVE.encode()).game
    Game.objects.filter(pk=played.pk).update(started_at=timezone.now() - timedelta(days=3))
    assert list(games_to_verify(source="legacy_upload")) == [upload]
    assert list(games_to_verify(game_ids=[played.pk])) == [Game.objects.get(pk=played.pk)]
    since = timezone.now() - timedelta(days=1)
    assert list(games_to_verify(since=since)) == [upload]


def test_the_command_passes_when_every_game_matches(played):
    output, ok = _verify_command()
    assert ok
    assert "1 games checked" in output
    assert "1 match, 0 do not" in output


def test_the_command_reports_a_tampered_game_and_fails(player, played):
    other = play(GameFactory.create(player=player), 3)
    Event.objects.filter(game=played, kind="noise").update(weight=0.5)
    output, ok = _verify_command()
    assert not ok
    assert f"game {played.pk} (api): DOES NOT MATCH" in output
    assert str(other.pk) not in output
    assert "2 games checked" in output
    output, ok = _verify_command("--game", str(other.pk))
    assert ok


def test_the_command_filters_and_refuses_bad_arguments(played):
    output, ok = _verify_command("--source", "legacy_upload")
    assert ok
    assert "0 games checked" in output
    output, ok = _verify_command("--since", "2000-01-01")
    assert ok
    assert "1 games checked" in output
    with pytest.raises(CommandError):
        call_command("verify_games", "--since", "last tuesday", stdout=StringIO())
    with pytest.raises(CommandError):
        call_command("verify_games", "--game", "nope", stdout=StringIO())
    output, ok = _verify_command("--game", "00000000-0000-0000-0000-000000000000")
    assert not ok
    assert "no such game" in output
