"""A plain implementation of the Decodoku rules, written the way the original game does it.

This is both the reference ("oracle") implementation against which the engine
in ``games.engine.game`` is tested and the baseline that ``bench/engine.py``
measures it against. It follows the original's code (described in James
Wootton's post "The inner workings of the game", 2016; see ``docs/rules.md``)
as directly as Python allows:

- the board is two 2-D arrays, ``anyons[row][col]`` (values in Z10, 0 empty)
  and ``clusters[row][col]`` (group ids, 0 for an empty cell);
- a merge relabels one group to the other by scanning the whole board;
- after every move the loss check is the original's double loop over the
  edges, comparing every cell of one edge with every cell of the opposite one;
- "is the board empty" is a scan of the board;
- the random policy finds the numbers by scanning the board.

It draws from the same generator (``games.engine.rng.SplitMix64``) in the same
order as the engine (documented in ``games/engine/game.py``), so for the same
rule set, seed and moves it plays the same game: the same boards (values and
group ids) after every move, the same clock, the same loss. It uses nothing
from the engine but the generator and the rule set. ``engine_version`` 1
numbers the groups of a regenerated first board from 1 again, as engine
version 1 did; from version 2 the numbering goes on.

Run ``python -m bench.baseline_engine [L] [seed]`` from the repository root to
play one game with the random policy and print its final board.
"""

from __future__ import annotations

import sys

from games.engine.rng import SplitMix64
from games.engine.rules import DEFAULT_RULES, MergeLabel, RuleSet, Variant

MAX_REGENERATIONS = 10_000


class BaselineGame:
    """One game, from its first noise round to its loss, on 2-D arrays."""

    def __init__(self, rules: RuleSet = DEFAULT_RULES, seed: int = 0,
                 engine_version: int = 2) -> None:
        self.rules = rules
        self.size = rules.size
        self.rng = SplitMix64(seed)
        self.t = 0
        self.round = 0
        self.moves_made = 0
        self.noise_errors = 0  # every error drawn, regenerated first boards included
        self.regenerations = 0
        self.jumps = 0
        self.over = False
        self.loss_t: int | None = None
        self.clear_board()
        # The first board must have numbers and must not span; otherwise draw it again.
        while True:
            self.generate_noise()
            if not self.board_is_empty() and self.spanners() == 0:
                break
            self.regenerations += 1
            if self.regenerations > MAX_REGENERATIONS:
                raise RuntimeError("the first board keeps spanning: rule set not playable")
            next_cluster = self.next_cluster
            self.clear_board()
            if engine_version >= 2:
                self.next_cluster = next_cluster
            self.round = 0

    def clear_board(self) -> None:
        size = self.size
        self.anyons = [[0] * size for _ in range(size)]
        self.clusters = [[0] * size for _ in range(size)]
        self.next_cluster = 1

    # -- groups ---------------------------------------------------------------

    def relabel(self, old: int, new: int) -> None:
        """Merge group ``old`` into group ``new``: every cell of ``old`` gets ``new``."""
        clusters = self.clusters
        for row in range(self.size):
            for col in range(self.size):
                if clusters[row][col] == old:
                    clusters[row][col] = new

    def spanners(self) -> int:
        """The original's loss check: non-zero when a group touches two opposite edges."""
        clusters = self.clusters
        last = self.size - 1
        spanners = 0
        for j in range(self.size):
            for k in range(self.size):
                spanners += (clusters[j][0] == clusters[k][last]) * clusters[j][0]
                spanners += (clusters[0][j] == clusters[last][k]) * clusters[0][j]
        return spanners

    def spanning_groups(self) -> list[int]:
        """The ids of every spanning group, smallest first."""
        last = self.size - 1
        clusters = self.clusters
        top = set(clusters[0]) - {0}
        bottom = set(clusters[last]) - {0}
        left = {clusters[row][0] for row in range(self.size)} - {0}
        right = {clusters[row][last] for row in range(self.size)} - {0}
        return sorted((top & bottom) | (left & right))

    def board_is_empty(self) -> bool:
        for row in range(self.size):
            for col in range(self.size):
                if self.anyons[row][col] != 0:
                    return False
        return True

    # -- noise ----------------------------------------------------------------

    def generate_noise(self) -> None:
        """One noise round: add errors until the round's weight reaches the budget."""
        self.round += 1
        below = self.rng.below
        size = self.size
        last = size - 1
        anyons, clusters = self.anyons, self.clusters
        phi_lambda = self.rules.variant is Variant.PHI_LAMBDA
        num = 0.0
        while num < self.rules.noise_budget:
            # The first cell, then an axis, then (away from the boundary) a direction.
            x, y = divmod(below(size * size), size)
            if below(2) == 0:
                y2 = y
                if x == 0:
                    x2 = 1
                elif x == last:
                    x2 = x - 1
                else:
                    x2 = x + 1 if below(2) == 1 else x - 1
            else:
                x2 = x
                if y == 0:
                    y2 = 1
                elif y == last:
                    y2 = y - 1
                else:
                    y2 = y + 1 if below(2) == 1 else y - 1
            a = 5 if phi_lambda and below(100) < 33 else 1 + below(9)
            aa = (10 - a) % 10

            before1, before2 = anyons[x][y], anyons[x2][y2]
            anyons[x][y] = (a + before1) % 10
            anyons[x2][y2] = (aa + before2) % 10
            if before1 == 0 and before2 == 0:
                clusters[x][y] = clusters[x2][y2] = self.next_cluster
                self.next_cluster += 1
                num += 1
            elif before1 == 0:
                clusters[x][y] = clusters[x2][y2]
                num += 1
            elif before2 == 0:
                clusters[x2][y2] = clusters[x][y]
                num += 1
            else:
                if clusters[x][y] != clusters[x2][y2]:
                    self.relabel(clusters[x2][y2], clusters[x][y])
                num += 0.1
            if anyons[x][y] == 0:
                clusters[x][y] = 0
            if anyons[x2][y2] == 0:
                clusters[x2][y2] = 0
            self.noise_errors += 1

    # -- moves ----------------------------------------------------------------

    def move(self, from_row: int, from_col: int, to_row: int, to_col: int) -> None:
        size = self.size
        if self.over:
            raise ValueError("the game is over")
        if not all(0 <= c < size for c in (from_row, from_col, to_row, to_col)):
            raise ValueError("off the grid")
        if abs(from_row - to_row) + abs(from_col - to_col) != 1:
            raise ValueError("not a neighbour")
        anyons, clusters = self.anyons, self.clusters
        moved = anyons[from_row][from_col]
        if moved == 0:
            raise ValueError("no number to move")
        before = anyons[to_row][to_col]
        moved_cluster, target_cluster = clusters[from_row][from_col], clusters[to_row][to_col]

        self.t += 1
        self.moves_made += 1
        anyons[from_row][from_col] = 0
        clusters[from_row][from_col] = 0
        anyons[to_row][to_col] = (moved + before) % 10
        if before == 0:
            clusters[to_row][to_col] = moved_cluster
        elif target_cluster != moved_cluster:
            if self.rules.merge_label is MergeLabel.DESTINATION:
                self.relabel(moved_cluster, target_cluster)
            else:
                self.relabel(target_cluster, moved_cluster)
        if anyons[to_row][to_col] == 0:
            clusters[to_row][to_col] = 0

        if self.spanners() != 0:
            self.over = True
            self.loss_t = self.t
            return
        per_round = self.rules.moves_per_round
        if self.board_is_empty() and self.t % per_round != 0:
            self.t += per_round - self.t % per_round
            self.jumps += 1
        if self.t % per_round == 0:
            self.generate_noise()
            while self.board_is_empty():
                # The round's last error removed the last pair: skip the player's moves.
                self.t += per_round
                self.jumps += 1
                self.generate_noise()

    # -- reading the board ----------------------------------------------------

    def values(self) -> tuple[int, ...]:
        """The values, row-major."""
        return tuple(v for row in self.anyons for v in row)

    def labels(self) -> tuple[int, ...]:
        """The group ids, row-major (0 for an empty cell)."""
        return tuple(c for row in self.clusters for c in row)


class BaselineRandomPolicy:
    """The engine's random policy, written the plain way.

    It scans the board for the numbers (there must be one), then draws cells
    uniformly until it hits a number, and then a direction among those on the
    grid: exactly the draws of ``games.engine.policies.RandomPolicy``.
    """

    def __init__(self, seed: int = 0) -> None:
        self.rng = SplitMix64(seed)

    def choose(self, game: BaselineGame) -> tuple[int, int, int, int]:
        size = game.size
        numbers = [
            (row, col)
            for row in range(size)
            for col in range(size)
            if game.anyons[row][col] != 0
        ]
        if not numbers:
            raise ValueError("no number to move")
        while True:
            row, col = divmod(self.rng.below(size * size), size)
            if game.anyons[row][col] != 0:
                break
        options = []
        if row > 0:
            options.append((row - 1, col))
        if row < size - 1:
            options.append((row + 1, col))
        if col > 0:
            options.append((row, col - 1))
        if col < size - 1:
            options.append((row, col + 1))
        to_row, to_col = options[self.rng.below(len(options))]
        return (row, col, to_row, to_col)


def play(game: BaselineGame, policy: BaselineRandomPolicy) -> BaselineGame:
    while not game.over:
        game.move(*policy.choose(game))
    return game


if __name__ == "__main__":
    size = int(sys.argv[1]) if len(sys.argv) > 1 else 7
    seed = int(sys.argv[2]) if len(sys.argv) > 2 else 0
    game = play(BaselineGame(RuleSet(size=size), seed), BaselineRandomPolicy(seed))
    print(f"L={size} seed={seed}: lost at t={game.t} after {game.round} noise rounds, "
          f"group(s) {game.spanning_groups()} spanning")
    for row in game.anyons:
        print(" ".join(str(v) if v else "." for v in row))
