"""``manage.py check_save``: verdicts on legacy save files, and the exit status."""

from __future__ import annotations

import os
import subprocess
import sys
from io import StringIO
from pathlib import Path

from django.core.management import call_command
from django.core.management.base import CommandError

from tests.legacy_samples import sample_path as sample

REPO = Path(__file__).resolve().parents[2]





def run(*args: str) -> tuple[str, CommandError | None]:
    out = StringIO()
    try:
        call_command("check_save", *args, stdout=out)
    except CommandError as exc:
        return out.getvalue(), exc
    return out.getvalue(), None


def test_valid_z10_saves():
    a, b = sample("Z10_normal_475.csv"), sample("Z10_normal_480.csv")
    out, error = run(str(a), str(b))
    assert error is None
    assert out.splitlines() == [
        f"{a}: ok, Z10, L=7, score 475 (476 steps)",
        f"{b}: ok, Z10, L=7, score 480 (481 steps)",
    ]


def test_phi_lambda_saves_are_partially_observed_records():
    hard, normal = sample("PL_hard_219.csv"), sample("PL_normal_205.csv")
    out, error = run(str(hard), str(normal))
    assert error is None
    assert out.splitlines() == [
        f"{hard}: partially observed Phi-Lambda record, L=7, score 219 (220 steps, hard mode)",
        f"{normal}: partially observed Phi-Lambda record, L=7, score 205 (206 steps)",
    ]


def test_an_invalid_save_names_its_step_and_line(tmp_path):
    text = sample("Z10_normal_475.csv").read_text()
    lines = text.split("\n")
    # step 123 starts at line 1 + 123 * 10; damage the first number of its first row
    first_row = 123 * 10 + 1
    assert lines[first_row - 1] == "123"
    row = lines[first_row].split(",")
    k = next(i for i, cell in enumerate(row) if "(" in cell)
    value, group = row[k].split("(")
    row[k] = f"{int(value) % 9 + 1}({group}"
    lines[first_row] = ",".join(row)
    bad = tmp_path / "damaged.csv"
    bad.write_text("\n".join(lines))
    out, error = run(str(bad))
    assert out.startswith(f"{bad}: INVALID at step 123 (line {first_row + 1}): group_sum: ")
    assert error is not None
    assert str(bad) in str(error)


def test_unreadable_files_are_named(tmp_path):
    missing = tmp_path / "nope.csv"
    garbled = tmp_path / "garbled.csv"
    garbled.write_text("0\n,,,.,.,.,\n,,,4(1),6(1),x,\n,,,.,.,.,\n")
    good = sample("Z10_normal_480.csv")
    out, error = run(str(missing), str(garbled), str(good))
    lines = out.splitlines()
    assert lines[0].startswith(f"{missing}: cannot read the file")
    assert lines[1].startswith(f"{garbled}: not a readable save: line 3, step 0: column F")
    assert lines[2] == f"{good}: ok, Z10, L=7, score 480 (481 steps)"
    assert error is not None
    assert "2 of 3 files invalid or unreadable" in str(error)


def test_the_authors_illustration_is_reported():
    readme = sample("ReadMeWithExcel.csv")
    out, error = run(str(readme))
    assert out.startswith(f"{readme}: INVALID at step 4 (line 39): noise_off_schedule")
    assert error is not None


def test_exit_status_from_the_command_line(tmp_path):
    good = sample("Z10_normal_475.csv")
    bad = tmp_path / "bad.csv"
    bad.write_text("hello\n")
    env = {**os.environ, "DJANGO_SETTINGS_MODULE": "decodoku_site.settings"}
    ok = subprocess.run(
        [sys.executable, "manage.py", "check_save", str(good)],
        cwd=REPO, env=env, capture_output=True, text=True, check=False,
    )
    assert ok.returncode == 0, ok.stderr
    assert ok.stdout.strip() == f"{good}: ok, Z10, L=7, score 475 (476 steps)"
    failed = subprocess.run(
        [sys.executable, "manage.py", "check_save", str(good), str(bad)],
        cwd=REPO, env=env, capture_output=True, text=True, check=False,
    )
    assert failed.returncode != 0
    assert f"{bad}: not a readable save" in failed.stdout
    assert "1 of 2 files invalid or unreadable" in failed.stderr


def test_the_whole_sample_folder_is_checked_with_one_verdict_per_file(tmp_path):
    # The collection as published: every layout, notes beside the saves.
    folder = sample("Z10_normal_475.csv").parent
    note = tmp_path / "links.txt"
    note.write_text("Strategy: https://www.reddit.com/r/decodoku/\n")
    out, error = run(str(folder), str(note))
    verdicts = dict(line.split(": ", 1) for line in out.splitlines())
    assert str(error).startswith("2 of 14 files invalid or unreadable")
    colors = folder / "colors"
    for name in ("181_quantum_jim", "221_justacae", "306_xcombelle_explained", "361_aeshe1988"):
        score = name.split("_")[0]
        assert verdicts[f"{colors}/{name}.csv"].startswith(
            f"groups observed Colors record, L=7, score {score} ")
    assert verdicts[str(note)].startswith("not a save file: a note with links")
    assert verdicts[f"{folder}/SOURCE.md"].startswith("not a save file")
    assert verdicts[f"{colors}/ReadMeWithExcel.csv"].startswith("INVALID")
