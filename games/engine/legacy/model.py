"""The contents of a legacy save file, as plain data.

A save is read into a ``LegacySave``: the steps (the board after every move,
and after the noise round that followed when there was one), plus everything
needed to write the file back byte for byte: the header lines before the
first step, each line's exact text around the cells (comment columns,
trailing commas, whitespace), each line's terminator and the byte order mark.

Cells are normalised (``LegacyCell``) but keep the text they were read from,
so an unchanged cell is written exactly as it was found.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass, field

from ..rulevalues import COLORS as STORED_COLORS

# The cells' alphabet ("." empty, "P" Phi, "L" Lambda, "G" a number of unknown value:
# only its group) is defined with the variants, which write and read it.
from ..variants import EMPTY as EMPTY
from ..variants import GROUP as GROUP
from ..variants import LAMBDA as LAMBDA
from ..variants import PHI as PHI

Z10 = "z10"
PHI_LAMBDA = "phi_lambda"
# Decodoku: Colors, and the oldest Z10 saves: group numbers only (defined with the rule
# values, which the rule families' stored columns use too).
COLORS = STORED_COLORS


@dataclass(frozen=True, slots=True)
class LegacyCell:
    """One cell of a board.

    ``symbol`` is what the cell really holds: ``"."`` (empty), ``"1"`` to ``"9"``
    (a Z10 number), ``"P"`` / ``"L"`` (a Phi-Lambda number, Phi or Lambda) or
    ``"G"`` (a number whose value the save does not give: only its group).
    ``group`` is the group id, 0 for an empty cell. ``override`` is set only
    in hard Phi-Lambda games, where the player was shown something else: ``"P"``
    or ``"L"`` for an empty cell drawn as a number (``0(0)[P]``), ``"."`` for a
    number drawn as empty (``P(3)[0]``). ``text`` is the cell as written in the
    file (``None`` for cells made in code).
    """

    symbol: str
    group: int = 0
    override: str | None = None
    text: str | None = field(default=None, compare=False)

    @property
    def empty(self) -> bool:
        return self.symbol == EMPTY

    @property
    def value(self) -> int | None:
        """0 when empty, the number for Z10, ``None`` for Phi, Lambda or a group-only cell."""
        if self.symbol == EMPTY:
            return 0
        if self.symbol.isdigit():
            return int(self.symbol)
        return None

    @property
    def shown(self) -> str:
        """What the player saw: the override in hard mode, the symbol otherwise."""
        return self.override if self.override is not None else self.symbol


@dataclass(slots=True)
class RawLine:
    """A line kept only to be written back: a header line, a blank line, a note."""

    text: str
    line: int | None = None
    ending: str | None = None  # the line terminator; None means the save's newline


@dataclass(slots=True)
class LegacyRow:
    """One row of a board and the text around its cells on that line."""

    cells: list[LegacyCell]
    line: int | None = None
    prefix: str = ",,,"  # the text before the first cell
    tail: str = ","  # the text after the last cell: comment columns, trailing commas
    ending: str | None = None


@dataclass(slots=True)
class LegacyStep:
    """The board at step ``t`` (after move ``t``; after noise too at a round's end).

    ``comments`` are the player's notes found on the step's lines, in order.
    ``head`` is the text after the step number on its line; it is ``None`` in
    the older layout where the board's first row shares the step number's line.
    """

    t: int
    rows: list[LegacyRow]
    comments: list[str] = field(default_factory=list)
    line: int | None = None
    number_text: str | None = None
    head: str | None = ""
    head_ending: str | None = None
    trailer: list[RawLine] = field(default_factory=list)

    @property
    def size(self) -> int:
        return len(self.rows)

    @property
    def cells(self) -> tuple[LegacyCell, ...]:
        """Every cell, row-major."""
        return tuple(cell for row in self.rows for cell in row.cells)

    @property
    def symbols(self) -> tuple[str, ...]:
        return tuple([cell.symbol for row in self.rows for cell in row.cells])

    @property
    def labels(self) -> tuple[int, ...]:
        return tuple([cell.group for row in self.rows for cell in row.cells])

    @property
    def values(self) -> tuple[int | None, ...]:
        return tuple(cell.value for row in self.rows for cell in row.cells)

    def cell(self, row: int, col: int) -> LegacyCell:
        return self.rows[row].cells[col]



@dataclass(slots=True)
class LegacySave:
    """A whole save file.

    ``variant`` is ``"z10"``, ``"phi_lambda"`` or ``"colors"`` (only group numbers
    are known: Decodoku: Colors and the oldest Z10 layout); ``hard`` is true when hard
    mode display overrides were found. ``newline`` is the file's line
    terminator (``"\\n"``, ``"\\r"`` or ``"\\r\\n"``), used for lines that do not
    carry their own. ``empty_char`` is how new empty cells are written
    (``"."``, or ``"'"`` in the older format). ``inline_steps`` is true for the
    older layout where the step number and the first row share a line;
    ``repeat_steps`` for the oldest layout, where every row of a board starts
    with its step number and the cells start in column C.
    """

    name: str
    size: int
    variant: str
    hard: bool
    steps: list[LegacyStep]
    newline: str = "\n"
    header: list[RawLine] = field(default_factory=list)
    bom: bool = False
    empty_char: str = EMPTY
    inline_steps: bool = False
    encoding: str = "utf-8"
    repeat_steps: bool = False

    @property
    def score(self) -> int:
        """The last step number: the score if the record is complete."""
        return self.steps[-1].t if self.steps else 0

    @property
    def step_numbers(self) -> list[int]:
        return [step.t for step in self.steps]

    def boards_digest(self) -> str:
        """SHA-256 of what the save records (variant, size, every step's cells and groups).

        Comments and layout are left out: the same game typed into a workbook
        or saved with other line ends has the same digest.
        """
        digest = hashlib.sha256(f"{self.variant}|{self.size}".encode())
        for step in self.steps:
            cells = ",".join(f"{c.symbol}{c.group}{c.override or ''}" for c in step.cells)
            digest.update(f"|{step.t}:{cells}".encode())
        return digest.hexdigest()

    @property
    def comments(self) -> list[tuple[int, str]]:
        """Every player's note with the step it was written at."""
        return [(step.t, text) for step in self.steps for text in step.comments]
