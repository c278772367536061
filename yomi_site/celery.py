"""The Celery app. Tasks live in each app's `tasks.py` and stay thin: they call a service."""

from __future__ import annotations

import gc
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


@celeryd_after_setup.connect
def heap_freeze(sender: str, **kwargs: Any) -> None:
    """What a worker holds from its start (Django, the apps, the engine's modules: about 150,000
    objects) is moved out of the cyclic garbage collector's reach (``gc.freeze``): it lives as
    long as the process, yet every full collection walked it again while a chunk of logs was
    judged. Before the pool forks, so its processes share these pages too (the collector no
    longer writes to them)."""
    gc.collect()
    gc.freeze()
