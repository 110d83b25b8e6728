"""The Celery application: `celery -A decodoku_site worker` and `... beat`.

Its configuration is the CELERY_* part of decodoku_site.settings. Without
CELERY_BROKER_URL, tasks run eagerly inside the calling process.

Queueing a task goes through the circuit breaker of the broker's server
(:class:`BreakerTask`, ``core.circuit``; the cache shares it when it is on
the same Redis): once a publish has failed, the
publishes of the next ``CIRCUIT_BREAKER_COOLDOWN`` seconds fail at once
instead of waiting for a broker that does not answer. Every caller already
treats a failed publish as harmless (the periodic sweeps queue the work
again). A worker waits longer than a web request for its own commands to the
broker (``WORKER_BROKER_SOCKET_TIMEOUT``).
"""

import os
from typing import Any

import redis
from celery import Celery, Task
from celery.signals import celeryd_init
from kombu.exceptions import OperationalError

from core.circuit import CircuitBreaker, CircuitOpen, breaker_for

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "decodoku_site.settings")

# A broker that cannot be reached or does not answer (kombu wraps most of these
# in its OperationalError). Any other error (a task argument that is not JSON)
# says nothing about the broker.
BROKER_OUTAGE_ERRORS: tuple[type[BaseException], ...] = (
    OperationalError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    OSError,
)


class BreakerTask(Task):
    """Tasks whose publishing goes through the broker's circuit breaker."""

    def apply_async(self, *args: Any, **kwargs: Any) -> Any:
        app = self.app
        if app.conf.task_always_eager:
            return super().apply_async(*args, **kwargs)
        try:
            with broker_breaker(app).guard(BROKER_OUTAGE_ERRORS):
                return super().apply_async(*args, **kwargs)
        except CircuitOpen as exc:
            raise OperationalError(str(exc)) from None


def broker_breaker(app: "Celery[Any]") -> CircuitBreaker:
    from django.conf import settings

    url = str(app.conf.broker_write_url or app.conf.broker_url or "")
    return breaker_for(url, cooldown=settings.CIRCUIT_BREAKER_COOLDOWN)


app = Celery("decodoku_site", task_cls=BreakerTask)
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()


@celeryd_init.connect
def _worker_broker_timeouts(conf: Any = None, **kwargs: Any) -> None:
    """A worker waits longer than a web request for its commands to Redis to be answered."""
    from django.conf import settings

    if conf is not None:
        conf.broker_transport_options = {
            **(conf.broker_transport_options or {}),
            "socket_timeout": settings.WORKER_BROKER_SOCKET_TIMEOUT,
        }
