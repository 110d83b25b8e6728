"""Paired binary outcomes: the exact McNemar test.

When two decoders (a person and a bot) each try the same boards, each board
gives a pair of outcomes. Boards both solve, or both fail, say nothing about
which decoder is better; the test looks only at the *discordant* boards: ``b``
where the first succeeded and the second failed, ``c`` the other way round.
Under the hypothesis that both are equally good each discordant board is a
fair coin, so ``b`` follows Binomial(b + c, 1/2). The exact two-sided p-value
is twice the smaller tail, capped at 1 (McNemar 1947; the exact form as in
Fagerland, Lydersen and Laake, BMC Med. Res. Methodol. 13:91, 2013).
"""

from __future__ import annotations

from fractions import Fraction
from math import comb


def mcnemar_exact(first_only: int, second_only: int) -> float:
    """The exact two-sided McNemar p-value of ``first_only`` against ``second_only`` boards.

    ``first_only``: pairs in which only the first succeeded; ``second_only``:
    only the second. With no discordant pair the p-value is 1.
    """
    for name, value in (("first_only", first_only), ("second_only", second_only)):
        if isinstance(value, bool) or not isinstance(value, int) or value < 0:
            raise ValueError(f"{name} must be a non-negative integer")
    n = first_only + second_only
    if n == 0:
        return 1.0
    smaller = min(first_only, second_only)
    tail = Fraction(sum(comb(n, k) for k in range(smaller + 1)), 2**n)
    return float(min(Fraction(1), 2 * tail))
