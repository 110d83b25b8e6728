from django.apps import AppConfig


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
