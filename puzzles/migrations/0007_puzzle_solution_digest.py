"""Puzzles carry their answer key (``solution_digest``), and replays are found by it.

A player shown the solution of one puzzle has seen the solution of every
puzzle with the same kind, size and solution, however it is started again
(from its seed, from its puzzle ID, or from the editor with more givens).
Every existing row gets its digest (``puzzles.engines.answer_key``), and
existing attempts are marked ``seen_solution`` by it as migration 0004 did by
seed: an open one when another attempt of the player with the same answer key
has ended, an ended one when such an attempt had ended before it.
"""

from django.db import migrations, models
from django.db.models import Exists, OuterRef, Q

from puzzles.engines.answer_key import solution_digest

BATCH = 500


def fill_digests(apps, schema_editor):
    Puzzle = apps.get_model("puzzles", "Puzzle")
    batch = []
    for puzzle in Puzzle.objects.only("pk", "kind", "size", "solution").iterator(chunk_size=BATCH):
        puzzle.solution_digest = solution_digest(
            kind=puzzle.kind, size=puzzle.size, solution=puzzle.solution
        )
        batch.append(puzzle)
        if len(batch) >= BATCH:
            Puzzle.objects.bulk_update(batch, ["solution_digest"])
            batch = []
    if batch:
        Puzzle.objects.bulk_update(batch, ["solution_digest"])


def mark_replays(apps, schema_editor):
    Attempt = apps.get_model("puzzles", "Attempt")
    others_ended = (
        Attempt.objects.filter(
            player_id=OuterRef("player_id"),
            puzzle__solution_digest=OuterRef("puzzle__solution_digest"),
        )
        .exclude(status="active")
        .exclude(pk=OuterRef("pk"))
    )
    open_ids = list(
        Attempt.objects.filter(status="active", seen_solution=False)
        .filter(Exists(others_ended))
        .values_list("pk", flat=True)
    )
    ended_ids = list(
        Attempt.objects.exclude(status="active")
        .filter(seen_solution=False)
        .filter(Exists(others_ended.filter(finished_at__lt=OuterRef("finished_at"))))
        .values_list("pk", flat=True)
    )
    Attempt.objects.filter(pk__in=open_ids + ended_ids).update(seen_solution=True)


def forwards(apps, schema_editor):
    fill_digests(apps, schema_editor)
    mark_replays(apps, schema_editor)


class Migration(migrations.Migration):
    dependencies = [
        ("puzzles", "0006_kind_length"),
    ]

    operations = [
        migrations.AddField(
            model_name="puzzle",
            name="solution_digest",
            field=models.CharField(default="", max_length=64),
            preserve_default=False,
        ),
        migrations.AddIndex(
            model_name="puzzle",
            index=models.Index(fields=["solution_digest"], name="puzzle_solution_digest"),
        ),
        # Marks set here are not taken back when going back: they were true of the data.
        migrations.RunPython(forwards, migrations.RunPython.noop),
        migrations.AddConstraint(
            model_name="puzzle",
            constraint=models.CheckConstraint(
                condition=~Q(solution_digest=""), name="puzzle_solution_digest_set"
            ),
        ),
    ]
