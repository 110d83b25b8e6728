"""Hints for KenKen and Futoshiki that reach past the singles, up the technique ladder.

A hint first looks for what :func:`puzzles.engines.solver.find_hint` finds (a
cell with no candidate left, a single candidate, a single place), so those
hints stay exactly as they were. When none applies, the hint climbs the
grading ladder of :mod:`puzzles.engines.grading`: the simplest technique that
removes a candidate, again and again, until an empty cell is decided (a
single candidate or a single place), and it says which steps got there.

The candidates worked on are those the player's entries imply (each number
leaves its row and column, the cages and signs narrow), never the player's
own pencil marks: those may be wrong or missing, and a hint built on them
could be wrong. The same grid therefore always gets the same hint.

When the ladder meets a contradiction, or gets stuck while a number the
player wrote differs from the solution, the hint says that an entry is
wrong without saying which (``wrong_entry``). When it gets stuck on a grid
without error, only trial and error remains (``stuck``).

The result is plain JSON. Besides the keys of the single hints (``kind``,
``cell``, ``value``, ``unit``), a ladder hint (``kind`` ``"technique"``) has
``technique`` and ``level`` (its first step's), ``cells`` (the cells that
step looks at), ``removes`` (``[{"cell": [r, c], "values": [...]}]``, every
candidate the steps remove together), ``text`` (plain English, rows and
columns counted from 1) and ``steps`` (each step with its own ``technique``,
``level``, ``cells``, ``unit``, ``removes`` and ``text``). ``cell`` and
``value`` name the number the steps decide, ``then`` says it ("" if none).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from puzzles.engines import grading
from puzzles.engines.latin import Grid, LatinPuzzle, bit, is_single, value_of, values_of
from puzzles.engines.solver import NAKED_PAIR, Step, find_hint, implied_candidates

TECHNIQUE = "technique"
WRONG_ENTRY = "wrong_entry"
STUCK = "stuck"

TITLES: dict[str, str] = {
    NAKED_PAIR: "Naked pair",
    grading.HIDDEN_PAIR: "Hidden pair",
    grading.NAKED_SUBSET: "Naked subset",
    grading.HIDDEN_SUBSET: "Hidden subset",
    grading.X_WING: "X-wing",
    grading.CAGE_MUST_CONTAIN: "Cage must contain",
    grading.DOUBLE_SIGN: "Double sign",
    grading.SIGN_CHAIN_BOUNDS: "Sign chain",
    grading.FORCING_CHAIN: "Forcing chain",
}


def _ladder(puzzle: LatinPuzzle) -> list[tuple[int, grading.Technique]]:
    """The kind's ladder (a sub-kind's is its base kind's); a kind the grading module does
    not know gets every technique: each one checks for the constraint it needs and skips
    otherwise."""
    base = grading.ladder_kind(puzzle.kind)
    known = grading.LADDERS.get(base)
    if known is not None:
        return list(known)
    merged: dict[grading.Technique, int] = {}
    for ladder in grading.LADDERS.values():
        for level, technique in ladder:
            merged.setdefault(technique, level)
    return sorted(((level, t) for t, level in merged.items()), key=lambda item: item[0])


def _where(puzzle: LatinPuzzle, index: int) -> str:
    """A cell as the page names it in a hint: (row, column), both counted from 1."""
    r, c = puzzle.geometry.cell(index)
    return f"({r + 1}, {c + 1})"


def _line(unit: str) -> str:
    """An engine unit name ("row 0") as the page says it ("row 1")."""
    head, _, number = unit.rpartition(" ")
    return f"{head} {int(number) + 1}" if number.isdigit() else unit


def _listed(items: Sequence[str], joiner: str = "and") -> str:
    if len(items) <= 1:
        return "".join(items)
    return f"{', '.join(items[:-1])} {joiner} {items[-1]}"


def _values(mask: int, joiner: str = "and") -> str:
    return _listed([str(v) for v in values_of(mask)], joiner)


def _removal_text(puzzle: LatinPuzzle, removed: dict[int, int]) -> str:
    # Cells that lose the same values are named together: "1 and 5 from (1, 1) and (2, 1)".
    by_mask: dict[int, list[int]] = {}
    for i, m in sorted(removed.items()):
        by_mask.setdefault(m, []).append(i)
    parts = [
        f"{_values(m)} from {_listed([_where(puzzle, i) for i in cells])}"
        for m, cells in by_mask.items()
    ]
    return "; ".join(parts)


def _cage_name(puzzle: LatinPuzzle, cause: Sequence[int]) -> str:
    """ "the 12+ cage" when the kind has cages with a target, else "the cage"."""
    g = puzzle.geometry
    wanted = {g.cell(i) for i in cause}
    for cage in getattr(puzzle, "cages", ()):
        cells = getattr(cage, "cells", ())
        if set(map(tuple, cells)) == wanted:
            op = getattr(cage, "op", "")
            return f"the {getattr(cage, 'target', '')}{'' if op == '=' else op} cage"
    return "the cage"


def describe(puzzle: LatinPuzzle, step: Step, cands: Sequence[int]) -> str:
    """One or two plain sentences for ``step``, found on the candidates ``cands``."""
    name = step.technique
    title = TITLES.get(name, name.replace("_", " ").capitalize())
    cells = _listed([_where(puzzle, i) for i in step.cause])
    removed_any = 0
    for mask in step.removed.values():
        removed_any |= mask
    gone = _removal_text(puzzle, step.removed)
    line = _line(step.unit) if step.unit else ""
    if name in (NAKED_PAIR, grading.NAKED_SUBSET):
        union = 0
        for i in step.cause:
            union |= cands[i]
        return (
            f"{title}: in {line}, {cells} can only hold {_values(union)} between them, "
            f"so the other cells of {line} cannot: remove {gone}."
        )
    if name in (grading.HIDDEN_PAIR, grading.HIDDEN_SUBSET):
        keep = 0
        for i in step.cause:
            keep |= cands[i] & ~step.removed.get(i, 0)
        return (
            f"{title}: in {line}, {_values(keep)} can only go in {cells}, "
            f"so those cells hold nothing else: remove {gone}."
        )
    if name == grading.X_WING:
        first, second = puzzle.geometry.cell(step.cause[0]), puzzle.geometry.cell(step.cause[1])
        lines, across = ("rows", "columns") if first[0] == second[0] else ("columns", "rows")
        value = _values(removed_any)
        return (
            f"{title}: in two {lines}, {value} can only go in the same two {across} "
            f"({cells}); whichever way it goes, those {across} get their {value} there, "
            f"so remove {gone}."
        )
    if name == grading.CAGE_MUST_CONTAIN:
        return (
            f"{title}: every way to fill {_cage_name(puzzle, step.cause)} at {cells} puts "
            f"{_values(removed_any)} in "
            f"its cells of {line}, so the rest of {line} cannot hold it: remove {gone}."
        )
    if name in (grading.DOUBLE_SIGN, grading.SIGN_CHAIN_BOUNDS):
        target = _where(puzzle, step.cause[0])
        others = _listed([_where(puzzle, i) for i in step.cause[1:]])
        how = "the signs next to it" if name == grading.DOUBLE_SIGN else "the chains of signs"
        return (
            f"{title}: by {how}, {target} is larger or smaller than several different cells "
            f"of its line ({others}), which bounds it: remove {gone}."
        )
    if name == grading.FORCING_CHAIN:
        start = step.cause[0]
        both = _values(cands[start], "or")
        if list(step.removed) == [start]:
            return (
                f"{title}: {_where(puzzle, start)} is {both}; trying "
                f"{_values(step.removed[start], 'or')} there leads to a contradiction, "
                f"so remove it."
            )
        return (
            f"{title}: {_where(puzzle, start)} is {both}; either way the rules lead to "
            f"the same conclusion: remove {gone}."
        )
    return f"{title}: remove {gone}."


def _removes(puzzle: LatinPuzzle, removed: dict[int, int]) -> list[dict[str, Any]]:
    g = puzzle.geometry
    return [
        {"cell": list(g.cell(i)), "values": values_of(m)} for i, m in sorted(removed.items()) if m
    ]


def _narrow(puzzle: LatinPuzzle, cands: list[int]) -> bool:
    """The kind's own constraint to a fixed point, in place; False on a contradiction."""
    for _ in range(puzzle.size * puzzle.size):
        changed = puzzle.narrow(cands)
        if changed is None:
            return False
        if not changed:
            break
    return all(cands)


def _decided(
    puzzle: LatinPuzzle, cands: Sequence[int], empty: Sequence[int]
) -> tuple[int, int, str] | None:
    """An empty cell the candidates decide: (cell, value, unit), unit "" for a single candidate."""
    g = puzzle.geometry
    for i in empty:
        if is_single(cands[i]):
            return i, value_of(cands[i]), ""
    empty_set = set(empty)
    for number, unit in enumerate(g.units):
        for v in range(1, puzzle.size + 1):
            b = bit(v)
            if any(i not in empty_set and cands[i] == b for i in unit):
                continue
            places = [i for i in unit if i in empty_set and cands[i] & b]
            if len(places) == 1:
                return places[0], v, g.unit_name(number)
    return None


def _has_wrong_entry(puzzle: LatinPuzzle, entries: Grid, solution: Grid | None) -> bool:
    givens = puzzle.given_cells()
    n = puzzle.size
    return solution is not None and any(
        entries[r][c] and entries[r][c] != solution[r][c] and r * n + c not in givens
        for r in range(n)
        for c in range(n)
    )


def _plain(kind: str, text: str) -> dict[str, Any]:
    return {"kind": kind, "cell": None, "value": None, "unit": "", "text": text}


def ladder_hint(
    puzzle: LatinPuzzle, entries: Grid, *, solution: Grid | None = None, max_steps: int = 200
) -> dict[str, Any] | None:
    """The ladder's next deductions on the player's grid (see the module's docstring).

    None when the grid is full. Meant for when :func:`find_hint` has nothing.
    """
    n = puzzle.size
    givens = puzzle.given_cells()
    empty = [i for i in range(n * n) if not entries[i // n][i % n] and i not in givens]
    if not empty:
        return None
    wrong = _has_wrong_entry(puzzle, entries, solution)
    cands = implied_candidates(puzzle, entries)
    ladder = _ladder(puzzle)
    steps: list[tuple[int, Step, str]] = []
    total: dict[int, int] = {}
    decided = None
    contradiction = not _narrow(puzzle, cands)
    while not contradiction and decided is None and len(steps) < max_steps:
        found: tuple[int, Step] | None = None
        for level, technique in ladder:
            step = technique(puzzle, cands)
            if step is not None:
                found = (level, step)
                break
        if found is None:
            break
        level, step = found
        steps.append((level, step, describe(puzzle, step, cands)))
        for i, mask in step.removed.items():
            cands[i] &= ~mask
            total[i] = total.get(i, 0) | mask
        contradiction = not _narrow(puzzle, cands)
        if not contradiction:
            decided = _decided(puzzle, cands, empty)
    if contradiction or (decided is None and wrong):
        return _plain(
            WRONG_ENTRY,
            "One of the numbers you wrote is wrong: the rules lead to a contradiction "
            "from them. Check or undo your recent entries.",
        )
    if not steps:
        return _plain(
            STUCK,
            "No technique of the ladder applies here: from this grid only trial and "
            "error goes on (try a value and see whether it leads to a contradiction).",
        )
    g = puzzle.geometry
    level, first, _ = steps[0]
    data: dict[str, Any] = {
        "kind": TECHNIQUE,
        "technique": first.technique,
        "level": level,
        "cells": [list(g.cell(i)) for i in first.cause],
        "unit": first.unit,
        "removes": _removes(puzzle, total),
        "cell": None,
        "value": None,
        "steps": [
            {
                "technique": step.technique,
                "level": lv,
                "cells": [list(g.cell(i)) for i in step.cause],
                "unit": step.unit,
                "removes": _removes(puzzle, step.removed),
                "text": text,
            }
            for lv, step, text in steps
        ],
    }
    then = ""
    if decided is not None:
        cell, value, unit = decided
        data["cell"] = list(g.cell(cell))
        data["value"] = value
        if unit:
            then = f"Then {value} fits only at {_where(puzzle, cell)} in {_line(unit)}."
        else:
            then = f"Then {_where(puzzle, cell)} can only hold {value}."
    data["then"] = then
    data["text"] = " ".join([text for _, _, text in steps] + ([then] if then else []))
    return data


def next_hint(
    puzzle: LatinPuzzle, entries: Grid, *, solution: Grid | None = None
) -> dict[str, Any] | None:
    """The hint for the player's grid: a single if there is one, else the ladder's steps."""
    simple = find_hint(puzzle, entries)
    if simple is not None:
        return simple.to_dict()
    return ladder_hint(puzzle, entries, solution=solution)
