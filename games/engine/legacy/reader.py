"""Reading the save files of the later Decodoku apps (2016-2017).

The layout (see the rules document, "Legacy save files"):

* optional header lines before the first step (notes, the authors' preamble);
* for each step: a line whose first column holds the step number ``t``, then
  ``L`` lines ``,,,`` + ``L`` cells + optional comment columns, then blank
  lines (a line of commas only counts as blank);
* the older layout of ``ReadMeWithExcel.csv`` puts the first row of cells on
  the step number's line (``0,,,P(1),',',...``) and writes ``'`` for empty.

Cells: ``.`` or ``'`` empty; ``7(12)`` a Z10 number 7 in group 12;
``P(3)`` / ``L(3)`` a Phi / Lambda in group 3; in hard Phi-Lambda games
``0(0)[P]`` an empty cell shown as Phi and ``P(3)[0]`` a Phi shown as empty.

Lines end in LF, CR or CRLF; a UTF-8 byte order mark, trailing whitespace and
quoted comment fields (holding commas, quotes or even line breaks) are
accepted. ``L`` is the number of cells in the first row (3 to 16). Anything
that does not fit raises ``LegacyFormatError`` naming the line and saying
what was expected there.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass
from itertools import pairwise
from typing import NoReturn

from .errors import MAX_NUMBER, Deadline, LegacyFormatError, check_deadline
from .model import (
    COLORS,
    EMPTY,
    GROUP,
    LAMBDA,
    PHI,
    PHI_LAMBDA,
    Z10,
    LegacyCell,
    LegacyRow,
    LegacySave,
    LegacyStep,
    RawLine,
)

MIN_SIZE = 3
MAX_SIZE = 16
LEAD_COLUMNS = 3  # the cells start in the fourth column (D in a spreadsheet)
# No save has a line of more columns (a 16 x 16 board's row has 20, with a few
# comment columns beside it); a line of thousands of commas is refused as it
# is split, before a field object is made for each of them.
MAX_COLUMNS = 1024
# Distinct cell texts kept to share one LegacyCell between the cells that read
# the same (most cells of a board are "." or repeat a few numbers).
_CELL_CACHE = 4096

_BOM = "\ufeff"
_LINE = re.compile(r"[^\r\n]*(?:\r\n|\r|\n)|[^\r\n]+\Z")
_CELL = re.compile(
    r"\s*(?:"
    r"(?P<empty>[.'])"
    r"|(?P<symbol>[0-9PL])\((?P<group>\d+)\)(?:\[(?P<shown>[0PL.])\])?"
    r"|(?P<bare>\d+)"
    r")\s*\Z"
)
_STEP_NUMBER = re.compile(r"\s*(\d+)\s*\Z")
_NUMBER_LIKE = re.compile(r"\s*[-+]?\d")

CELL_HELP = (
    "'.', a Z10 cell like '7(12)', a Phi-Lambda cell like 'P(3)' or 'L(3)', or a group "
    "number like '12' (Colors saves)"
)


@dataclass(slots=True)
class _Field:
    value: str  # unquoted
    start: int  # span of the raw field in the record's text
    end: int


class _Record:
    """One CSV record (a line, or more when a quoted field holds line breaks).

    Its fields are split when first asked for and dropped again by
    ``release`` once the parser is past the record, so that a file's many
    lines do not all hold their field objects at once.
    """

    __slots__ = ("_fields", "ending", "line", "text")

    def __init__(self, text: str, ending: str, line: int) -> None:
        self.text = text
        self.ending = ending
        self.line = line
        self._fields: list[_Field] | None = None

    @property
    def fields(self) -> list[_Field]:
        fields = self._fields
        if fields is None:
            fields, _ = split_fields(self.text, limit=MAX_COLUMNS)
            if len(fields) > MAX_COLUMNS:
                raise LegacyFormatError(
                    f"a line of more than {MAX_COLUMNS} columns: expected a step number, a "
                    "row of cells with a few comment columns, or a note",
                    code="too_many_columns", line=self.line,
                )
            self._fields = fields
        return fields

    def release(self) -> None:
        self._fields = None

    def value(self, index: int) -> str:
        fields = self.fields
        return fields[index].value if index < len(fields) else ""

    def blank(self) -> bool:
        return all(not f.value.strip() for f in self.fields)


# -- low level: bytes, lines, fields, cells ---------------------------------------


def _decode(data: str | bytes) -> tuple[str, str]:
    if isinstance(data, str):
        return data, "utf-8"
    if not isinstance(data, bytes | bytearray):
        raise TypeError("a save is read from str or bytes")
    try:
        return bytes(data).decode("utf-8"), "utf-8"
    except UnicodeDecodeError:
        pass
    # Spreadsheets on Windows write their own code page; keep every byte readable.
    try:
        return bytes(data).decode("cp1252"), "cp1252"
    except UnicodeDecodeError:
        return bytes(data).decode("latin-1"), "latin-1"


def split_fields(text: str, limit: int | None = None) -> tuple[list[_Field], bool]:
    """Split one CSV record into fields; the flag is true if a quote is left open.

    With ``limit``, splitting stops after ``limit + 1`` fields (the caller
    refuses the record).
    """
    fields: list[_Field] = []
    n = len(text)
    i = 0
    while True:
        if limit is not None and len(fields) > limit:
            return fields, False
        start = i
        if i < n and text[i] == '"':
            parts = []
            j = i + 1
            while True:
                k = text.find('"', j)
                if k < 0:
                    return fields, True
                parts.append(text[j:k])
                if k + 1 < n and text[k + 1] == '"':
                    parts.append('"')
                    j = k + 2
                    continue
                j = k + 1
                break
            comma = text.find(",", j)
            end = n if comma < 0 else comma
            value = "".join(parts) + text[j:end]
        else:
            comma = text.find(",", i)
            end = n if comma < 0 else comma
            value = text[i:end]
        fields.append(_Field(value, start, end))
        if comma < 0:
            return fields, False
        i = comma + 1


def _quote_state(text: str, start: int, state: int) -> int:
    """The CSV quoting state after scanning ``text[start:]`` from ``state``.

    States: 0 at the start of a field, 1 inside an unquoted field, 2 inside a
    quoted field, 3 after a quoted field's closing quote. Only state 2 means
    the record goes on past a line break. Each character is looked at once,
    so feeding a record line by line costs time linear in its length.
    """
    n = len(text)
    i = start
    while i < n:
        if state == 2:
            k = text.find('"', i)
            if k < 0:
                return 2
            if k + 1 < n and text[k + 1] == '"':
                i = k + 2
                continue
            state, i = 3, k + 1
            continue
        if state == 0 and text[i] == '"':
            state, i = 2, i + 1
            continue
        comma = text.find(",", i)
        if comma < 0:
            return 1 if state == 0 else state
        state, i = 0, comma + 1
    return state


def _line_count(text: str) -> int:
    """How many lines ``text`` has (LF, CR and CR LF each end one)."""
    breaks = text.count("\n") + text.count("\r") - text.count("\r\n")
    return breaks + (1 if text and text[-1] not in "\r\n" else 0)


def _records(
    text: str, deadline: float | Deadline | None = None, max_lines: int | None = None
) -> list[_Record]:
    if max_lines is not None:
        lines = _line_count(text)
        if lines > max_lines:
            raise LegacyFormatError(
                f"the file has {lines} lines; an upload may have at most {max_lines} (the "
                "longest games the apps saved have a few thousand)",
                code="too_many_lines", line=max_lines + 1,
            )
    records: list[_Record] = []
    pending: list[str] = []  # the lines of a record whose quoted field is still open
    pending_line = 0
    state = 0
    line = 1
    for match in _LINE.finditer(text):
        if deadline is not None and line % 256 == 0:
            check_deadline(deadline, line=line)
        raw = match.group()
        body = raw.rstrip("\r\n")
        ending = raw[len(body):]
        if not pending:
            pending_line = line
            state = _quote_state(body, 0, 0)
        else:
            state = _quote_state(body, 0, state)
        line += 1
        if state == 2:
            pending.append(raw)  # a quoted field goes on past this line break
            continue
        joined = "".join(pending) + body if pending else body
        # Its fields are split when the parser asks (the quote state above says that
        # every quote is closed: tests/games/engine/legacy/test_legacy_reader_hostile.py checks it).
        records.append(_Record(joined, ending, pending_line))
        pending = []
    if pending:
        raise LegacyFormatError(
            "a quoted field is never closed: expected a closing '\"' before the end of the file",
            code="unclosed_quote",
            line=pending_line,
        )
    return records


def _unquote(raw: str) -> str:
    fields, open_quote = split_fields(raw)
    if open_quote or len(fields) != 1:
        return raw
    return fields[0].value


def parse_cell(value: str, text: str | None = None) -> LegacyCell | None:
    """The cell written as ``value`` (already unquoted), or ``None`` if it is not a cell."""
    match = _CELL.match(value)
    if match is None:
        return None
    if match.group("empty"):
        return LegacyCell(EMPTY, 0, None, text if text is not None else value)
    bare = match.group("bare")
    if bare is not None:  # a Colors cell: the group number alone, 0 for empty
        group = _bounded(bare, "group number")
        return LegacyCell(GROUP if group else EMPTY, group, None,
                          text if text is not None else value)
    symbol = match.group("symbol")
    if symbol == "0":
        symbol = EMPTY
    shown = match.group("shown")
    if shown == "0":
        shown = EMPTY
    return LegacyCell(symbol, _bounded(match.group("group"), "group id"), shown,
                      text if text is not None else value)


def _bounded(digits: str, what: str) -> int:
    """``int(digits)``, refusing numbers that no save can hold (above 2^31 - 1)."""
    digits = digits.lstrip("0") or "0"
    if len(digits) > len(str(MAX_NUMBER)) or int(digits) > MAX_NUMBER:
        shown = digits if len(digits) <= 20 else digits[:17] + "..."
        raise LegacyFormatError(
            f"the {what} {shown} is too large: expected at most {MAX_NUMBER}",
            code="number_too_large",
        )
    return int(digits)


def cell_from_text(text: str) -> LegacyCell | None:
    """Parse a cell exactly as it appears in a file (it may be quoted)."""
    return parse_cell(_unquote(text), text)


def _is_cell(value: str) -> bool:
    return _CELL.match(value) is not None


def _step_number(record: _Record) -> int | None:
    match = _STEP_NUMBER.match(record.value(0).lstrip(_BOM))
    if match is None:
        return None
    try:
        return _bounded(match.group(1), "step number")
    except LegacyFormatError as exc:
        raise LegacyFormatError(exc.reason, code=exc.code, line=record.line) from None


def _is_row(record: _Record) -> bool:
    return (
        len(record.fields) > LEAD_COLUMNS
        and all(not record.value(k).strip() for k in range(LEAD_COLUMNS))
        and _is_cell(record.value(LEAD_COLUMNS))
    )


def _column_name(index: int) -> str:
    """Spreadsheet column letters for a 0-based field index (0 -> A)."""
    name = ""
    index += 1
    while index:
        index, rest = divmod(index - 1, 26)
        name = chr(ord("A") + rest) + name
    return name


def _show(text: str, limit: int = 40) -> str:
    text = text.strip()
    return repr(text if len(text) <= limit else text[: limit - 3] + "...")


# -- the parser -------------------------------------------------------------------


class _Parser:
    def __init__(self, records: list[_Record], deadline: float | Deadline | None = None) -> None:
        self.records = records
        self.deadline = deadline
        self.cells: dict[str, LegacyCell] = {}  # one LegacyCell for every cell written alike
        self.texts: dict[str, str] = {}  # one string for every row prefix written alike
        self.size = 0
        self.inline = False
        self.repeat = False  # the oldest layout: the step number on every row
        self.lead = LEAD_COLUMNS  # the column of the first cell

    def fail(
        self, message: str, record: _Record | None, step: int | None, code: str
    ) -> NoReturn:
        line = record.line if record is not None else None
        raise LegacyFormatError(message, code=code, line=line, step=step)

    def parse(self) -> tuple[list[RawLine], list[LegacyStep]]:
        records = self.records
        n = len(records)
        i = 0
        while i < n and _step_number(records[i]) is None:
            records[i].release()
            i += 1
        if i == n:
            self.fail(
                "no step found: expected a line whose first column holds the step number "
                "(0 for the first board)",
                None, None, "no_steps",
            )
        header = [RawLine(r.text, r.line, r.ending) for r in records[:i]]
        first = records[i]
        # The oldest layout writes "t,," before every row, cells from column C.
        self.repeat = not first.value(1).strip() and _is_cell(first.value(2))
        self.lead = 2 if self.repeat else LEAD_COLUMNS
        self.inline = self.repeat or _is_cell(first.value(LEAD_COLUMNS))
        row = first if self.inline else (records[i + 1] if i + 1 < n else None)
        if row is None or not (self.inline or _is_row(row)):
            self.fail(
                "expected the first row of the first board on the next line: ',,,' followed "
                "by the cells",
                row if row is not None else first, _step_number(first), "bad_size",
            )
        size = 0
        while _is_cell(row.value(self.lead + size)):
            size += 1
        if not MIN_SIZE <= size <= MAX_SIZE:
            self.fail(
                f"the first row of the first board has {size} cells; expected {MIN_SIZE} to "
                f"{MAX_SIZE} (the board is L x L)",
                row, _step_number(first), "bad_size",
            )
        self.size = size
        steps: list[LegacyStep] = []
        while i < n:
            check_deadline(self.deadline, line=records[i].line)
            try:
                step, end = self.parse_step(i)
            except LegacyFormatError as exc:
                _refuse_earlier_step_order(steps, exc)
                raise
            steps.append(step)
            for k in range(i, end):
                records[k].release()
            i = end
        return header, steps

    def parse_step(self, i: int) -> tuple[LegacyStep, int]:
        records = self.records
        n = len(records)
        record = step_record = records[i]
        t = _step_number(record)
        if t is None:  # parse() only starts a step on a step-number line
            self.fail("expected a step number", record, None, "bad_step_number")
        first_field = record.fields[0]
        number_text = record.text[: first_field.end]
        comments: list[str] = []
        rows: list[LegacyRow] = []
        if self.inline:
            for k in range(1, self.lead):
                if record.value(k).strip():
                    self.fail(
                        f"expected an empty column {_column_name(k)} between the step number "
                        f"and the cells, found {_show(record.value(k))}",
                        record, t, "bad_row",
                    )
            start = 0 if self.repeat else first_field.end
            row, notes = self.parse_row(record, t, 0, prefix_from=start)
            rows.append(row)
            comments.extend(notes)
            head = None
        else:
            head = record.text[first_field.end:]
            comments.extend(f.value.strip() for f in record.fields[1:] if f.value.strip())
        i += 1
        while len(rows) < self.size:
            if self.repeat:
                ended = i >= n or _step_number(records[i]) != t
            else:
                ended = i >= n or _step_number(records[i]) is not None or records[i].blank()
            if ended:
                found = "the end of the file" if i >= n else f"line {records[i].line}"
                self.fail(
                    f"step {t} has only {len(rows)} rows of cells; expected {self.size} "
                    f"(the first board is {self.size} x {self.size}), found {found}",
                    records[i] if i < n else records[-1], t, "missing_row",
                )
            row, notes = self.parse_row(records[i], t, len(rows))
            rows.append(row)
            comments.extend(notes)
            i += 1
        if self.repeat and i < n and _step_number(records[i]) == t:
            self.fail(
                f"step {t} has more than {self.size} rows of cells; expected a blank line "
                "or the next step number",
                records[i], t, "extra_row",
            )
        trailer: list[RawLine] = []
        while i < n and _step_number(records[i]) is None:
            record = records[i]
            if _is_row(record):
                self.fail(
                    f"step {t} has more than {self.size} rows of cells; expected a blank line "
                    "or the next step number",
                    record, t, "extra_row",
                )
            if _NUMBER_LIKE.match(record.value(0)):
                self.fail(
                    "expected a step number (a whole number alone in the first column), a "
                    f"blank line or a note, found {_show(record.value(0))}",
                    record, t, "bad_step_number",
                )
            comments.extend(f.value.strip() for f in record.fields if f.value.strip())
            trailer.append(RawLine(record.text, record.line, record.ending))
            i += 1
        step = LegacyStep(
            t=t,
            rows=rows,
            comments=comments,
            line=step_record.line,
            number_text=number_text,
            head=head,
            head_ending=None if self.inline else step_record.ending,
            trailer=trailer,
        )
        return step, i

    def parse_row(
        self, record: _Record, t: int, index: int, prefix_from: int = 0
    ) -> tuple[LegacyRow, list[str]]:
        size = self.size
        if self.repeat:
            leading = range(1, self.lead)
        elif not self.inline or index:
            leading = range(self.lead)
        else:
            leading = range(0)
        start = ",".join([str(t)] + [""] * (self.lead - 1)) if self.repeat else ",,,"
        for k in leading:
            if record.value(k).strip():
                self.fail(
                    f"expected row {index + 1} of step {t}: a line starting with {start!r} "
                    f"followed by {size} cells, found {_show(record.value(k))} in column "
                    f"{_column_name(k)}",
                    record, t, "bad_row",
                )
        fields = record.fields
        cells = []
        for c in range(size):
            k = self.lead + c
            if k >= len(fields):
                self.fail(
                    f"row {index + 1} of step {t} has only {c} cells; expected {size}",
                    record, t, "short_row",
                )
            f = fields[k]
            text = record.text[f.start:f.end]
            cell = self.cells.get(text)
            if cell is None:
                try:
                    cell = parse_cell(f.value, text)
                except LegacyFormatError as exc:
                    raise LegacyFormatError(
                        f"column {_column_name(k)} (row {index + 1}, cell {c + 1} of step "
                        f"{t}): {exc.reason}",
                        code=exc.code, line=record.line, step=t,
                    ) from None
                if cell is not None and len(self.cells) < _CELL_CACHE:
                    self.cells[text] = cell
            if cell is None:
                found = _show(f.value) if f.value.strip() else "nothing"
                self.fail(
                    f"column {_column_name(k)} (row {index + 1}, cell {c + 1} of step {t}): "
                    f"expected {CELL_HELP}, found {found}",
                    record, t, "bad_cell",
                )
            cells.append(cell)
        extra = self.lead + size
        if extra < len(fields) and _is_cell(fields[extra].value):
            self.fail(
                f"row {index + 1} of step {t} has more than {size} cells (found "
                f"{_show(fields[extra].value)} in column {_column_name(extra)}); every row of "
                f"this save has {size}, like the first board",
                record, t, "long_row",
            )
        last = fields[extra - 1]
        row = LegacyRow(
            cells=cells,
            line=record.line,
            prefix=self.shared(record.text[prefix_from: fields[self.lead].start]),
            tail=self.shared(record.text[last.end:]),
            ending=record.ending,
        )
        notes = [f.value.strip() for f in fields[extra:] if f.value.strip()]
        return row, notes

    def shared(self, text: str) -> str:
        """``text``, as the one string kept for every row written alike (",,," mostly)."""
        if len(text) > 32:
            return text
        return self.texts.setdefault(text, text) if len(self.texts) < _CELL_CACHE else text


def _refuse_earlier_step_order(steps: list[LegacyStep], exc: LegacyFormatError) -> None:
    """Refuse at the first step number that did not increase, if it comes before ``exc``.

    A file whose step labels were damaged (a spreadsheet writing 10 as "1" and
    100 as "1..") reads on past the first damaged label until one is not a
    number at all; the first one that goes backwards is where it went wrong.
    """
    for earlier, later in pairwise(steps):
        if later.t > earlier.t:
            continue
        if exc.line is not None and later.line is not None and later.line > exc.line:
            return
        raise LegacyFormatError(
            f"step {later.t} follows step {earlier.t}; expected a larger step number: the "
            f"step labels are out of order from here (reading stopped later, at line "
            f"{exc.line}: {exc.reason})",
            code="step_order", line=later.line, step=later.t,
        ) from exc


# -- the public reader --------------------------------------------------------------


def read_save(
    text: str | bytes,
    *,
    name: str = "<save>",
    deadline: float | Deadline | None = None,
    max_lines: int | None = None,
) -> LegacySave:
    """Read a save file (``str`` or ``bytes``) into a ``LegacySave``.

    Raises ``LegacyFormatError`` (with ``.line`` and ``.step``) if the file
    does not follow the layout; whether the game it records follows the rules
    is ``verify_save``'s business. Reading takes time linear in the file's
    size whatever it holds; ``deadline`` (a ``Deadline``, or a
    ``time.monotonic()`` value) bounds it further: past it, ``LegacyTimeout``
    is raised. A NUL character, a line of more than ``MAX_COLUMNS`` columns,
    more than ``max_lines`` lines (when given), or a step number or group id
    above 2^31 - 1, is refused as not a save.
    """
    decoded, encoding = _decode(text)
    bom = decoded.startswith(_BOM)
    if bom:
        decoded = decoded[1:]
    _refuse_nul(decoded)
    records = _records(decoded, deadline, max_lines)
    parser = _Parser(records, deadline)
    header, steps = parser.parse()

    variant, hard = _variant(steps)
    endings = Counter(r.ending for r in records if r.ending)
    newline = endings.most_common(1)[0][0] if endings else "\n"
    empty_char = EMPTY
    for step in steps:
        found = next((c.text.strip() for c in step.cells if c.empty and c.text
                      and c.text.strip() in (".", "'", "0")), None)
        if found:
            empty_char = found
            break
    return LegacySave(
        name=name,
        size=parser.size,
        variant=variant,
        hard=hard,
        steps=steps,
        newline=newline,
        header=header,
        bom=bom,
        empty_char=empty_char,
        inline_steps=parser.inline,
        encoding=encoding,
        repeat_steps=parser.repeat,
    )


_LINE_BREAK = re.compile(r"\r\n|\r|\n")


def _refuse_nul(text: str) -> None:
    at = text.find("\0")
    if at < 0:
        return
    line = 1 + sum(1 for _ in _LINE_BREAK.finditer(text, 0, at))
    raise LegacyFormatError(
        "a NUL character (byte 0) in the file: a save file is text, and no app wrote one",
        code="nul_character", line=line,
    )


def _variant(steps: list[LegacyStep]) -> tuple[str, bool]:
    first_z10 = first_pl = first_override = first_group = None
    for step in steps:
        for r, row in enumerate(step.rows):
            for cell in row.cells:
                where = (step, r, cell)
                if cell.symbol in (PHI, LAMBDA):
                    first_pl = first_pl or where
                elif cell.symbol == GROUP:
                    first_group = first_group or where
                elif not cell.empty:
                    first_z10 = first_z10 or where
                if cell.override is not None:
                    first_override = first_override or where
    kinds = [w for w in (first_z10, first_pl, first_group) if w]
    if len(kinds) > 1:
        step, r, cell = max(kinds, key=lambda w: (w[0].rows[w[1]].line or 0))
        kind = ("group number" if cell.symbol == GROUP
                else "Z10 number" if cell.symbol.isdigit() else "Phi-Lambda number")
        raise LegacyFormatError(
            f"a {kind} {_show(cell.text or cell.symbol)} in a save that also holds another "
            "kind of cell: expected only Z10 cells like '7(12)', only Phi-Lambda cells like "
            "'P(3)' or only group numbers like '12'",
            code="mixed_variants", line=step.rows[r].line, step=step.t,
        )
    if first_override and (first_z10 or first_group):
        step, r, cell = first_override
        raise LegacyFormatError(
            f"a display override {_show(cell.text or '')} in a Z10 save: overrides like "
            "'0(0)[P]' only exist in hard Phi-Lambda games",
            code="override_in_z10", line=step.rows[r].line, step=step.t,
        )
    if first_pl or first_override:
        return PHI_LAMBDA, first_override is not None
    if first_z10:
        return Z10, False
    if first_group:
        return COLORS, False
    step = steps[0]
    raise LegacyFormatError(
        "no number on any board: expected at least one cell like '7(12)', 'P(3)' or a group "
        "number",
        code="no_numbers", line=step.line, step=step.t,
    )
