"""The planar code-capacity family: a real quantum error-correcting code as a Decodoku board.

Pure Python with NumPy and PyMatching, no Django. ``lattice`` holds the
geometry and the noise, ``game`` the rules of play and the logical outcome,
``decoders`` the bots (``optimal`` the class probabilities of maximum-likelihood
decoding), ``shots`` the sweeps' shots. The rules are in
``docs/rules.md`` ("The planar family").
"""

from .decoders import (
    DECODERS,
    MatchingDecoder,
    OptimalDecoder,
    UnionFindDecoder,
    get_decoder,
    play,
)
from .game import PlanarGame, PlanarMove
from .lattice import OUTSIDE, Lattice, draw_noise, lattice
from .shots import hashing_bound, planar_outcomes, play_planar_shot

__all__ = [
    "DECODERS",
    "OUTSIDE",
    "Lattice",
    "MatchingDecoder",
    "OptimalDecoder",
    "PlanarGame",
    "PlanarMove",
    "UnionFindDecoder",
    "draw_noise",
    "get_decoder",
    "hashing_bound",
    "lattice",
    "planar_outcomes",
    "play",
    "play_planar_shot",
]
