"""Reading and writing back the save files of the original apps (games.engine.legacy).

The sample files are the repository's fixtures (``tests/fixtures/legacy-saves``).
"""

from __future__ import annotations

import pytest

from games.engine import EngineError
from games.engine.legacy import (
    LegacyCell,
    LegacyFormatError,
    encode_save,
    read_save,
    write_save,
)
from tests.legacy_samples import sample_bytes as sample

SAMPLES = {
    # name: (variant, hard, steps, score, newline, inline layout, empty char, header lines)
    "Z10_normal_475.csv": ("z10", False, 476, 475, "\n", False, ".", 0),
    "Z10_normal_480.csv": ("z10", False, 481, 480, "\n", False, ".", 0),
    "PL_annotated_336.csv": ("phi_lambda", False, 337, 336, "\r", False, ".", 1),
    "PL_hard_219.csv": ("phi_lambda", True, 220, 219, "\n", False, ".", 0),
    "PL_normal_205.csv": ("phi_lambda", False, 206, 205, "\r\n", False, ".", 0),
    "PL_normal_321.csv": ("phi_lambda", False, 322, 321, "\n", False, ".", 0),
    "ReadMeWithExcel.csv": ("phi_lambda", False, 7, 6, "\n", True, "'", 6),
}




SMALL = (
    "0\n"
    ",,,.,.,.,\n"
    ",,,3(1),7(1),.,\n"
    ",,,.,.,.,\n"
    "\n"
    "\n"
    "1\n"
    ",,,.,.,.,\n"
    ",,,.,.,.,\n"
    ",,,.,.,.,\n"
    "\n"
)

# -- the sample files ---------------------------------------------------------------


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_sample_is_read(name):
    variant, hard, steps, score, newline, inline, empty, header = SAMPLES[name]
    save = read_save(sample(name), name=name)
    assert save.name == name
    assert save.size == 7
    assert save.variant == variant
    assert save.hard is hard
    assert len(save.steps) == steps
    assert save.score == score
    assert save.step_numbers == list(range(score + 1))
    assert save.newline == newline
    assert save.inline_steps is inline
    assert save.empty_char == empty
    assert len(save.header) == header
    for step in save.steps:
        assert len(step.rows) == 7
        assert all(len(row.cells) == 7 for row in step.rows)
        assert len(step.cells) == 49


@pytest.mark.parametrize("name", sorted(SAMPLES))
def test_every_sample_round_trips_byte_for_byte(name):
    raw = sample(name)
    save = read_save(raw, name=name)
    assert encode_save(save) == raw
    assert write_save(save) == raw.decode("utf-8")
    # reading from text gives the same
    assert write_save(read_save(raw.decode("utf-8"))) == raw.decode("utf-8")


def test_z10_cells_and_line_numbers():
    save = read_save(sample("Z10_normal_475.csv"))
    first = save.steps[0]
    assert first.t == 0
    assert first.line == 1
    assert first.rows[0].line == 2
    assert first.cell(1, 5) == LegacyCell("4", 2)
    assert first.cell(1, 5).value == 4
    assert first.cell(0, 0).empty
    assert first.cell(0, 0).value == 0
    assert save.steps[1].line == 11  # 1 + 7 rows + 2 blank lines + 1
    last = save.steps[-1]
    assert last.t == 475
    assert last.cell(0, 2) == LegacyCell("1", 320)


def test_phi_lambda_cells_hide_their_values():
    save = read_save(sample("PL_normal_205.csv"))
    cell = save.steps[0].cell(0, 0)
    assert cell.symbol == "L"
    assert cell.group == 4
    assert cell.value is None
    assert cell.shown == "L"
    phi = save.steps[0].cell(2, 0)
    assert phi.symbol == "P"
    assert phi.group == 1
    assert phi.value is None


def test_hard_mode_overrides():
    save = read_save(sample("PL_hard_219.csv"))
    shown_as_phi = save.steps[0].cell(5, 0)  # 0(0)[P]
    assert shown_as_phi.empty
    assert shown_as_phi.value == 0
    assert shown_as_phi.group == 0
    assert shown_as_phi.override == "P"
    assert shown_as_phi.shown == "P"
    hidden = [
        (step.t, cell)
        for step in save.steps
        for cell in step.cells
        if not cell.empty and cell.override is not None
    ]
    assert hidden, "the hard sample has numbers shown as empty, like P(3)[0]"
    _t, cell = hidden[0]
    assert cell.symbol in "PL"
    assert cell.override == "."
    assert cell.shown == "."
    assert cell.text.endswith("[0]")


def test_annotated_save_keeps_its_notes_and_header():
    save = read_save(sample("PL_annotated_336.csv"))
    assert save.header[0].text.startswith(",,,,,,,,,,Notes by quantum_jim")
    assert save.steps[0].comments == ["Get rid of the isolated pair: group 2"]
    # a quoted note with a comma inside
    assert "Now we have two pretty obvious pairs, which is nice." in save.steps[4].comments
    assert save.comments[0] == (0, "Get rid of the isolated pair: group 2")


def test_older_layout_of_the_authors_description():
    save = read_save(sample("ReadMeWithExcel.csv"))
    assert save.inline_steps
    assert save.header[0].text.startswith("These are the time steps.")
    first = save.steps[0]
    assert first.line == 7
    assert first.rows[0].line == 7
    assert first.cell(0, 0) == LegacyCell("P", 1)
    assert first.cell(0, 1).empty
    assert first.cell(0, 1).text == "'"
    assert first.comments[0] == (
        "The two Ps at the bottom are quite isolated, and so seem like their own group."
    )


# -- line endings, byte order mark, whitespace, quoting --------------------------------


@pytest.mark.parametrize("newline", ["\r\n", "\r"])
def test_other_line_endings_read_the_same_and_round_trip(newline):
    text = sample("Z10_normal_480.csv").decode()
    converted = text.replace("\n", newline)
    plain, other = read_save(text), read_save(converted)
    assert other.newline == newline
    assert [s.cells for s in other.steps] == [s.cells for s in plain.steps]
    assert [s.line for s in other.steps] == [s.line for s in plain.steps]
    assert write_save(other) == converted


def test_mixed_line_endings_round_trip():
    text = SMALL.replace("\n", "\r\n", 3)
    assert write_save(read_save(text)) == text


def test_byte_order_mark():
    raw = b"\xef\xbb\xbf" + SMALL.encode()
    save = read_save(raw)
    assert save.bom
    assert save.steps[0].t == 0
    assert encode_save(save) == raw


def test_trailing_whitespace_and_spaces_around_cells():
    text = SMALL.replace("0\n", "0  \n", 1).replace(",,,3(1),7(1),.,", ",,, 3(1) ,7(1),.,  ")
    save = read_save(text)
    assert save.steps[0].cell(1, 0) == LegacyCell("3", 1)
    assert save.steps[0].t == 0
    assert write_save(save) == text


def test_quoted_notes_with_commas_quotes_and_line_breaks():
    text = SMALL.replace(
        ",,,3(1),7(1),.,", ',,,3(1),7(1),.,"a, b","say ""hi""\nsecond line",'
    )
    save = read_save(text)
    assert save.steps[0].comments == ["a, b", 'say "hi"\nsecond line']
    # the line break inside the quotes is counted: step 1 moves one line down
    assert save.steps[1].line == 8
    assert write_save(save) == text


def test_gaps_in_step_numbers_are_read():
    text = SMALL.replace("1\n", "7\n", 1)
    assert read_save(text).step_numbers == [0, 7]


def test_non_utf8_files_are_read_in_their_code_page():
    raw = SMALL.encode().replace(b",,,.,.,.,\n\n", b",,,.,.,.,caf\xe9\n\n", 1)
    save = read_save(raw)
    assert save.encoding == "cp1252"
    assert "caf\u00e9" in save.steps[0].comments
    assert encode_save(save) == raw


@pytest.mark.parametrize("size", [3, 16])
def test_sizes_from_3_to_16(size):
    row = ",,," + ",".join(["."] * (size - 2) + ["4(1)", "6(1)"]) + ",\n"
    empty = ",,," + ",".join(["."] * size) + ",\n"
    text = "0\n" + row + empty * (size - 1) + "\n"
    save = read_save(text)
    assert save.size == size
    assert save.steps[0].cell(0, size - 1) == LegacyCell("6", 1)


# -- what is written ----------------------------------------------------------------------


def test_changed_cells_and_step_numbers_are_written_canonically():
    save = read_save(SMALL)
    row = save.steps[0].rows[1]
    row.cells[0] = LegacyCell("9", 5)
    row.cells[2] = LegacyCell("1", 5)
    save.steps[1].t = 4
    text = write_save(save)
    assert ",,,9(5),7(1),1(5)," in text
    assert "\n4\n" in text
    again = read_save(text)
    assert again.steps[0].cell(1, 0) == LegacyCell("9", 5)
    assert again.step_numbers == [0, 4]


def test_hard_mode_cells_made_in_code():
    save = read_save(SMALL.replace("3(1),7(1)", "P(1),P(1)"))
    row = save.steps[0].rows[0]
    row.cells[0] = LegacyCell("P", 2, override=".")
    row.cells[1] = LegacyCell(".", 0, override="L")
    text = write_save(save)
    assert text.splitlines()[1] == ",,,P(2)[0],0(0)[L],.,"
    again = read_save(text)
    assert again.hard
    assert again.steps[0].cell(0, 0) == LegacyCell("P", 2, override=".")


def test_empty_cells_made_in_code_use_the_file_own_empty_mark():
    save = read_save(sample("ReadMeWithExcel.csv"))
    save.steps[0].rows[0].cells[0] = LegacyCell(".", 0)
    assert write_save(save).splitlines()[6].startswith("0,,,',")


# -- errors name the line and what was expected --------------------------------------------


def _error(text: str | bytes) -> LegacyFormatError:
    with pytest.raises(LegacyFormatError) as info:
        read_save(text)
    assert isinstance(info.value, EngineError)
    return info.value


def test_bad_cell():
    err = _error(SMALL.replace("7(1)", "7[1]"))
    assert err.code == "bad_cell"
    assert err.line == 3
    assert err.step == 0
    assert "column E" in str(err)
    assert "expected" in str(err)
    assert "'7[1]'" in str(err)
    assert str(err).startswith("line 3, step 0:")


def test_missing_row():
    lines = SMALL.splitlines(keepends=True)
    del lines[9]  # the last row of step 1
    err = _error("".join(lines))
    assert err.code == "missing_row"
    assert err.step == 1
    assert err.line == 10
    assert "only 2 rows" in str(err)
    assert "expected 3" in str(err)


@pytest.mark.parametrize(("marker", "line", "step"), [("\n\n\n1", 5, 0), ("\n\n", 11, 1)])
def test_extra_row(marker, line, step):
    head, _sep, tail = SMALL.rpartition(",,,.,.,.," + marker)
    text = head + ",,,.,.,.,\n,,,.,.,.," + marker + tail
    err = _error(text)
    assert err.code == "extra_row"
    assert err.line == line
    assert err.step == step


def test_short_and_long_rows():
    err = _error(SMALL.replace(",,,3(1),7(1),.,", ",,,3(1),7(1)"))
    assert err.code == "short_row"
    assert err.line == 3
    assert "only 2 cells" in str(err)
    err = _error(SMALL.replace(",,,3(1),7(1),.,", ",,,3(1),7(1),.,.,"))
    assert err.code == "long_row"
    assert err.line == 3


def test_row_not_starting_with_three_empty_columns():
    err = _error(SMALL.replace(",,,3(1),7(1),.,", "x,,,3(1),7(1),.,"))
    assert err.line == 3
    assert err.step == 0
    assert err.code == "bad_row"
    assert "'x'" in str(err)


def test_bad_step_number():
    err = _error(SMALL.replace("1\n", "1a\n", 1))
    assert err.code == "bad_step_number"
    assert err.line == 7
    assert "'1a'" in str(err)


def test_mixed_variants():
    err = _error(SMALL.replace(",,,.,.,.,\n\n", ",,,P(2),P(2),.,\n\n", 1))
    assert err.code == "mixed_variants"
    assert err.line == 4


def test_override_in_a_z10_save():
    err = _error(SMALL.replace(",,,.,.,.,\n\n", ",,,0(0)[P],.,.,\n\n", 1))
    assert err.code == "override_in_z10"
    assert err.line == 4


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "no_steps"),
        ("just a note\n,,,,hello\n", "no_steps"),
        ("0\n,,,.,.,\n,,,.,.,\n\n", "bad_size"),
        ("0\n,,,.,.,.,\n,,,.,.,.,\n,,,.,.,.,\n", "no_numbers"),
        (SMALL.replace("\n\n\n1", ',"open\n\n\n1'), "unclosed_quote"),
    ],
)
def test_other_format_errors(text, code):
    assert _error(text).code == code


def test_unclosed_quote_names_its_line():
    err = _error(SMALL.replace(",,,.,.,.,\n\n\n1", ',,,.,.,.,"open\n\n\n1'))
    assert err.code == "unclosed_quote"
    assert err.line == 4
