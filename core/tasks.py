"""The retry policy shared by every Celery task of the site.

Celery's autodiscovery imports this module like any app's ``tasks``; it
defines no task, only the options each app's tasks pass to ``shared_task``
(``@shared_task(name=..., **RETRY)``), so that every task reacts the same way
to a database or broker that is briefly away.
"""

from __future__ import annotations

from typing import TypedDict

from django.db import InterfaceError, OperationalError
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
