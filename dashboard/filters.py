"""The dashboard's filters, read from a query string and checked."""

from __future__ import annotations

import datetime
import math
from collections.abc import Mapping
from dataclasses import dataclass

from core.errors import InvalidInput
from games.engine.rules import MAX_SIZE, MIN_SIZE
from games.engine.variants import variant_kinds

from .models import HUMAN

MAX_RANGE_DAYS = 3660
FILTER_NAMES = ("variant", "size", "budget", "source", "from", "to")


@dataclass(frozen=True, slots=True)
class Filters:
    variant: str | None = None
    size: int | None = None
    budget: float | None = None
    source: str | None = None  # "human", a bot's name, or None for every source
    date_from: datetime.date | None = None
    date_to: datetime.date | None = None

    @property
    def dated(self) -> bool:
        return self.date_from is not None or self.date_to is not None

    def as_query(self) -> dict[str, str]:
        values = {
            "variant": self.variant,
            "size": self.size,
            "budget": self.budget,
            "source": self.source,
            "from": self.date_from,
            "to": self.date_to,
        }
        return {name: f"{value:g}" if isinstance(value, float) else str(value)
                for name, value in values.items() if value is not None}


def _date(params: Mapping[str, str], name: str) -> datetime.date | None:
    text = params.get(name, "").strip()
    if not text:
        return None
    try:
        day = datetime.date.fromisoformat(text)
    except ValueError:
        raise InvalidInput(
            f"{name} must be a date written YYYY-MM-DD, got {text!r}", field=name
        ) from None
    # Ranges are read as [from, to + 1 day): keep a day after the last one.
    if day >= datetime.date.max:
        raise InvalidInput(f"{name} must be before {datetime.date.max.isoformat()}", field=name)
    return day


def parse_filters(params: Mapping[str, str]) -> Filters:
    """The filters of a query string; an unusable value raises InvalidInput (HTTP 400).

    The error's ``extra["field"]`` names the query parameter at fault, so a page
    can show the message beside it.
    """
    chosen = params.get("variant", "").strip()
    # The original game's variants: its arithmetics, and Colors records (imported,
    # groups only) as a variant of their own.
    offered = [kind.stored for kind in variant_kinds() if kind.original_game]
    if chosen and chosen not in offered:
        known = ", ".join(offered)
        raise InvalidInput(f"variant must be one of {known}, got {chosen!r}", field="variant")
    size = None
    size_text = params.get("size", "").strip()
    if size_text:
        if (
            not size_text.isascii()
            or not size_text.isdigit()
            or not MIN_SIZE <= int(size_text) <= MAX_SIZE
        ):
            raise InvalidInput(
                f"size must be a whole number from {MIN_SIZE} to {MAX_SIZE}", field="size"
            )
        size = int(size_text)
    budget = None
    budget_text = params.get("budget", "").strip()
    if budget_text:
        try:
            budget = float(budget_text)
        except ValueError:
            budget = math.nan
        if not math.isfinite(budget) or not 0 < budget <= 1000:
            raise InvalidInput("budget must be a positive number of at most 1000", field="budget")
    source = params.get("source", "").strip() or None
    if source is not None and (
        len(source) > 64
        or not source.isascii()
        or not source.replace("_", "").replace("-", "").isalnum()
    ):
        raise InvalidInput(f"source must be {HUMAN!r} or a bot's name", field="source")
    date_from, date_to = _date(params, "from"), _date(params, "to")
    if date_from and date_to:
        if date_from > date_to:
            raise InvalidInput("from must not be after to", field="to")
        if (date_to - date_from).days > MAX_RANGE_DAYS:
            raise InvalidInput(f"a date range may span at most {MAX_RANGE_DAYS} days", field="to")
    return Filters(chosen or None, size, budget, source, date_from, date_to)
