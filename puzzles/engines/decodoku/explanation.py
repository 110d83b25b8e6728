"""Explanations of a board: links, groups, the corners they imply, and scores.

Pure Python, no Django. An *explanation* is a set of links (numbered as in
``board``). The links join cells into *groups*: the connected components of
the linked cells, every unlinked cell being a group of its own. A group's
*remainder* is the sum of its visible numbers mod 10 (the hidden corners count
as nothing).

The explanation is *valid* when every group without a corner has remainder 0.
A group holding one corner is fine whatever its remainder: that corner takes
the value that brings the group to 0. A group holding both corners is fine
too; then the explanation leaves the top-left value free (any of the ten fits,
the bottom-right one following from it). The total-sum rule (all numbers,
corners included, sum to 0 mod 10) then holds by itself: the corners' values
are exactly minus the visible sum.

The *answer* is the top-left value; fewer links is the more likely
explanation, so a player's explanation is scored by its number of links
against the minimum.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from puzzles.engines.decodoku.board import MODULUS, Board, DecodokuError, Geometry


@dataclass(frozen=True, slots=True)
class Group:
    """One group of an explanation: its cells (ascending) and its remainder."""

    cells: tuple[int, ...]
    remainder: int
    corners: tuple[int, ...]

    @property
    def balanced(self) -> bool:
        """Whether the group can sum to 0: remainder 0, or a corner to absorb it."""
        return self.remainder == 0 or bool(self.corners)


@dataclass(frozen=True, slots=True)
class Check:
    """What an explanation says about a board.

    ``top_left`` and ``bottom_right`` are the corner values the explanation
    gives (``None`` for both when the corners share a group: then any top-left
    value fits). ``unbalanced`` lists the groups that break the rules.
    """

    links: frozenset[int]
    groups: tuple[Group, ...]
    unbalanced: tuple[Group, ...]
    top_left: int | None
    bottom_right: int | None
    corners_joined: bool

    @property
    def valid(self) -> bool:
        return not self.unbalanced

    @property
    def answers(self) -> frozenset[int]:
        """The top-left values this explanation allows (none when it is not valid)."""
        if not self.valid:
            return frozenset()
        if self.top_left is None:
            return frozenset(range(MODULUS))
        return frozenset({self.top_left})


def normalise_links(geo: Geometry, links: Iterable[int]) -> frozenset[int]:
    """The links as a set, each checked to be a link of the board."""
    chosen: set[int] = set()
    count = len(geo.links)
    for link in links:
        if isinstance(link, bool) or not isinstance(link, int) or not 0 <= link < count:
            raise DecodokuError(f"links are numbered 0 to {count - 1}, not {link!r}")
        chosen.add(link)
    return frozenset(chosen)


def groups_of(geo: Geometry, links: Iterable[int]) -> list[list[int]]:
    """The cells of each group (ascending), groups ordered by their first cell."""
    parent = list(range(geo.cells))

    def root(cell: int) -> int:
        while parent[cell] != cell:
            parent[cell] = parent[parent[cell]]
            cell = parent[cell]
        return cell

    for link in normalise_links(geo, links):
        a, b = geo.links[link]
        ra, rb = root(a), root(b)
        if ra != rb:
            parent[max(ra, rb)] = min(ra, rb)
    found: dict[int, list[int]] = {}
    for cell in range(geo.cells):
        found.setdefault(root(cell), []).append(cell)
    return sorted(found.values())


def check(board: Board, links: Iterable[int]) -> Check:
    """Group the cells by the links and say whether (and how) they explain the board."""
    geo = board.geometry
    chosen = normalise_links(geo, links)
    tl, br = geo.corners
    groups: list[Group] = []
    for cells in groups_of(geo, chosen):
        remainder = sum(board.values[c] for c in cells) % MODULUS
        corners = tuple(c for c in (tl, br) if c in cells)
        groups.append(Group(tuple(cells), remainder, corners))
    unbalanced = tuple(g for g in groups if not g.balanced)
    joined = any(len(g.corners) == 2 for g in groups)
    top_left = bottom_right = None
    if not joined:
        for group in groups:
            if group.corners == (tl,):
                top_left = (-group.remainder) % MODULUS
            elif group.corners == (br,):
                bottom_right = (-group.remainder) % MODULUS
    return Check(chosen, tuple(groups), unbalanced, top_left, bottom_right, joined)


def total_rule_holds(board: Board, result: Check) -> bool:
    """Whether the corner values a valid explanation gives obey the total-sum rule.

    True for every valid explanation (the rule follows from the groups); kept
    as an explicit check of that fact. A joined pair of corners fits every
    top-left value, the bottom-right one being ``board.bottom_right_for``.
    """
    if not result.valid:
        return False
    if result.top_left is None or result.bottom_right is None:
        return result.corners_joined
    return result.bottom_right == board.bottom_right_for(result.top_left)


@dataclass(frozen=True, slots=True)
class Score:
    """A player's explanation and answer, scored.

    ``valid``: the links explain the board. ``consistent``: the answer is a
    top-left value those links allow. ``correct``: the answer is the
    top-left value the board's maker recorded (``None`` when there is none).
    ``excess``: links used beyond the minimum (``None`` without a minimum).
    """

    answer: int
    links: int
    valid: bool
    consistent: bool
    correct: bool | None
    minimum: int | None
    excess: int | None


def score(board: Board, links: Iterable[int], answer: int, *, minimum: int | None = None) -> Score:
    """Score an explanation and its top-left answer (``minimum``: the solver's links)."""
    if isinstance(answer, bool) or not isinstance(answer, int) or not 0 <= answer < MODULUS:
        raise DecodokuError(f"the answer is a digit 0-9, not {answer!r}")
    result = check(board, links)
    correct = None if board.corners is None else answer == board.corners[0]
    used = len(result.links)
    return Score(
        answer=answer,
        links=used,
        valid=result.valid,
        consistent=answer in result.answers,
        correct=correct,
        minimum=minimum,
        excess=None if minimum is None else used - minimum,
    )
