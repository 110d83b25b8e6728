"""Properties of every game, over random seeds, rule sets and moves (hypothesis).

Every game is checked event by event by ``EventChecker`` (the rules applied to
the recorded events alone, including each noise error on its own) and move by
move against the engine's own board, a plain scan of the edges and a naive
second implementation of the rules.
"""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from games.engine import (
    ENGINE_VERSION,
    SUPPORTED_ENGINE_VERSIONS,
    Game,
    MergeLabel,
    RandomPolicy,
    RuleSet,
    Variant,
    boards,
    moves_of,
    replay,
    verify_events,
)

from .engine_testkit import EventChecker, ReferenceGame, check_board, spanning_scan

MAX_MOVES = 150

seeds = st.integers(min_value=0, max_value=2**64 - 1)
budgets = st.one_of(
    st.sampled_from([0.1, 0.5, 1.0, 2.5, 3.0, 4.2, 6.0, 8.0]),
    st.floats(min_value=0.05, max_value=8.0, allow_nan=False, allow_infinity=False),
)
rule_sets = st.builds(
    RuleSet,
    size=st.integers(min_value=3, max_value=12),
    variant=st.sampled_from(list(Variant)),
    noise_budget=budgets,
    moves_per_round=st.integers(min_value=1, max_value=6),
    merge_label=st.sampled_from(list(MergeLabel)),
)

examples = settings(max_examples=300, deadline=None)
few_examples = settings(max_examples=100, deadline=None)


def check_position(game: Game) -> None:
    """What must hold after every move (and on the first board)."""
    board = game.board()
    check_board(board.values, board.labels)
    assert game.numbers == board.numbers
    scan = spanning_scan(game.size, board.labels)
    assert [label for label, _ in board.spanning()] == sorted(scan)
    assert dict(board.spanning()) == scan
    assert game.spanning_labels() == sorted(scan)
    if game.over:
        assert game.loss is not None
        assert scan
        first = min(scan)
        assert (game.loss.group, game.loss.axis, game.loss.spanning_groups) == (
            first, scan[first], len(scan)
        )
        assert game.loss.t == game.t
    else:
        assert game.numbers > 0, "the player always has a number to move"
        # a span can only have been made by the noise round that just ran
        assert not scan or game.t % game.rules.moves_per_round == 0


def play_and_check(game: Game, choose, max_moves: int = MAX_MOVES) -> EventChecker:
    checker = EventChecker(game.rules)
    checker.feed_all(game.events)
    assert checker.board() == (game.values, game.labels())
    check_position(game)
    made = 0
    while not game.over and made < max_moves:
        before = len(game.events)
        returned = game.move(*choose(game))
        assert returned == game.events[before:]
        checker.feed_all(returned)
        assert checker.board() == (game.values, game.labels())
        check_position(game)
        made += 1
    checker.finish()
    assert checker.loss == game.loss
    return checker


@examples
@given(rules=rule_sets, seed=seeds, policy_seed=seeds)
def test_every_event_of_every_game_follows_the_rules(
    rules: RuleSet, seed: int, policy_seed: int
) -> None:
    game = Game(rules, seed)
    policy = RandomPolicy(policy_seed)
    checker = play_and_check(game, policy.choose)
    assert checker.errors_checked > 0
    for ended in checker.rounds:
        assert ended.weight >= rules.noise_budget


@examples
@given(rules=rule_sets, seed=seeds, policy_seed=seeds,
       engine_version=st.sampled_from(sorted(SUPPORTED_ENGINE_VERSIONS)))
def test_the_engine_agrees_with_a_naive_implementation_of_the_rules(
    rules: RuleSet, seed: int, policy_seed: int, engine_version: int
) -> None:
    game = Game(rules, seed, record=False, engine_version=engine_version)
    reference = ReferenceGame(rules, seed, engine_version=engine_version)
    assert (game.values, game.labels()) == (tuple(reference.values), tuple(reference.labels))
    policy = RandomPolicy(policy_seed)
    for _ in range(MAX_MOVES):
        if game.over:
            break
        move = policy.choose(game)
        game.move(*move)
        reference.move(*move)
        assert game.values == tuple(reference.values)
        assert game.labels() == tuple(reference.labels)
        assert game.t == reference.t
        assert game.over == (reference.lost_at is not None)
    if game.over:
        assert game.loss is not None
        assert (game.loss.t, game.loss.group) == (reference.lost_at, reference.lost_group)


@few_examples
@given(rules=rule_sets, seed=seeds, data=st.data())
def test_any_legal_moves_keep_the_rules_and_replay_exactly(
    rules: RuleSet, seed: int, data: st.DataObject
) -> None:
    game = Game(rules, seed)
    seen = [game.board()]

    checker = EventChecker(rules)
    checker.feed_all(game.events)
    for _ in range(40):
        if game.over:
            break
        before = len(game.events)
        game.move(*data.draw(st.sampled_from(sorted(game.legal_moves())), label="move"))
        checker.feed_all(game.events[before:])
        assert checker.board() == (game.values, game.labels())
        check_position(game)
        seen.append(game.board())
    checker.finish()
    moves = moves_of(game.events)
    assert replay(rules, seed, moves, engine_version=ENGINE_VERSION).events == game.events
    assert boards(rules, seed, moves, engine_version=ENGINE_VERSION) == seen
    assert verify_events(rules, seed, game.events, engine_version=ENGINE_VERSION).ok


@few_examples
@given(rules=rule_sets, seed=seeds, policy_seed=seeds, data=st.data())
def test_verification_catches_a_tampered_field_anywhere(
    rules: RuleSet, seed: int, policy_seed: int, data: st.DataObject
) -> None:
    game = Game(rules, seed)
    policy = RandomPolicy(policy_seed)
    for _ in range(60):
        if game.over:
            break
        game.move(*policy.choose(game))
    stored = [e.to_dict() for e in game.events]
    index = data.draw(st.integers(0, len(stored) - 1), label="event")
    field = data.draw(st.sampled_from(sorted(stored[index])), label="field")
    value = stored[index][field]
    new: object
    if isinstance(value, bool):
        new = not value
    elif isinstance(value, int):
        new = value + data.draw(st.sampled_from([-1, 1, 7]), label="delta")
    elif isinstance(value, float):
        new = value + data.draw(st.sampled_from([-0.1, 0.1, 1.0]), label="delta")
    else:
        new = value + "?"
    stored[index] = {**stored[index], field: new}
    result = verify_events(rules, seed, stored, engine_version=ENGINE_VERSION)
    assert not result.ok


@few_examples
@given(rules=rule_sets, seed=seeds, policy_seed=seeds,
       stop=st.integers(min_value=0, max_value=30))
def test_a_stored_state_continues_exactly(
    rules: RuleSet, seed: int, policy_seed: int, stop: int
) -> None:
    original = Game(rules, seed)
    policy = RandomPolicy(policy_seed)
    moves: list[tuple[int, int, int, int]] = []
    mark, state = len(original.events), original.to_state()
    for _ in range(60):
        if original.over:
            break
        if len(moves) == stop:
            mark, state = len(original.events), original.to_state()
        moves.append(policy.choose(original))
        original.move(*moves[-1])
    if len(moves) <= stop:
        mark, state = len(original.events), original.to_state()
    restored = Game.from_state(state)
    for move in moves[min(stop, len(moves)):]:
        restored.move(*move)
    assert restored.events == original.events[mark:]
    assert restored.to_state() == original.to_state()


@few_examples
@given(rules=rule_sets, seed=seeds, policy_seed=seeds)
def test_the_merge_label_convention_never_changes_the_outcome(
    rules: RuleSet, seed: int, policy_seed: int
) -> None:
    one = Game(with_label(rules, MergeLabel.DESTINATION), seed)
    other = Game(with_label(rules, MergeLabel.MOVED), seed)
    policy = RandomPolicy(policy_seed)
    for _ in range(MAX_MOVES):
        if one.over:
            break
        move = policy.choose(one)
        one.move(*move)
        other.move(*move)
        assert one.values == other.values
        assert one.t == other.t
        assert partition(one) == partition(other)
    assert other.over == one.over
    if one.over:
        assert one.loss is not None
        assert other.loss is not None
        assert (one.loss.t, one.loss.axis, one.loss.spanning_groups) == (
            other.loss.t, other.loss.axis, other.loss.spanning_groups
        )


def with_label(rules: RuleSet, label: MergeLabel) -> RuleSet:
    return RuleSet(size=rules.size, variant=rules.variant, noise_budget=rules.noise_budget,
                   moves_per_round=rules.moves_per_round, merge_label=label)


def partition(game: Game) -> set[frozenset[int]]:
    groups: dict[int, set[int]] = {}
    for cell, label in enumerate(game.labels()):
        if label:
            groups.setdefault(label, set()).add(cell)
    return {frozenset(cells) for cells in groups.values()}
