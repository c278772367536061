"""Celery tasks for stats: thin wrappers that take ids and call a service."""

from __future__ import annotations

from celery import shared_task
from django.db import InterfaceError, OperationalError

from stats.services import game_record_sync, stats_rebuild


# Named in settings.MATCH_RESULT_LISTENERS: matches calls it after every result change.
@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def game_record_sync_task(match_id: int) -> bool:
    return game_record_sync(match_id=match_id) is not None


@shared_task(acks_late=True)
def stats_rebuild_task(reextract: bool = False) -> dict[str, int]:
    return stats_rebuild(reextract=reextract)


@shared_task(
    acks_late=True,
    autoretry_for=(OperationalError, InterfaceError),
    retry_backoff=True,
    max_retries=5,
)
def game_records_sync_chunk_task(match_ids: list[int]) -> int:
    """One chunk of a queued re-extraction; a retry re-syncs, which changes nothing twice."""
    for match_id in match_ids:
        game_record_sync(match_id=match_id)
    return len(match_ids)
