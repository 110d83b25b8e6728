"""Attempts made after the player had seen the puzzle's solution are marked.

An attempt that is solved or given up shows its solution; another attempt of
the same player at the same puzzle (kind, size, seed and engine version) that
was still open then, or started later, is a replay from memory and not
research data (``puzzles.models.attempt_research_condition``). Existing
attempts are marked the same way: an open one when another has ended, an
ended one when another had ended before it.
"""

from django.db import migrations, models
from django.db.models import Exists, OuterRef


def mark_replays(apps, schema_editor):
    Attempt = apps.get_model("puzzles", "Attempt")
    others_ended = (
        Attempt.objects.filter(
            player_id=OuterRef("player_id"),
            puzzle__kind=OuterRef("puzzle__kind"),
            puzzle__size=OuterRef("puzzle__size"),
            puzzle__seed=OuterRef("puzzle__seed"),
            puzzle__engine_version=OuterRef("puzzle__engine_version"),
        )
        .exclude(status="active")
        .exclude(pk=OuterRef("pk"))
    )
    open_ids = list(
        Attempt.objects.filter(status="active")
        .filter(Exists(others_ended))
        .values_list("pk", flat=True)
    )
    ended_ids = list(
        Attempt.objects.exclude(status="active")
        .filter(Exists(others_ended.filter(finished_at__lt=OuterRef("finished_at"))))
        .values_list("pk", flat=True)
    )
    Attempt.objects.filter(pk__in=open_ids + ended_ids).update(seen_solution=True)


class Migration(migrations.Migration):
    dependencies = [
        ("puzzles", "0003_twomino_export_columns"),
    ]

    operations = [
        migrations.AddField(
            model_name="attempt",
            name="seen_solution",
            field=models.BooleanField(default=False),
        ),
        migrations.RunPython(mark_replays, migrations.RunPython.noop),
    ]
