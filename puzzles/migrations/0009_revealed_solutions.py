"""Solutions the puzzle checker showed a player, kept so that their replays are marked."""

import django.db.models.deletion
import django.utils.timezone
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0013_daily_planar_board"),
        ("puzzles", "0008_own_puzzle_author"),
    ]

    operations = [
        migrations.CreateModel(
            name="RevealedSolution",
            fields=[
                (
                    "id",
                    models.BigAutoField(
                        auto_created=True, primary_key=True, serialize=False, verbose_name="ID"
                    ),
                ),
                ("solution_digest", models.CharField(max_length=64)),
                ("revealed_at", models.DateTimeField(default=django.utils.timezone.now)),
                (
                    "player",
                    models.ForeignKey(
                        on_delete=django.db.models.deletion.CASCADE,
                        related_name="+",
                        to="games.player",
                    ),
                ),
            ],
            options={
                "constraints": [
                    models.UniqueConstraint(
                        fields=("player", "solution_digest"), name="revealed_solution_unique"
                    )
                ],
            },
        ),
    ]
