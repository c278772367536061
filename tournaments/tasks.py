"""Celery tasks for tournaments: thin wrappers around services."""

from __future__ import annotations

from celery import shared_task

from tournaments.services.ratings import ratings_recompute


@shared_task
def ratings_recompute_task() -> int:
    return ratings_recompute()
