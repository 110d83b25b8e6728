"""``manage.py simulate``: bot games written as legacy save files."""

from __future__ import annotations

import re
from io import StringIO

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from games.engine.simulate import game_seeds

LINE = re.compile(
    r"game (\d+): noise seed (\d+), policy seed (\d+), score (\d+), (\d+) moves -> (.+\.csv)"
)


def simulate(*args: str) -> str:
    out = StringIO()
    call_command("simulate", *args, stdout=out)
    return out.getvalue()


def test_games_are_saved_and_pass_check_save(tmp_path):
    out = simulate("--policy", "random", "--games", "4", "--size", "5", "--seed", "17",
                   "--save-dir", str(tmp_path))
    lines = out.splitlines()
    assert len(lines) == 5
    files = []
    scores = []
    for i, line in enumerate(lines[:4]):
        match = LINE.fullmatch(line)
        assert match, line
        index, noise, policy, score, _, path = match.groups()
        assert int(index) == i
        assert (int(noise), int(policy)) == game_seeds(17, i)
        assert path == str(tmp_path / f"z10_L5_seed{noise}_score{score}.csv")
        files.append(path)
        scores.append(int(score))
    mean = sum(scores) / 4
    assert lines[4] == (
        f"4 games (z10-L5-b6-m5-destination, policy random, seed 17): mean score {mean:.2f}, "
        f"min {min(scores)}, max {max(scores)}"
    )
    assert sorted(str(p) for p in tmp_path.iterdir()) == sorted(files)
    checked = StringIO()
    call_command("check_save", *files, stdout=checked)
    for path, score, line in zip(files, scores, checked.getvalue().splitlines(), strict=True):
        assert line.startswith(f"{path}: ok, Z10, L=5, score {score} (")


def test_phi_lambda_games_with_another_budget(tmp_path):
    out = simulate("--games", "2", "--size", "8", "--seed", "3", "--budget", "4",
                   "--variant", "phi_lambda", "--merge-label", "moved",
                   "--save-dir", str(tmp_path / "new" / "dir"))
    assert "phi_lambda-L8-b4-m5-moved" in out.splitlines()[-1]
    files = sorted((tmp_path / "new" / "dir").iterdir())
    assert len(files) == 2
    assert all(f.name.startswith("phi_lambda_L8_seed") for f in files)
    checked = StringIO()
    call_command("check_save", *map(str, files), stdout=checked)
    assert checked.getvalue().count("partially observed Phi-Lambda record, L=8") == 2


def test_runs_are_reproducible(tmp_path):
    first = simulate("--games", "2", "--size", "4", "--seed", "5", "--save-dir",
                     str(tmp_path / "a"))
    second = simulate("--games", "2", "--size", "4", "--seed", "5", "--save-dir",
                      str(tmp_path / "b"))
    assert first.replace(str(tmp_path / "a"), "") == second.replace(str(tmp_path / "b"), "")
    for a in (tmp_path / "a").iterdir():
        assert (tmp_path / "b" / a.name).read_bytes() == a.read_bytes()


def test_without_a_save_dir_only_the_summary_is_printed():
    out = simulate("--games", "1", "--size", "3")
    assert "->" not in out
    assert "1 game (" in out


@pytest.mark.parametrize(
    ("args", "message"),
    [
        (["--policy", "clever"], "unknown policy 'clever'"),
        (["--games", "0"], "--games must be at least 1"),
        (["--games", "x"], "invalid int value"),
        (["--size", "2"], "size must be between 3 and 16"),
        (["--size", "17"], "size must be between 3 and 16"),
        (["--budget", "-1"], "noise_budget must be > 0"),
        (["--seed", "-1"], "--seed must be between 0 and 2**64 - 1"),
        (["--seed", str(2**64)], "--seed must be between 0 and 2**64 - 1"),
        (["--variant", "z11"], "invalid choice"),
        (["--max-moves", "0"], "--max-moves must be at least 1"),
    ],
)
def test_bad_arguments(args, message):
    with pytest.raises(CommandError) as info:
        simulate(*args)
    assert message in str(info.value)


def test_a_save_dir_that_is_a_file(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("")
    with pytest.raises(CommandError) as info:
        simulate("--save-dir", str(blocker))
    assert str(blocker) in str(info.value)


@pytest.mark.parametrize("bot", ["greedy", "clustering", "player"])
def test_decoder_bots_play_games_that_pass_check_save(tmp_path, bot):
    out = simulate("--policy", bot, "--games", "2", "--size", "5", "--seed", "3",
                   "--save-dir", str(tmp_path))
    files = [LINE.fullmatch(line).group(6) for line in out.splitlines()[:2]]
    assert f"policy {bot}, seed 3" in out.splitlines()[2]
    checked = StringIO()
    call_command("check_save", *files, stdout=checked)
    assert all(": ok, Z10, L=5, score " in line for line in checked.getvalue().splitlines())


def test_an_unknown_policy_is_refused_with_the_known_names():
    with pytest.raises(CommandError, match="unknown policy 'oracle'; known: clustering, greedy"):
        simulate("--policy", "oracle")
