from django.db import migrations, models

# A cohort is now a whole rule group (games.rulesets.RULE_GROUP_FIELDS): the moves
# per round join variant, L and noise budget. The old cohorts may hold games of
# several move counts, which cannot be told apart in the counts. The aggregates
# are derived from the games and their analyses, so, as in 0002, empty the
# tables (the cohorts too) and move the watermarks back to the start: the next
# refresh (every minute under beat, or `manage.py dashboard_refresh`) counts
# everything again. The one-off default only fills the column of the rows that
# are deleted just after.
DERIVED = (
    "LifetimeCount",
    "DailyCount",
    "PlayerDay",
    "PlayerBest",
    "AnalysisCount",
    "StrategyCount",
    "AgreementCount",
    "NoiseCount",
    "AbsorbedAnalysis",
    "Cohort",
)


def recount_from_the_start(apps, schema_editor):
    for name in DERIVED:
        apps.get_model("dashboard", name).objects.all().delete()
    apps.get_model("dashboard", "Watermark").objects.update(last_at=None, last_id="", absorbed=0)


class Migration(migrations.Migration):
    dependencies = [
        ("dashboard", "0002_player_days_count_players"),
    ]

    operations = [
        migrations.AlterModelOptions(
            name="cohort",
            options={"ordering": ["variant", "size", "noise_budget", "moves_per_round", "source"]},
        ),
        migrations.RemoveConstraint(
            model_name="cohort",
            name="cohort_unique",
        ),
        migrations.AddField(
            model_name="cohort",
            name="moves_per_round",
            field=models.PositiveSmallIntegerField(default=5),
            preserve_default=False,
        ),
        migrations.AddConstraint(
            model_name="cohort",
            constraint=models.UniqueConstraint(
                fields=("variant", "size", "noise_budget", "moves_per_round", "source"),
                name="cohort_unique",
            ),
        ),
        migrations.RunPython(recount_from_the_start, migrations.RunPython.noop),
    ]
