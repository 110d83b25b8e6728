"""A registered plot's output as JSON or CSV, cached until the aggregates change."""

from __future__ import annotations

import csv
import hashlib
import io
import json
from collections.abc import Callable
from typing import Any

from django.core.cache import cache

from ..filters import Filters
from ..models import Watermark
from . import registry
from .view import plot_view

# Plot output is cached until the aggregates change; sweeps do not touch the
# watermarks, so entries also expire after a minute.
CACHE_SECONDS = 60


def aggregates_version() -> str:
    """Changes whenever a refresh or a rebuild runs: part of every cache key."""
    marks = Watermark.objects.order_by("name").values_list("name", "updated_at")
    return "|".join(f"{name}:{when.isoformat() if when else ''}" for name, when in marks)


def cached(kind: str, filters: Filters, build: Callable[[], Any]) -> Any:
    """``build()``, or its value stored under this kind, these filters and the aggregates."""
    text = f"{kind}|{sorted(filters.as_query().items())}|{aggregates_version()}"
    key = "dashboard:" + hashlib.sha256(text.encode()).hexdigest()
    value = cache.get(key)
    if value is None:
        value = build()
        cache.set(key, value, CACHE_SECONDS)
    return value


def plot_json(*, name: str, filters: Filters) -> bytes:
    """A plot's JSON document, encoded once per change of the aggregates."""

    def build() -> bytes:
        plot = registry.PLOTS[name].select(filters=filters)
        body = {"plot": name, "filters": filters.as_query(), "games": plot.games, **plot.data}
        body["view"] = plot_view(name=name, data=plot.data, filters=filters)
        return json.dumps(body, separators=(",", ":")).encode()

    return cached(f"json:{name}", filters, build)


def plot_csv(*, name: str, filters: Filters) -> str:
    """A plot's numbers as CSV text, with a header row."""

    def build() -> str:
        plot = registry.PLOTS[name].select(filters=filters)
        buffer = io.StringIO()
        writer = csv.writer(buffer, lineterminator="\n")
        writer.writerow(plot.columns)
        writer.writerows(
            ["" if value is None else value for value in row] for row in plot.csv_rows()
        )
        return buffer.getvalue()

    return cached(f"csv:{name}", filters, build)

