"""Writing saves back: the exact text of a read save, or a new one from a board sequence."""

from __future__ import annotations

from .model import EMPTY, GROUP, LegacyCell, LegacyRow, LegacySave, LegacyStep
from .reader import _STEP_NUMBER, cell_from_text, split_fields


def cell_text(cell: LegacyCell, empty_char: str = EMPTY) -> str:
    """How ``cell`` is written: as it was read if it still says the same, else canonically."""
    if cell.text is not None:
        again = cell_from_text(cell.text)
        if again is not None and again == cell:
            return cell.text
    override = None if cell.override is None else ("0" if cell.override == EMPTY else cell.override)
    if cell.symbol == GROUP:
        return str(cell.group)
    if cell.empty:
        if override is not None:
            return f"0(0)[{override}]"
        return empty_char if cell.group == 0 else f"0({cell.group})"
    text = f"{cell.symbol}({cell.group})"
    return text if override is None else f"{text}[{override}]"


def _number_text(step: LegacyStep) -> str:
    if step.number_text is not None:
        fields, open_quote = split_fields(step.number_text)
        if not open_quote and len(fields) == 1:
            match = _STEP_NUMBER.match(fields[0].value)
            if match and int(match.group(1)) == step.t:
                return step.number_text
    return str(step.t)


def _row_text(row: LegacyRow, empty_char: str) -> str:
    return row.prefix + ",".join(cell_text(c, empty_char) for c in row.cells) + row.tail


def write_save(save: LegacySave) -> str:
    """The save as text. A save read by ``read_save`` comes back byte for byte.

    Lines that were read keep their own terminator (so even a file mixing
    CR, LF and CRLF round-trips); lines made in code end with ``save.newline``.
    A file that did not end with a line break still does not.
    """
    newline = save.newline
    out: list[str] = ["\ufeff"] if save.bom else []

    def end(ending: str | None) -> str:
        return newline if ending is None else ending

    for raw in save.header:
        out.append(raw.text + end(raw.ending))
    for step in save.steps:
        # In the oldest layout each row's own text starts with the step number.
        number = "" if save.repeat_steps else _number_text(step)
        rows = step.rows
        if step.head is None:
            first = rows[0]
            out.append(number + _row_text(first, save.empty_char) + end(first.ending))
            rows = rows[1:]
        else:
            out.append(number + step.head + end(step.head_ending))
        for row in rows:
            out.append(_row_text(row, save.empty_char) + end(row.ending))
        for raw in step.trailer:
            out.append(raw.text + end(raw.ending))
    return "".join(out)


def encode_save(save: LegacySave) -> bytes:
    """``write_save`` encoded as the file was (UTF-8 unless it was read in another code page)."""
    return write_save(save).encode(save.encoding)
