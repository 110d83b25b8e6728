"""The engine against the plain implementation of the rules in ``bench/baseline_engine.py``.

The baseline keeps the board the way the original game does (2-D arrays,
merges by relabelling the whole board, the original's double-loop loss check)
and shares nothing with the engine but the random generator and the rule set.
Both play the same games with the random policy: every rule set dimension is
covered (sizes 3 to 16, both variants, both merge label conventions, budgets
3 to 8, 3 to 6 moves per round), and after every move the boards (values and
group ids), the clock and the round must be identical, and so must the end.
"""

from __future__ import annotations

from collections import Counter
from typing import Any

import pytest

import bench.baseline_engine as baseline
from games.engine import (
    ENGINE_VERSION,
    SUPPORTED_ENGINE_VERSIONS,
    Game,
    JumpAhead,
    MergeLabel,
    NoiseError,
    RandomPolicy,
    Regenerated,
    RuleSet,
    Variant,
)

MASK64 = (1 << 64) - 1
SIZES = range(3, 17)
BUDGETS = (3, 4, 5, 6, 7, 8)
MOVES_PER_ROUND = (3, 4, 5, 6)
GAMES_PER_CASE = 24  # every budget with every number of moves per round
MAX_MOVES = 5_000


def play_both(
    rules: RuleSet, seed: int, policy_seed: int, engine_version: int = ENGINE_VERSION
) -> tuple[Game, Any]:
    """Play one game with the engine (recording and not) and the baseline, in lockstep."""
    game = Game(rules, seed, engine_version=engine_version)
    quiet = Game(rules, seed, record=False, engine_version=engine_version)
    base = baseline.BaselineGame(rules, seed, engine_version=engine_version)
    policy = RandomPolicy(policy_seed)
    base_policy = baseline.BaselineRandomPolicy(policy_seed)
    where = f"{rules.key} seed={seed}"

    def same_position(context: str) -> None:
        values, labels = base.values(), base.labels()
        assert game.values == values, f"{where} {context}: values differ"
        assert game.labels() == labels, f"{where} {context}: group ids differ"
        assert (game.t, game.round, game.over) == (base.t, base.round, base.over), (
            f"{where} {context}: clock, round or end differ"
        )
        assert (quiet.values, quiet.labels()) == (values, labels), (
            f"{where} {context}: the engine without events differs"
        )
        assert (quiet.t, quiet.round, quiet.over) == (game.t, game.round, game.over)

    same_position("first board")
    while not game.over and game.moves_made < MAX_MOVES:
        move = policy.choose(game)
        assert base_policy.choose(base) == move, f"{where} t={game.t}: policies differ"
        game.move(*move)
        quiet.move(*move)
        base.move(*move)
        same_position(f"after move {game.moves_made} {move}")
    return game, base


def case_rules(size: int, variant: Variant, label: MergeLabel, k: int) -> RuleSet:
    return RuleSet(
        size=size,
        variant=variant,
        noise_budget=BUDGETS[k % len(BUDGETS)],
        moves_per_round=MOVES_PER_ROUND[(k // len(BUDGETS) + size) % len(MOVES_PER_ROUND)],
        merge_label=label,
    )


@pytest.mark.parametrize("label", list(MergeLabel), ids=str)
@pytest.mark.parametrize("variant", list(Variant), ids=str)
@pytest.mark.parametrize("size", SIZES)
def test_same_games_as_the_baseline(size: int, variant: Variant, label: MergeLabel) -> None:
    for k in range(GAMES_PER_CASE):
        rules = case_rules(size, variant, label, k)
        # Small seeds and seeds spread over the whole 64-bit range.
        key = (size << 16) | (k << 4) | (list(Variant).index(variant) << 1)
        key |= list(MergeLabel).index(label)
        seed = key if k % 2 == 0 else (key * 0x9E3779B97F4A7C15) & MASK64
        game, base = play_both(rules, seed, policy_seed=seed ^ 0x5EED)

        assert game.over, f"{rules.key} seed={seed}: no loss within {MAX_MOVES} moves"
        assert game.loss is not None
        assert game.loss.t == game.t == base.loss_t
        spanning = base.spanning_groups()
        assert game.loss.group == spanning[0]
        assert game.loss.spanning_groups == len(spanning)
        kinds = Counter(type(event) for event in game.events)
        assert kinds[NoiseError] == base.noise_errors
        assert kinds[JumpAhead] == base.jumps
        assert kinds[Regenerated] == base.regenerations


@pytest.mark.parametrize("engine_version", sorted(SUPPORTED_ENGINE_VERSIONS))
def test_rare_paths_agree(engine_version: int) -> None:
    """Regenerated first boards and jumps ahead on an empty board, both kinds.

    They are rare under the usual rule sets, so these games use a budget of
    1.1 (one new pair, then a 0.1 error, can leave the board empty). The
    engine alone finds games in which they happen; those are then played
    with both implementations, as every engine version plays them (they
    differ in the group ids after a regenerated first board).
    """
    reasons = {"spanning", "empty", "empty_after_move", "empty_after_noise"}
    rules = RuleSet(size=3, noise_budget=1.1, moves_per_round=3)
    chosen: dict[str, list[int]] = {reason: [] for reason in reasons}
    for seed in range(3_000):
        game = Game(rules, seed)
        policy = RandomPolicy(seed + 77)
        while not game.over:
            game.move(*policy.choose(game))
        for event in game.events:
            if (
                isinstance(event, JumpAhead | Regenerated)
                and len(chosen[event.reason]) < 5
                and seed not in chosen[event.reason]
            ):
                chosen[event.reason].append(seed)
    assert all(chosen.values()), f"some paths never happened: {chosen}"
    seen: Counter[str] = Counter()
    for seed in sorted({seed for seeds in chosen.values() for seed in seeds}):
        game, base = play_both(rules, seed, policy_seed=seed + 77,
                               engine_version=engine_version)
        assert game.loss is not None
        assert game.loss.t == base.loss_t
        seen["regenerated"] += base.regenerations
        seen["jumps"] += base.jumps
    assert seen["regenerated"]
    assert seen["jumps"]


def test_the_baseline_loss_check_is_the_original_double_loop() -> None:
    """A group on two opposite edges ends the game; on two adjacent edges it does not."""
    base = baseline.BaselineGame(RuleSet(size=4), seed=1)
    for row in range(4):
        base.clusters[row] = [0, 0, 0, 0]
    base.clusters[0][1] = base.clusters[1][1] = 7  # the top edge
    base.clusters[1][0] = base.clusters[2][0] = 7  # and the left one: adjacent edges
    assert base.spanners() == 0
    assert base.spanning_groups() == []
    base.clusters[3][1] = 9
    base.clusters[0][2] = 9  # top and bottom
    assert base.spanners() != 0
    assert base.spanning_groups() == [9]
