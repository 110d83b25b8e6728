"""The retry policy shared by every Celery task of the site, and queueing a task by name.

Celery's autodiscovery imports this module like any app's ``tasks``; it
defines no task, only the options each app's tasks pass to ``shared_task``
(``@shared_task(name=..., **RETRY)``), so that every task reacts the same way
to a database or broker that is briefly away.

A service queues a task by its name (``enqueue("results.analyse_game",
game_id)``, or ``enqueue_on_commit`` after the current transaction), so that
the services never import the ``tasks`` module that imports them.
"""

from __future__ import annotations

from typing import Any, TypedDict

from celery import Task, current_app
from celery.exceptions import NotRegistered
from django.db import InterfaceError, OperationalError, transaction
from django.utils.module_loading import autodiscover_modules
from kombu.exceptions import OperationalError as BrokerError

# The errors that pass on their own: the database dropped or refused the
# connection (Django's OperationalError / InterfaceError), the broker is away
# (kombu's OperationalError, raised when a task queues another), or a socket
# failed. Anything else is a bug or bad data, and retrying would only repeat it.
TRANSIENT_ERRORS: tuple[type[BaseException], ...] = (
    OperationalError,
    InterfaceError,
    BrokerError,
    ConnectionError,
)


class RetryOptions(TypedDict, total=False):
    """The options of ``shared_task`` that make a task retry (typed for the checker)."""

    acks_late: bool
    autoretry_for: tuple[type[BaseException], ...]
    retry_backoff: int
    retry_backoff_max: int
    retry_jitter: bool
    max_retries: int


RETRY: RetryOptions = {
    # Acknowledge after the task ran: a worker that dies mid-task leaves the
    # message to be delivered again. Safe because every task is idempotent.
    "acks_late": True,
    # Retry only on errors that pass (above).
    "autoretry_for": TRANSIENT_ERRORS,
    # Exponential backoff starting at 2 s (2, 4, 8, ... seconds) ...
    "retry_backoff": 2,
    # ... capped at 5 minutes, about how long a database restart or failover
    # takes; waiting longer would only delay the work once the service is back.
    "retry_backoff_max": 300,
    # A random delay up to the backoff, so that tasks that failed together
    # (every worker lost the same database) do not all come back at once.
    "retry_jitter": True,
    # Ten tries reach the cap after eight: about half an hour in all before a
    # task gives up. The periodic tasks (pending analyses, aggregates) pick up
    # whatever is still left after that.
    "max_retries": 10,
}


def task(name: str) -> Task:
    """The task registered under ``name`` (``"results.analyse_game"``), found by name.

    Services queue their own app's tasks through this rather than importing
    the ``tasks`` module, which imports the services: the import goes one way.
    Every installed app's ``tasks`` module is imported first (as Celery's
    worker does), so that a web process knows every task too. The task
    object itself is returned, so queueing it keeps the site's rules: the
    broker's circuit breaker, and running at once when there is no broker.
    """
    autodiscover_modules("tasks")
    try:
        return current_app.tasks[name]
    except NotRegistered:
        raise LookupError(f"no task is registered as {name!r}") from None


def enqueue(name: str, *args: Any, **options: Any) -> Any:
    """Queue the task ``name`` with ``args`` now (``apply_async(args, **options)``)."""
    return task(name).apply_async(args=args, **options)


def enqueue_on_commit(name: str, *args: Any, **options: Any) -> None:
    """Queue the task ``name`` with ``args`` once the current transaction commits."""
    transaction.on_commit(lambda: enqueue(name, *args, **options))
