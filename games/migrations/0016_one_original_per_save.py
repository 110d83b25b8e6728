"""One original per uploaded save, decided by the database.

Two players uploading the same save at the same moment could both make an
original (``copy_of`` empty), and research data then held the game twice. A
partial unique constraint now allows one game without ``copy_of`` per boards
digest. Before it is added, the originals that share their boards with an
earlier one become copies of the earliest (by ``started_at``, then id), and
their own copies name it too.

Deleting an original no longer empties the ``copy_of`` of every copy (which
would make them all originals): ``games.models.promote_a_copy`` makes the
earliest copy the original and points the others at it.
"""

from django.db import migrations, models

import games.models


def one_original_per_save(apps, schema_editor):
    Game = apps.get_model("games", "Game")
    originals = (
        Game.objects.filter(copy_of__isnull=True, legacy_boards_sha256__isnull=False)
        .order_by("legacy_boards_sha256", "started_at", "id")
        .values_list("id", "legacy_boards_sha256")
    )
    first_of = {}
    for game_id, boards in originals.iterator():
        first = first_of.setdefault(boards, game_id)
        if first != game_id:
            Game.objects.filter(copy_of_id=game_id).update(copy_of_id=first)
            Game.objects.filter(id=game_id).update(copy_of_id=first)


class Migration(migrations.Migration):
    # The rows are rewritten in a transaction of their own, committed before the
    # unique index is built: PostgreSQL refuses to build an index on a table with
    # updates whose constraint triggers are still pending in the same transaction.
    atomic = False

    dependencies = [
        ("games", "0015_player_consent_decided"),
    ]

    operations = [
        migrations.RunPython(one_original_per_save, migrations.RunPython.noop, atomic=True),
        migrations.AlterField(
            model_name="game",
            name="copy_of",
            field=models.ForeignKey(
                blank=True,
                null=True,
                on_delete=games.models.promote_a_copy,
                related_name="copies",
                to="games.game",
            ),
        ),
        migrations.AddConstraint(
            model_name="game",
            constraint=models.UniqueConstraint(
                condition=models.Q(("copy_of__isnull", True), ("legacy_boards_sha256__isnull", False)),
                fields=("legacy_boards_sha256",),
                name="game_one_original_per_save",
            ),
        ),
    ]
