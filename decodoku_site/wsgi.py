"""WSGI entry point, served by gunicorn: `gunicorn decodoku_site.wsgi`."""

import gc
import os

from django.core.wsgi import get_wsgi_application
from django.urls import get_resolver

from decodoku_site.env import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "decodoku_site.settings")

require_secret_key()
application = get_wsgi_application()

# Load the URL configuration (and with it every view, serializer and engine
# module) now rather than on the first request, then move everything loaded
# so far into the collector's permanent generation: it lives as long as the
# process, and left where it is, every full collection walks it again. Those
# collections come often under moves, which allocate their event rows: over
# 2,000 moves played in-process, the collector's time per request fell from
# 0.24 ms to 0.10 ms (docs/benchmarks.md).
get_resolver().url_patterns  # noqa: B018 - loads the URLconf
gc.freeze()
