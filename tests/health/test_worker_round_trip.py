"""A task travels through Redis to a real worker process, which writes to PostgreSQL."""

from __future__ import annotations

import pytest

from health.models import WorkerHeartbeat
from health.tasks import heartbeat_record_task

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def test_task_runs_on_real_worker_and_writes_row(celery_worker: str) -> None:
    # given a real worker listening on this session's queue
    # when a task is sent through the broker
    result = heartbeat_record_task.delay(note="round trip")
    heartbeat_pk = result.get(timeout=30)
    # then the worker process (not this one) wrote the row, and we can read it back
    heartbeat = WorkerHeartbeat.objects.get(pk=heartbeat_pk)
    assert heartbeat.task_id == result.id
    assert heartbeat.note == "round trip"
    assert heartbeat.worker == celery_worker


def test_redelivered_task_writes_once(celery_worker: str) -> None:
    first = heartbeat_record_task.apply_async(kwargs={"note": "once"}, task_id="fixed-id-1")
    first.get(timeout=30)
    second = heartbeat_record_task.apply_async(kwargs={"note": "once"}, task_id="fixed-id-1")
    second.get(timeout=30)
    assert WorkerHeartbeat.objects.filter(task_id="fixed-id-1").count() == 1
