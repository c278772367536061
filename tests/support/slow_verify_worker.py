"""A Celery app for tests that slows verification down, so a test can kill a worker mid-run.

Start a worker with ``celery -A tests.support.slow_verify_worker worker``; it is the project's app
with ``matches.engine.log_judge`` (what a worker runs per log) delayed by
YOMI_TEST_VERIFY_DELAY seconds (default 30).
"""

from __future__ import annotations

import os
import time
from typing import Any

from matches import engine
from yomi_site.celery import app

_real_log_judge = engine.log_judge


def _slow_log_judge(text: str) -> Any:
    time.sleep(float(os.environ.get("YOMI_TEST_VERIFY_DELAY", "30")))
    return _real_log_judge(text)


engine.log_judge = _slow_log_judge

__all__ = ["app"]
