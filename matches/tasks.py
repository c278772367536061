"""Celery tasks for matches: thin wrappers that take ids and call a service."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from matches.services.verification import match_log_verify


# acks_late + reject_on_worker_lost (settings): a worker killed mid-run leaves the message on
# the queue for another worker. Only infrastructure errors are retried; an illegal log is a
# stored verdict, not an exception.
@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def match_log_verify_task(run_id: int) -> str:
    return match_log_verify(run_id=run_id).status


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def match_runs_verify_chunk_task(run_ids: list[int]) -> int:
    """One chunk of a bulk re-verification; finished runs are skipped, so a retry is cheap."""
    for run_id in run_ids:
        match_log_verify(run_id=run_id)
    return len(run_ids)
