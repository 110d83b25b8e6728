"""The admin shows sweeps with their progress and resumes them; analyses are read-only."""

from __future__ import annotations

import pytest
from django.urls import reverse

from results.models import Sweep, SweepChunk
from results.selectors import sweep_missing_chunks
from results.services import game_analyse, sweep_create, sweep_run_chunk
from tests.factories import GameFactory, play

pytestmark = pytest.mark.django_db


def test_the_sweep_list_shows_progress_and_resume_finishes_it(admin_client):
    sweep = sweep_create(bots=["greedy"], sizes=[5, 6], budgets=[6.0], games_per_point=4, seed=1,
                         chunk_size=2)
    first = sweep_missing_chunks(sweep=sweep)[0]
    sweep_run_chunk(point_id=first.point_id, index=first.index)
    page = admin_client.get(reverse("admin:results_sweep_changelist"))
    assert page.status_code == 200
    assert "2/8 games (25%), 1/4 chunks" in page.content.decode()
    detail = admin_client.get(reverse("admin:results_sweep_change", args=[sweep.pk]))
    assert detail.status_code == 200
    answer = admin_client.post(
        reverse("admin:results_sweep_changelist"),
        {"action": "resume", "_selected_action": [str(sweep.pk)]},
        follow=True,
    )
    assert answer.status_code == 200
    sweep.refresh_from_db()
    assert sweep.status == Sweep.Status.DONE
    assert SweepChunk.objects.filter(point__sweep=sweep).count() == 4


def test_analyses_are_listed_but_not_editable(admin_client):
    game = play(GameFactory())
    game_analyse(game_id=game.pk)
    listing = admin_client.get(reverse("admin:results_gameanalysis_changelist"))
    assert listing.status_code == 200
    assert str(game.pk) in listing.content.decode()
    assert admin_client.get(reverse("admin:results_gameanalysis_add")).status_code == 403
