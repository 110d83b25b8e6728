"""The analysis of a whole game, checked against the engine's own events."""

from __future__ import annotations

import pytest

from games.engine import (
    Game,
    Loss,
    NoiseError,
    NoiseRoundEnded,
    Regenerated,
    RuleSet,
    Variant,
)
from games.engine.bots import get_bot
from results.analysis import (
    REFERENCE_BOTS,
    StoredBoard,
    StoredMove,
    analyse_boards,
    analyse_seeded,
    bot_agreements,
    error_rate,
    lattice_edges,
)


def _played(rules: RuleSet, seed: int, bot: str = "greedy", bot_seed: int | None = None):
    game = Game(rules, seed, record=True)
    player = get_bot(bot, seed=seed if bot_seed is None else bot_seed)
    moves = []
    while not game.over:
        move = player.choose(game)
        moves.append(move)
        game.move(*move)
    return game, moves


def _rounds_after_regeneration(events):
    last = max((i for i, e in enumerate(events) if isinstance(e, Regenerated)), default=-1)
    return events[last + 1:]


@pytest.mark.parametrize(("size", "budget", "seed"), [(7, 6.0, 3), (3, 6.0, 0), (9, 4.0, 11)])
def test_it_counts_the_noise_of_every_round_as_the_engine_recorded_it(size, budget, seed):
    rules = RuleSet(size=size, noise_budget=budget)
    game, moves = _played(rules, seed)
    report = analyse_seeded(rules=rules, seed=seed, engine_version=1, moves=moves, lost=True)
    events = _rounds_after_regeneration(game.events)
    ended = [e for e in events if isinstance(e, NoiseRoundEnded)]
    noise = [e for e in events if isinstance(e, NoiseError)]
    assert [r.round for r in report.rounds] == list(range(1, game.round + 1))
    assert [r.errors for r in report.rounds] == [e.errors for e in ended]
    assert [r.numbers for r in report.rounds] == [e.numbers for e in ended]
    assert [r.t for r in report.rounds] == [e.t for e in ended]
    assert report.noise_errors == len(noise) == sum(e.errors for e in ended)
    assert report.light_errors == sum(1 for e in noise if e.case == "both_occupied")
    assert report.new_numbers == sum(
        {"new_pair": 2, "one_new": 1}.get(e.case, 0) for e in noise
    )
    loss = next(e for e in game.events if isinstance(e, Loss))
    assert report.survived_rounds == loss.round == game.round
    assert (report.survived_moves, report.score) == (len(moves), game.t)
    assert report.effective_error_rate == pytest.approx(
        len(noise) / (game.round * 2 * size * (size - 1))
    )
    assert report.coverage == "full"
    assert [m.index for m in report.moves] == list(range(1, len(moves) + 1))


def test_regenerated_first_boards_are_not_counted():
    rules = RuleSet(size=3, noise_budget=6.0)
    game, moves = _played(rules, 0)
    assert any(isinstance(e, Regenerated) for e in game.events)
    report = analyse_seeded(rules=rules, seed=0, engine_version=1, moves=moves, lost=True)
    all_errors = sum(1 for e in game.events if isinstance(e, NoiseError))
    assert report.noise_errors < all_errors
    assert report.rounds[0].round == 1
    assert report.rounds[0].t == 0


def test_the_largest_group_after_each_round_is_measured_on_that_board():
    rules = RuleSet(size=7)
    game = Game(rules, 5, record=True)
    player = get_bot("greedy", seed=5)
    moves, boards = [], {1: game.board()}
    while not game.over:
        move = player.choose(game)
        moves.append(move)
        before = game.round
        game.move(*move)
        if game.round != before:
            boards[game.round] = game.board()
    report = analyse_seeded(rules=rules, seed=5, engine_version=1, moves=moves, lost=True)
    for row in report.rounds:
        board = boards[row.round]
        groups: dict[int, list[int]] = {}
        for i, label in enumerate(board.labels):
            if label:
                groups.setdefault(label, []).append(i)
        biggest = max(len(cells) for cells in groups.values())
        assert row.largest_group_size == biggest
        widest = max(
            max(len({i // 7 for i in cells}), len({i % 7 for i in cells}))
            for cells in groups.values()
        )
        # Groups need not be contiguous, so the extent is first to last row, not a count.
        assert row.max_group_extent >= widest
        assert row.max_group_extent <= 7


def test_a_bot_agrees_with_itself_on_every_move_it_played():
    rules = RuleSet(size=7)
    for name in ("greedy", "clustering", "player"):
        # Rankings use seed 0, so a game played by the seed-0 bot must match it.
        _game, moves = _played(rules, 21, bot=name, bot_seed=0)
        report = analyse_seeded(rules=rules, seed=21, engine_version=1, moves=moves, lost=True)
        mine = [a for m in report.moves for a in m.agreements if a.bot_name == name]
        assert len(mine) == len(moves)
        assert all(a.top1 and a.top3 for a in mine)
        others = [a for m in report.moves for a in m.agreements if a.bot_name == "random"]
        assert not all(a.top1 for a in others)


def test_agreement_counts_an_annihilation_either_way_round():
    rules = RuleSet(size=3)
    values = [3, 7, 0, 0, 0, 0, 0, 0, 0]
    found = {a.bot_name: a for a in bot_agreements(values, 3, rules, (0, 1, 0, 0))}
    assert found["greedy"].top1
    assert set(found) == set(REFERENCE_BOTS)
    assert all(not a.top1 or a.top3 for a in found.values())


def test_a_phi_lambda_game_is_analysed_from_the_true_values():
    rules = RuleSet(size=6, variant=Variant.PHI_LAMBDA)
    _game, moves = _played(rules, 4)
    report = analyse_seeded(rules=rules, seed=4, engine_version=1, moves=moves, lost=True)
    assert report.coverage == "full"
    assert "unclassified" not in {m.move_class for m in report.moves}


def test_moves_that_do_not_replay_leave_an_honest_empty_report():
    rules = RuleSet(size=5)
    report = analyse_seeded(rules=rules, seed=1, engine_version=1, moves=[(0, 0, 4, 4)],
                            lost=True)
    assert report.coverage == "none"
    assert "move 1" in report.note
    assert report.moves == []
    assert report.rounds == []
    other = analyse_seeded(rules=rules, seed=1, engine_version=99, moves=[], lost=False)
    assert other.coverage == "none"


def test_error_rate_is_errors_per_edge_per_round():
    assert lattice_edges(7) == 84
    assert error_rate(168, 2, 7) == pytest.approx(1.0)
    assert error_rate(0, 0, 7) is None


def test_stored_boards_give_rounds_and_moves_but_no_noise():
    rules = RuleSet(size=3, moves_per_round=2)
    # A hand-made record: board 0 (after the first noise), one move that annihilates.
    boards = [
        StoredBoard(0, "370000000", (1, 1, 0, 0, 0, 0, 0, 0, 0)),
        StoredBoard(1, "000000000", (0,) * 9),
        StoredBoard(2, "550000000", (2, 2, 0, 0, 0, 0, 0, 0, 0)),
        StoredBoard(3, "500050000", (2, 0, 0, 0, 2, 0, 0, 0, 0)),
    ]
    moves = [
        StoredMove(1, 1, 1, (0, 0, 0, 1), True),
        StoredMove(2, 3, 2, (0, 1, 1, 1), None),
    ]
    report = analyse_boards(rules=rules, boards=boards, moves=moves, lost=True, rounds=2,
                            moves_count=2, score=3)
    assert report.coverage == "boards"
    assert report.noise_errors is None
    assert report.effective_error_rate is None
    assert [(r.round, r.t, r.numbers, r.errors) for r in report.rounds] == [
        (1, 0, 2, None), (2, 2, 2, None)
    ]
    assert [m.move_class for m in report.moves] == ["annihilation", "away_from_edge"]
    assert report.survived_rounds == 2
    assert report.score == 3
