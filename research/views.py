"""Views of the research area. They check access, parse the request and stream.

Pages of data need a login; anonymous visitors are sent to the login page,
signed-in users who are neither staff nor in the researchers group get 403.
The codebook and the "how to use and cite" page are public (they describe the
data and hold none of it), as is the form that asks for research access. Data
answers (CSV, JSON, save files) report errors in the API's format:
``{"error": {"code", "message", ...}}``.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import wraps
from typing import Any
from urllib.parse import urlencode

from django.contrib.auth.views import LoginView, redirect_to_login
from django.http import (
    HttpRequest,
    HttpResponse,
    JsonResponse,
    StreamingHttpResponse,
)
from django.shortcuts import redirect, render
from django.urls import reverse
from django.utils.dateparse import parse_date
from django.views.decorators.http import require_http_methods, require_safe
from rest_framework.settings import api_settings

from core.api import error_body
from core.api.throttles import client_address, count_request
from core.concurrency import EXPORT, Busy, acquire_heavy_slot, release_when_closed
from core.errors import DomainError, InvalidInput, NotFound
from core.pseudonyms import pseudonym
from games.engine.rules import MAX_FAMILY_SIZE, MIN_SIZE
from research import browse, citation, selectors, services
from research.exports.codebook import codebook
from research.exports.filters import (
    EXPORT_STATUSES,
    FILTER_HELP,
    INCLUDE_FLAG_HELP,
    INCLUDE_FLAGS,
    ExportFilters,
    InvalidFilter,
)
from research.exports.tables import Table, all_tables
from research.forms import AccessRequestForm, GameBrowseForm

# Query parameters that are not filters.
OPTIONS = ("gzip",)


def _error(exc: DomainError, status: int) -> JsonResponse:
    return JsonResponse(error_body(exc.code, exc.message, **exc.extra), status=status)


def researcher_required(*, data: bool) -> Callable:
    def decorate(view: Callable[..., HttpResponse]) -> Callable[..., HttpResponse]:
        @wraps(view)
        def wrapped(request: HttpRequest, *args: Any, **kwargs: Any) -> HttpResponse:
            if not request.user.is_authenticated:
                return redirect_to_login(request.get_full_path(), reverse("research:login"))
            if not selectors.user_is_researcher(user=request.user):
                if data:
                    return JsonResponse(
                        error_body("permission_denied",
                                   "Research data is for staff and the researchers group."),
                        status=403,
                    )
                return render(request, "research/forbidden.html", page_context(), status=403)
            return view(request, *args, **kwargs)

        return wrapped

    return decorate


def page_context(**extra: Any) -> dict[str, Any]:
    """The research pages' own context (the rest comes from ``core.context_processors``)."""
    return {"page": "research", **extra}


# Fields of the research page's forms that are not filters.
FORM_FIELDS = ("table", "format", "game", "preview", *OPTIONS)


@dataclass(frozen=True, slots=True)
class _Request:
    """What the download form asks for, checked as the export checks it."""

    table: Table
    filters: ExportFilters
    params: dict[str, str]
    output: str

    def url(self, output: str | None = None) -> str:
        output = output or self.output
        route = "research:export-parquet" if output == "parquet" else "research:export"
        target = reverse(route, args=[self.table.name])
        params = {name: value for name, value in self.params.items()
                  if output == "csv" or name != "gzip"}
        return f"{target}?{urlencode(params)}" if params else target


def _read_form(values: dict[str, str]) -> tuple[_Request | None, dict[str, str]]:
    """The export the download form asks for, or the errors by field name.

    Empty fields are left out, as a form sends every field; the filters are
    checked exactly as the export checks them (the pseudonym against the players).
    """
    try:
        table = selectors.export_table(name=values.get("table", ""))
    except NotFound as exc:
        return None, {"table": exc.message}
    output = values.get("format") or "csv"
    if output not in ("csv", "parquet"):
        return None, {"format": f"{output!r} is not csv or parquet"}
    params = {name: value for name, value in values.items()
              if value and name not in FORM_FIELDS}
    try:
        compress = _flag_text("gzip", values.get("gzip", "0"))
        if compress and output == "parquet":
            raise InvalidFilter("gzip", "a Parquet file is compressed already")
        filters = selectors.export_filters(table=table, params=params)
        selectors.export_rows(table=table, filters=filters)
    except InvalidInput as exc:
        return None, {str(exc.extra.get("field") or "table"): exc.message}
    if compress:
        params["gzip"] = "1"
    return _Request(table=table, filters=filters, params=params, output=output), {}


# Filters of a fixed set of values: offered as a select of the codebook's allowed values.
CHOICE_FILTERS = ("variant", "source", "status")
DATE_FILTERS = ("date_from", "date_to")
NUMBER_FILTERS = {
    "size": (MIN_SIZE, MAX_FAMILY_SIZE), "engine_version": (0, None), "after_id": (0, None),
}


def _filter_choices() -> dict[str, tuple[str, ...]]:
    columns = {column.name: column for column in all_tables()["games"].columns}
    choices = {name: columns[name].allowed for name in CHOICE_FILTERS if columns[name].allowed}
    choices["status"] = EXPORT_STATUSES  # exports hold finished games only
    return choices


def _is_plain_date(text: str) -> bool:
    try:
        return parse_date(text) is not None
    except ValueError:  # a well-formed but impossible date, e.g. 2026-02-30
        return False


def _filter_fields(values: dict[str, str], errors: dict[str, str]) -> list[dict[str, Any]]:
    """The filter fields of the form: each with its control's kind, value, help and error."""
    choices = _filter_choices()
    fields = []
    for name, api_help in FILTER_HELP.items():
        value = values.get(name, "")
        help_text = INCLUDE_FLAG_HELP.get(name, api_help)
        if name in INCLUDE_FLAGS:
            kind = "checkbox"
        elif name in choices:
            kind = "select"
        elif name in DATE_FILTERS and (not value or _is_plain_date(value)):
            kind = "date"  # a time typed into the address stays a text box, unchanged
        elif name in NUMBER_FILTERS:
            kind = "number"
        else:
            kind = "text"
        low, high = NUMBER_FILTERS.get(name, (None, None))
        fields.append({
            "name": name, "label": name.replace("_", " "), "help": help_text, "value": value,
            "error": errors.get(name, ""), "kind": kind, "choices": choices.get(name, ()),
            "min": low, "max": high,
        })
    return fields


@require_safe
@researcher_required(data=False)
def index(request: HttpRequest) -> HttpResponse:
    """The research page; its download form comes back here.

    "Download" sends a good request on to the export; "Preview" shows the row
    count and the first rows of the same request on the page. A filter that
    cannot be used shows the page again with the message beside the field
    (400), never the data endpoints' JSON error body.
    """
    values = {name: request.GET.get(name, "").strip() for name in request.GET}
    errors: dict[str, str] = {}
    preview = None
    download: _Request | None = None
    if "game" in request.GET:
        try:
            game = selectors.research_game(game_id=values["game"])
        except NotFound:
            errors = {"game": f"no game has the id {values['game']!r}"}
        else:
            return redirect("research:game", game_id=str(game.pk))
    elif "table" in request.GET:
        download, errors = _read_form(values)
        if download is not None and "preview" not in request.GET:
            return redirect(download.url())
        if download is not None:
            preview = selectors.export_preview(table=download.table, filters=download.filters)
    unknown = {name: message for name, message in errors.items()
               if name not in FILTER_HELP and name not in FORM_FIELDS}
    tables = list(all_tables().values())
    context = page_context(
        tables=tables,
        table_filters={table.name: " ".join(table.filter_names) for table in tables},
        filter_help=FILTER_HELP,
        fields=_filter_fields(values, errors),
        values=values,
        errors=errors,
        other_errors=list(unknown.values()),
        preview=preview,
        download=download,
        csv_url=download.url("csv") if download else "",
        parquet_url=download.url("parquet") if download else "",
    )
    return render(request, "research/index.html", context, status=400 if errors else 200)


@require_safe
@researcher_required(data=False)
def games_page(request: HttpRequest) -> HttpResponse:
    """Browse the research games: filters, a page of games, a link to each game's page."""
    form = GameBrowseForm(
        {name: request.GET.get(name, "").strip() for name in request.GET},
        rule_sets=browse.rule_sets(),
    )
    if not form.is_valid():
        return render(
            request, "research/games.html",
            page_context(form=form, games=None, query=""), status=400,
        )
    filters = browse.BrowseFilters(
        **{name: value for name, value in form.cleaned_data.items() if value not in (None, "")}
    )
    games = browse.browse_page(filters=filters, page=request.GET.get("page"))
    kept = {name: request.GET.get(name, "").strip() for name in form.fields}
    query = urlencode({name: value for name, value in kept.items() if value})
    return render(
        request, "research/games.html",
        page_context(
            form=form,
            games=games,
            rows=[{"game": game, "player": pseudonym(game.player_id)} for game in games],
            query=query,
        ),
    )


@require_safe
@researcher_required(data=False)
def game_page(request: HttpRequest, game_id: str) -> HttpResponse:
    """One game for researchers: its rule set and outcome, its replay, its events, its save file."""
    try:
        game = selectors.research_game(game_id=game_id)
    except NotFound:
        return render(
            request, "research/game_missing.html", page_context(game_id=game_id), status=404
        )
    events_page, event_rows = selectors.game_events_page(
        game=game, page=request.GET.get("events_page")
    )
    return render(
        request,
        "research/game.html",
        page_context(
            game=game,
            player=pseudonym(game.player_id),
            replay=selectors.game_replay(game=game),
            events_page=events_page,
            event_rows=event_rows,
        ),
    )


# The citation's download formats: (function, content type, file extension).
CITATION_FORMATS: dict[str, tuple[Callable[..., str], str]] = {
    "bib": (citation.bibtex, "application/x-bibtex; charset=utf-8"),
    "ris": (citation.ris, "application/x-research-info-systems; charset=utf-8"),
}


@require_safe
def cite_download(request: HttpRequest, fmt: str) -> HttpResponse:
    """The citation of CITATION.cff as a BibTeX (.bib) or RIS (.ris) file (public)."""
    if fmt not in CITATION_FORMATS:
        return _error(NotFound(f"There is no citation format {fmt!r}: use bib or ris."), 404)
    render_format, content_type = CITATION_FORMATS[fmt]
    response = HttpResponse(
        render_format(citation=citation.read_citation()), content_type=content_type
    )
    response["Content-Disposition"] = f'attachment; filename="decodoku-lab.{fmt}"'
    return response


@require_safe
def cite(request: HttpRequest) -> HttpResponse:
    """How to use and cite this data (public): citation, licence, pseudonyms, consent, contact."""
    return render(
        request,
        "research/cite.html",
        page_context(
            citation=citation.read_citation(),
            data_licence=citation.DATA_LICENCE,
            data_licence_url=citation.DATA_LICENCE_URL,
            pseudonyms=citation.doc_section(document="research-data.md", heading="Pseudonyms"),
            consent_versions=citation.consent_versions(),
            contact=citation.contact(),
        ),
    )


@require_safe
def codebook_page(request: HttpRequest) -> HttpResponse:
    """The codebook (public): it describes the tables and holds no data."""
    return render(request, "research/codebook.html", page_context(codebook=codebook()))


@require_safe
def codebook_json(request: HttpRequest) -> HttpResponse:
    response = HttpResponse(
        json.dumps(codebook(), indent=2, ensure_ascii=False), content_type="application/json"
    )
    response["Content-Disposition"] = 'attachment; filename="decodoku-codebook.json"'
    return response


def _flag(request: HttpRequest, name: str) -> bool:
    return _flag_text(name, request.GET.get(name, "0"))


def _flag_text(name: str, value: str) -> bool:
    text = value.strip().lower()
    if text in ("1", "true", "yes", "on"):
        return True
    if text in ("", "0", "false", "no", "off"):
        return False
    raise InvalidFilter(name, f"{text!r} is not 1 or 0")


@require_safe
@researcher_required(data=True)
def export_csv(request: HttpRequest, table: str) -> HttpResponse | StreamingHttpResponse:
    return _export(request, table, output="csv")


@require_safe
@researcher_required(data=True)
def export_parquet(request: HttpRequest, table: str) -> HttpResponse | StreamingHttpResponse:
    return _export(request, table, output="parquet")


def _export(
    request: HttpRequest, table: str, *, output: str
) -> HttpResponse | StreamingHttpResponse:
    """The export as a download, holding one of the process's export slots while it is
    written and sent (core.concurrency): 503 busy, before any query, when none is free."""
    try:
        release = acquire_heavy_slot(kind=EXPORT)
    except Busy as exc:
        busy = _error(exc, 503)
        busy["Retry-After"] = str(exc.extra["retry_after"])
        return busy
    try:
        response = _export_response(request, table, output=output)
    except BaseException:
        release()
        raise
    release_when_closed(response, release)
    return response


def _export_response(
    request: HttpRequest, table: str, *, output: str
) -> HttpResponse | StreamingHttpResponse:
    try:
        export = selectors.export_table(name=table)
    except NotFound as exc:
        return _error(exc, 404)
    # A HEAD request sends the headers only: its export must not run.
    start = request.method != "HEAD"
    params = {name: request.GET.getlist(name) for name in request.GET if name not in OPTIONS}
    stream: Iterator[bytes]
    try:
        compress = _flag(request, "gzip")
        if compress and output == "parquet":
            raise InvalidFilter("gzip", "a Parquet file is compressed already")
        filters = selectors.export_filters(table=export, params=params)
        queryset = selectors.export_rows(table=export, filters=filters)
        if output == "parquet":
            stream = selectors.export_parquet_stream(
                table=export, filters=filters, queryset=queryset, start=start
            )
            content_type = "application/vnd.apache.parquet"
        else:
            stream = selectors.export_stream(
                table=export, filters=filters, compress=compress, queryset=queryset, start=start
            )
            content_type = "application/gzip" if compress else "text/csv; charset=utf-8"
    except InvalidInput as exc:
        return _error(exc, 400)
    body: Iterator[bytes] = stream
    if request.method == "HEAD":
        getattr(stream, "close", lambda: None)()  # the headers only: do not run the export
        body = iter(())
    response = StreamingHttpResponse(body, content_type=content_type)
    filename = selectors.export_filename(
        table=export, filters=filters, compress=compress, output=output
    )
    response["Content-Disposition"] = f'attachment; filename="{filename}"'
    response["Link"] = f'<{reverse("research:codebook-json")}>; rel="describedby"'
    # Never cached, never transformed: proxies must not compress or buffer the stream.
    response["Cache-Control"] = "no-store, no-transform"
    response["X-Accel-Buffering"] = "no"
    return response


@require_safe
@researcher_required(data=True)
def game_save(request: HttpRequest, game_id: str) -> HttpResponse:
    try:
        game = selectors.research_game(game_id=game_id)
        text = selectors.game_save_text(game=game)
    except NotFound as exc:
        return _error(exc, 404)
    except InvalidInput as exc:
        return _error(exc, 400)
    response = HttpResponse(text.encode(), content_type="text/plain; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="decodoku-game-{game.pk}.txt"'
    return response


ACCESS_REQUEST_SCOPE = "access_request"


def _access_request_wait(request: HttpRequest) -> float | None:
    """Seconds to wait when this address sent too many access requests, else None."""
    rates = api_settings.DEFAULT_THROTTLE_RATES or {}
    rate = rates.get(ACCESS_REQUEST_SCOPE)
    if not isinstance(rate, str):
        return None
    return count_request(scope=ACCESS_REQUEST_SCOPE, ident=client_address(request), rate=rate)


@require_http_methods(["GET", "HEAD", "POST"])
def access_request(request: HttpRequest) -> HttpResponse:
    """The public form that asks the admins for research access (listed in the admin).

    Protected like the site's other forms: the CSRF token, a rate limit per
    address (``DECODOKU_THROTTLE_ACCESS_REQUEST``) and a field hidden from
    people that bots fill in (answered as if accepted, and not stored).
    """
    if request.method != "POST":
        return render(request, "research/access.html", page_context(form=AccessRequestForm()))
    wait = _access_request_wait(request)
    if wait is not None:
        seconds = max(1, int(wait))
        response = HttpResponse(
            f"Too many access requests from this address; try again in {seconds} s.\n",
            content_type="text/plain; charset=utf-8",
            status=429,
        )
        response["Retry-After"] = str(seconds)
        return response
    form = AccessRequestForm(request.POST)
    if form.is_spam:
        return redirect("research:access-sent")
    if not form.is_valid():
        return render(request, "research/access.html", page_context(form=form), status=400)
    services.access_request_create(**form.cleaned_data)
    return redirect("research:access-sent")


@require_safe
def access_request_sent(request: HttpRequest) -> HttpResponse:
    return render(request, "research/access_sent.html", page_context(contact=citation.contact()))


class ResearchLoginView(LoginView):
    """Django's login view, in the site's page layout."""

    template_name = "research/login.html"
    next_page = "research:index"

    def get_context_data(self, **kwargs: Any) -> dict[str, Any]:
        return page_context(**super().get_context_data(**kwargs))
