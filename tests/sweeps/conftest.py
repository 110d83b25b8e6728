"""Sweep tests run their tasks in-process (see ``tests.eager_tasks``)."""

from tests.eager_tasks import tasks_in_process  # noqa: F401
