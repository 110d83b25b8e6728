"""Own puzzles name their author: the player whose consent decides if the row is research data.

Existing own puzzles (requested difficulty "own") get as author the player of
their first attempt: entering a puzzle stores it and starts that attempt in
one transaction, so the first attempt is its author's.
"""

import django.db.models.deletion
from django.db import migrations, models
from django.db.models import OuterRef, Subquery


def fill_authors(apps, schema_editor):
    Puzzle = apps.get_model("puzzles", "Puzzle")
    Attempt = apps.get_model("puzzles", "Attempt")
    first_player = (
        Attempt.objects.filter(puzzle=OuterRef("pk"))
        .order_by("started_at", "pk")
        .values("player_id")[:1]
    )
    Puzzle.objects.filter(requested_difficulty="own", author__isnull=True).update(
        author=Subquery(first_player)
    )


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_daily_planar_board"),
        ("puzzles", "0007_puzzle_solution_digest"),
    ]

    operations = [
        migrations.AddField(
            model_name="puzzle",
            name="author",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=django.db.models.deletion.SET_NULL,
                related_name="+",
                to="games.player",
            ),
        ),
        migrations.RunPython(fill_authors, migrations.RunPython.noop),
    ]
