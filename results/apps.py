from typing import Any

from django.apps import AppConfig
from django.http import HttpRequest


class ResultsConfig(AppConfig):
    default_auto_field = "django.db.models.BigAutoField"
    name = "results"
    verbose_name = "Results"

    def ready(self) -> None:
        from games.signals import game_finished
        from results.receivers import queue_analysis, queue_daily_bots, queue_decoders

        game_finished.connect(queue_analysis, dispatch_uid="results.queue_analysis")
        game_finished.connect(queue_daily_bots, dispatch_uid="results.queue_daily_bots")
        game_finished.connect(queue_decoders, dispatch_uid="results.queue_decoders")

    def my_games_sections(self, player: Any) -> list[Any]:
        """The player's planar games beside the decoders on My games (``games.sections``)."""
        from results.my_games import compared_section

        return [compared_section(player=player)]

    def page_context(self, request: HttpRequest) -> dict[str, Any]:
        """The address of the comparison pages, for a planar game's end on the play page."""
        from django.urls import reverse

        return {"results_compare_url": reverse("results:compare")}
