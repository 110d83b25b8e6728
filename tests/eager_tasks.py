"""A fixture that runs Celery tasks in the test process, whatever broker is configured.

With CELERY_BROKER_URL set (as in CI) tasks would go to Redis, where no
worker listens during ordinary tests. Tests that are not about a real worker
run them in-process, as the site does without a broker: the root conftest
imports this fixture, so it applies to the whole suite. Tests marked
``celery_worker`` are left alone.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest


@pytest.fixture(autouse=True)
def tasks_in_process(request: pytest.FixtureRequest) -> Iterator[None]:
    if request.node.get_closest_marker("celery_worker") is not None:
        yield
        return
    from django.test.utils import override_settings

    from decodoku_site.celery import app

    saved = (app.conf.task_always_eager, app.conf.task_eager_propagates)
    app.conf.task_always_eager = True
    app.conf.task_eager_propagates = True
    try:
        with override_settings(CELERY_TASK_ALWAYS_EAGER=True):
            yield
    finally:
        app.conf.task_always_eager, app.conf.task_eager_propagates = saved
