"""A daily planar board beside the daily challenge: one row per day and family."""

import django.db.models.manager
from django.db import migrations, models


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0012_legacy_uploads_per_player"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="dailychallenge",
            options={
                "base_manager_name": "every_day",
                "default_manager_name": "objects",
                "ordering": ["-date"],
            },
        ),
        migrations.AlterModelManagers(
            name="dailychallenge",
            managers=[
                ("every_day", django.db.models.manager.Manager()),
                ("objects", django.db.models.manager.Manager()),
            ],
        ),
        migrations.AlterField(
            model_name="dailychallenge",
            name="date",
            field=models.DateField(),
        ),
        migrations.AddConstraint(
            model_name="dailychallenge",
            constraint=models.UniqueConstraint(
                fields=("date", "family"), name="daily_one_per_day_and_family"
            ),
        ),
    ]
