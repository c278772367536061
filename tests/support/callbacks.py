"""A result-callback task for tests: records each match id it is called with."""

from __future__ import annotations

from celery import shared_task

CALLS: list[int] = []


@shared_task(name="tests.support.callbacks.record_call_task")
def record_call_task(match_id: int) -> None:
    import tests.support.callbacks as module

    module.CALLS.append(match_id)
