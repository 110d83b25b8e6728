"""The research app's part of the admin: what research data adds to players and games.

The games app registers plain, read-only pages for players and games
(``games/admin.py``). The research app owns what makes them research data,
so it replaces those registrations with extended pages:

- players appear by their pseudonym (as in the exports) and can be searched
  by it;
- a game's page shows its board replay, its events and a link to download it
  in the original apps' save format;
- curators exclude games from research (with a reason) or include them
  again, and re-run analyses; every such change is written to Django's admin
  log (LogEntry);
- a selection of games can be exported as the games table (CSV). This is the
  one way out for games played without research consent and active games
  (for example to review or delete them): it needs the change permission on
  games and writes a LogEntry for every game exported. The save file of any
  game downloads from its admin page with the same permission and log;
- requests for research access (the public form) are listed, to be marked
  granted or declined.

Researchers' access is managed with Django's own pages: the "researchers"
group (Authentication and authorization > Groups) and each user's groups.
"""

from __future__ import annotations

import uuid
from typing import Any

from django import forms
from django.contrib import admin, messages
from django.contrib.admin import helpers
from django.core.exceptions import PermissionDenied
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse, HttpResponseBase, StreamingHttpResponse
from django.template.response import TemplateResponse
from django.urls import URLPattern, path, reverse

from core.errors import InvalidInput, NotFound
from core.pseudonyms import is_pseudonym, player_ids_with_pseudonym, pseudonym
from games.admin import GameAdmin, PlayerAdmin
from games.models import Game, Player
from games.research_tables import GAMES
from research import selectors as research_selectors
from research.exports.filters import ExportFilters
from research.models import AccessRequest
from research.services import REASON_MAX_LENGTH, games_set_excluded
from results.services import game_analyse

# A re-analysis runs in the request: keep one action's work bounded.
MAX_REANALYSED = 200


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
            return super().get_search_results(  # type: ignore[misc]
                request, queryset, search_term
            )


class ResearchPlayerAdmin(PseudonymSearchMixin, PlayerAdmin):
    player_path = "id"
    list_display = ["pseudonym", "consent_version", "consented_at", "games", "last_seen_at",
                    "created_at"]
    fields = readonly_fields = (
        "pseudonym", "token_prefix", "consent_version", "consented_at", "games", "created_at",
        "last_seen_at", "user", "forgotten_at",
    )
    search_help_text = "A pseudonym (as in exports), a player id or a token prefix."

    @admin.display(description="pseudonym")
    def pseudonym(self, obj: Player) -> str:
        return pseudonym(obj.pk)


class ExclusionForm(forms.Form):
    reason = forms.CharField(
        max_length=REASON_MAX_LENGTH,
        help_text="Why these games must not be used as research data (kept with each game).",
    )


class ResearchGameAdmin(PseudonymSearchMixin, GameAdmin):
    list_display = ["id", "player_pseudonym", "source", "rules_key", "mode", "status", "score",
                    "excluded_from_research", "research_consent", "started_at"]
    search_help_text = "A game id, a player pseudonym, a rule set key, a bot or a file name."
    actions = ["exclude_from_research", "include_in_research", "rerun_analysis", "export_csv"]
    change_form_template = "research/admin/game_change_form.html"
    fieldsets = [
        ("Rule set", {"fields": ["rules_key", "size", "variant", "noise_budget",
                                 "moves_per_round", "merge_label", "family", "modulus",
                                 "error_rate"]}),
        ("Provenance", {"classes": ["collapse"],
                        "fields": ["id", "player_pseudonym", "source", "bot_name",
                                   "bot_version", "mode", "engine_version", "seed_once_ended",
                                   "legacy_filename", "legacy_sha256", "copy_of",
                                   "client_info"]}),
        ("Outcome", {"fields": ["status", "score", "rounds", "moves_count", "started_at",
                                "ended_at", "partially_observed", "logical_charge",
                                "logical_failure", "class_odds", "best_class_odds"]}),
        ("Research", {"fields": ["research_consent", "excluded_from_research",
                                 "excluded_reason"]}),
        ("Import report", {"classes": ["collapse"], "fields": ["import_report"]}),
    ]

    @admin.display(description="player", ordering="player_id")
    def player_pseudonym(self, obj: Game) -> str:
        return pseudonym(obj.player_id)

    # -- the change page: events and the board replay --------------------------

    def change_view(
        self, request: HttpRequest, object_id: str, form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        game = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if game is not None:
            page, rows = research_selectors.game_events_page(
                game=game, page=request.GET.get("events_page")
            )
            context.update(
                events_page=page,
                event_rows=rows,
                replay=research_selectors.game_replay(game=game),
                save_url=reverse("admin:games_game_save", args=[game.pk])
                if self.has_curate_permission(request) else "",
                research_url=reverse("research:game", args=[game.pk])
                if research_selectors.research_games().filter(pk=game.pk).exists() else "",
            )
        return super().change_view(request, object_id, form_url, extra_context=context)

    def get_urls(self) -> list[URLPattern]:
        save = path(
            "<path:object_id>/save.txt",
            self.admin_site.admin_view(self.save_view),
            name="games_game_save",
        )
        return [save, *super().get_urls()]

    def save_view(self, request: HttpRequest, object_id: str) -> HttpResponse:
        """Any game's save file (also unconsented or active games): curators only, logged."""
        if not self.has_curate_permission(request):
            raise PermissionDenied
        try:
            game = research_selectors.research_game(
                game_id=object_id, queryset=Game.objects.all()
            )
            text = research_selectors.game_save_text(game=game)
        except NotFound as exc:
            return HttpResponse(exc.message, content_type="text/plain", status=404)
        except InvalidInput as exc:
            return HttpResponse(exc.message, content_type="text/plain", status=400)
        self.log_change(request, game, "Downloaded its save file in the admin")
        response = HttpResponse(text.encode(), content_type="text/plain; charset=utf-8")
        response["Content-Disposition"] = f'attachment; filename="decodoku-game-{game.pk}.txt"'
        return response

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
                "action_checkbox_name": helpers.ACTION_CHECKBOX_NAME,
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

    @admin.action(description="Export the selected games (games table, CSV; logged)",
                  permissions=["curate"])
    def export_csv(self, request: HttpRequest, queryset: QuerySet[Game]) -> HttpResponseBase:
        # The admin's selection is explicit: every selected game is kept, also games
        # played without research consent and active games. This is the only export
        # that can hold them, so it needs the curate permission and is logged per game.
        filters = ExportFilters(
            include_excluded=True, include_unconsented=True, include_practice=True,
            include_active=True,
        )
        rows = research_selectors.export_rows(table=GAMES, filters=filters).filter(
            pk__in=queryset.values("pk")
        )
        self._log_changes(
            request, list(rows.order_by("pk")),
            "Exported in the admin (games table, CSV; consent and status not filtered)",
        )
        response = StreamingHttpResponse(
            research_selectors.export_stream(table=GAMES, filters=filters, queryset=rows),
            content_type="text/csv; charset=utf-8",
        )
        response["Content-Disposition"] = 'attachment; filename="decodoku-selected-games.csv"'
        return response


admin.site.unregister(Player)
admin.site.register(Player, ResearchPlayerAdmin)
admin.site.unregister(Game)
admin.site.register(Game, ResearchGameAdmin)


@admin.register(AccessRequest)
class AccessRequestAdmin(admin.ModelAdmin):
    """Requests for research access: read them, then grant (create the account) or decline."""

    list_display = ["name", "email", "institution", "status", "created_at"]
    list_filter = ["status", "created_at"]
    search_fields = ["name", "email", "institution", "purpose"]
    readonly_fields = ["name", "email", "institution", "purpose", "created_at"]
    fields = ["name", "email", "institution", "purpose", "created_at", "status", "admin_note"]

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False  # requests come from the public form
