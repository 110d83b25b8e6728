"""A puzzle's answer key as one digest: puzzles that share it share their solution.

A player who has been shown a solution (by solving or giving up) knows the
answer of every puzzle with that solution, however it is started again: from
the same seed, from its puzzle ID, or entered in the editor with one more
given. Recognising a replay therefore compares solutions, not seeds or
descriptions. The digest covers the kind, the size and the solution; givens,
cages, signs and how the puzzle was made (seed, engine version, requested
level) are left out, since none of them changes the answer.

The solution is taken as JSON (what the database stores): tuples and lists
are the same, object keys are sorted, so the digest of a freshly generated
solution equals that of the same solution read back from a row.
"""

from __future__ import annotations

import hashlib
import json
from typing import Any

# Hex characters of a digest (SHA-256).
DIGEST_LENGTH = 64


def solution_digest(*, kind: str, size: int, solution: Any) -> str:
    """The SHA-256 (hex) of the kind, size and solution as canonical JSON."""
    as_stored = json.loads(json.dumps(solution))
    text = json.dumps(
        {"kind": kind, "size": size, "solution": as_stored},
        sort_keys=True,
        separators=(",", ":"),
        ensure_ascii=True,
    )
    return hashlib.sha256(text.encode("ascii")).hexdigest()
