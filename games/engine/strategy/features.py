"""What a player may weigh in a move: one feature vector per legal move.

A board is taken as the player saw it (``seen``, see ``bots.board.observe``):
the values 1-9 in Z10; in Phi-Lambda a 5 for a Lambda and ``UNKNOWN`` for
every Phi. The groups are never seen; like the ``player`` bot, the features
use the groups a player would guess, the clusters of ``grow_clusters`` (the
"believed groups" below).

The legal moves are every number moved onto each of its neighbouring cells,
listed numbers in cell order and, for each number, its neighbours in the
order of ``Geometry.neighbours``. That order matters: the ``player`` bot
draws its tie-breaks in it, so its recorded games replay only if it is kept.
An annihilation appears twice (either number moved onto the other); the two
rows differ in the positional features, and a model of what players do sums
its probability over both, since a board cannot tell them apart.

``FEATURES`` names and explains every column. The first twelve are those of
the ``player`` bot, in the order it adds up their weighted values; the others
come from the strategy bot of the original apps or were added for fitting.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import numpy as np

from ..bots.board import UNKNOWN, Geometry, certain_zero, combine, complement_of, maybe_zero
from ..bots.clustering import grow_clusters
from ..events import MoveTuple

FEATURE_SET_VERSION = 1
"""Bump whenever a feature is added, removed, reordered or computed differently."""


@dataclass(frozen=True, slots=True)
class Feature:
    name: str
    description: str


FEATURES: tuple[Feature, ...] = (
    Feature("group_size", "How many numbers the believed group of the moved number holds."),
    Feature("sure_annihilation", "1 when the move surely removes two numbers (their values add "
            "up to 0 mod 10), else 0."),
    Feature("possible_annihilation", "1 when the move lands a Phi on a Phi, which may annihilate "
            "them, else 0."),
    Feature("fuse_same_group", "1 when the move lands on a number of the same believed group "
            "without surely annihilating it, else 0."),
    Feature("merge_groups", "1 when the move lands on a number of another believed group without "
            "annihilating it, which joins the two groups if the guess is right, else 0."),
    Feature("partner_gain", "How many cells nearer the move brings the number to its partner "
            "(the nearest complement, one in the same believed group preferred); 0 without one."),
    Feature("partner_distance", "How far the partner is before the move (cells, Manhattan); "
            "0 without one."),
    Feature("partner_same_group", "1 when the partner is in the same believed group, else 0."),
    Feature("centroid_gain", "How many cells nearer the move brings the number to the mean "
            "position of its believed group."),
    Feature("urgency", "For a move that makes progress (an annihilation, a fusion within the "
            "group, or a step toward the partner): how near the believed group is to touching "
            "two opposite edges, from 0 (far) to 1 (touching); else 0."),
    Feature("leave_border", "For a number on the border: how many cells the move takes it away "
            "from the border (0 or 1); 0 for a number inside the board."),
    Feature("helpful_neighbours", "How many numbers next to the destination would surely "
            "annihilate the moved number's new value on the next move."),
    Feature("has_partner", "1 when the number has a partner on the board, else 0."),
    Feature("centre_route_distance", "How far the number is from its partner by way of the "
            "believed group's centre (its medoid); 0 without a partner."),
    Feature("centre_gain", "How many cells nearer the move brings the number to the believed "
            "group's centre (its medoid)."),
    Feature("number_neighbours", "How many numbers stand next to the moved number before the "
            "move."),
    Feature("destination_neighbours", "How many numbers, other than the moved one, stand next "
            "to the destination cell."),
)
# Landing on a number is not a feature of its own: it is the sum of the four
# kinds above (sure or possible annihilation, fusion, merge), so its weight
# could not be told from theirs.

FEATURE_NAMES: tuple[str, ...] = tuple(feature.name for feature in FEATURES)
INDEX: dict[str, int] = {name: k for k, name in enumerate(FEATURE_NAMES)}


@dataclass(frozen=True, slots=True)
class BoardFeatures:
    """The legal moves of one board and, row for row, their features (ints or floats)."""

    moves: tuple[MoveTuple, ...]
    rows: tuple[tuple[float, ...], ...]

    def matrix(self) -> np.ndarray:
        """The rows as a (moves x features) float array."""
        if not self.rows:
            return np.zeros((0, len(FEATURES)))
        return np.array(self.rows, dtype=float)


def move_features(seen: Sequence[int], geo: Geometry) -> BoardFeatures:
    """Every legal move of the board ``seen`` and the features of each (see ``FEATURES``).

    Every float is computed exactly as version 1 of the ``player`` bot
    computed its terms, so that the bot's scores do not change by one bit.
    """
    coords, neighbours, border = geo.coords, geo.neighbours, geo.border
    last = geo.size - 1
    clusters = grow_clusters(seen, geo)
    owner = [-1] * geo.cells
    centroid: list[tuple[float, float]] = []
    urgency: list[float] = []
    for index, cluster in enumerate(clusters):
        for c in cluster.cells:
            owner[c] = index
        n = len(cluster.cells)
        centroid.append((sum(coords[c][0] for c in cluster.cells) / n,
                         sum(coords[c][1] for c in cluster.cells) / n))
        urgency.append(1.0 - cluster.gap / last if n > 1 else 0.0)
    by_value: dict[int, list[int]] = {}
    occupied_around = [0] * geo.cells  # numbers next to each cell
    for i, v in enumerate(seen):
        if v:
            by_value.setdefault(v, []).append(i)
            for k in neighbours[i]:
                occupied_around[k] += 1

    moves: list[MoveTuple] = []
    rows: list[tuple[float, ...]] = []
    for i, v in enumerate(seen):
        if not v:
            continue
        group = owner[i]
        ri, ci = coords[i]
        partner, partner_distance, partner_same = -1, 0, False
        best: tuple[int, int] | None = None
        for p in by_value.get(complement_of(v), ()):
            if p == i:
                continue
            d = abs(ri - coords[p][0]) + abs(ci - coords[p][1])
            key = (int(owner[p] != group), d)
            if best is None or key < best:
                best, partner = key, p
        if best is not None:
            partner_distance, partner_same = best[1], best[0] == 0
        cr, cc = centroid[group]
        here_to_centroid = abs(ri - cr) + abs(ci - cc)
        group_size = len(clusters[group].cells)
        mr, mc = coords[clusters[group].center]
        here_to_centre = abs(ri - mr) + abs(ci - mc)
        route = 0
        if partner >= 0:
            route = here_to_centre + abs(mr - coords[partner][0]) + abs(mc - coords[partner][1])
        own_neighbours = occupied_around[i]
        for j in neighbours[i]:
            w = seen[j]
            rj, cj = coords[j]
            sure = possible = fuse = merge = 0
            progress = False
            if w and certain_zero(v, w):
                sure = 1
                progress = True
            elif w and maybe_zero(v, w):
                possible = 1
                progress = True
            elif w and owner[j] == group:
                fuse = 1
                progress = True
            elif w:
                merge = 1
            gain = 0
            if partner >= 0:
                pr, pc = coords[partner]
                gain = partner_distance - (abs(rj - pr) + abs(cj - pc))
                progress = progress or gain > 0
            centroid_gain = here_to_centroid - (abs(rj - cr) + abs(cj - cc))
            leave = border[j] - border[i] if border[i] == 0 else 0
            result = combine(v, w) if not (w and certain_zero(v, w)) else 0
            helpful = 0
            if result:
                for k in neighbours[j]:
                    if k != i and seen[k] and seen[k] != UNKNOWN and certain_zero(result, seen[k]):
                        helpful += 1
            # Whole numbers stay ints: int * float is the same float as float * float.
            rows.append((
                group_size, sure, possible, fuse, merge, gain, partner_distance,
                int(partner_same), centroid_gain, urgency[group] if progress else 0.0, leave,
                helpful, int(partner >= 0), route,
                here_to_centre - (abs(rj - mr) + abs(cj - mc)), own_neighbours,
                occupied_around[j] - 1,
            ))
            moves.append(geo.move(i, j))
    return BoardFeatures(tuple(moves), tuple(rows))
