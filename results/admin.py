"""Admin pages of the results app: analyses (read-only) and sweeps with their progress."""

from __future__ import annotations

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest

from results import selectors
from results.models import (
    GameAnalysis,
    MoveAnalysis,
    RoundAnalysis,
    Sweep,
    SweepPoint,
    SweepThreshold,
)
from results.services import sweep_start


class ReadOnlyAdmin(admin.ModelAdmin):
    """Results are computed, never typed in."""

    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


class RoundInline(admin.TabularInline):
    model = RoundAnalysis
    fk_name = "game"
    extra = 0
    can_delete = False
    readonly_fields = [f.name for f in RoundAnalysis._meta.fields]


@admin.register(GameAnalysis)
class GameAnalysisAdmin(ReadOnlyAdmin):
    list_display = ["game", "analysis_version", "coverage", "lost", "survived_rounds",
                    "survived_moves", "noise_errors", "effective_error_rate", "computed_at"]
    list_filter = ["coverage", "lost", "analysis_version"]
    search_fields = ["game__id"]
    list_select_related = ["game"]


@admin.register(MoveAnalysis)
class MoveAnalysisAdmin(ReadOnlyAdmin):
    list_display = ["game", "move_index", "round", "move_class"]
    list_filter = ["move_class"]
    search_fields = ["game__id"]


class PointInline(admin.TabularInline):
    model = SweepPoint
    extra = 0
    can_delete = False
    fields = readonly_fields = (
        "bot_name", "size", "noise_budget", "rate", "games_done", "games_target", "censored",
        "failures", "trials", "failure_rate", "mean_rounds", "mean_ci_low", "mean_ci_high",
        "median_rounds", "plateau_hazard",
    )


class ThresholdInline(admin.TabularInline):
    model = SweepThreshold
    extra = 0
    can_delete = False
    fields = readonly_fields = (
        "bot_name", "threshold_budget", "ci_low", "ci_high", "crossing", "crossing_low",
        "crossing_high", "scaling_p_th", "scaling_low", "scaling_high", "scaling_nu",
        "methods_agree", "crossing_fraction", "message", "note",
    )


@admin.register(Sweep)
class SweepAdmin(ReadOnlyAdmin):
    list_display = ["id", "family", "status", "progress", "bots", "sizes", "budgets", "rates",
                    "games_per_point", "created_at", "finished_at"]
    list_filter = ["status", "family"]
    inlines = [ThresholdInline, PointInline]
    actions = ["resume"]

    @admin.display(description="progress")
    def progress(self, sweep: Sweep) -> str:
        state = selectors.sweep_progress(sweep=sweep)
        return (f"{state.games_done}/{state.games_total} games ({state.fraction:.0%}), "
                f"{state.chunks_done}/{state.chunks_total} chunks")

    @admin.action(description="Resume: run the missing chunks")
    def resume(self, request: HttpRequest, queryset: QuerySet[Sweep]) -> None:
        for sweep in queryset.exclude(status=Sweep.Status.DONE):
            sweep_start(sweep=sweep)
            self.message_user(request, f"{sweep}: missing chunks queued", messages.INFO)
