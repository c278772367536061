"""Helpers shared by the services: authorisation and lock helpers."""

from __future__ import annotations

from typing import Any

from django.core.exceptions import ValidationError
from django.db import models

from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Entrant, Event, Stage


def require_organizer(*, event: Event, actor: Any) -> None:
    """Only the event's organizers (and staff) change it."""
    if not event.is_organizer(actor):
        raise TournamentError(
            TournamentErrorCode.NOT_ORGANIZER,
            f"only the organizers of {event.name} can do this",
        )


def require_member_or_organizer(*, entrant: Entrant, actor: Any) -> None:
    if entrant.event.is_organizer(actor):
        return
    if getattr(actor, "is_authenticated", False) and entrant.members.filter(
        player__user=actor
    ).exists():
        return
    raise TournamentError(
        TournamentErrorCode.NOT_YOUR_ENTRANT, f"you are not on the roster of {entrant.name}"
    )


def lock_event(event: Event) -> Event:
    return Event.objects.select_for_update().get(pk=event.pk)


def lock_stage(stage: Stage) -> Stage:
    return Stage.objects.select_related("event").select_for_update(of=("self",)).get(pk=stage.pk)


def full_clean_or_error(instance: models.Model, *, exclude: list[str] | None = None) -> None:
    """``full_clean`` with Django's ValidationError turned into a TournamentError."""
    try:
        instance.full_clean(exclude=exclude)
    except ValidationError as exc:
        if hasattr(exc, "message_dict"):
            fields = {k: [str(m) for m in v] for k, v in exc.message_dict.items()}
            message = "; ".join(f"{k}: {' '.join(v)}" for k, v in fields.items())
        else:
            fields = {}
            message = " ".join(exc.messages)
        raise TournamentError(TournamentErrorCode.INVALID, message, fields=fields) from exc


def stage_has_started(event: Event) -> bool:
    return event.stages.exclude(status=Stage.Status.PENDING).exists()


# Dramatic Battle is a lone player against a pair: only formats that choose who meets whom can
# keep that (a bracket or a Swiss round would pair two pairs, or two lone players).
DRAMATIC_BATTLE_KINDS = (Stage.Kind.ROUND_ROBIN, Stage.Kind.LEAGUE)


def require_stage_fits_mode(*, event: Event, kind: str) -> None:
    if event.mode == Event.Mode.DRAMATIC_BATTLE and kind not in DRAMATIC_BATTLE_KINDS:
        raise TournamentError(
            TournamentErrorCode.INVALID,
            "a Dramatic Battle stage pairs a lone player against a pair: use a round robin or "
            "a league season",
            fields={"kind": ["Dramatic Battle pairs a lone player against a pair: choose round "
                             "robin or league season"]},
        )
