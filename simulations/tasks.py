"""Celery tasks for simulations: thin wrappers that take ids and call a service."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from simulations.services import matchup_chunk_run, matchup_jobs_sweep


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def matchup_chunk_task(job_id: int, p1: str, p2: str, index: int) -> bool:
    return matchup_chunk_run(job_id=job_id, p1=p1, p2=p2, index=index)


@shared_task(acks_late=True)
def matchup_jobs_sweep_task() -> int:
    return matchup_jobs_sweep()


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def stage_odds_refresh_task(stage_id: int) -> bool:
    from simulations.odds import stage_odds_refresh

    return stage_odds_refresh(stage_id=stage_id) is not None
