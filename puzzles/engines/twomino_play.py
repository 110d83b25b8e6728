"""Playing 2mino on the puzzle platform: the player's bars, the actions on them, replay.

The engine itself is :mod:`puzzles.engines.twomino`; this module gives it the
shape the platform's registry expects of a kind (see
:mod:`puzzles.engines.registry`): generate, load, solve and the play
functions ``empty_state``, ``apply_action``, ``is_solved`` and ``replay``.
Pure Python, no Django.

The player's state is plain JSON: ``bars``, the bars the player has turned
on (``[r1, c1, r2, c2]``, the smaller cell first, sorted; locked bars are not
listed, they are always on), and ``formed``, the dominoes those bars form
(same shape). Applying the recorded actions in order to the empty state gives
the board at any step: that is the replay.

Actions (``kind`` and ``payload``):

* ``toggle`` ``{"a": [r, c], "b": [r, c]}``: turn the bar between two
  neighbouring cells on or off; locked bars cannot change. The result lists
  the dominoes (with their pair) the toggle formed and broke.
* ``hint`` ``{}``: a domino to look at (the board does not change; see
  :func:`find_hint`).
* ``reset`` ``{}``: turn every bar the player drew off again.
* ``check`` ``{}`` or ``{"dominoes": [{"a": [r, c], "b": [r, c]}, ...]}``: the
  board (or the tiling given) is accepted if every pair is found exactly once,
  whatever tiling it is; otherwise it is refused with the first pair that is
  missing or doubled, and nothing is recorded.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Any

from puzzles.engines import twomino
from puzzles.engines.base import ActionRejected, Generated, Outcome
from puzzles.engines.latin import PuzzleError
from puzzles.engines.twomino import Bar, Cell, Pair, Play, Puzzle, TwominoError

ACTION_KINDS = ("toggle", "hint", "reset", "check")
PAYLOAD_FIELDS: dict[str, set[str]] = {
    "toggle": {"a", "b"},
    "hint": set(),
    "reset": set(),
    "check": {"dominoes"},
}


# --- the registry's view of the kind -------------------------------------------


def generated_dict(made: Generated[Puzzle, None]) -> dict[str, Any]:
    """A generated board's JSON: the board's own (it carries its seed and solution)."""
    return made.puzzle.to_json()


def generate(*, size: int, seed: int, difficulty: str | None = None) -> Generated[Puzzle, None]:
    chosen = difficulty or "normal"
    if chosen not in twomino.DIFFICULTIES:
        raise PuzzleError(f"difficulty must be one of {', '.join(twomino.DIFFICULTIES)}")
    try:
        made = twomino.generate(size=size, seed=seed, difficulty=chosen)  # type: ignore[arg-type]
    except TwominoError as exc:
        raise PuzzleError(str(exc)) from None
    return Generated(
        puzzle=made,
        seed=seed,
        solution=made.solution,
        difficulty=None,
        engine_version=made.engine_version,
        describe=generated_dict,
    )


def load(data: Mapping[str, Any]) -> Puzzle:
    """A board from its JSON (``manage.py puzzle generate 2mino``), as PuzzleError if malformed."""
    try:
        return twomino.puzzle_from_json(dict(data))
    except TwominoError as exc:
        raise PuzzleError(str(exc)) from None


def read_solution(data: Mapping[str, Any], size: int) -> None:
    """``load`` already checks a stated solution (a wrong one is refused there)."""
    return None


def _bar_list(b: Bar) -> list[int]:
    return [b[0][0], b[0][1], b[1][0], b[1][1]]


def _domino_json(puzzle: Puzzle, d: Bar) -> dict[str, Any]:
    return {"a": list(d[0]), "b": list(d[1]), "pair": list(puzzle.pair_at(*d))}


def forced_trace(puzzle: Puzzle) -> list[dict[str, Any]]:
    """The solver's forced deductions in order, until none is left.

    Two rules, applied over and over: a pair that has only one place left is
    placed there (``only_place``); a cell that has only one partner left is
    paired with it (``only_partner``). Placing a domino removes every other
    placement on its cells and of its pair. The trace may stop before the
    board is tiled: what is left needs a guess (or several tilings remain).
    """
    options: list[tuple[Bar, Pair]] = twomino.placements(puzzle.size, puzzle.grid, puzzle.locked)
    placed_cells: set[Cell] = set()
    placed_pairs: set[Pair] = set()
    trace: list[dict[str, Any]] = []
    while True:
        live = [
            (d, p)
            for d, p in options
            if p not in placed_pairs and d[0] not in placed_cells and d[1] not in placed_cells
        ]
        by_pair: dict[Pair, list[Bar]] = {}
        by_cell: dict[Cell, list[Bar]] = {}
        for d, p in live:
            by_pair.setdefault(p, []).append(d)
            for cell in d:
                by_cell.setdefault(cell, []).append(d)
        move: tuple[Bar, str] | None = None
        for p in twomino.all_pairs(puzzle.size):
            if p not in placed_pairs and len(by_pair.get(p, [])) == 1:
                move = (by_pair[p][0], "only_place")
                break
        if move is None:
            for cell in puzzle.board.cells():
                if cell not in placed_cells and len(by_cell.get(cell, [])) == 1:
                    move = (by_cell[cell][0], "only_partner")
                    break
        if move is None:
            return trace
        d, reason = move
        placed_cells.update(d)
        placed_pairs.add(puzzle.pair_at(*d))
        trace.append({"step": len(trace) + 1, "reason": reason, **_domino_json(puzzle, d)})


def solve(puzzle: Puzzle) -> dict[str, Any]:
    """Solution count (stopping at 2), the solution when unique, and the forced-pair trace."""
    found = list(twomino.solve(puzzle.size, puzzle.grid, puzzle.locked, limit=2))
    data: dict[str, Any] = {"solutions": len(found) if len(found) < 2 else ">=2"}
    if found:
        data["solution"] = [{"a": list(a), "b": list(b)} for a, b in found[0]]
    trace = forced_trace(puzzle)
    data["trace"] = trace
    data["steps"] = len(trace)
    data["forced_pairs"] = len(twomino.forced_pairs(puzzle.size, puzzle.grid, puzzle.locked))
    if puzzle.solution:
        data["stated_solution_valid"] = twomino.tiling_problem(puzzle, puzzle.solution) is None
    return data


def rating(puzzle: Puzzle) -> dict[str, Any]:
    """What the platform stores about a generated board: its difficulty and forced steps."""
    trace = forced_trace(puzzle)
    reasons: dict[str, int] = {}
    for step in trace:
        reasons[step["reason"]] = reasons.get(step["reason"], 0) + 1
    return {"label": puzzle.difficulty, "hardest": "", "steps": len(trace), "techniques": reasons}


# --- play -----------------------------------------------------------------------


def _cell(value: Any, what: str) -> Cell:
    if (
        not isinstance(value, list | tuple)
        or len(value) != 2
        or not all(isinstance(v, int) and not isinstance(v, bool) for v in value)
    ):
        raise PuzzleError(f"{what} must be [row, col]")
    return (value[0], value[1])


def _bar_from(item: Any, board: twomino.Board, what: str) -> Bar:
    if not isinstance(item, Mapping):
        raise PuzzleError(f"{what} must be an object with a and b")
    a = _cell(item.get("a"), f"{what}.a")
    b = _cell(item.get("b"), f"{what}.b")
    if not board.is_bar(a, b):
        raise PuzzleError(f"{what}: there is no bar between {list(a)} and {list(b)}")
    return twomino.bar(a, b)


def empty_state(puzzle: Puzzle) -> dict[str, Any]:
    return {"bars": [], "formed": []}


def _play(puzzle: Puzzle, state: Mapping[str, Any]) -> Play:
    bars = [((r1, c1), (r2, c2)) for r1, c1, r2, c2 in state.get("bars", [])]
    return Play(puzzle, bars)


def _state(play: Play) -> dict[str, Any]:
    drawn = sorted(play.on - play.puzzle.locked)
    return {
        "bars": [_bar_list(b) for b in drawn],
        "formed": [_bar_list(d) for d in sorted(play.formed)],
    }


def is_solved(puzzle: Puzzle, state: Mapping[str, Any]) -> bool:
    return _play(puzzle, state).solved


def counts(puzzle: Puzzle, state: Mapping[str, Any]) -> dict[str, int]:
    """How many times each pair is formed, keyed "x-y"."""
    play = _play(puzzle, state)
    return {f"{x}-{y}": n for (x, y), n in play.counts.items()}


def find_hint(puzzle: Puzzle, play: Play) -> dict[str, Any] | None:
    """A domino the player may place next, or what stands in the way.

    The player's bars are taken as right as long as some tiling agrees with
    them: with the locked and drawn bars both blocking, a pair that has only
    one place left and is not formed there yet is a ``forced`` hint (the
    solver's own first deduction). When no pair is forced, a domino of a
    tiling that agrees with every drawn bar is given (``tiling``). When no
    tiling agrees with the drawn bars, the hint is a drawn bar that cuts a
    domino of the board's solution (``wrong_bar``): taking it off is a step
    towards a solution.
    """
    drawn = play.on - puzzle.locked
    blocked = set(play.on)
    tiling = next(iter(twomino.solve(puzzle.size, puzzle.grid, blocked, limit=1)), None)
    if tiling is None:
        for d in puzzle.solution:
            if d in drawn:
                return {"kind": "wrong_bar", "a": list(d[0]), "b": list(d[1])}
        return None
    for _, d in sorted(twomino.forced_pairs(puzzle.size, puzzle.grid, blocked).items()):
        if d not in play.formed:
            return {"kind": "forced", **_domino_json(puzzle, d)}
    for d in tiling:
        if d not in play.formed:
            return {"kind": "tiling", **_domino_json(puzzle, d)}
    return None


def board_problem(play: Play) -> str | None:
    """Why the board is not solved: a pair found twice or more first, else a missing one."""
    for (x, y), n in play.counts.items():
        if n > 1:
            return f"the pair {x}-{y} is found {n} times"
    for (x, y), n in play.counts.items():
        if n == 0:
            return f"the pair {x}-{y} is missing"
    return None


def apply_action(
    puzzle: Puzzle,
    solution: Any,
    state: Mapping[str, Any],
    kind: str,
    payload: Any,
    *,
    tag: bool = True,
) -> Outcome:
    """Apply one action to a copy of ``state``. Raises ActionRejected for an invalid action."""
    if kind not in ACTION_KINDS:
        raise PuzzleError(f"unknown action kind {kind!r} (one of {', '.join(ACTION_KINDS)})")
    if payload is None:
        payload = {}
    if not isinstance(payload, Mapping):
        raise PuzzleError("payload must be a JSON object")
    unknown = set(payload) - PAYLOAD_FIELDS[kind]
    if unknown:
        raise PuzzleError(f"{kind}: unknown payload field {sorted(unknown)[0]!r}")
    play = _play(puzzle, state)
    board = puzzle.board
    if kind == "toggle":
        key = _bar_from(payload, board, "bar")
        if key in puzzle.locked:
            raise ActionRejected(f"the bar between {list(key[0])} and {list(key[1])} is locked")
        done = play.toggle(*key)
        result = {
            "on": done.on,
            "formed": [_domino_json(puzzle, d) for d in done.formed],
            "broken": [_domino_json(puzzle, d) for d in done.broken],
            "solved": play.solved,
        }
        return Outcome(_state(play), result)
    if kind == "reset":
        if not play.on - puzzle.locked:
            raise ActionRejected("there is no bar to take off")
        broken = sorted(play.formed)
        fresh = Play(puzzle)
        return Outcome(
            _state(fresh),
            {
                "broken": [_domino_json(puzzle, d) for d in broken],
                "formed": [_domino_json(puzzle, d) for d in sorted(fresh.formed)],
            },
        )
    if kind == "hint":
        return Outcome(_state(play), {"hint": find_hint(puzzle, play)})
    # check: the board, or the tiling given, must use every pair exactly once
    dominoes = payload.get("dominoes")
    if dominoes is None:
        problem = board_problem(play)
        if problem:
            raise ActionRejected(f"not solved: {problem}")
        return Outcome(_state(play), {"solved": True})
    if not isinstance(dominoes, list) or len(dominoes) > board.rows * board.cols:
        raise PuzzleError("dominoes must be a list of at most one domino per two cells")
    tiling = [_bar_from(item, board, f"dominoes[{i}]") for i, item in enumerate(dominoes)]
    problem = twomino.tiling_problem(puzzle, tiling)
    if problem:
        raise ActionRejected(f"not a solution: {problem}")
    inside = set(tiling)
    drawn = [b for b in board.inner_bars() if b not in inside]
    return Outcome(_state(Play(puzzle, drawn)), {"solved": True})


def replay(
    puzzle: Puzzle, solution: Any, actions: Iterable[tuple[str, Any]]
) -> list[dict[str, Any]]:
    """The state after each action (index 0 is the empty state)."""
    states = [empty_state(puzzle)]
    for kind, payload in actions:
        states.append(apply_action(puzzle, solution, states[-1], kind, payload, tag=False).state)
    return states


def public_state(puzzle: Puzzle, state: Mapping[str, Any]) -> dict[str, Any]:
    """What the player sees of the board: drawn bars, formed dominoes, the count of each pair."""
    return {
        "bars": state.get("bars", []),
        "formed": state.get("formed", []),
        "counts": counts(puzzle, state),
    }


# --- analysis of an attempt -------------------------------------------------------


def _ranks(values: list[float]) -> list[float]:
    """Ranks from 1, ties sharing their average rank."""
    order = sorted(range(len(values)), key=lambda i: values[i])
    ranks = [0.0] * len(values)
    i = 0
    while i < len(order):
        j = i
        while j + 1 < len(order) and values[order[j + 1]] == values[order[i]]:
            j += 1
        for k in range(i, j + 1):
            ranks[order[k]] = (i + j) / 2 + 1
        i = j + 1
    return ranks


def spearman(xs: list[float], ys: list[float]) -> float | None:
    """Spearman's rank correlation (Pearson's on the ranks); None when undefined."""
    if len(xs) != len(ys) or len(xs) < 3:
        return None
    rx, ry = _ranks(xs), _ranks(ys)
    mx, my = sum(rx) / len(rx), sum(ry) / len(ry)
    sxy = sum((a - mx) * (b - my) for a, b in zip(rx, ry, strict=True))
    sxx = sum((a - mx) ** 2 for a in rx)
    syy = sum((b - my) ** 2 for b in ry)
    if sxx == 0 or syy == 0:
        return None
    return float(sxy / (sxx * syy) ** 0.5)


def _mean(values: list[float]) -> float | None:
    return sum(values) / len(values) if values else None


def analyse(
    puzzle: Puzzle, actions: Iterable[tuple[str, Mapping[str, Any], int]]
) -> dict[str, Any]:
    """What an attempt shows about how the player searched.

    ``actions`` are the recorded ``(kind, payload, elapsed_ms)`` in order; they
    are replayed here, so the analysis never trusts a stored result. For each
    pair: when it was first formed, when it was formed for the last time, and
    how often it was formed and broken. The *order* of the pairs is by the
    time each was formed for the last time (a pair broken at the end counts
    as not found). Against the order: doubles (x-x) and other pairs, the
    number of places each pair may lie on the board (its rarity), and the
    solver's forced deductions (:func:`forced_trace`). Wrong pairs: formed
    and broken again, or formed while the same pair was already on the board.
    """
    state = empty_state(puzzle)
    first: dict[Pair, int] = {}
    last: dict[Pair, int] = {}
    formed_count: dict[Pair, int] = {}
    broken_count: dict[Pair, int] = {}
    doubled = 0
    hints = resets = toggles = 0
    for d in sorted(Play(puzzle).formed):  # formed by the locked bars and edges alone
        p = puzzle.pair_at(*d)
        formed_count[p] = formed_count.get(p, 0) + 1
        first.setdefault(p, 0)
        last[p] = 0
    for kind, payload, elapsed in actions:
        outcome = apply_action(puzzle, None, state, kind, payload, tag=False)
        if kind == "hint":
            hints += 1
        elif kind == "reset":
            resets += 1
        elif kind == "toggle":
            toggles += 1
        before = Play(puzzle, [((a, b), (c, d)) for a, b, c, d in state["bars"]]).counts
        for d in outcome.result.get("broken", []):
            p = twomino.pair_of(*d["pair"])
            broken_count[p] = broken_count.get(p, 0) + 1
        for d in outcome.result.get("formed", []):
            p = twomino.pair_of(*d["pair"])
            formed_count[p] = formed_count.get(p, 0) + 1
            first.setdefault(p, elapsed)
            last[p] = elapsed
            if before[p] >= 1:
                doubled += 1
        if kind == "check":  # a tiling sent whole: every pair formed at once
            for d in outcome.state["formed"]:
                p = puzzle.pair_at((d[0], d[1]), (d[2], d[3]))
                formed_count[p] = formed_count.get(p, 0) + 1
                first.setdefault(p, elapsed)
                last[p] = elapsed
        state = outcome.state
    final = Play(puzzle, [((a, b), (c, d)) for a, b, c, d in state["bars"]])
    found = [p for p, n in final.counts.items() if n >= 1]
    order = sorted(found, key=lambda p: (last[p], p))
    rank = {p: i + 1 for i, p in enumerate(order)}
    places: dict[Pair, int] = dict.fromkeys(twomino.all_pairs(puzzle.size), 0)
    for _, p in twomino.placements(puzzle.size, puzzle.grid, puzzle.locked):
        places[p] += 1
    trace = forced_trace(puzzle)
    forced_step = {puzzle.pair_at(tuple(s["a"]), tuple(s["b"])): s["step"] for s in trace}
    in_trace = [p for p in order if p in forced_step]
    n = len(order)
    doubles = [rank[p] / n for p in order if p[0] == p[1]]
    others = [rank[p] / n for p in order if p[0] != p[1]]
    forced_ranks = [rank[p] / n for p in in_trace]
    free_ranks = [rank[p] / n for p in order if p not in forced_step]
    return {
        "solved": final.solved,
        "toggles": toggles,
        "hints": hints,
        "resets": resets,
        "pairs": [
            {
                "pair": list(p),
                "first_formed_ms": first.get(p),
                "found_ms": last[p] if p in rank else None,
                "order": rank.get(p),
                "formed": formed_count.get(p, 0),
                "broken": broken_count.get(p, 0),
                "places": places[p],
                "forced_step": forced_step.get(p),
            }
            for p in twomino.all_pairs(puzzle.size)
        ],
        "order": [f"{x}-{y}" for x, y in order],
        "wrong": {
            "formed_then_broken": sum(broken_count.values()),
            "formed_while_already_found": doubled,
        },
        "doubles_mean_rank": _mean(doubles),
        "others_mean_rank": _mean(others),
        "places_order_correlation": spearman(
            [float(places[p]) for p in order], [float(rank[p]) for p in order]
        ),
        "forced": {
            "solver_steps": len(trace),
            "found_by_player": len(in_trace),
            "mean_rank": _mean(forced_ranks),
            "others_mean_rank": _mean(free_ranks),
            "order_correlation": spearman(
                [float(forced_step[p]) for p in in_trace], [float(rank[p]) for p in in_trace]
            ),
        },
    }
