"""Paired binary outcomes: the exact McNemar test, and the sign test across boards.

When two decoders (a person and a bot) each try the same boards, each board
gives a pair of outcomes. Boards both solve, or both fail, say nothing about
which decoder is better; the test looks only at the *discordant* boards: ``b``
where the first succeeded and the second failed, ``c`` the other way round.
Under the hypothesis that both are equally good each discordant board is a
fair coin, so ``b`` follows Binomial(b + c, 1/2). The exact two-sided p-value
is twice the smaller tail, capped at 1 (McNemar 1947; the exact form as in
Fagerland, Lydersen and Laake, BMC Med. Res. Methodol. 13:91, 2013).

McNemar's test needs independent pairs. When several people play one board
and a decoder plays it once, their pairs share the decoder's single outcome:
counting them as separate pairs counts that one observation again and again.
The board is then the unit: :func:`board_sign_test` takes, per board, the
people's success rate minus the decoder's, and asks whether positive and
negative differences are equally likely (the exact sign test: the same
binomial, now over boards; boards with no difference are left out).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from fractions import Fraction
from math import comb


def _two_sided_half_binomial(first: int, second: int) -> float:
    """Twice the smaller tail of Binomial(first + second, 1/2), capped at 1 (1 with no trial)."""
    n = first + second
    if n == 0:
        return 1.0
    smaller = min(first, second)
    tail = Fraction(sum(comb(n, k) for k in range(smaller + 1)), 2**n)
    return float(min(Fraction(1), 2 * tail))


def mcnemar_exact(first_only: int, second_only: int) -> float:
    """The exact two-sided McNemar p-value of ``first_only`` against ``second_only`` boards.

    ``first_only``: pairs in which only the first succeeded; ``second_only``:
    only the second. With no discordant pair the p-value is 1.
    """
    for name, value in (("first_only", first_only), ("second_only", second_only)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer")
    return _two_sided_half_binomial(first_only, second_only)


@dataclass(frozen=True, slots=True)
class BoardSignTest:
    """The sign test of per-board differences (first minus second)."""

    boards: int  # every board given, ties included
    first_ahead: int  # boards whose difference is positive
    second_ahead: int  # boards whose difference is negative
    p_value: float  # exact, two-sided; 1 when no board differs

    @property
    def ties(self) -> int:
        return self.boards - self.first_ahead - self.second_ahead


def board_sign_test(differences: Sequence[Fraction | float]) -> BoardSignTest:
    """The exact two-sided sign test of one difference per board.

    ``differences``: per board, the first side's success rate on it minus the
    second's (e.g. the share of the board's people who succeeded minus the
    decoder's 0 or 1), best as a ``Fraction`` so that a tie is exactly 0. A
    difference of 0 is a tie and carries no sign.
    """
    ahead = behind = 0
    for value in differences:
        number = isinstance(value, int | float | Fraction) and not isinstance(value, bool)
        if not number or value != value:  # NaN is not equal to itself
            raise ValueError("each difference must be a number")
        if not -1.0 <= value <= 1.0:
            raise ValueError("a difference of two success rates lies between -1 and 1")
        ahead += int(value > 0)
        behind += int(value < 0)
    return BoardSignTest(
        boards=len(differences),
        first_ahead=ahead,
        second_ahead=behind,
        p_value=_two_sided_half_binomial(ahead, behind),
    )
