"""WSGI entry point (gunicorn yomi_site.wsgi)."""

import os

from django.core.wsgi import get_wsgi_application

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yomi_site.settings")
application = get_wsgi_application()
