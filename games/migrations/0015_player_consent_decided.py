"""When a player answered the research question: tells "said no" from "never asked".

Existing players: one who agreed (a consent version) answered when they agreed;
one without consent answered only if they ever changed their choice (more than
one consent change: they saw the question). The others were made by a Play
button that did not ask, so they stay "never asked" and the web asks them.
"""

from django.db import migrations, models
from django.db.models import Count, F, Max


def mark_players_who_answered(apps, schema_editor):
    player_model = apps.get_model("games", "Player")
    player_model.objects.filter(consent_version__isnull=False).update(
        consent_decided_at=F("consented_at")
    )
    changed = (
        player_model.objects.filter(consent_version__isnull=True)
        .annotate(changes=Count("consent_changes"), last_change=Max("consent_changes__at"))
        .filter(changes__gt=1)
        .values_list("pk", "last_change")
    )
    for pk, last_change in changed:
        player_model.objects.filter(pk=pk).update(consent_decided_at=last_change)


class Migration(migrations.Migration):
    dependencies = [
        ("games", "0014_platform_bot_players"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="consent_decided_at",
            field=models.DateTimeField(blank=True, null=True),
        ),
        migrations.RunPython(mark_players_who_answered, migrations.RunPython.noop),
    ]
