"""Display names get a second key, the skeleton of the name as typed; invisible names go.

``display_name_key`` folds the case before taking the confusable skeleton, so
``AIan`` (a capital i, whose skeleton is ``l``) did not collide with
``Alan``. ``display_name_shape_key`` (unique) holds the skeleton of the name
as typed, case-folded (``games.names.display_name_shape_key``). Both keys now
leave invisible characters (Unicode's default-ignorable code points, among
them the Hangul fillers) out.

Every named player gets both keys, oldest player first. A name that holds an
invisible character (refused from now on) or shows nothing is removed, and so
is a name whose keys collide with those of an older player's name: those
players appear under their pseudonym and may pick another name. The keys are
computed here, not imported from ``games.names``, so that this migration keeps
doing what it did when it was written.
"""

import icu
from django.db import migrations, models


def _keys():
    checker = icu.SpoofChecker()
    invisible = icu.UnicodeSet("[:Default_Ignorable_Code_Point:]")

    def keys(name):
        if any(invisible.contains(char) for char in name) or not name.strip():
            return None
        key = str(checker.getSkeleton(0, name.casefold())).casefold()
        shape_key = str(checker.getSkeleton(0, name)).casefold()
        return key, shape_key

    return keys


def shape_keys(apps, schema_editor):
    Player = apps.get_model("games", "Player")
    keys_of = _keys()
    named = list(
        Player.objects.filter(display_name__isnull=False)
        .order_by("created_at", "id")
        .values_list("id", "display_name")
    )
    taken_keys, taken_shapes, kept = set(), set(), []
    for player_id, name in named:
        keys = keys_of(name)
        if keys is None or keys[0] in taken_keys or keys[1] in taken_shapes:
            continue
        taken_keys.add(keys[0])
        taken_shapes.add(keys[1])
        kept.append((player_id, name, keys))
    # Drop every name first, so that no key is held twice between two updates.
    Player.objects.filter(id__in=[player_id for player_id, _ in named]).update(
        display_name=None, display_name_key=None, display_name_shape_key=None
    )
    for player_id, name, (key, shape_key) in kept:
        Player.objects.filter(id=player_id).update(
            display_name=name, display_name_key=key, display_name_shape_key=shape_key
        )


class Migration(migrations.Migration):
    # The rows are rewritten in a transaction of their own, committed before the
    # unique index is built: PostgreSQL refuses to build an index on a table with
    # updates whose constraint triggers are still pending in the same transaction.
    atomic = False

    dependencies = [
        ("games", "0016_one_original_per_save"),
    ]

    operations = [
        migrations.AddField(
            model_name="player",
            name="display_name_shape_key",
            field=models.CharField(blank=True, max_length=192, null=True),
        ),
        migrations.RunPython(shape_keys, migrations.RunPython.noop, atomic=True),
        migrations.AlterField(
            model_name="player",
            name="display_name_shape_key",
            field=models.CharField(blank=True, max_length=192, null=True, unique=True),
        ),
        migrations.AddConstraint(
            model_name="player",
            constraint=models.CheckConstraint(
                condition=models.Q(
                    ("display_name__isnull", True), ("display_name_shape_key__isnull", False),
                    _connector="OR",
                ),
                name="player_display_name_has_shape_key",
            ),
        ),
    ]
