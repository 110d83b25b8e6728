"""Group ids name one group in a whole game, regenerated first boards included (engine 2).

Engine version 1 numbered the groups of a first board that was drawn again
from 1, so the same id named a group of the discarded board and another of
the kept one. Version 2 goes on numbering; version 1 games still replay as
they were recorded.
"""

from __future__ import annotations

import pytest

from games.engine import (
    ENGINE_VERSION,
    Game,
    NoiseError,
    RandomPolicy,
    Regenerated,
    RuleSet,
    UnknownEngineVersion,
    moves_of,
    play,
    replay,
    verify_events,
)
from games.engine.events import Event

# The rule set and first seed of `bot_play --size 3 --budget 2 --seed 7000`:
# seed 7005 draws its first board three times.
RULES = RuleSet(size=3, noise_budget=2.0)
REGENERATING_SEEDS = (7005, 14)


def _board_ids(events: list[Event]) -> list[set[int]]:
    """The group ids made on each first board drawn, the kept one last."""
    boards: list[set[int]] = [set()]
    for event in events:
        if isinstance(event, Regenerated):
            boards.append(set())
        elif isinstance(event, NoiseError):
            if event.round > 1 or event.t > 0:
                break
            boards[-1] |= {event.group1_after, event.group2_after} - {0}
    return boards


@pytest.mark.parametrize("seed", REGENERATING_SEEDS)
def test_a_regenerated_first_board_does_not_reuse_group_ids(seed: int) -> None:
    game = Game(RULES, seed)
    assert game.engine_version == ENGINE_VERSION >= 2
    boards = _board_ids(game.events)
    assert len(boards) >= 2, "the seed no longer regenerates its first board"
    for i, ids in enumerate(boards):
        for later in boards[i + 1:]:
            assert ids
            assert not ids & later
    # The kept board's groups carry ids above every discarded board's.
    assert min(boards[-1]) > max(max(ids) for ids in boards[:-1])
    assert set(game.labels()) - {0} <= boards[-1]


@pytest.mark.parametrize("seed", REGENERATING_SEEDS)
def test_engine_version_1_games_keep_their_restarted_ids(seed: int) -> None:
    old = Game(RULES, seed, engine_version=1)
    new = Game(RULES, seed)
    boards = _board_ids(old.events)
    assert len(boards) >= 2
    assert any(boards[0] & later for later in boards[1:])  # the ambiguity version 1 had
    # Only the group ids differ: the same draws, values, rounds and clock.
    assert old.values == new.values
    assert (old.t, old.round, len(old.events)) == (new.t, new.round, len(new.events))
    assert [e.kind for e in old.events] == [e.kind for e in new.events]
    assert old.labels() != new.labels()


@pytest.mark.parametrize("seed", REGENERATING_SEEDS)
def test_each_version_replays_its_own_games_and_not_the_other(seed: int) -> None:
    for version in (1, 2):
        game = play(Game(RULES, seed, engine_version=version), RandomPolicy(seed),
                    max_moves=500)
        moves = moves_of(game.events)
        assert replay(RULES, seed, moves, engine_version=version).events == game.events
        assert verify_events(RULES, seed, game.events, engine_version=version).ok
        other = 2 if version == 1 else 1
        assert not verify_events(RULES, seed, game.events, engine_version=other).ok


def test_a_game_without_regeneration_is_the_same_in_both_versions() -> None:
    old = play(Game(RuleSet(), 20160328, engine_version=1), RandomPolicy(1), max_moves=500)
    new = play(Game(RuleSet(), 20160328), RandomPolicy(1), max_moves=500)
    assert not any(isinstance(e, Regenerated) for e in new.events)
    assert old.events == new.events


def test_a_version_1_state_goes_on_as_version_1() -> None:
    old = Game(RULES, 7005, engine_version=1)
    state = old.to_state()
    assert state["engine_version"] == 1
    restored = Game.from_state(state)
    assert restored.engine_version == 1
    assert restored.to_state() == state


@pytest.mark.parametrize("version", [0, 3, True, "2"])
def test_an_unknown_engine_version_is_refused(version: object) -> None:
    with pytest.raises(UnknownEngineVersion):
        Game(RULES, 1, engine_version=version)  # type: ignore[arg-type]
