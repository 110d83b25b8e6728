"""A save whose step labels were damaged is refused at the first damaged label.

A spreadsheet that rewrote the step numbers of a save (10 written "1", 100
written "1..") leaves a file that reads on past the first damaged label
(step 1 after step 9 is still a number) until one is not a number at all.
The refusal names the first label that goes backwards, not the line where
reading stopped.
"""

from __future__ import annotations

from io import StringIO

import pytest
from django.core.management import CommandError, call_command

from games.engine.legacy import LegacyFormatError, read_save
from tests.legacy_samples import SAVES


def _damaged(text: str, *, tens: bool = True) -> str:
    """``text`` with every multiple of 10 written without its zeros, and 100 as "1.."."""
    lines = []
    for line in text.splitlines(keepends=True):
        body = line.rstrip("\r\n")
        number = body.split(",", 1)[0]
        if number.isdigit() and int(number) and int(number) % 10 == 0 and body == number:
            stripped = number.rstrip("0")
            if int(number) % 100 == 0:
                body = stripped + "." * (len(number) - len(stripped))
            elif tens:
                body = stripped
        lines.append(body + line[len(line.rstrip("\r\n")):])
    return "".join(lines)


SAMPLE = (SAVES / "Z10_normal_475.csv").read_text(encoding="utf-8")
DAMAGED = _damaged(SAMPLE)


def _line_of(text: str, label: str, after: int = 0) -> int:
    lines = text.splitlines()
    return next(k for k in range(after, len(lines)) if lines[k] == label) + 1


def test_the_sample_is_damaged_as_the_report_describes():
    assert _line_of(DAMAGED, "1", after=20) == 101  # step 10, after step 9
    assert _line_of(DAMAGED, "1..") == 1001  # step 100


def test_the_refusal_points_at_the_first_damaged_label():
    with pytest.raises(LegacyFormatError) as caught:
        read_save(DAMAGED)
    error = caught.value
    assert (error.code, error.line, error.step) == ("step_order", 101, 1)
    assert "step 1 follows step 9" in error.reason
    assert "line 1001" in error.reason  # where reading stopped is still said


def test_a_label_that_is_not_a_number_and_nothing_before_it_is_refused_where_it_is():
    only_hundreds = _damaged(SAMPLE, tens=False)
    with pytest.raises(LegacyFormatError) as caught:
        read_save(only_hundreds)
    assert (caught.value.code, caught.value.line) == ("bad_step_number", 1001)


def test_check_save_names_the_first_damaged_label(tmp_path):
    path = tmp_path / "damaged.csv"
    path.write_text(DAMAGED, encoding="utf-8")
    out = StringIO()
    with pytest.raises(CommandError):
        call_command("check_save", str(path), stdout=out)
    assert "line 101" in out.getvalue()
