"""Writes for the health app."""

from __future__ import annotations

from health.models import WorkerHeartbeat


def heartbeat_record(*, task_id: str, worker: str, note: str = "") -> WorkerHeartbeat:
    """Record that `worker` ran a task; idempotent per task id (a redelivered task writes once)."""
    heartbeat, _ = WorkerHeartbeat.objects.get_or_create(
        task_id=task_id, defaults={"worker": worker, "note": note}
    )
    return heartbeat
