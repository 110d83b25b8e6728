"""Django project of Decodoku Lab.

The Celery app is imported here so that it is configured whenever Django
starts, and ``@shared_task`` functions bind to it.
"""

from decodoku_site.celery import app as celery_app

__all__ = ("celery_app",)
