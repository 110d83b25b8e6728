"""Puzzle IDs: a puzzle's description as one line of text, safe to show during play.

An ID is ``kind:size:description``, as in the game IDs of Simon Tatham's
puzzles (``kenken:6:eNqr...``). The description is the kind's JSON
description (``to_dict`` of the engine's puzzle object: cages, givens,
signs; never the solution, nor the seed, which would regenerate it) without
the keys the ID already states (kind, size) or that do not describe the
puzzle (engine version), written as compact JSON, deflated and encoded in
URL-safe base64 without padding: an ID can go in a link as it is.

Nothing here knows a kind's fields: any kind whose ``load`` reads back what
its puzzle's ``to_dict`` writes gets IDs, so new kinds need no code here.
Reading an ID checks everything a hostile one could get wrong (text, length,
base64, deflate, JSON, the kind's own rules) and raises PuzzleError with a
clear message; a bounded inflate keeps a small ID from unpacking into a large
document.
"""

from __future__ import annotations

import base64
import binascii
import json
import re
import zlib
from collections.abc import Callable, Mapping
from typing import Any

from puzzles.engines.latin import PuzzleError
from puzzles.engines.registry import get_kind

# The longest ID read: a 9 x 9 KenKen of one-cell cages stays far below it.
MAX_ID_LENGTH = 4000
# The most JSON an ID may unpack to (a 9 x 9 description is a few kilobytes).
MAX_DESCRIPTION_BYTES = 64_000
# Keys of a kind's description that the ID does not carry: stated before the
# description (kind, size) or not part of the puzzle (its engine version, and
# what generated puzzles add beside it).
OMITTED_KEYS = frozenset(
    {"kind", "size", "engine_version", "seed", "solution", "difficulty", "format", "version"}
)
DAMAGED = "the puzzle ID's description is damaged (cut short or mistyped?)"
_ID = re.compile(r"([a-z0-9][a-z0-9-]{0,39}):([0-9]{1,2}):([A-Za-z0-9_-]+)")

Loader = Callable[[Mapping[str, Any]], Any]


def _load_of(kind: str) -> Loader:
    return get_kind(kind).load


def encode(puzzle: Any) -> str:
    """The ID of an engine puzzle object (anything with ``kind``, ``size``, ``to_dict``)."""
    if not callable(getattr(puzzle, "to_dict", None)):
        raise PuzzleError("puzzles of this kind have no IDs")
    data = puzzle.to_dict()
    body = {key: value for key, value in data.items() if key not in OMITTED_KEYS}
    text = json.dumps(body, separators=(",", ":"), sort_keys=True)
    packed = base64.urlsafe_b64encode(zlib.compress(text.encode(), 9)).decode().rstrip("=")
    return f"{data.get('kind', puzzle.kind)}:{data.get('size', puzzle.size)}:{packed}"


def encode_definition(definition: Mapping[str, Any], *, load: Loader | None = None) -> str:
    """The ID of a stored JSON description (read by the kind's ``load`` first, so that
    the ID holds only what the puzzle object writes back)."""
    kind = definition.get("kind")
    if not isinstance(kind, str):
        raise PuzzleError("the description has no kind")
    return encode((load or _load_of(kind))(definition))


def _inflate(packed: str) -> bytes:
    try:
        raw = base64.urlsafe_b64decode(packed + "=" * (-len(packed) % 4))
    except (binascii.Error, ValueError):
        raise PuzzleError("the puzzle ID's description is not valid base64") from None
    inflater = zlib.decompressobj()
    try:
        text = inflater.decompress(raw, MAX_DESCRIPTION_BYTES)
    except zlib.error:
        raise PuzzleError(DAMAGED) from None
    if inflater.unconsumed_tail:
        raise PuzzleError("the puzzle ID's description is too large")
    if not inflater.eof or inflater.unused_data:
        raise PuzzleError(DAMAGED)
    return text


def decode(text: Any, *, load: Loader | None = None) -> dict[str, Any]:
    """The JSON description an ID stands for, checked by its kind; PuzzleError otherwise.

    The result is what the kind's puzzle object writes (``to_dict``), ready for
    the same checks and storage as a puzzle a player entered.
    """
    if not isinstance(text, str):
        raise PuzzleError("a puzzle ID must be text")
    text = text.strip()
    if not text:
        raise PuzzleError("the puzzle ID is empty")
    if len(text) > MAX_ID_LENGTH:
        raise PuzzleError(f"a puzzle ID has at most {MAX_ID_LENGTH} characters")
    match = _ID.fullmatch(text)
    if match is None:
        raise PuzzleError("a puzzle ID looks like kenken:4:eNqr... (kind:size:description)")
    kind, size_text, packed = match.groups()
    reader = load or _load_of(kind)
    try:
        body = json.loads(_inflate(packed))
    except (UnicodeDecodeError, json.JSONDecodeError, RecursionError):
        raise PuzzleError("the puzzle ID's description is not a puzzle description") from None
    if not isinstance(body, dict):
        raise PuzzleError("the puzzle ID's description is not a puzzle description")
    unexpected = sorted(key for key in body if key in OMITTED_KEYS)
    if unexpected:
        raise PuzzleError(f"the puzzle ID's description may not hold {unexpected[0]!r}")
    definition = {**body, "kind": kind, "size": int(size_text)}
    try:
        puzzle = reader(definition)
    except PuzzleError as error:
        raise PuzzleError(f"the puzzle ID is not a valid {kind}: {error}") from None
    except (TypeError, KeyError, AttributeError, ValueError, IndexError):
        # A kind's reader that trips over a value of the wrong shape: still bad input.
        raise PuzzleError(f"the puzzle ID is not a valid {kind}") from None
    described: dict[str, Any] = puzzle.to_dict()
    return described
