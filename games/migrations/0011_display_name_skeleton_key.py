"""Display names are compared by their Unicode confusable skeleton (UTS #39).

``Player.display_name_key`` held the case-folded name; it now holds the
confusable skeleton of the case-folded name, case-folded again
(``games.names.display_name_key``), so that ``Ada`` written with a Cyrillic
or a Lisu capital A collides with ``Ada``. The column is widened (a
character's skeleton has up to 7 characters) and every stored key is
computed again.

Names that now collide cannot all stay: the player created first keeps the
name, the others lose it (they appear under their pseudonym and may pick
another name). The key is computed here, not imported from ``games.names``,
so that this migration keeps doing what it did when it was written.
"""

import icu
from django.db import migrations, models


def _rekey(apps, key_of):
    """Give every named player the key ``key_of(name)``; later players lose a name that collides."""
    Player = apps.get_model("games", "Player")
    named = list(
        Player.objects.filter(display_name__isnull=False)
        .order_by("created_at", "id")
        .values_list("id", "display_name", "display_name_key")
    )
    winners, cleared, changed = {}, [], []
    for player_id, name, old_key in named:
        key = key_of(name)
        if key in winners:
            cleared.append(player_id)
            continue
        winners[key] = player_id
        if key != old_key:
            changed.append((player_id, name, key))
    # First drop the names (and keys) that change or go, so that no key is held
    # twice between two updates; then write the new keys.
    Player.objects.filter(id__in=cleared + [pid for pid, _, _ in changed]).update(
        display_name=None, display_name_key=None
    )
    for player_id, name, key in changed:
        Player.objects.filter(id=player_id).update(display_name=name, display_name_key=key)


def skeleton_keys(apps, schema_editor):
    checker = icu.SpoofChecker()
    _rekey(apps, lambda name: str(checker.getSkeleton(0, name.casefold())).casefold())


def case_folded_keys(apps, schema_editor):
    _rekey(apps, str.casefold)


class Migration(migrations.Migration):

    dependencies = [
        ("games", "0010_planar_games"),
    ]

    operations = [
        migrations.AlterField(
            model_name="player",
            name="display_name_key",
            field=models.CharField(blank=True, max_length=192, null=True, unique=True),
        ),
        migrations.RunPython(skeleton_keys, case_folded_keys),
    ]
