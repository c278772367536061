from __future__ import annotations

import socket

from celery import Task, shared_task

from health.services import heartbeat_record


@shared_task(bind=True, ignore_result=False)  # the round-trip test reads it
def heartbeat_record_task(self: Task, note: str = "") -> int:
    worker = self.request.hostname or socket.gethostname()
    return heartbeat_record(task_id=str(self.request.id), worker=worker, note=note).pk
