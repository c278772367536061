"""A task travels through Redis to a real worker process, which writes to PostgreSQL."""

from __future__ import annotations

import uuid

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
    # a fresh id per run: Redis keeps results between test sessions
    task_id = f"redelivered-{uuid.uuid4()}"
    first = heartbeat_record_task.apply_async(kwargs={"note": "once"}, task_id=task_id)
    first_pk = first.get(timeout=30)
    first.forget()  # so that the next get() waits for the second run, not the stored result
    # the same task delivered again (as after a worker crash with acks_late)
    second = heartbeat_record_task.apply_async(kwargs={"note": "once"}, task_id=task_id)
    assert second.get(timeout=30) == first_pk
    assert WorkerHeartbeat.objects.filter(task_id=task_id).count() == 1
