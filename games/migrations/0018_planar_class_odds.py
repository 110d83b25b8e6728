"""Finished planar games get their class odds: two nullable float columns on Game.

``class_odds`` is the posterior probability of the class the game ended in,
``best_class_odds`` that of the most likely class, both from the game's first
board (``games.services.odds``). Existing games are filled by
``python manage.py backfill_class_odds``, not here: the computation replays
every board and can take long on a large table.
"""

from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0017_display_name_shape_key"),
    ]

    operations = [
        migrations.AddField(
            model_name="game",
            name="class_odds",
            field=models.FloatField(blank=True, null=True),
        ),
        migrations.AddField(
            model_name="game",
            name="best_class_odds",
            field=models.FloatField(blank=True, null=True),
        ),
    ]
