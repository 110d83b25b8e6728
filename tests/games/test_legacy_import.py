"""Save files of the original apps become verified, partially observed or refused records."""

from __future__ import annotations

import pytest

from games.engine.legacy import read_save
from games.errors import SaveFileRejected
from games.models import BoardSnapshot, Event, Game
from games.services.legacy import legacy_import
from games.signals import game_finished
from games.verification import game_verify
from tests.factories import PlayerFactory
from tests.legacy_samples import SAVES

pytestmark = pytest.mark.django_db

# The original apps' save files, from the repository's fixtures.


def _save(name: str) -> bytes:
    return (SAVES / name).read_bytes()


Z10_SAVE = """0
,,,.,.,4(1),.,.,
,,,.,.,6(1),.,.,
,,,.,.,2(2),.,.,
,,,.,.,5(2),.,.,
,,,.,.,3(2),.,.,


1
,,,.,.,4(1),.,.,
,,,.,.,.,.,.,
,,,.,.,8(1),.,.,
,,,.,.,5(1),.,.,
,,,.,.,3(1),.,.,
"""


def test_a_verified_z10_save_becomes_a_lost_game_with_its_moves_and_boards(player):
    result = legacy_import(player=player, filename="Z10_normal_475.csv",
                           data=_save("Z10_normal_475.csv"))
    game = result.game
    assert result.created
    assert game.source == Game.Source.LEGACY_UPLOAD
    assert game.seed is None
    assert game.status == Game.Status.LOST
    assert game.score == 475
    assert not game.partially_observed
    assert game.merge_label == "moved"
    assert game.legacy_filename == "Z10_normal_475.csv"
    assert len(game.legacy_sha256) == 64
    assert BoardSnapshot.objects.filter(game=game).count() == 476
    moves = Event.objects.filter(game=game, kind="move")
    assert moves.count() == result.report["moves_inferred"] > 400
    first = moves.order_by("seq").first()
    assert (first.from_row, first.from_col, first.to_row, first.to_col) == (4, 6, 3, 6)
    assert first.value is not None
    assert Event.objects.filter(game=game).order_by("seq").last().kind == "loss"
    assert result.report["steps_read"] == 476
    assert game_verify(game=game).ok


def test_the_same_file_twice_returns_the_game_made_the_first_time(player):
    data = _save("Z10_normal_480.csv")
    first = legacy_import(player=player, filename="a.csv", data=data)
    again = legacy_import(player=player, filename="b.csv", data=data)
    assert not again.created
    assert again.game.pk == first.game.pk
    assert again.report == first.report
    assert Game.objects.count() == 1


def test_a_file_another_player_uploaded_first_becomes_a_private_copy(player):
    data = _save("Z10_normal_480.csv")
    first = legacy_import(player=player, filename="a.csv", data=data)
    other = PlayerFactory()
    copy = legacy_import(player=other, filename="mine.csv", data=data)
    # The second player gets a game of their own, imported as usual: nothing in the
    # result says that somebody else uploaded the file.
    assert copy.created
    assert copy.game.player == other
    assert copy.game.pk != first.game.pk
    assert copy.game.legacy_filename == "mine.csv"
    assert copy.report["summary"] == first.report["summary"]
    assert game_verify(game=copy.game).ok
    # Research data holds the game once: as the first upload.
    assert copy.game.copy_of == first.game
    Game.objects.filter(pk__in=[first.game.pk, copy.game.pk]).update(research_consent=True)
    assert list(Game.objects.research_data()) == [first.game]
    # Uploading it again returns the copy, not the first player's game.
    again = legacy_import(player=other, filename="again.csv", data=data)
    assert not again.created
    assert again.game.pk == copy.game.pk


def test_the_copy_stands_for_the_game_once_the_first_upload_is_deleted(player):
    data = _save("Z10_normal_480.csv")
    first = legacy_import(player=player, filename="a.csv", data=data).game
    copy = legacy_import(player=PlayerFactory(), filename="b.csv", data=data).game
    Game.objects.filter(pk=copy.pk).update(research_consent=True)
    first.delete()
    copy.refresh_from_db()
    assert copy.copy_of is None
    assert list(Game.objects.research_data()) == [copy]


@pytest.mark.parametrize("name", ["PL_normal_205.csv", "PL_hard_219.csv"])
def test_phi_lambda_saves_are_stored_as_partially_observed(player, name):
    game = legacy_import(player=player, filename=name, data=_save(name)).game
    assert game.partially_observed
    assert game.variant == "phi_lambda"
    symbols = set("".join(BoardSnapshot.objects.filter(game=game).values_list("values", flat=True)))
    assert symbols <= {"0", "P", "L"}
    assert Event.objects.filter(game=game, kind="move", value__isnull=False).count() == 0
    assert game_verify(game=game).ok


def test_a_hard_phi_lambda_save_keeps_what_the_player_was_shown(player):
    game = legacy_import(
        player=player, filename="PL_hard_219.csv", data=_save("PL_hard_219.csv")
    ).game
    shown = BoardSnapshot.objects.filter(game=game).exclude(shown="")
    assert shown.exists()
    snapshot = shown.first()
    assert len(snapshot.shown) == len(snapshot.values)
    assert snapshot.shown != snapshot.values


def test_comments_of_an_annotated_save_are_kept(player):
    result = legacy_import(
        player=player, filename="PL_annotated_336.csv", data=_save("PL_annotated_336.csv")
    )
    save = read_save(_save("PL_annotated_336.csv"), name="PL_annotated_336.csv")
    commented = {step.t: "\n".join(step.comments) for step in save.steps if step.comments}
    stored = dict(
        BoardSnapshot.objects.filter(game=result.game)
        .exclude(comment="")
        .values_list("step", "comment")
    )
    assert stored == commented
    assert len(stored) > 20
    assert result.report["comments"] == len(save.comments)
    assert "Get rid of the isolated pair" in stored[0]


def test_a_save_that_breaks_a_rule_is_refused_with_step_line_and_reason(player):
    with pytest.raises(SaveFileRejected) as caught:
        legacy_import(player=player, filename="ReadMe.csv", data=_save("ReadMeWithExcel.csv"))
    error = caught.value
    assert error.code == "save_breaks_rules"
    assert error.extra == {"step": 4, "line": 39, "reason": "noise_off_schedule"}
    assert not Game.objects.exists()


def test_a_small_z10_save_imports_with_its_move(player):
    result = legacy_import(player=player, filename="tiny.csv", data=Z10_SAVE.encode())
    game = result.game
    assert (game.size, game.score, game.moves_count) == (5, 1, 1)
    assert game.merge_label == "moved"
    move = Event.objects.get(game=game, kind="move")
    assert (move.from_row, move.from_col, move.to_row, move.to_col) == (1, 2, 2, 2)
    assert (move.value, move.to_value_before, move.to_value_after) == (6, 2, 8)
    assert (move.from_group, move.to_group_before, move.to_group_after) == (1, 2, 1)
    assert move.annihilated is False
    loss = Event.objects.get(game=game, kind="loss")
    assert (loss.t, loss.group, loss.axis) == (1, 1, "top_bottom")
    assert game_verify(game=game).ok


def test_a_tampered_save_is_refused(player):
    tampered = Z10_SAVE.replace("8(1)", "7(1)")
    with pytest.raises(SaveFileRejected) as caught:
        legacy_import(player=player, filename="bad.csv", data=tampered.encode())
    assert caught.value.extra["step"] is not None


@pytest.mark.parametrize(
    "data", [b"", b"\x00\xff\xfe garbage", b"hello,world\n", b"0\n,,,1,2\n", "0\n\u00e9".encode()]
)
def test_something_that_is_not_a_save_file_is_refused(player, data):
    with pytest.raises(SaveFileRejected) as caught:
        legacy_import(player=player, filename="x.csv", data=data)
    assert caught.value.code in {"invalid_save_file", "save_breaks_rules"}
    assert set(caught.value.extra) == {"step", "line", "reason"}


def test_an_imported_save_is_analysed_once_its_upload_commits(
    django_capture_on_commit_callbacks,
):
    from results.models import GameAnalysis

    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        result = legacy_import(
            player=PlayerFactory(), filename="Z10_normal_475.csv",
            data=_save("Z10_normal_475.csv"),
        )
    assert len(callbacks) == 1
    analysis = GameAnalysis.objects.get(game=result.game)
    assert analysis.score == 475
    assert analysis.survived_moves == result.game.moves_count


def test_an_upload_ends_through_the_game_finished_signal(
    player, django_capture_on_commit_callbacks
):
    finished = []

    def receiver(*, game_id, **kwargs):
        finished.append(game_id)

    game_finished.connect(receiver)
    try:
        with django_capture_on_commit_callbacks(execute=True):
            result = legacy_import(player=player, filename="small.csv", data=Z10_SAVE.encode())
    finally:
        game_finished.disconnect(receiver)
    assert finished == [result.game.pk]
