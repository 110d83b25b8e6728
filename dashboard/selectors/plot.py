"""What every plot selector returns, the description a plot registers, and numbers for JSON."""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field
from typing import Any, Protocol

from ..filters import Filters


@dataclass
class Plot:
    games: int
    data: dict[str, Any]
    columns: list[str]
    # The CSV rows, or a function making them: only downloads pay for the big tables.
    rows: list[list[Any]] | Callable[[], list[list[Any]]] = field(default_factory=list)

    def csv_rows(self) -> list[list[Any]]:
        return self.rows() if callable(self.rows) else self.rows


class PlotSelector(Protocol):
    """A plot's selector: the page's filters in, the plot's numbers out."""

    def __call__(self, *, filters: Filters) -> Plot: ...


@dataclass(frozen=True, slots=True)
class PlotSpec:
    """One plot of the dashboard, as the registry lists it."""

    name: str  # the slug: /dashboard/data/<name>/ and the page's data-plot="<name>"
    title: str
    explanation: str  # the sentence under the title on the page
    select: PlotSelector


def finite(values: Iterable[float]) -> list[float | None]:
    """Floats fit for JSON, None for NaN or infinity (long curves: no rounding)."""
    return [value if math.isfinite(value) else None for value in values]


def number(value: float | None, digits: int = 6) -> float | None:
    """A float fit for JSON: rounded, and None for NaN or infinity."""
    if value is None or not math.isfinite(value):
        return None
    return round(value, digits)

