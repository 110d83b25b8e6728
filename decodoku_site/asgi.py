"""ASGI entry point, for an ASGI server should one be used."""

import os

from django.core.asgi import get_asgi_application

from decodoku_site.env import require_secret_key

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "decodoku_site.settings")

require_secret_key()
application = get_asgi_application()
