"""The filters of the research exports: parsing them strictly and applying them.

Every export accepts the same filter names (each table lists the ones that
apply to it, see ``Table.filter_names``). A value that cannot be understood,
a filter that does not apply to the table, or an unknown name is refused with
:class:`InvalidFilter`, which names the filter: an export must never silently
ignore what the researcher asked for.

A table holds research data only, as ``games.models.research_data_condition``
defines it (the same set the dashboard and the sweeps' human summaries
count), and finished games only: an active game's boards, moves and save
file would show what its player cannot see yet (hidden values and groups).
Researchers may ask for games a curator excluded (``include_excluded``) and
practice games (``include_practice``). Human games played without research
consent, and active games, never leave the site through a research page,
download or command: the consent text promises it. Only the admin's logged
export of selected games sets ``include_unconsented`` and ``include_active``
(:data:`ADMIN_ONLY_FLAGS`); no query parameter or command option reaches them.
"""

from __future__ import annotations

import uuid
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, fields
from datetime import UTC, date, datetime, time, timedelta

from django.db.models import Q, QuerySet
from django.utils.dateparse import parse_date, parse_datetime

from core.errors import InvalidInput
from core.pseudonyms import is_pseudonym, player_ids_with_pseudonym
from core.research import Table, records_elsewhere
from games.engine.rules import MAX_FAMILY_SIZE, MIN_SIZE
from games.engine.variants import variant_kinds
from games.models import Game, Player, research_data_condition, seed_withheld_condition

TRUE_WORDS = frozenset({"1", "true", "yes", "on"})
FALSE_WORDS = frozenset({"0", "false", "no", "off"})
MAX_INTEGER = 2**63 - 1
MAX_VALUE_LENGTH = 100


class InvalidFilter(InvalidInput):
    """A filter value that cannot be used; ``field`` names the filter."""

    code = "invalid_filter"

    def __init__(self, name: str, message: str) -> None:
        super().__init__(f"{name}: {message}", field=name)
        self.field = name


@dataclass(frozen=True, slots=True)
class ExportFilters:
    """Parsed filters. ``date_to`` is an exclusive bound (a plain date includes its day)."""

    date_from: datetime | None = None
    date_to: datetime | None = None
    variant: str | None = None
    size: int | None = None
    rules_key: str | None = None
    engine_version: int | None = None
    source: str | None = None
    player: str | None = None
    status: str | None = None
    sweep: uuid.UUID | None = None
    after_id: int | None = None
    include_excluded: bool = False
    include_practice: bool = False
    # Set only by the admin's export of selected games (never parsed from a request).
    include_unconsented: bool = False
    include_active: bool = False

    def as_params(self) -> dict[str, str]:
        """The filters that are set, as query parameters (for links and file names)."""
        params: dict[str, str] = {}
        for item in fields(self):
            value = getattr(self, item.name)
            if value is None or value is False:
                continue
            if isinstance(value, datetime):
                params[item.name] = value.isoformat()
            elif value is True:
                params[item.name] = "1"
            else:
                params[item.name] = str(value)
        return params


# Flags of the admin's own export only: refused from a request or a command line.
ADMIN_ONLY_FLAGS = ("include_unconsented", "include_active")
ADMIN_ONLY_MESSAGE = (
    "is not a filter: games played without research consent, active games and games "
    "on the board of a day still open are never exported (see the codebook)"
)
FILTER_NAMES = tuple(
    item.name for item in fields(ExportFilters) if item.name not in ADMIN_ONLY_FLAGS
)
INCLUDE_FLAGS = ("include_excluded", "include_practice")
# The statuses an export holds, and the status filter takes: games that ended.
EXPORT_STATUSES = tuple(status for status in Game.Status.values if status != Game.Status.ACTIVE)

# The values of a game's variant column (games.engine.variants: one kind each).
STORED_VARIANTS = tuple(kind.stored for kind in variant_kinds())

FILTER_HELP: dict[str, str] = {
    "date_from": "games (or sweeps) started at or after this date or ISO 8601 time",
    "date_to": "games started before this time; a plain date includes that whole day",
    "variant": ", ".join(STORED_VARIANTS[:-1]) + " or " + STORED_VARIANTS[-1],
    "size": f"L, the board size ({MIN_SIZE}-{MAX_FAMILY_SIZE}; above 16 only planar bot games)",
    "rules_key": "a rule set key, e.g. z10-L7-b6-m5-destination",
    "engine_version": "the engine version that recorded the game",
    "source": "how the game was recorded: " + ", ".join(Game.Source.values),
    "player": "a player's pseudonym (24 hex characters)",
    "status": "game status: " + ", ".join(EXPORT_STATUSES)
    + " (exports hold finished games only)",
    "sweep": "a sweep id (UUID)",
    "after_id": "only rows whose row id is greater than this (incremental pulls)",
    "include_excluded": "1 to include games a curator excluded from research",
    "include_practice": "1 to include practice games (the groups were shown)",
}
# The same two flags where they are a checkbox (the research page) or a switch (export_csv):
# there is no "1" to give, only the choice to tick.
INCLUDE_FLAG_HELP: dict[str, str] = {
    "include_excluded": "also export games a curator excluded from research",
    "include_practice": "also export practice games (the groups were shown)",
}


def _one(name: str, value: object) -> str:
    if isinstance(value, list | tuple):
        if len(value) != 1:
            raise InvalidFilter(name, "give this filter once")
        value = value[0]
    text = str(value).strip()
    if not text:
        raise InvalidFilter(name, "must not be empty")
    if len(text) > MAX_VALUE_LENGTH:
        raise InvalidFilter(name, f"must be at most {MAX_VALUE_LENGTH} characters")
    if not text.isprintable():
        # NUL and other control characters: PostgreSQL refuses NUL in text,
        # and no filter value ever needs them.
        raise InvalidFilter(name, "must not contain control characters")
    return text


def _integer(name: str, text: str, *, minimum: int = 0, maximum: int = MAX_INTEGER) -> int:
    if not text.isascii() or not text.isdigit():
        raise InvalidFilter(name, f"{text!r} is not a whole number")
    number = int(text)
    if not minimum <= number <= maximum:
        raise InvalidFilter(name, f"must be between {minimum} and {maximum}")
    return number


def _moment(name: str, text: str, *, end: bool) -> datetime:
    try:
        moment = parse_datetime(text) if "T" in text or " " in text else None
        day = None if moment else parse_date(text)
    except ValueError:
        moment = day = None
    try:
        if moment is not None:
            # In UTC, as the database compares it: a time zone must not push it out of range.
            return (moment if moment.tzinfo else moment.replace(tzinfo=UTC)).astimezone(UTC)
        if isinstance(day, date):
            start = datetime.combine(day, time.min, tzinfo=UTC)
            return start + timedelta(days=1) if end else start
    except OverflowError:  # 9999-12-31 as an end: the day after it does not exist
        raise InvalidFilter(name, f"{text!r} is out of range (years 1 to 9998)") from None
    raise InvalidFilter(name, f"{text!r} is not a date (YYYY-MM-DD) or an ISO 8601 time")


def _choice(name: str, text: str, choices: tuple[str, ...]) -> str:
    if text not in choices:
        raise InvalidFilter(name, f"{text!r} is not one of {', '.join(choices)}")
    return text


def _boolean(name: str, text: str) -> bool:
    word = text.lower()
    if word in TRUE_WORDS:
        return True
    if word in FALSE_WORDS:
        return False
    raise InvalidFilter(name, f"{text!r} is not 1/0, true/false, yes/no or on/off")


def _parse_one(name: str, text: str) -> object:
    if name in ("date_from", "date_to"):
        return _moment(name, text, end=name == "date_to")
    if name == "variant":
        return _choice(name, text, STORED_VARIANTS)
    if name == "size":
        return _integer(name, text, minimum=MIN_SIZE, maximum=MAX_FAMILY_SIZE)
    if name == "engine_version":
        return _integer(name, text, maximum=2**31 - 1)
    if name == "after_id":
        return _integer(name, text)
    if name == "source":
        return _choice(name, text, tuple(Game.Source.values))
    if name == "status":
        if text == Game.Status.ACTIVE:
            raise InvalidFilter(
                name, "active games are not exported: exports hold finished games only"
            )
        return _choice(name, text, EXPORT_STATUSES)
    if name == "player":
        if not is_pseudonym(text):
            raise InvalidFilter(name, f"{text!r} is not a pseudonym (24 lowercase hex characters)")
        return text
    if name == "sweep":
        try:
            return uuid.UUID(text)
        except ValueError:
            raise InvalidFilter(name, f"{text!r} is not a sweep id (a UUID)") from None
    if name in INCLUDE_FLAGS:
        return _boolean(name, text)
    if name == "rules_key":
        if len(text) > 64:
            raise InvalidFilter(name, "a rule set key has at most 64 characters")
        return text
    raise InvalidFilter(name, "is not a filter")  # pragma: no cover - names are checked first


def refuse_admin_only_flags(names: Iterable[str]) -> None:
    """Raise :class:`InvalidFilter` for the first of ``names`` that only the admin may set.

    Every research door that reads query parameters (the exports, the preview,
    the games' browse page) refuses them alike, rather than ignoring them.
    """
    for name in names:
        if name in ADMIN_ONLY_FLAGS:
            raise InvalidFilter(name, ADMIN_ONLY_MESSAGE)


def parse_filters(params: Mapping[str, object], *, table: Table) -> ExportFilters:
    """Filters from query parameters or command-line options (values as text).

    Raises :class:`InvalidFilter` naming the first filter that is not
    understood or does not apply to ``table``.
    """
    accepted = table.filter_names
    values: dict[str, object] = {}
    refuse_admin_only_flags(params)
    for name, raw in params.items():
        if name not in FILTER_NAMES:
            raise InvalidFilter(
                name, f"is not a filter; filters of {table.name}: {', '.join(accepted)}"
            )
        if name not in accepted:
            raise InvalidFilter(
                name,
                f"does not apply to the table {table.name}; its filters: {', '.join(accepted)}",
            )
        values[name] = _parse_one(name, _one(name, raw))
    parsed = ExportFilters(**values)  # type: ignore[arg-type]
    if parsed.date_from and parsed.date_to and parsed.date_from >= parsed.date_to:
        raise InvalidFilter("date_to", "must be after date_from")
    return parsed


def _player_ids(pseudonym_text: str) -> list[uuid.UUID]:
    ids = player_ids_with_pseudonym(
        pseudonym_text=pseudonym_text,
        player_ids=Player.objects.values_list("id", flat=True).iterator(chunk_size=5000),
    )
    if not ids:
        raise InvalidFilter("player", f"no player has the pseudonym {pseudonym_text}")
    return ids


def rows_condition(*, table: Table, filters: ExportFilters) -> Q:
    """The condition on the table's game (or sweep) that the filters ask for."""
    paths = table.filter_paths
    condition = Q()
    if filters.date_from is not None:
        condition &= Q(**{f"{paths['date']}__gte": filters.date_from})
    if filters.date_to is not None:
        condition &= Q(**{f"{paths['date']}__lt": filters.date_to})
    for name in ("variant", "size", "rules_key", "engine_version", "source", "status", "sweep"):
        value = getattr(filters, name)
        if value is not None:
            condition &= Q(**{paths[name]: value})
    if filters.player is not None:
        condition &= Q(**{f"{paths['player']}__in": _player_ids(filters.player)})
    if table.game_path is not None:
        condition &= research_data_condition(
            prefix=table.game_path,
            include_excluded=filters.include_excluded,
            include_unconsented=filters.include_unconsented,
            include_practice=filters.include_practice,
        )
        if not filters.include_active:
            # An active game's rows show what its player cannot see yet; a game on
            # the board of a day still open (a daily game, or a decoder's game on
            # its seed) shows that day's noise and a correction of it to whoever
            # plays the board later. Neither leaves until it is over: the one rule
            # of a withheld seed.
            condition &= ~seed_withheld_condition(prefix=table.game_path)
    return condition


# Filters that select games by what only games have: with one of them set, a row
# listed for research data outside the games (a player who only did puzzles)
# would not belong to the selection.
GAME_ONLY_FILTERS = ("variant", "size", "rules_key", "engine_version", "source", "status")


def elsewhere_condition(*, table: Table, filters: ExportFilters) -> Q | None:
    """The rows listed for research data outside the games, under the filters (None: none)."""
    if not table.lists_records_elsewhere:
        return None
    if any(getattr(filters, name) is not None for name in GAME_ONLY_FILTERS):
        return None
    if filters.include_unconsented or filters.include_active:  # the admin's export of games
        return None
    condition = records_elsewhere(date_from=filters.date_from, date_to=filters.date_to)
    if filters.player is not None:
        condition &= Q(pk__in=_player_ids(filters.player))
    return condition


def filtered_queryset(*, table: Table, filters: ExportFilters) -> QuerySet:
    """The table's model rows that the filters select, in the table's stable order."""
    queryset = table.queryset()
    condition = rows_condition(table=table, filters=filters)
    if table.prepare is not None:
        queryset = table.prepare(
            queryset, condition, elsewhere_condition(table=table, filters=filters)
        )
    else:
        queryset = queryset.filter(condition)
    if filters.after_id is not None and table.row_id is not None:
        queryset = queryset.filter(**{f"{table.row_id}__gt": filters.after_id})
    return queryset.order_by(*table.order_by)
