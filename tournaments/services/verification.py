"""Organizers re-verify every match log of their event in bulk (chunks across the workers)."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import QuerySet

from matches.models import MatchLog, VerificationBatch
from matches.services import BatchProgress, batch_progress, logs_reverify_bulk
from tournaments.models import Event, EventVerification
from tournaments.services.common import require_organizer


def event_match_logs(event: Event) -> QuerySet[MatchLog]:
    return MatchLog.objects.filter(match__set_link__set__stage__event=event)


@transaction.atomic
def event_logs_reverify(*, event: Event, actor: Any) -> VerificationBatch:
    """Queue a new verification of every log submitted for the event's sets."""
    require_organizer(event=event, actor=actor)
    batch = logs_reverify_bulk(
        logs=event_match_logs(event), label=f"all match logs of {event.name}",
        requested_by=actor,
    )
    EventVerification.objects.create(event=event, batch=batch)
    return batch


def event_verification_latest(event: Event) -> tuple[VerificationBatch, BatchProgress] | None:
    latest = event.verifications.select_related("batch").first()
    if latest is None:
        return None
    return latest.batch, batch_progress(latest.batch)
