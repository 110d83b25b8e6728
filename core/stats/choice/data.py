"""The boards a choice model is fitted to: alternatives, chosen ones, players, weights."""

from __future__ import annotations

from collections.abc import Hashable, Sequence
from dataclasses import dataclass

import numpy as np
from numpy.typing import NDArray

FloatArray = NDArray[np.float64]
IntArray = NDArray[np.int64]
BoolArray = NDArray[np.bool_]


@dataclass(frozen=True)
class ChoiceData:
    """Boards, their alternatives and the chosen ones, in flat arrays.

    The alternatives of board ``b`` are rows ``offsets[b]:offsets[b + 1]`` of
    ``features`` and ``chosen``; ``players[b]`` is the board's player (the
    unit of independence) and ``weights[b]`` its weight.
    """

    features: FloatArray  # (alternatives, features)
    chosen: BoolArray  # (alternatives,)
    offsets: IntArray  # (boards + 1,)
    players: IntArray  # (boards,) player index, 0 .. n_players - 1
    weights: FloatArray  # (boards,)
    player_keys: tuple[Hashable, ...] = ()

    @property
    def n_boards(self) -> int:
        return len(self.offsets) - 1

    @property
    def n_players(self) -> int:
        return int(self.players.max()) + 1 if self.n_boards else 0

    def board_of_alternative(self) -> IntArray:
        return np.repeat(np.arange(self.n_boards), np.diff(self.offsets))

    def subset(self, boards: IntArray) -> ChoiceData:
        """The data of the boards ``boards`` (players renumbered, keys kept)."""
        boards = np.asarray(boards, dtype=np.int64)
        starts, stops = self.offsets[boards], self.offsets[boards + 1]
        rows = np.concatenate([np.arange(a, b) for a, b in zip(starts, stops, strict=True)]) \
            if len(boards) else np.zeros(0, dtype=np.int64)
        used, players = np.unique(self.players[boards], return_inverse=True)
        keys = tuple(self.player_keys[p] for p in used) if self.player_keys else ()
        return ChoiceData(
            features=self.features[rows], chosen=self.chosen[rows],
            offsets=np.concatenate([[0], np.cumsum(stops - starts)]).astype(np.int64),
            players=players.astype(np.int64), weights=self.weights[boards], player_keys=keys,
        )


def choice_data(*, boards: Sequence[tuple[Sequence[Sequence[float]], Sequence[int], Hashable]],
                weights: Sequence[float] | FloatArray | None = None) -> ChoiceData:
    """``ChoiceData`` from boards given as ``(feature rows, chosen rows, player)``.

    Every board needs at least two alternatives and at least one chosen
    (a board with one legal move says nothing about what the player weighed).
    """
    if not boards:
        raise ValueError("there are no boards")
    keys: dict[Hashable, int] = {}
    rows: list[Sequence[float]] = []
    chosen: list[bool] = []
    offsets = [0]
    players = []
    width: int | None = None
    for number, (features, picked, player) in enumerate(boards):
        n = len(features)
        if n < 2:
            raise ValueError(f"board {number} has fewer than two alternatives")
        picked_set = set(picked)
        if not picked_set or not all(0 <= k < n for k in picked_set):
            raise ValueError(f"board {number} needs chosen rows among its {n} alternatives")
        for row in features:
            if width is None:
                width = len(row)
            elif len(row) != width:
                raise ValueError(f"board {number} has rows of different lengths")
        rows.extend(features)
        chosen.extend(k in picked_set for k in range(n))
        offsets.append(offsets[-1] + n)
        players.append(keys.setdefault(player, len(keys)))
    board_weights = np.ones(len(boards)) if weights is None else np.asarray(weights, dtype=float)
    if board_weights.shape != (len(boards),) or not np.all(np.isfinite(board_weights)) \
            or np.any(board_weights < 0):
        raise ValueError("weights must be one finite, non-negative number per board")
    matrix = np.asarray(rows, dtype=float)
    if not np.all(np.isfinite(matrix)):
        raise ValueError("features must be finite")
    return ChoiceData(matrix, np.asarray(chosen), np.asarray(offsets, dtype=np.int64),
                      np.asarray(players, dtype=np.int64), board_weights, tuple(keys))


def cap_weights(players: Sequence[Hashable] | IntArray, cap: float) -> FloatArray:
    """Per-board weights so that no player counts for more than ``cap`` boards.

    A player with n boards gives each of them ``min(1, cap / n)``: everyone's
    boards count fully up to ``cap``, and a prolific player's total is ``cap``.
    """
    if not cap > 0:
        raise ValueError("cap must be positive")
    _, inverse, counts = np.unique(np.asarray(players), return_inverse=True, return_counts=True)
    return np.minimum(1.0, cap / counts[inverse]).astype(float)
