"""Celery tasks for matches: thin wrappers that take ids and call a service."""

from __future__ import annotations

from celery import Task, shared_task
from django.db import InterfaceError, OperationalError

from matches.dispatch import coalesced_flag_clear
from matches.services.results import match_result_callback_run
from matches.services.sweeper import stale_work_requeue
from matches.services.verification import (
    DRAIN_BATCH,
    match_log_verify,
    match_runs_claim,
    match_runs_judge,
    match_runs_verify,
    runs_drain_flag,
    runs_drain_request,
)


# acks_late + reject_on_worker_lost (settings): a worker killed mid-run leaves the message on
# the queue for another worker. Only infrastructure errors are retried; an illegal log is a
# stored verdict, not an exception.
@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=120,
    max_retries=5,
)
def match_log_verify_task(run_id: int) -> str:
    return match_log_verify(run_id=run_id).status


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=120,
    max_retries=5,
)
def match_runs_verify_chunk_task(run_ids: list[int]) -> int:
    """One chunk of a bulk re-verification, read and written in bulk; finished runs are skipped,
    so a retry is cheap."""
    return len(match_runs_verify(run_ids=run_ids))


@shared_task(bind=True, acks_late=True, max_retries=5)
def match_runs_drain_task(self: Task, run_ids: list[int] | None = None) -> int:
    """Verify the pending runs of single submissions, up to ``DRAIN_BATCH`` as one chunk:
    Celery's cost per task is paid per batch, not per log (docs/reliability.md).

    The coalescing flag is cleared first, so a submission committed after this point sends a
    new drain; a full batch sends one too (more may wait). A retry after an outage carries the
    runs this task had claimed (``run_ids``) and finishes those. A worker killed mid-batch
    leaves its runs RUNNING: the sweeper sends them again (and the message, redelivered, drains
    what is pending then).
    """
    try:
        if run_ids is not None:
            return len(match_runs_verify(run_ids=run_ids))
        coalesced_flag_clear(runs_drain_flag())
        runs = match_runs_claim(limit=DRAIN_BATCH)
    except (OperationalError, InterfaceError) as exc:
        raise self.retry(exc=exc, countdown=min(120, 2 ** self.request.retries)) from exc
    if len(runs) == DRAIN_BATCH:
        runs_drain_request("the next batch of pending verifications")
    try:
        return len(match_runs_judge(runs))
    except (OperationalError, InterfaceError) as exc:
        raise self.retry(args=[[run.pk for run in runs]], exc=exc,
                         countdown=min(120, 2 ** self.request.retries)) from exc


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    retry_backoff_max=120,
    max_retries=5,
)
def match_result_callback_task(match_id: int) -> bool:
    """Run the result callback a match names (outbox): see ``match_result_callback_run``."""
    return match_result_callback_run(match_id=match_id)


@shared_task
def stale_work_requeue_task() -> dict[str, int]:
    """Celery beat: send again every verification and result callback left pending too long."""
    return stale_work_requeue().counts


@shared_task(autoretry_for=(OperationalError, InterfaceError), retry_backoff=True, max_retries=5)
def logs_reverify_stale_task() -> int:
    """Beat: re-verify the logs judged by an older engine (after a release); 0 when none."""
    from matches.services.reverification import logs_reverify_stale

    batch = logs_reverify_stale()
    return 0 if batch is None else batch.total
