"""Admin pages of the games app: players and recorded games, read-only.

Recorded games are research data and the record is append-only: the admin
shows players and games but never adds, edits or deletes them
(``verify_games`` would report an edited game as not matching the rules).

This module knows nothing of research data. The research app extends these
pages with what it owns (``research/admin.py``): players shown by
pseudonym, the board replay and events of a game, excluding games from
research, re-running analyses and exporting a selection.
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import Count, QuerySet
from django.http import HttpRequest

from games.daily import day_is_open
from games.models import DailyChallenge, Game, Player
from games.selectors import seed_withheld
from games.services import player_forget


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

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        actions.pop("delete_selected", None)
        return actions


@admin.register(Player)
class PlayerAdmin(AppendOnlyAdmin):
    list_display = ["id", "consent_version", "consented_at", "games", "last_seen_at",
                    "created_at"]
    list_filter = ["consent_version"]
    search_fields = ["token_prefix"]
    search_help_text = "A player id or a token prefix."
    fields = readonly_fields = (
        "id", "token_prefix", "consent_version", "consented_at", "games", "created_at",
        "last_seen_at", "user", "forgotten_at",
    )
    actions = ["forget_players"]

    def has_forget_permission(self, request: HttpRequest) -> bool:
        """Forgetting removes an identity for good: it needs the delete permission."""
        opts = self.opts
        return request.user.has_perm(f"{opts.app_label}.delete_{opts.model_name}")

    @admin.action(
        description="Forget the selected players (their games stay, pseudonymous)",
        permissions=["forget"],
    )
    def forget_players(self, request: HttpRequest, queryset: QuerySet[Player]) -> None:
        forgotten = sum(
            0 if player_forget(player_id=pk).already_forgotten else 1
            for pk in queryset.values_list("pk", flat=True)
        )
        self.message_user(request, f"Forgot {forgotten} player(s).", messages.SUCCESS)

    def get_queryset(self, request: HttpRequest) -> QuerySet[Player]:
        return super().get_queryset(request).annotate(game_count=Count("games"))

    @admin.display(description="games", ordering="game_count")
    def games(self, obj: Player) -> int:
        return int(getattr(obj, "game_count", 0))


@admin.register(Game)
class GameAdmin(AppendOnlyAdmin):
    list_display = ["id", "player_id", "source", "rules_key", "mode", "status", "score",
                    "excluded_from_research", "research_consent", "started_at"]
    list_filter = ["status", "variant", "family", "size", "source", "excluded_from_research",
                   "research_consent", "mode", "partially_observed", "started_at"]
    search_fields = ["legacy_filename", "bot_name", "rules_key"]
    search_help_text = "A rule set key, a bot or a file name."
    date_hierarchy = "started_at"
    list_select_related = ["player"]
    fieldsets = [
        ("Rule set", {"fields": ["rules_key", "size", "variant", "noise_budget",
                                 "moves_per_round", "merge_label", "family", "modulus",
                                 "error_rate"]}),
        ("Provenance", {"fields": ["id", "player_id", "source", "bot_name",
                                   "bot_version", "mode", "engine_version", "seed_once_ended",
                                   "legacy_filename", "legacy_sha256", "copy_of",
                                   "client_info"]}),
        ("Outcome", {"fields": ["status", "score", "rounds", "moves_count", "started_at",
                                "ended_at", "partially_observed", "logical_charge",
                                "logical_failure", "class_odds", "best_class_odds"]}),
        ("Research", {"fields": ["research_consent", "excluded_from_research",
                                 "excluded_reason", "import_report"]}),
    ]

    def get_readonly_fields(self, request: HttpRequest, obj: Game | None = None) -> list[str]:
        return [str(name) for _, options in self.get_fieldsets(request, obj)
                for name in options["fields"]]

    @admin.display(description="seed")
    def seed_once_ended(self, obj: Game) -> str:
        """The seed would tell all the noise still to come: shown once the game has ended.

        A daily-challenge game's seed, and that of any game on a daily board (its seed
        and rule set), stays hidden until the day is over.
        """
        if seed_withheld(game=obj):
            until = "the game ends" if obj.is_active else "the day of its daily board ends"
            return f"(hidden until {until})"
        return "" if obj.seed is None else str(obj.seed)


@admin.register(DailyChallenge)
class DailyChallengeAdmin(AppendOnlyAdmin):
    """The days of the daily challenge; a day's seed is shown once the day is over."""

    list_display = ["date", "rules_key", "games", "bots_played_at", "seed_once_over"]
    date_hierarchy = "date"
    fields = readonly_fields = (
        "date", "rules_key", "seed_once_over", "games", "created_at", "bots_played_at",
    )

    def get_queryset(self, request: HttpRequest) -> QuerySet[DailyChallenge]:
        return super().get_queryset(request).annotate(game_count=Count("games"))

    @admin.display(description="games", ordering="game_count")
    def games(self, obj: DailyChallenge) -> int:
        return int(getattr(obj, "game_count", 0))

    @admin.display(description="seed")
    def seed_once_over(self, obj: DailyChallenge) -> str:
        if day_is_open(day=obj.date):
            return "(hidden until the day ends)"
        return str(obj.seed)
