"""Decodoku: Colors saves and the oldest layout: group numbers only, read and checked."""

from __future__ import annotations

import pytest

from games.engine.legacy import LegacyFormatError, encode_save, read_save, verify_save
from games.engine.legacy.model import COLORS, EMPTY, GROUP
from tests.legacy_samples import SAVES

COLORS_SAVES = ["181_quantum_jim.csv", "221_justacae.csv", "306_xcombelle_explained.csv",
                "361_aeshe1988.csv"]
LAYOUTS = {
    # file: (step on every row, first row on the step's line, the empty cell)
    "181_quantum_jim.csv": (True, True, "'"),
    "221_justacae.csv": (False, False, "."),
    "306_xcombelle_explained.csv": (False, False, "."),
    "361_aeshe1988.csv": (False, False, "0"),
    "ReadMeWithExcel.csv": (False, True, "'"),
}


def _bytes(name: str) -> bytes:
    return (SAVES / "colors" / name).read_bytes()


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_every_colors_layout_is_read_and_written_back_byte_for_byte(name):
    data = _bytes(name)
    save = read_save(data, name=name)
    repeat, inline, empty = LAYOUTS[name]
    assert save.variant == COLORS
    assert (save.repeat_steps, save.inline_steps, save.empty_char) == (repeat, inline, empty)
    assert save.size == 7
    assert {cell.symbol for step in save.steps for cell in step.cells} == {EMPTY, GROUP}
    assert all(cell.value is None for step in save.steps for cell in step.cells
               if cell.symbol == GROUP)
    assert encode_save(save) == data


@pytest.mark.parametrize("name", COLORS_SAVES)
def test_real_colors_saves_follow_the_rules_as_far_as_groups_show(name):
    save = read_save(_bytes(name), name=name)
    result = verify_save(save)
    assert result.ok, result.violation
    assert result.partially_observed
    assert result.score == int(name.split("_")[0])
    assert result.summary().startswith("groups observed Colors record, L=7, score ")
    noise = {m.t for m in result.moves if m.noise}
    assert noise
    assert all(t % 5 == 0 for t in noise)


def test_the_explained_save_keeps_the_players_text_before_the_first_board():
    save = read_save(_bytes("306_xcombelle_explained.csv"))
    assert save.newline == "\r\n"
    assert "I will call an item a symbol" in save.header[0].text
    assert save.steps[0].t == 0


def test_a_comment_column_beside_a_colors_board_is_a_comment():
    save = read_save(_bytes("361_aeshe1988.csv"))
    assert save.steps[0].comments[0].startswith("Explanation of the method at https://")


def test_group_numbers_above_9_are_read():
    text = "0\n" + "".join(f",,,{row}\n" for row in (
        "12,12,.,.", ".,.,.,.", ".,.,.,.", ".,.,10,10")) + "\n1\n" + "".join(
        f",,,{row}\n" for row in ("12,12,.,.", ".,.,.,.", ".,.,10,.", ".,.,10,."))
    save = read_save(text)
    assert save.steps[0].labels[:2] == (12, 12)
    assert save.steps[1].labels[10] == 10


def test_mixing_group_numbers_with_z10_cells_is_refused():
    text = "0\n,,,5(1),5(1),.,\n,,,.,.,.,\n,,,2,2,.,\n"
    with pytest.raises(LegacyFormatError) as caught:
        read_save(text)
    assert caught.value.code == "mixed_variants"


def test_a_new_group_between_noise_rounds_is_refused():
    board = "0\n,,,1,1,.,.,\n,,,.,1,.,.,\n,,,.,.,.,.,\n,,,.,.,.,.,\n\n"
    moved = "1\n,,,.,1,.,.,\n,,,1,1,.,.,\n,,,.,.,.,.,\n,,,.,.,.,.,\n"
    alone = verify_save(read_save(board + moved)).violation
    assert alone is not None
    assert alone.reason == "no_final_span"  # the move is fine; the record just ends early
    later = "1\n,,,.,1,.,.,\n,,,1,1,.,.,\n,,,.,.,2,2,\n,,,.,.,.,.,\n"
    result = verify_save(read_save(board + later))
    assert result.violation is not None
    assert result.violation.reason == "noise_off_schedule"


def test_a_lone_number_in_a_group_is_refused():
    board = "0\n,,,1,.,.,\n,,,.,.,.,\n,,,.,.,.,\n\n1\n,,,.,1,.,\n,,,.,.,.,\n,,,.,.,.,\n"
    result = verify_save(read_save(board))
    assert result.violation is not None
    assert result.violation.reason == "group_sum"


def test_a_row_of_the_oldest_layout_must_carry_its_step_number():
    lines = ["0,,1,1,'", "0,,',',',", "1,,',',',"]
    with pytest.raises(LegacyFormatError) as caught:
        read_save("\n".join(lines) + "\n")
    assert caught.value.code == "missing_row"
    assert caught.value.line == 3
