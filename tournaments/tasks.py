"""Celery tasks for tournaments: thin wrappers around services."""

from __future__ import annotations

from celery import shared_task

from tournaments.services.ratings import ratings_recompute
from tournaments.services.set_matches import set_match_result_record


@shared_task
def ratings_recompute_task() -> int:
    return ratings_recompute()


@shared_task(acks_late=True)
def set_match_result_record_task(match_id: int) -> None:
    """Called by matches (by name) when a match's result becomes final or is overridden."""
    set_match_result_record(match_id=match_id)
