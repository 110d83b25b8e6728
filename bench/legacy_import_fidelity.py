"""How faithfully an imported save gives back the game that wrote it.

Plays games with ``simulate``'s engine (random policy, the original rules),
writes each with ``game_to_save`` and reads it back two ways:

* from its boards alone (``verify_save``'s inferred moves: what is imported
  for a save that does not name its seed), counting annihilating moves
  stored in the other direction (a guess) against those flagged as not
  certain, and moves at noise steps that are not the played move;
* as the exact game (``exact_game``: the file names its engine, rules and
  seed, and every step's move), counting moves and events that differ from
  the played game; and again without the notes naming the moves (files
  written before ``game_to_save`` named them), where the boards alone pick
  the move.

Run from the repository root::

    python -m bench.legacy_import_fidelity [--games 40] [--seed 7]
"""

from __future__ import annotations

import argparse
import time

from games.engine.legacy import game_to_save, read_save, verify_save
from games.engine.legacy.exact import exact_game
from games.engine.replay import moves_of
from games.engine.simulate import make_rules, simulate_games


def _differing(want: list[dict], got: list[dict]) -> int:
    return sum(a != b for a, b in zip(want, got, strict=False)) + abs(len(want) - len(got))


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=40)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    counts = dict.fromkeys([
        "moves", "annihilations", "annihilations reversed (guessed)",
        "annihilations flagged not certain", "noise-step moves",
        "noise-step moves not the played one", "noise-step moves flagged not certain",
        "exact: moves differing", "exact: moves differing and flagged",
        "exact: noise/merge/round events differing", "exact: games refused",
        "exact, moves not named: moves differing",
        "exact, moves not named: noise/merge/round events differing",
    ], 0)
    started = time.perf_counter()
    for sim in simulate_games(policy="random", games=args.games, seed=args.seed,
                              rules=make_rules()):
        save = read_save(game_to_save(sim.game))
        played = moves_of(sim.game.events)
        move_events = [e for e in sim.game.events if e.kind == "move"]
        inferred = [m for m in verify_save(save).moves if m.kind in ("move", "move_noise", "jump")]
        for truth, event, guess in zip(played, move_events, inferred, strict=True):
            counts["moves"] += 1
            if event.annihilated:
                counts["annihilations"] += 1
                counts["annihilations reversed (guessed)"] += guess.move != truth
                counts["annihilations flagged not certain"] += guess.ambiguous
            if guess.noise:
                counts["noise-step moves"] += 1
                counts["noise-step moves not the played one"] += guess.move != truth
                counts["noise-step moves flagged not certain"] += guess.ambiguous
        try:
            exact = exact_game(save)
        except Exception:
            counts["exact: games refused"] += 1
            continue
        assert exact is not None
        for k, (truth, got) in enumerate(zip(played, exact.moves, strict=True), start=1):
            if truth != got:
                counts["exact: moves differing"] += 1
                counts["exact: moves differing and flagged"] += k in exact.ambiguous
        others = [e.to_dict() for e in sim.game.events if e.kind != "move"]
        again = [e.to_dict() for e in exact.game.events if e.kind != "move"]
        counts["exact: noise/merge/round events differing"] += _differing(others, again)
        for step in save.steps:
            step.comments = []
        unnamed = exact_game(save)
        assert unnamed is not None
        counts["exact, moves not named: moves differing"] += sum(
            truth != got for truth, got in zip(played, unnamed.moves, strict=True))
        counts["exact, moves not named: noise/merge/round events differing"] += _differing(
            others, [e.to_dict() for e in unnamed.game.events if e.kind != "move"])
    for name, value in counts.items():
        print(f"{name:45} {value:7}")
    print(f"{'seconds':45} {time.perf_counter() - started:7.1f}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
