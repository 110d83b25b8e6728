"""Admin pages of the puzzles: puzzles, attempts with a step-through replay, actions.

Recorded attempts are research data and append-only, as Decodoku games are:
the admin shows them and their actions, never edits them. Curators may
exclude an attempt from the research exports (and include it again).
"""

from __future__ import annotations

from typing import Any

from django.contrib import admin, messages
from django.db.models import QuerySet
from django.http import HttpRequest, HttpResponse

from puzzles.models import Attempt, DecodokuBotAnswer, Puzzle
from puzzles.selectors import attempt_actions, attempt_replay, attempt_twomino_analysis
from puzzles.services import attempts_set_excluded


class ReadOnlyAdmin(admin.ModelAdmin):
    def has_add_permission(self, request: HttpRequest) -> bool:
        return False

    def has_change_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False

    def has_delete_permission(self, request: HttpRequest, obj: object = None) -> bool:
        return False


@admin.register(Puzzle)
class PuzzleAdmin(ReadOnlyAdmin):
    list_display = ["kind", "number", "size", "difficulty", "hardest_technique", "solver_steps",
                    "seed"]
    list_filter = ["kind", "size", "difficulty"]
    search_fields = ["id", "seed", "number"]


@admin.register(DecodokuBotAnswer)
class DecodokuBotAnswerAdmin(ReadOnlyAdmin):
    """The bots' answers on Decodoku puzzles (written by the task, so read-only here)."""

    list_display = ["puzzle", "bot", "bot_version", "corner", "links_count", "correct",
                    "optimal", "created_at"]
    list_filter = ["bot", "correct", "optimal"]
    list_select_related = ["puzzle"]
    search_fields = ["puzzle__id", "puzzle__number"]


def _compact(value: object) -> str:
    """A payload or result as one short line: ``cell=[1, 2] value=3``."""
    if isinstance(value, dict):
        return " ".join(f"{key}={item}" for key, item in value.items())
    return "" if value is None else str(value)


@admin.register(Attempt)
class AttemptAdmin(ReadOnlyAdmin):
    list_display = [
        "id",
        "kind",
        "size",
        "status",
        "steps",
        "wrong_entries",
        "hints_count",
        "started_at",
        "excluded_from_research",
        "seen_solution",
    ]
    list_filter = [
        "status",
        "puzzle__kind",
        "puzzle__size",
        "excluded_from_research",
        "seen_solution",
    ]
    search_fields = ["id", "player__id"]
    list_select_related = ["puzzle"]
    actions = ["exclude_from_research", "include_in_research"]
    # The actions are shown as a table beside the replay (the change form's template), not as
    # an inline of raw JSON; the attempt's own JSON (its state, with the undo stack, and the
    # browser details) is folded away.
    change_form_template = "puzzles/admin/attempt_change_form.html"
    fieldsets = [
        (
            None,
            {
                "fields": [
                    "id",
                    "puzzle",
                    "player",
                    "status",
                    "source",
                    "started_at",
                    "finished_at",
                    "steps",
                ]
            },
        ),
        (
            "Counts",
            {
                "fields": [
                    "entries_count",
                    "wrong_entries",
                    "hints_count",
                    "checks_count",
                    "undos_count",
                ]
            },
        ),
        ("Research", {"fields": ["research_consent", "excluded_from_research", "seen_solution"]}),
        (
            "Stored state (JSON, with the undo stack)",
            {"classes": ["collapse"], "fields": ["state", "client_info"]},
        ),
    ]

    @admin.display(description="kind")
    def kind(self, obj: Attempt) -> str:
        return obj.puzzle.kind

    @admin.display(description="size")
    def size(self, obj: Attempt) -> int:
        return obj.puzzle.size

    def get_actions(self, request: HttpRequest) -> dict[str, Any]:
        actions = super().get_actions(request)
        if not request.user.has_perm("puzzles.change_attempt"):
            actions.pop("exclude_from_research", None)
            actions.pop("include_in_research", None)
        return actions

    def change_view(
        self,
        request: HttpRequest,
        object_id: str,
        form_url: str = "",
        extra_context: dict[str, Any] | None = None,
    ) -> HttpResponse:
        attempt = self.get_object(request, object_id)
        context = dict(extra_context or {})
        if attempt is not None:
            states = attempt_replay(attempt=attempt)
            actions = list(attempt_actions(attempt=attempt))
            context["replay"] = {
                "kind": attempt.puzzle.kind,
                "size": attempt.puzzle.size,
                "puzzle": attempt.puzzle.definition,
                "solution": attempt.puzzle.solution,
                # Latin kinds: the grid at every step; 2mino: the bars and formed pairs.
                "grids": [state.get("entries") for state in states],
                "states": [] if "entries" in states[0] else states,
                "actions": [
                    {
                        "step": a.step,
                        "kind": a.kind,
                        "payload": a.payload,
                        "technique": a.technique,
                        "correct": a.correct,
                        "elapsed_ms": a.elapsed_ms,
                    }
                    for a in actions
                ],
            }
            context["action_rows"] = [
                {
                    "step": a.step,
                    "kind": a.kind,
                    "payload": _compact(a.payload),
                    "result": _compact(a.result),
                    "technique": a.technique,
                    "correct": a.correct,
                    "elapsed_ms": a.elapsed_ms,
                }
                for a in actions
            ]
            context["twomino_analysis"] = attempt_twomino_analysis(attempt=attempt)
        return super().change_view(request, object_id, form_url, extra_context=context)

    @admin.action(description="Exclude the selected attempts from research")
    def exclude_from_research(self, request: HttpRequest, queryset: QuerySet[Attempt]) -> None:
        count = attempts_set_excluded(
            attempt_ids=list(queryset.values_list("pk", flat=True)), excluded=True
        )
        self.message_user(request, f"{count} attempt(s) excluded.", messages.SUCCESS)

    @admin.action(description="Include the selected attempts in research again")
    def include_in_research(self, request: HttpRequest, queryset: QuerySet[Attempt]) -> None:
        count = attempts_set_excluded(
            attempt_ids=list(queryset.values_list("pk", flat=True)), excluded=False
        )
        self.message_user(request, f"{count} attempt(s) included.", messages.SUCCESS)
