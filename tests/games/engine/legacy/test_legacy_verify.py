"""Checking legacy saves against the rules (games.engine.legacy.verify_save)."""

from __future__ import annotations

import copy
import random

import pytest

from games.engine import ENGINE_VERSION, Board, Game, RandomPolicy, RuleSet, play
from games.engine.legacy import (
    REASONS,
    LegacyCell,
    LegacySave,
    game_to_legacy,
    read_save,
    verify_save,
    write_save,
)
from tests.legacy_samples import sample_bytes

# CPU-heavy: bin/test runs it in its second pass, without coverage's tracer
# (which makes pure-Python loops several times slower).
pytestmark = pytest.mark.slow


def sample(name: str) -> LegacySave:
    return read_save(sample_bytes(name), name=name)


def clone(save: LegacySave, *steps: int) -> LegacySave:
    """A copy of ``save`` whose steps at the given indexes can be changed freely."""
    other = copy.copy(save)
    other.steps = list(save.steps)
    for k in steps:
        step = other.steps[k] = copy.copy(save.steps[k])
        step.rows = [copy.copy(row) for row in step.rows]
        for row in step.rows:
            row.cells = list(row.cells)
    return other


def set_cell(save: LegacySave, k: int, index: int, cell: LegacyCell) -> None:
    size = save.size
    save.steps[k].rows[index // size].cells[index % size] = cell


def relabel(save: LegacySave, k: int, old: int, new: int) -> None:
    for row in save.steps[k].rows:
        row.cells = [LegacyCell(c.symbol, new) if c.group == old else c for c in row.cells]


def step_lines(save: LegacySave, k: int) -> range:
    step = save.steps[k]
    first, last = step.line, step.rows[-1].line
    assert first is not None
    assert last is not None
    return range(first, last + 1)


def lost_game(seed: int, **rules) -> Game:
    game = Game(RuleSet(**rules), seed)
    play(game, RandomPolicy(seed + 1))
    return game


# -- the sample files ------------------------------------------------------------------


@pytest.mark.parametrize(("name", "score"), [("Z10_normal_475.csv", 475),
                                             ("Z10_normal_480.csv", 480)])
def test_z10_samples_verify(name, score):
    result = verify_save(sample(name))
    assert result.ok, result.violation
    assert result.violation is None
    assert result.score == score
    assert result.steps_read == score + 1
    assert not result.partially_observed
    assert result.gaps == []
    assert result.merge_label == "moved"
    assert result.summary() == f"ok, Z10, L=7, score {score} ({score + 1} steps)"
    assert len(result.moves) == score
    for inferred in result.moves:
        assert inferred.move is not None
        assert inferred.noise == (inferred.t % 5 == 0 and inferred.t != score)
        assert inferred.kind == ("move_noise" if inferred.noise else "move")


@pytest.mark.parametrize(
    ("name", "score", "hard"),
    [
        ("PL_annotated_336.csv", 336, False),
        ("PL_hard_219.csv", 219, True),
        ("PL_normal_205.csv", 205, False),
        ("PL_normal_321.csv", 321, False),
    ],
)
def test_phi_lambda_samples_are_partially_observed_records(name, score, hard):
    result = verify_save(sample(name))
    assert result.ok, result.violation
    assert result.partially_observed
    assert result.score == score
    assert result.hard is hard
    assert result.merge_label == "moved"
    assert all(m.move is not None for m in result.moves)
    mode = ", hard mode" if hard else ""
    assert result.summary() == (
        f"partially observed Phi-Lambda record, L=7, score {score} ({score + 1} steps{mode})"
    )


def test_the_authors_illustration_has_noise_after_four_moves():
    result = verify_save(sample("ReadMeWithExcel.csv"))
    assert not result.ok
    assert result.violation.t == 4
    assert result.violation.line == 39
    assert result.violation.reason == "noise_off_schedule"
    assert result.summary().startswith("INVALID at step 4 (line 39): noise_off_schedule")


def test_stopping_at_the_first_violation_gives_the_same_verdict():
    save = sample("ReadMeWithExcel.csv")
    full, short = verify_save(save), verify_save(save, stop_at_first=True)
    assert full.violation == short.violation
    assert len(full.moves) == 6
    assert len(short.moves) == 4
    assert full.moves[3].kind == "unexplained"


# -- any single corrupted cell of a Z10 save is found, at its step ------------------------


def corruptions(save: LegacySave, k: int, index: int, rng: random.Random):
    """Every kind of single-cell damage that applies to this cell."""
    cell = save.steps[k].cells[index]
    labels = sorted(set(save.steps[k].labels) - {0})
    fresh = max(labels) + 1
    if cell.empty:
        value = rng.randint(1, 9)
        yield "number in an empty cell", LegacyCell(str(value), rng.choice(labels))
        yield "number of a new group", LegacyCell(str(value), fresh)
        return
    value = int(cell.symbol)
    yield "another value", LegacyCell(str(value % 9 + 1), cell.group)
    yield "emptied", LegacyCell(".", 0)
    others = [g for g in labels if g != cell.group]
    if others:
        yield "another group", LegacyCell(cell.symbol, rng.choice(others))
    yield "a new group", LegacyCell(cell.symbol, fresh)
    yield "no group", LegacyCell(cell.symbol, 0)
    yield "value 0 kept in its group", LegacyCell(".", cell.group)


def assert_found_at(save: LegacySave, k: int, what: str) -> None:
    result = verify_save(save, stop_at_first=True)
    step = save.steps[k]
    assert not result.ok, f"{what} at step {step.t} went unnoticed"
    assert result.violation is not None
    assert result.violation.t == step.t, (what, result.violation)
    assert result.violation.line in step_lines(save, k), (what, result.violation)
    assert result.violation.reason in REASONS


@pytest.mark.parametrize("name", ["Z10_normal_475.csv", "Z10_normal_480.csv"])
def test_random_single_cell_corruptions_are_found_at_their_step(name):
    save = sample(name)
    rng = random.Random(name)
    cells = save.size * save.size
    for _ in range(150):
        k = rng.randrange(len(save.steps))
        index = rng.randrange(cells)
        what, bad = rng.choice(list(corruptions(save, k, index, rng)))
        damaged = clone(save, k)
        set_cell(damaged, k, index, bad)
        assert_found_at(damaged, k, f"{what} at cell {index}")


# the first board, a move, a noise step, the move after it, the noise step where a group
# spans (step 310) and the last board
@pytest.mark.parametrize("k", [0, 1, 5, 6, 310, 475])
def test_every_cell_of_some_steps_corrupted_in_every_way(k):
    save = sample("Z10_normal_475.csv")
    rng = random.Random(k)
    for index in range(save.size * save.size):
        for what, bad in corruptions(save, k, index, rng):
            damaged = clone(save, k)
            set_cell(damaged, k, index, bad)
            assert_found_at(damaged, k, f"{what} at cell {index}")


def test_corruptions_in_the_file_text_are_found_with_their_line():
    save = sample("Z10_normal_480.csv")
    rng = random.Random(7)
    for _ in range(10):
        k = rng.randrange(1, len(save.steps))
        index = rng.randrange(49)
        _what, bad = rng.choice(list(corruptions(save, k, index, rng)))
        damaged = clone(save, k)
        set_cell(damaged, k, index, bad)
        again = read_save(write_save(damaged))
        result = verify_save(again)
        assert result.violation.t == save.steps[k].t
        assert result.violation.line in step_lines(save, k)


# -- each rule, broken on purpose -------------------------------------------------------------


def z10_game_save(seed: int = 3, **rules) -> LegacySave:
    rules.setdefault("size", 7)
    return game_to_legacy(lost_game(seed, **rules))


def first_move_step(save: LegacySave, *, annihilating: bool | None = None) -> int:
    """Index of a non-noise step whose move did (or did not) annihilate."""
    for k in range(1, len(save.steps) - 1):
        t = save.steps[k].t
        if t % 5 == 0 or save.steps[k - 1].t != t - 1:
            continue
        before = sum(1 for c in save.steps[k - 1].cells if not c.empty)
        after = sum(1 for c in save.steps[k].cells if not c.empty)
        if annihilating is None or annihilating == (after == before - 2):
            return k
    raise AssertionError("no such step")


def test_a_move_that_is_not_one_legal_move():
    save = sample("Z10_normal_475.csv")
    k = 3
    damaged = clone(save, k)
    step = damaged.steps[k]
    # swap two numbers of one group: the group still sums to 0 but no move does that
    cells = step.cells
    pair = next(
        (i, j)
        for i in range(49)
        for j in range(i + 1, 49)
        if not cells[i].empty and cells[i].group == cells[j].group
        and cells[i].symbol != cells[j].symbol
    )
    set_cell(damaged, k, pair[0], cells[pair[1]])
    set_cell(damaged, k, pair[1], cells[pair[0]])
    result = verify_save(damaged)
    assert result.violation.t == 3
    assert result.violation.reason == "not_one_move"


def test_a_board_that_does_not_change():
    save = sample("Z10_normal_475.csv")
    damaged = clone(save)
    damaged.steps[2] = copy.copy(damaged.steps[1])
    damaged.steps[2].t = 2
    result = verify_save(damaged)
    assert result.violation.t == 2
    assert result.violation.reason == "not_one_move"
    assert "same" in result.violation.message


def test_noise_off_schedule():
    save = sample("Z10_normal_475.csv")
    damaged = clone(save)
    # drop move 5's board and call the noise board step 4... then 5 follows
    steps = damaged.steps
    noisy = copy.copy(steps[5])
    noisy.t = 4
    damaged.steps = [*steps[:4], noisy, *steps[6:]]
    result = verify_save(damaged)
    assert result.violation.t == 4
    assert result.violation.reason == "noise_off_schedule"


def test_steps_out_of_order():
    save = sample("Z10_normal_475.csv")
    damaged = clone(save)
    damaged.steps[7] = copy.copy(damaged.steps[7])
    damaged.steps[7].t = 3
    result = verify_save(damaged)
    assert result.violation.t == 3
    assert result.violation.reason == "step_order"
    assert result.violation.line == save.steps[7].line


def test_a_merge_that_keeps_the_other_id():
    save = sample("Z10_normal_475.csv")
    result = verify_save(save)
    merges = [m for m in result.moves if m.merge_label == "moved"]
    assert len(merges) >= 2
    inferred = merges[1]
    k = save.step_numbers.index(inferred.t)
    fr, fc, tr, tc = inferred.move
    before = save.steps[k - 1]
    moved, dest = before.cell(fr, fc).group, before.cell(tr, tc).group
    damaged = clone(save, k)
    relabel(damaged, k, moved, dest)  # as the iOS app would have labelled it
    result = verify_save(damaged)
    assert result.violation.t == inferred.t
    assert result.violation.reason == "merge_label_inconsistent"


def test_a_noise_group_id_that_was_used_before():
    save = sample("Z10_normal_475.csv")
    k = 5  # step 5: move 5 and the second noise round
    new = sorted(set(save.steps[k].labels) - set(save.steps[k - 1].labels))
    gone = sorted(set(save.steps[0].labels) - set(save.steps[k - 1].labels) - {0})
    assert new
    assert gone
    damaged = clone(save, k)
    relabel(damaged, k, new[0], gone[0])
    result = verify_save(damaged)
    assert result.violation.t == 5
    assert result.violation.reason == "label_reused"


def test_a_noise_group_id_smaller_than_ids_already_seen():
    save = sample("Z10_normal_475.csv")
    seen: set[int] = set()
    for k, step in enumerate(save.steps):
        unused = [g for g in range(1, max(seen, default=0)) if g not in seen]
        new = sorted(set(step.labels) - set(save.steps[k - 1].labels)) if k else []
        if step.t % 5 == 0 and unused and new:
            break
        seen |= set(step.labels)
    damaged = clone(save, k)
    relabel(damaged, k, new[0], unused[0])
    result = verify_save(damaged)
    assert result.violation.t == step.t
    assert result.violation.reason == "label_order"


def test_more_new_groups_than_one_noise_round_makes():
    save = sample("Z10_normal_475.csv")
    k = 5
    new = sorted(set(save.steps[k].labels) - set(save.steps[k - 1].labels))
    damaged = clone(save, k)
    relabel(damaged, k, new[-1], new[0] + 6)  # the round's ids would span 7 numbers
    result = verify_save(damaged)
    assert result.violation.t == 5
    assert result.violation.reason == "noise_too_heavy"
    # with a bigger budget a round can make that many groups
    assert verify_save(damaged, noise_budget=7, stop_at_first=True).violation.t > 5


def test_the_rules_declared_by_a_platform_header_are_used():
    game = lost_game(8, size=5, moves_per_round=2, noise_budget=3.0)
    save = game_to_legacy(game)
    assert verify_save(save).ok
    assert not verify_save(save, moves_per_round=5).ok
    save.header = []
    assert not verify_save(save).ok
    assert verify_save(save, moves_per_round=2, noise_budget=3).ok


def test_a_record_that_stops_before_the_loss():
    save = sample("Z10_normal_480.csv")
    damaged = clone(save)
    damaged.steps = damaged.steps[:300]
    result = verify_save(damaged)
    assert result.violation.t == 299
    assert result.violation.reason == "no_final_span"
    damaged.steps = save.steps[:301]  # ends right after a noise round
    result = verify_save(damaged)
    assert result.violation.t == 300
    assert result.violation.reason == "no_final_span"


def test_a_record_that_goes_on_after_the_loss():
    game = next(g for g in (lost_game(s) for s in range(50)) if g.t % 5 not in (0, 4))
    save = game_to_legacy(game)
    extra = copy.copy(save.steps[-1])
    extra.t += 1
    save.steps.append(extra)
    result = verify_save(save)
    assert result.violation.t == game.t
    assert result.violation.reason in {"span_mid_game", "span_not_broken"}


def _spans(save: LegacySave, k: int) -> bool:
    step = save.steps[k]
    return bool(Board(save.size, (0,) * len(step.labels), step.labels).spanning())


def test_a_span_made_by_noise_must_be_broken_by_the_next_move():
    save = sample("Z10_normal_475.csv")
    spanning = [k for k in range(len(save.steps) - 1) if _spans(save, k)]
    assert [save.steps[k].t for k in spanning] == [310]  # noise made it span...
    k = spanning[0]
    assert not _spans(save, k + 1)  # ... and move 311 broke it
    # Play instead a move that leaves it spanning, and let the record go on.
    step = save.steps[k]
    state = {
        "engine_version": ENGINE_VERSION,
        "rules": RuleSet(merge_label="moved").to_dict(),
        "seed": "0", "rng": "0", "t": step.t, "round": 0, "moves": 0,
        "next_label": max(step.labels) + 1,
        "values": "".join(str(v) for v in step.values),
        "labels": list(step.labels),
        "loss": None,
    }
    for move in Game.from_state(state).legal_moves():
        game = Game.from_state(state)
        game.move(*move)
        if game.over:
            break
    else:
        pytest.fail("every move from step 310 breaks the span")
    board = game.board()
    damaged = clone(save, k + 1)
    for r, row in enumerate(damaged.steps[k + 1].rows):
        row.cells = [
            LegacyCell(str(board.value(r, c)) if board.value(r, c) else ".", board.label(r, c))
            for c in range(7)
        ]
    result = verify_save(damaged)
    assert result.violation.t == 311
    assert result.violation.reason == "span_not_broken"
    # the same board as the last one of the record is fine
    damaged.steps = damaged.steps[: k + 2]
    assert verify_save(damaged).ok


def test_group_sums_and_group_ids():
    save = sample("Z10_normal_475.csv")
    damaged = clone(save, 2)
    index = next(i for i, c in enumerate(save.steps[2].cells) if not c.empty)
    cell = save.steps[2].cells[index]
    set_cell(damaged, 2, index, LegacyCell(str(int(cell.symbol) % 9 + 1), cell.group))
    result = verify_save(damaged)
    assert result.violation.reason == "group_sum"
    assert result.violation.t == 2
    assert f"group {cell.group} sums to" in result.violation.message
    damaged = clone(save, 2)
    set_cell(damaged, 2, index, LegacyCell(cell.symbol, 0))
    assert verify_save(damaged).violation.reason == "bad_group"


def test_phi_lambda_groups_that_cannot_sum_to_zero():
    save = sample("PL_normal_205.csv")
    k = 3
    step = save.steps[k]
    index = next(i for i, c in enumerate(step.cells) if c.symbol == "L")
    group = step.cells[index].group
    members = [i for i, c in enumerate(step.cells) if c.group == group]
    damaged = clone(save, k)
    for i in members:
        set_cell(damaged, k, i, LegacyCell("L", group))
    if len(members) % 2 == 0:
        set_cell(damaged, k, members[0], LegacyCell(".", 0))
    result = verify_save(damaged)
    assert result.violation.t == 3
    assert result.violation.reason in {"group_sum", "not_one_move"}
    assert result.partially_observed


def test_phi_lambda_move_checks():
    save = sample("PL_normal_321.csv")
    k = 7
    damaged = clone(save, k)
    # a Phi appearing out of nowhere at a non-noise step
    index = next(i for i, c in enumerate(save.steps[k].cells)
                 if c.empty and save.steps[k - 1].cells[i].empty)
    group = next(c.group for c in save.steps[k].cells if c.symbol == "P")
    set_cell(damaged, k, index, LegacyCell("P", group))
    result = verify_save(damaged)
    assert result.violation.t == 7
    assert result.violation.reason == "not_one_move"


def test_first_board_checks():
    save = sample("Z10_normal_475.csv")
    damaged = clone(save, 0)
    for i in range(49):
        set_cell(damaged, 0, i, LegacyCell(".", 0))
    assert verify_save(damaged).violation.reason == "empty_first_board"


# -- gaps, jumps, partial records ----------------------------------------------------------------


def test_missing_steps_make_a_partially_observed_record():
    save = sample("Z10_normal_475.csv")
    cut = clone(save)
    cut.steps = [*save.steps[:41], *save.steps[44:]]  # steps 41 to 43 are missing
    result = verify_save(cut)
    assert result.ok, result.violation
    assert result.partially_observed
    assert result.gaps == [(40, 44)]
    assert result.moves[40].kind == "gap"
    assert result.moves[40].move is None
    assert result.summary() == (
        "ok, partially observed, Z10, L=7, score 475 (473 steps, steps 41-43 missing)"
    )


def test_a_record_that_starts_late():
    save = sample("Z10_normal_475.csv")
    cut = clone(save)
    cut.steps = save.steps[10:]
    result = verify_save(cut)
    assert result.ok
    assert result.partially_observed
    assert result.gaps == [(-1, 10)]
    assert result.summary().endswith("(466 steps, steps 0-9 missing)")


def jump_game() -> Game:
    for seed in range(100):
        game = lost_game(seed, size=4, noise_budget=1.0)
        if any(e.kind == "jump" for e in game.events):
            return game
    raise AssertionError("no game with a jump")


def test_jumps_on_an_empty_board_verify():
    game = jump_game()
    save = game_to_legacy(game)
    result = verify_save(save)
    assert result.ok, result.violation
    assert not result.partially_observed
    jumps = [m for m in result.moves if m.kind == "jump"]
    assert jumps
    assert all(m.noise for m in jumps)
    assert result.gaps
    assert all(b % 5 == 0 for _, b in result.gaps)


def test_an_empty_board_written_before_the_jump_also_verifies_but_must_jump():
    save = game_to_legacy(jump_game())
    result = verify_save(save)
    jump = next(m for m in result.moves if m.kind == "jump")
    k = save.step_numbers.index(jump.t)
    a = save.steps[k - 1].t
    empty = copy.deepcopy(save.steps[k - 1])
    empty.t = a + 1
    for row in empty.rows:
        row.cells = [LegacyCell(".", 0) for _ in row.cells]
    with_empty = clone(save)
    with_empty.steps.insert(k, empty)
    assert verify_save(with_empty).ok
    # ... but the clock must then jump: a step right after the empty board is wrong
    wrong = clone(with_empty, k + 1)
    wrong.steps[k + 1].t = a + 2
    result = verify_save(wrong)
    if a + 2 < jump.t:
        assert result.violation.reason == "no_jump"
        assert result.violation.t == a + 2

