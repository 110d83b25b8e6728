"""The export tables: read from the registry where each app declares its own.

The declarations live beside the models they read: ``games/research_tables.py``
(games, players, events, boards), ``results/research_tables.py`` (analyses
and sweeps) and ``puzzles/research_tables.py`` (puzzles, attempts, actions),
each a list of :class:`core.research.Table`. The CSV writers (portable and
COPY), the Parquet writer, the filters, the preview, the codebook and the
admin's export action read them only through :func:`all_tables`, so a column
cannot be exported without being documented, nor documented without being
exported.
"""

from __future__ import annotations

from functools import cache

from core.research import Table, registered_tables

__all__ = ["Table", "all_tables", "get_table"]


@cache
def all_tables() -> dict[str, Table]:
    """Every export table by name, in the order the codebook lists them."""
    return registered_tables()


def get_table(name: str) -> Table | None:
    return all_tables().get(name)
