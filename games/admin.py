"""Admin pages of the games app: curating players and recorded games.

Recorded games are research data and the record is append-only: the admin
shows games, their events and boards but never edits or deletes them
(``verify_games`` would report an edited game as not matching the rules).
What curators may change is whether a game counts as research data
(exclude / include, with a reason). Every such change, and every re-analysis
requested here, is written to Django's admin log (LogEntry).

Researchers' access is managed with Django's own pages: the "researchers"
group (Authentication and authorization > Groups) and each user's groups.
"""

from __future__ import annotations

import json
import uuid
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.core.paginator import Paginator
from django.db.models import Count, QuerySet
from django.http import HttpRequest, HttpResponse, StreamingHttpResponse
from django.template.response import TemplateResponse
from django.urls import reverse

from games.errors import InvalidInput
from games.models import Game, Player
from games.recording import event_dict, parse_labels
from games.selectors import game_events, game_snapshots
from research import selectors as research_selectors
from research.exports.filters import ExportFilters
from research.exports.pseudonyms import is_pseudonym, player_ids_with_pseudonym, pseudonym
from research.exports.tables import GAMES
from research.services import REASON_MAX_LENGTH, games_set_excluded

EVENTS_PER_PAGE = 50
# A re-analysis runs in the request: keep one action's work bounded.
MAX_REANALYSED = 200


class AppendOnlyAdmin(admin.ModelAdmin):
    """Viewable, never added, edited or deleted through the admin."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_curate_permission(self, request: HttpRequest) -> bool:
        """Curating (exclusion, re-analysis) needs the model's real change permission."""
        opts = self.opts
        return request.user.has_perm(f"{opts.app_label}.change_{opts.model_name}")


class PseudonymSearchMixin:
    """Search by a player's pseudonym or by the object's id, then as Django does.

    ``player_path`` is the lookup from the listed model to the player's id.
    """

    player_path = "player_id"

    def get_search_results(
        self, request: HttpRequest, queryset: QuerySet, search_term: str
    ) -> tuple[QuerySet, bool]:
        term = search_term.strip()
        if is_pseudonym(term):
            ids = player_ids_with_pseudonym(
                pseudonym_text=term,
                player_ids=Player.objects.values_list("id", flat=True).iterator(),
            )
            return queryset.filter(**{f"{self.player_path}__in": ids}), False
        try:
            return queryset.filter(pk=uuid.UUID(term)), False
        except ValueError:
            return super().get_search_results(request, queryset, search_term)


@admin.register(Player)
class PlayerAdmin(PseudonymSearchMixin, AppendOnlyAdmin):
    player_path = "id"
    list_display = ["pseudonym", "consent_version", "consented_at", "games", "last_seen_at",
                    "created_at"]
    list_filter = ["consent_version"]
    search_fields = ["token_prefix"]
    search_help_text = "A pseudonym (as in exports), a player id or a token prefix."
    fields = ["pseudonym", "token_prefix", "consent_version", "consented_at", "games",
              "created_at", "last_seen_at", "user"]
    readonly_fields = fields

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        return super().get_queryset(request).annotate(game_count=Count("games"))

    @admin.display(description="pseudonym")
    def pseudonym(self, obj: Player) -> str:
        return pseudonym(obj.pk)

    @admin.display(description="games", ordering="game_count")
    def games(self, obj: Player) -> int:
        return obj.game_count


class ExclusionForm(forms.Form):
    reason = forms.CharField(
        max_length=REASON_MAX_LENGTH,
        help_text="Why these games must not be used as research data (kept with each game).",
    )


@admin.register(Game)
class GameAdmin(PseudonymSearchMixin, AppendOnlyAdmin):
    list_display = ["id", "player_pseudonym", "source", "rules_key", "mode", "status", "score",
                    "excluded_from_research", "research_consent", "started_at"]
    list_filter = ["status", "variant", "size", "source", "excluded_from_research",
                   "research_consent", "mode", "partially_observed", "started_at"]
    search_fields = ["legacy_filename", "bot_name", "rules_key"]
    search_help_text = "A game id, a player pseudonym, a rule set key, a bot or a file name."
    date_hierarchy = "started_at"
    list_select_related = ["player"]
    actions = ["exclude_from_research", "include_in_research", "rerun_analysis", "export_csv"]
    change_form_template = "research/admin/game_change_form.html"
    fieldsets = [
        ("Rule set", {"fields": ["rules_key", "size", "variant", "noise_budget",
                                 "moves_per_round", "merge_label"]}),
        ("Provenance", {"fields": ["id", "player_pseudonym", "source", "bot_name",
                                   "bot_version", "mode", "engine_version", "seed",
                                   "legacy_filename", "legacy_sha256", "client_info"]}),
        ("Outcome", {"fields": ["status", "score", "rounds", "moves_count", "started_at",
                                "ended_at", "partially_observed"]}),
        ("Research", {"fields": ["research_consent", "excluded_from_research",
                                 "excluded_reason", "import_report"]}),
    ]

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> list[str]:
        return [name for _, options in self.fieldsets for name in options["fields"]]

    @admin.display(description="player", ordering="player_id")
    def player_pseudonym(self, obj: Game) -> str:
        return pseudonym(obj.player_id)

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions

    # -- the change page: events and the board replay --------------------------

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        game = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if game is not None:
            events = Paginator(game_events(game=game), EVENTS_PER_PAGE)
            page = events.get_page(request.GET.get("events_page"))
            boards = [
                {"step": board.step, "t": board.t, "cells": board.values,
                 "groups": parse_labels(board.labels), "comment": board.comment}
                for board in game_snapshots(game=game)
            ]
            context.update(
                events_page=page,
                event_rows=[
                    {"seq": row.seq, "kind": row.kind, "t": row.t, "round": row.round,
                     "fields": event_summary(row), "note": row.note,
                     "server_time": row.server_time}
                    for row in page.object_list
                ],
                replay={"size": game.size, "boards": boards},
                save_url=reverse("research:game-save", args=[game.pk]),
            )
        return super().change_view(request, object_id, form_url, extra_context=context)

    # -- actions ---------------------------------------------------------------

    def _log_changes(self, request: HttpRequest, games: list[Game], message: str) -> None:
        for game in games:
            self.log_change(request, game, message)

    @admin.action(description="Exclude the selected games from research (asks for a reason)",
                  permissions=["curate"])
    def exclude_from_research(
        self, request: HttpRequest, queryset: QuerySet[Game]
    ) -> HttpResponse | None:
        form = ExclusionForm(request.POST if "apply" in request.POST else None)
        if form.is_valid():
            reason = form.cleaned_data["reason"]
            try:
                changed = games_set_excluded(
                    game_ids=queryset.values_list("pk", flat=True), excluded=True, reason=reason
                )
            except InvalidInput as exc:
                self.message_user(request, exc.message, messages.ERROR)
                return None
            self._log_changes(request, changed, f"Excluded from research: {reason}")
            self.message_user(request, f"Excluded {len(changed)} game(s) from research.",
                              messages.SUCCESS)
            return None
        return TemplateResponse(
            request,
            "research/admin/exclude_games.html",
            {
                **self.admin_site.each_context(request),
                "title": "Exclude games from research",
                "opts": self.opts,
                "games": queryset,
                "form": form,
                "action": "exclude_from_research",
                "action_checkbox_name": admin.helpers.ACTION_CHECKBOX_NAME,
            },
        )

    @admin.action(description="Include the selected games in research again",
                  permissions=["curate"])
    def include_in_research(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        changed = games_set_excluded(
            game_ids=queryset.values_list("pk", flat=True), excluded=False
        )
        self._log_changes(request, changed, "Included in research again")
        self.message_user(request, f"Included {len(changed)} game(s) in research again.",
                          messages.SUCCESS)

    @admin.action(description="Re-run the analysis of the selected finished games",
                  permissions=["curate"])
    def rerun_analysis(self, request: HttpRequest, queryset: QuerySet[Game]) -> None:
        from results.services import game_analyse

        finished = list(queryset.exclude(status=Game.Status.ACTIVE).order_by("pk")[
            : MAX_REANALYSED + 1
        ])
        if len(finished) > MAX_REANALYSED:
            self.message_user(
                request,
                f"Select at most {MAX_REANALYSED} finished games at a time.",
                messages.ERROR,
            )
            return
        analysed = [game for game in finished if game_analyse(game_id=game.pk, force=True)]
        self._log_changes(request, analysed, "Re-ran the analysis")
        skipped = queryset.count() - len(analysed)
        text = f"Re-ran the analysis of {len(analysed)} game(s)."
        if skipped:
            text += f" {skipped} game(s) still active or not analysable were skipped."
        self.message_user(request, text, messages.SUCCESS)

    @admin.action(description="Export the selected games (games table, CSV)")
    def export_csv(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponse:
        # The admin's selection is explicit: excluded and unconsented games are kept.
        filters = ExportFilters(include_excluded=True, include_unconsented=True)
        rows = research_selectors.export_rows(table=GAMES, filters=filters).filter(
            pk__in=queryset.values("pk")
        )
        response = StreamingHttpResponse(
            research_selectors.export_stream(table=GAMES, filters=filters, queryset=rows),
            content_type="text/csv; charset=utf-8",
        )
        response["Content-Disposition"] = 'attachment; filename="decodoku-selected-games.csv"'
        return response


def event_summary(row: Any) -> str:
    """The event's own fields (its kind's engine fields) as one line of text."""
    data = event_dict(row)
    data.pop("kind", None)
    for name in ("t", "round"):
        data.pop(name, None)
    return json.dumps(data, separators=(", ", ": "))
