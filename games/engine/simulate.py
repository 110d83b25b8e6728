"""Playing many games with a policy, reproducibly, and saving them as legacy save files.

Seeds. A run is given one seed ``S`` (0 .. 2**64 - 1). Game ``i`` (counted
from 0) takes outputs ``2i + 1`` and ``2i + 2`` of the SplitMix64 stream
seeded with ``S``: the top 63 bits of the first are the game's noise seed,
the second is the policy's seed. So game ``i`` is the same whatever the
number of games in the run, and a game is replayed from its noise seed and
its moves alone (both are in the file written for it).

The noise seed has 63 bits because a stored game's seed does (the seed
column, and the seeds of games played here): every file ``simulate`` writes
can then be imported as the exact game it records. Runs made before this
took the whole 64-bit output as the noise seed, so a given ``--seed`` now
plays other games than it did then (the policy seeds are unchanged).
"""

from __future__ import annotations

from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from .bots import BOTS
from .errors import EngineError
from .game import Game
from .legacy.export import game_to_save
from .policies import play
from .rng import MASK64, SplitMix64
from .rules import MergeLabel, RuleSet, Variant

_GOLDEN_GAMMA = 0x9E3779B97F4A7C15

# A stored game's seed holds 63 bits (games.Game.seed); simulated noise seeds fit it.
NOISE_SEED_BITS = 63


def game_seeds(seed: int, index: int) -> tuple[int, int]:
    """(noise seed, policy seed) of game ``index`` of a run seeded with ``seed``.

    The noise seed is below 2**63, the policy seed below 2**64.
    """
    if isinstance(seed, bool) or not isinstance(seed, int) or not 0 <= seed <= MASK64:
        raise EngineError("the seed must be an integer from 0 to 2**64 - 1", code="invalid_seed")
    if isinstance(index, bool) or not isinstance(index, int) or index < 0:
        raise EngineError("the game index must be a non-negative integer", code="invalid_index")
    # SplitMix64's n-th output depends only on seed + n * gamma: jump straight there.
    rng = SplitMix64((seed + 2 * index * _GOLDEN_GAMMA) & MASK64)
    return rng.next64() >> (64 - NOISE_SEED_BITS), rng.next64()


@dataclass(frozen=True, slots=True)
class SimulatedGame:
    index: int
    noise_seed: int
    policy_seed: int
    policy: str
    game: Game
    finished: bool  # False when max_moves stopped it before the loss

    @property
    def score(self) -> int:
        return self.game.t

    @property
    def rules(self) -> RuleSet:
        return self.game.rules

    def file_name(self) -> str:
        """``<variant>_L<size>_seed<noise seed>_score<score>.csv``."""
        rules = self.game.rules
        unfinished = "" if self.finished else "_unfinished"
        return (
            f"{rules.variant}_L{rules.size}_seed{self.noise_seed}_score{self.score}"
            f"{unfinished}.csv"
        )

    def save_text(self) -> str:
        return game_to_save(self.game, name=self.file_name())

    def write(self, directory: str | Path) -> Path:
        path = Path(directory) / self.file_name()
        path.write_text(self.save_text(), encoding="utf-8", newline="")
        return path


def make_rules(
    *,
    size: int = 7,
    variant: str | Variant = Variant.Z10,
    budget: float = 6.0,
    moves_per_round: int = 5,
    merge_label: str | MergeLabel = MergeLabel.DESTINATION,
) -> RuleSet:
    return RuleSet(
        size=size,
        # RuleSet turns the text of a variant or label into the enum, or refuses it.
        variant=variant,  # type: ignore[arg-type]
        noise_budget=budget,
        moves_per_round=moves_per_round,
        merge_label=merge_label,  # type: ignore[arg-type]
    )


def simulate_games(
    *,
    policy: str = "random",
    games: int = 1,
    seed: int = 0,
    rules: RuleSet | None = None,
    max_moves: int | None = None,
    first_index: int = 0,
) -> Iterator[SimulatedGame]:
    """Play ``games`` games with ``policy`` under ``rules``, yielding each when it ends.

    Games are recorded (``record=True``) so that they can be written out.
    ``max_moves`` stops a game that has not been lost by then (it is then
    yielded with ``finished=False``).
    """
    factory = BOTS.get(policy)
    if factory is None:
        known = ", ".join(sorted(BOTS))
        raise EngineError(f"unknown policy {policy!r} (known: {known})", code="unknown_policy")
    if isinstance(games, bool) or not isinstance(games, int) or games < 0:
        raise EngineError("the number of games must be a non-negative integer",
                          code="invalid_games")
    if max_moves is not None and max_moves < 0:
        raise EngineError("max_moves must be non-negative", code="invalid_max_moves")
    rules = rules if rules is not None else RuleSet()
    for index in range(first_index, first_index + games):
        noise_seed, policy_seed = game_seeds(seed, index)
        game = Game(rules, noise_seed, record=True)
        play(game, factory(policy_seed), max_moves=max_moves)
        yield SimulatedGame(index, noise_seed, policy_seed, policy, game, game.over)
