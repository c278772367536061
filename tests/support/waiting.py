"""Waiting for work done by real workers (verdicts, recorded games, ratings)."""

from __future__ import annotations

import time
from collections.abc import Callable


def wait_for(condition: Callable[[], bool], timeout: float, what: str) -> None:
    deadline = time.monotonic() + timeout
    while not condition():
        if time.monotonic() > deadline:
            raise AssertionError(f"timed out after {timeout}s waiting for {what}")
        time.sleep(0.1)


def worker_drained() -> bool:
    """Nothing of this session's queue waiting or running (tasks are acknowledged late, so a
    running one is still in Redis's ``unacked`` hash). A test that leaves follow-up tasks
    running (a result's statistics) would race the next test's database flush."""
    import json

    import redis
    from django.conf import settings

    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    broker = redis.Redis.from_url(settings.TEST_REDIS_URL)
    if broker.llen(queue):
        return False
    # each entry is [message, exchange, routing_key]
    return all(json.loads(entry)[2] != queue for entry in broker.hvals("unacked"))
