"""A Celery app for tests that slows verification down, so a test can kill a worker mid-run.

Start a worker with ``celery -A tests.support.slow_verify_worker worker``; it is the project's app
with ``matches.engine.log_verdict`` delayed by YOMI_TEST_VERIFY_DELAY seconds (default 30).
"""

from __future__ import annotations

import os
import time
from typing import Any

from matches import engine
from yomi_site.celery import app

_real_log_verdict = engine.log_verdict


def _slow_log_verdict(text: str) -> dict[str, Any]:
    time.sleep(float(os.environ.get("YOMI_TEST_VERIFY_DELAY", "30")))
    return _real_log_verdict(text)


engine.log_verdict = _slow_log_verdict

__all__ = ["app"]
