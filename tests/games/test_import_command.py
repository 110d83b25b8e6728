"""manage.py import_legacy: the same import as the API, from files on disk."""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.models import Game, Player
from tests.games.test_legacy_import import SAVES, Z10_SAVE

pytestmark = pytest.mark.django_db


def test_it_imports_files_for_a_given_player(player, tmp_path):
    path = tmp_path / "tiny.csv"
    path.write_text(Z10_SAVE)
    out = StringIO()
    call_command("import_legacy", str(path), "--player-id", str(player.pk), stdout=out)
    game = Game.objects.get()
    assert game.player == player
    assert f"imported as game {game.pk}" in out.getvalue()
    call_command("import_legacy", str(path), "--player-id", str(player.pk), stdout=out)
    assert "already imported" in out.getvalue()
    assert Game.objects.count() == 1


def test_without_a_player_it_makes_one(tmp_path):
    path = tmp_path / "tiny.csv"
    path.write_text(Z10_SAVE)
    call_command("import_legacy", str(path), stdout=StringIO())
    assert Player.objects.count() == 1
    assert Game.objects.get().player == Player.objects.get()


def test_it_reports_refused_files_and_fails(player, tmp_path):
    out = StringIO()
    files = [str(SAVES / "ReadMeWithExcel.csv"), str(tmp_path / "missing.csv"),
             str(SAVES / "PL_normal_205.csv")]
    summary = "1 imported, 0 already imported, 0 not save files, 2 invalid"
    with pytest.raises(CommandError, match=summary):
        call_command("import_legacy", *files, "--player-id", str(player.pk), stdout=out)
    text = out.getvalue()
    assert "REFUSED (save_breaks_rules, step 4, line 39)" in text
    assert "cannot read the file" in text
    assert Game.objects.get().partially_observed


def test_an_unknown_player_is_an_error(tmp_path):
    with pytest.raises(CommandError, match="no player"):
        call_command(
            "import_legacy", str(tmp_path / "x.csv"), "--player-id", "not-a-player",
            stdout=StringIO(),
        )


def test_a_run_that_refuses_every_file_makes_no_player(tmp_path):
    # The owner is made once a file is to be stored: refusals (rules broken, a
    # broken board) leave no empty player behind.
    broken = tmp_path / "broken.csv"
    broken.write_bytes(b"0\n,,,7(1),.,.,\n")
    with pytest.raises(CommandError, match="0 imported"):
        call_command("import_legacy", str(SAVES / "ReadMeWithExcel.csv"), str(broken),
                     stdout=StringIO())
    assert not Player.objects.exists()
    with pytest.raises(CommandError, match="1 imported"):
        call_command("import_legacy", str(broken), str(SAVES / "Z10_normal_480.csv"),
                     stdout=StringIO())
    assert Player.objects.count() == 1

