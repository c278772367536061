"""The Celery app. Tasks live in each app's `tasks.py` and stay thin: they call a service."""

from __future__ import annotations

import logging
import os
from typing import Any

from celery import Celery
from celery.signals import celeryd_after_setup

os.environ.setdefault("DJANGO_SETTINGS_MODULE", "yomi_site.settings")

app = Celery("yomi_site")
app.config_from_object("django.conf:settings", namespace="CELERY")
app.autodiscover_tasks()
logger = logging.getLogger(__name__)


@celeryd_after_setup.connect
def engine_build_report(sender: str, **kwargs: Any) -> None:
    """Each worker says at start which engine build judges its logs (each log's verification
    run records the same version: ``VerificationRun.engine_version``)."""
    import rules_engine
    from matches.engine import ENGINE_VERSION

    logger.warning("worker %s: rules engine %s (%s build)", sender, ENGINE_VERSION,
                   rules_engine.BUILD.kind)
