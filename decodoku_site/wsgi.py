"""WSGI entry point, served by gunicorn: `gunicorn decodoku_site.wsgi`."""

import os

from django.core.wsgi import get_wsgi_application

from decodoku_site.env import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "decodoku_site.settings")

require_secret_key()
application = get_wsgi_application()
