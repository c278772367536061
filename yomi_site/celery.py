"""The Celery app. Tasks live in each app's `tasks.py` and stay thin: they call a service."""

from __future__ import annotations

import os

from celery import Celery

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yomi_site.settings")

app = Celery("yomi_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
