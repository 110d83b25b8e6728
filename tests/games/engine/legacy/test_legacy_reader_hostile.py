"""Hostile save files: the reader parses them or says clearly why not, whatever they hold.

Generated files mix the pieces that made the reader slow or crash before:
quotes left open or doubled, NUL characters, numbers far larger than any
step or group id, very long lines, many rows, every line ending. Whatever
comes out, it is a ``LegacySave`` or a ``LegacyFormatError`` naming the line
(never another exception). That reading takes time linear in the size is
measured by ``bench/legacy_reader.py``, not here (no timed assertions).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from games.engine.legacy import LegacyFormatError, LegacySave, read_save, write_save
from games.engine.legacy.reader import _records, split_fields

PIECES = st.sampled_from([
    '"', '""', ",", ",,,", "\n", "\r", "\r\n", "\x00", "'", ".", "0", "7(12)", "P(3)",
    "0(0)[P]", "9" * 40, "(" + "9" * 12 + ")", "2147483648", " ", "\ufeff", "é", "x" * 200,
])


def _file(lines: list[str]) -> str:
    return "".join(lines)


hostile_text = st.lists(
    st.one_of(PIECES, st.text(max_size=30)), max_size=120
).map(_file)


def _rows(t: int, size: int, cell: str) -> str:
    return f"{t}\n" + "".join(",,," + ",".join([cell] * size) + ",\n" for _ in range(size))


@st.composite
def damaged_saves(draw: st.DrawFn) -> str:
    """A well-formed save with one hostile piece put somewhere in it."""
    size = draw(st.integers(3, 6))
    text = _rows(0, size, ".").replace(".", "5(1)", 2) + "\n" + _rows(1, size, ".")
    text = text.replace(".", "5(1)", 1)
    at = draw(st.integers(0, len(text)))
    piece = draw(st.one_of(PIECES, st.text(max_size=20)))
    repeat = draw(st.integers(1, 300))
    return text[:at] + piece * repeat + text[at:]


def _read_or_refuse(text: str) -> None:
    refusal: LegacyFormatError | None = None
    try:
        save = read_save(text.encode("utf-8", "surrogatepass"))
    except LegacyFormatError as exc:
        refusal = exc
    if refusal is not None:
        assert refusal.reason  # says what was expected and what was found
        if refusal.line is not None:
            assert 1 <= refusal.line <= text.count("\n") + text.count("\r") + 1
        return
    assert isinstance(save, LegacySave)
    assert save.steps
    assert "\x00" not in write_save(save)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(hostile_text)
def test_any_text_is_read_or_refused_with_a_format_error(text):
    _read_or_refuse(text)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(damaged_saves())
def test_a_save_with_a_hostile_piece_is_read_or_refused_with_a_format_error(text):
    _read_or_refuse(text)


def _reference_records(text: str) -> list[str] | None:
    """Records by a character-at-a-time CSV reading; None if a quote is left open."""
    records, current, quoted, field_start, i = [], "", False, True, 0
    while i < len(text):
        char = text[i]
        if quoted:
            if char == '"' and text[i + 1:i + 2] == '"':
                current += '""'
                i += 2
                continue
            quoted = char != '"'
            current += char
        elif char in "\r\n":
            ending = "\r\n" if text[i:i + 2] == "\r\n" else char
            records.append(current + ending)
            current, field_start = "", True
            i += len(ending)
            continue
        else:
            if char == '"' and field_start:
                quoted = True
            field_start = char == ","
            current += char
        i += 1
    if quoted:
        return None
    if current:
        records.append(current)
    return records


@settings(max_examples=300, deadline=None)
@given(st.lists(st.sampled_from(['"', '""', ",", "a", "\n", "\r\n", "\r"]), max_size=60))
def test_records_split_the_text_as_a_character_by_character_reading_does(parts):
    # The line-by-line quote tracking agrees with a plain reading of every character.
    text = "".join(parts)
    expected = _reference_records(text)
    if expected is None:
        with pytest.raises(LegacyFormatError, match="never closed"):
            _records(text)
        return
    records = _records(text)
    assert [r.text + r.ending for r in records] == expected
    for record in records:
        fields, open_quote = split_fields(record.text)
        assert not open_quote
        assert [f.value for f in fields] == [f.value for f in record.fields]


def test_a_quote_left_open_is_reported_at_the_line_it_opens():
    text = "0\n,,,5(1),5(1),.,\n" + '"' + "\n" * 5000
    with pytest.raises(LegacyFormatError) as caught:
        read_save(text)
    assert caught.value.code == "unclosed_quote"
    assert caught.value.line == 3
