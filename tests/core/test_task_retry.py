"""Every Celery task of the site retries with the one policy of ``core.tasks``."""

from __future__ import annotations

import pytest
from celery import current_app
from kombu.exceptions import OperationalError as BrokerError

import dashboard.tasks
import results.tasks
from core.tasks import RETRY, TRANSIENT_ERRORS

SITE_TASKS = sorted(
    name for name in current_app.tasks if name.split(".")[0] in {"results", "dashboard"}
)


def test_the_site_has_tasks_in_both_apps() -> None:
    assert results.tasks.analyse_game.name in SITE_TASKS
    assert dashboard.tasks.refresh_aggregates.name in SITE_TASKS


@pytest.mark.parametrize("name", SITE_TASKS)
def test_every_task_follows_the_one_retry_policy(name: str) -> None:
    task = current_app.tasks[name]
    # shared_task sets its options as attributes of the task (the stubs do not list them).
    options = {option: getattr(task, option) for option in RETRY}
    options["autoretry_for"] = tuple(options["autoretry_for"])
    assert options == {**RETRY, "autoretry_for": TRANSIENT_ERRORS}


def test_a_broker_outage_is_retried_not_failed() -> None:
    # A task that queues another (the pending-analysis sweep) meets the broker.
    assert BrokerError in TRANSIENT_ERRORS
