"""The Celery application: `celery -A decodoku_site worker` and `... beat`.

Its configuration is the CELERY_* part of decodoku_site.settings. Without
CELERY_BROKER_URL, tasks run eagerly inside the calling process.
"""

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "decodoku_site.settings")

app = Celery("decodoku_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
