"""Bulk re-verification: many logs, split into chunks that run in parallel on the workers."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

from celery import group
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.db.models import Count
from django.utils import timezone

from matches.dispatch import task_send_on_commit
from matches.models import MatchLog, VerificationBatch, VerificationRun

DEFAULT_CHUNK_SIZE = 50


@transaction.atomic
def logs_reverify_bulk(
    *,
    logs: Iterable[MatchLog],
    label: str,
    requested_by: AbstractBaseUser | None = None,
    chunk_size: int = DEFAULT_CHUNK_SIZE,
) -> VerificationBatch:
    """A new run for every log, verified after commit by ``ceil(n / chunk_size)`` chunk tasks.

    Match statuses are settled run by run as verdicts arrive (``match_log_verify``).
    """
    from matches.tasks import match_runs_verify_chunk_task

    log_ids = sorted({log.pk for log in logs})
    now = timezone.now()
    batch = VerificationBatch.objects.create(
        label=label, requested_by=requested_by, total=len(log_ids), chunk_size=chunk_size
    )
    runs = VerificationRun.objects.bulk_create(
        VerificationRun(
            log_id=log_id, batch=batch, requested_by=requested_by, enqueued_at=now
        )
        for log_id in log_ids
    )
    run_ids = [run.pk for run in runs]
    chunks = [run_ids[i : i + chunk_size] for i in range(0, len(run_ids), chunk_size)]
    if chunks:
        task_send_on_commit(
            f"{len(chunks)} chunk(s) of batch {batch.pk}",
            lambda: group(match_runs_verify_chunk_task.s(chunk) for chunk in chunks).apply_async(),
        )
    return batch


@dataclass(frozen=True)
class BatchProgress:
    total: int
    finished: int
    by_status: dict[str, int]

    @property
    def percent(self) -> int:
        return 100 if self.total == 0 else self.finished * 100 // self.total

    @property
    def is_done(self) -> bool:
        return self.finished >= self.total

    def as_dict(self) -> dict[str, object]:
        return {
            "total": self.total, "finished": self.finished, "percent": self.percent,
            "is_done": self.is_done, "by_status": self.by_status,
        }


def batch_progress(batch: VerificationBatch) -> BatchProgress:
    counts = dict(
        batch.runs.values_list("status").annotate(n=Count("id")).values_list("status", "n")
    )
    finished = sum(counts.get(status, 0) for status in VerificationRun.FINISHED_STATUSES)
    return BatchProgress(total=batch.total, finished=finished, by_status=counts)
