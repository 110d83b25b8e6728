"""How likely the class a finished planar game ended in was right, given its first board.

A planar game's corrections undo one logical class of the noise: the class
the optimal decoder's posterior (``optimal.posterior``) indexes. Entry c of
the posterior is the probability that the noise carried charge c rightwards
across the left side. The noise of the game's first board carried
``noise_charge``; when the board is clean the game's charge is the noise's
plus the corrections', so the corrections undid the class
``noise_charge - charge`` (mod d), which is the noise's own class exactly
when the game succeeded. Its posterior probability is the chance that a
player who saw only the charges, and ended in that class, was right; the
largest entry is the chance of the best any decoder can do on that board.

Only boards the exact contraction reaches (``exact_reaches``) get odds: the
truncated contraction beyond takes seconds a board, too much to spend where a
game ends.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import InvalidRuleSet
from .game import PlanarGame
from .optimal import exact_reaches, posterior


@dataclass(frozen=True, slots=True)
class ClassOdds:
    """The posterior of the class a game ended in, and of the most likely class."""

    ended_class: int
    odds: float
    best_class: int
    best_odds: float

    @property
    def chose_best(self) -> bool:
        """Whether the game ended in a most likely class (ties count as the best)."""
        return self.odds >= self.best_odds


def ended_class(*, noise_charge: int, charge: int, modulus: int) -> int:
    """The class the corrections undid: the noise's charge less the game's final charge."""
    return (noise_charge - charge) % modulus


def class_odds(first_board: PlanarGame, *, charge: int) -> ClassOdds | None:
    """The odds of the class a game that started as ``first_board`` and ended with ``charge``.

    ``first_board`` is the game just after its noise, before any move (a
    ``PlanarGame`` made from the game's rules and seed). ``None`` where the
    exact contraction does not reach, or when the noise rate admits no error
    set with these charges.
    """
    size, modulus = first_board.size, first_board.modulus
    rate = first_board.rules.error_rate
    if rate is None or not exact_reaches(size=size, modulus=modulus):
        return None
    try:
        probabilities = posterior(first_board.values, size=size, modulus=modulus, rate=rate)
    except InvalidRuleSet:
        return None
    noise_charge = int(first_board.to_state()["crossings"][0])
    chosen = ended_class(noise_charge=noise_charge, charge=charge, modulus=modulus)
    best = int(probabilities.argmax())
    return ClassOdds(
        ended_class=chosen,
        odds=float(probabilities[chosen]),
        best_class=best,
        best_odds=float(probabilities[best]),
    )
