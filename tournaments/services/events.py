"""Creating and configuring events and their stages; moving an event through its statuses."""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils.text import slugify

from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Event, Stage
from tournaments.services.common import (
    full_clean_or_error,
    lock_event,
    require_organizer,
    require_stage_fits_mode,
    stage_has_started,
)

__all__ = ["stage_has_started"]  # the pages ask it too

TRANSITIONS: dict[str, set[str]] = {
    Event.Status.DRAFT: {Event.Status.REGISTRATION},
    Event.Status.REGISTRATION: {Event.Status.CHECK_IN, Event.Status.DRAFT},
    Event.Status.CHECK_IN: {Event.Status.REGISTRATION},
    # RUNNING is entered by generating the first stage (stage_generate), FINISHED when the last
    # stage finishes or an organizer closes the event.
    Event.Status.RUNNING: {Event.Status.FINISHED},
    Event.Status.FINISHED: set(),
}

EVENT_FIELDS = (
    "name", "description", "mode", "ruleset", "best_of", "top_best_of", "top_rounds",
    "grand_final_best_of", "character_rule", "max_entrants", "check_in_opens_at",
    "check_in_closes_at", "starts_at", "result_policy", "room_decision_seconds",
)
# Once entrants exist, these would change what they signed up for.
FROZEN_AFTER_DRAFT = ("mode",)

STAGE_FIELDS = (
    "name", "kind", "third_place", "grand_final_reset", "group_count", "swiss_rounds",
    "advance_count", "tiebreaks", "starts_at", "round_days",
)


RESERVED_SLUGS = {"players", "new"}  # paths under /events/ that are not events


def _unique_slug(name: str) -> str:
    base = slugify(name)[:120] or "event"
    if base in RESERVED_SLUGS:
        base = f"{base}-event"
    slug, n = base, 2
    while Event.objects.filter(slug=slug).exists():
        slug, n = f"{base}-{n}", n + 1
    return slug


@transaction.atomic
def event_create(*, actor: Any, name: str, mode: str = Event.Mode.VERSUS, **fields: Any) -> Event:
    """Create a draft event; the user who creates it is its first organizer."""
    if not getattr(actor, "is_authenticated", False):
        raise TournamentError(TournamentErrorCode.NOT_ORGANIZER, "log in to create an event")
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise TournamentError(TournamentErrorCode.INVALID, f"unknown fields: {sorted(unknown)}")
    event = Event(name=name, mode=mode, slug=_unique_slug(name), **fields)
    full_clean_or_error(event)
    event.save()
    event.organizers.add(actor)
    return event


@transaction.atomic
def event_update(*, event: Event, actor: Any, **fields: Any) -> Event:
    require_organizer(event=event, actor=actor)
    event = lock_event(event)
    unknown = set(fields) - set(EVENT_FIELDS)
    if unknown:
        raise TournamentError(TournamentErrorCode.INVALID, f"unknown fields: {sorted(unknown)}")
    if event.status != Event.Status.DRAFT:
        frozen = [f for f in FROZEN_AFTER_DRAFT if f in fields and fields[f] != getattr(event, f)]
        if frozen:
            raise TournamentError(
                TournamentErrorCode.STAGE_STARTED,
                f"{', '.join(frozen)} can only change while the event is a draft",
            )
    if stage_has_started(event):
        changed = [f for f in fields if fields[f] != getattr(event, f)]
        if changed:
            raise TournamentError(
                TournamentErrorCode.STAGE_STARTED,
                "the event has started: its settings can no longer change",
            )
    for name, value in fields.items():
        setattr(event, name, value)
    full_clean_or_error(event)
    event.save()
    return event


@transaction.atomic
def event_organizer_add(*, event: Event, actor: Any, user: Any) -> Event:
    require_organizer(event=event, actor=actor)
    event.organizers.add(user)
    return event


@transaction.atomic
def event_status_change(*, event: Event, actor: Any, status: str) -> Event:
    """Open registration, start check-in, go back, or finish a running event."""
    require_organizer(event=event, actor=actor)
    event = lock_event(event)
    if status not in TRANSITIONS.get(event.status, set()):
        hint = " (generate the first stage to start it)" if status == Event.Status.RUNNING else ""
        raise TournamentError(
            TournamentErrorCode.INVALID_TRANSITION,
            f"an event cannot go from {event.status} to {status}{hint}",
            current=event.status, requested=status,
        )
    event.status = status
    event.save(update_fields=["status"])
    return event


@transaction.atomic
def stage_create(*, event: Event, actor: Any, name: str, kind: str, **fields: Any) -> Stage:
    """Add a stage after the event's existing ones."""
    require_organizer(event=event, actor=actor)
    event = lock_event(event)
    unknown = set(fields) - set(STAGE_FIELDS)
    if unknown:
        raise TournamentError(TournamentErrorCode.INVALID, f"unknown fields: {sorted(unknown)}")
    if event.status == Event.Status.FINISHED:
        raise TournamentError(TournamentErrorCode.STAGE_STARTED, "the event has finished")
    require_stage_fits_mode(event=event, kind=kind)
    last = event.stages.order_by("-order").first()
    order = (last.order + 1) if last else 1
    stage = Stage(event=event, name=name, kind=kind, order=order, **fields)
    full_clean_or_error(stage)
    stage.save()
    return stage


@transaction.atomic
def stage_update(*, stage: Stage, actor: Any, **fields: Any) -> Stage:
    require_organizer(event=stage.event, actor=actor)
    unknown = set(fields) - set(STAGE_FIELDS)
    if unknown:
        raise TournamentError(TournamentErrorCode.INVALID, f"unknown fields: {sorted(unknown)}")
    stage = Stage.objects.select_for_update().get(pk=stage.pk)
    if stage.status != Stage.Status.PENDING:
        raise TournamentError(
            TournamentErrorCode.STAGE_STARTED, f"{stage.name} has started: it can no longer change"
        )
    for name, value in fields.items():
        setattr(stage, name, value)
    require_stage_fits_mode(event=stage.event, kind=stage.kind)
    full_clean_or_error(stage)
    stage.save()
    return stage
