"""Registration with a cap and a waitlist, withdrawal, check-in, and removing no-shows."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction
from django.utils import timezone

from matches.models import Player
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Entrant, EntrantMember, Event
from tournaments.services.common import (
    lock_event,
    require_member_or_organizer,
    require_organizer,
    stage_has_started,
)
from tournaments.signals import team_invited, waitlist_promoted

OPEN_FOR_REGISTRATION = (Event.Status.REGISTRATION, Event.Status.CHECK_IN)


def _refuse_if_started(event: Event) -> None:
    if event.status in (Event.Status.RUNNING, Event.Status.FINISHED) or stage_has_started(event):
        raise TournamentError(
            TournamentErrorCode.STAGE_STARTED,
            f"{event.name} has started: entrants can no longer change",
        )


def _registered_count(event: Event) -> int:
    return event.entrants.filter(status=Entrant.Status.REGISTERED).count()


@transaction.atomic
def entrant_register(
    *,
    event: Event,
    actor: Any,
    players: Sequence[Player],
    name: str = "",
    lineup: Sequence[str] = (),
    characters: Sequence[str] = (),
) -> Entrant:
    """Register a player or a team.

    A player registers an entrant they are on (a solo entrant, or their team's roster); every
    other player named is *invited* and must accept (``entrant_invitation_accept``) before the
    team is registered: nobody is put on a roster, and so kept from registering elsewhere,
    without their consent. Organizers may register any roster at once. Past the cap, the entrant
    joins the waitlist (when it is registered, for an invited team).
    """
    event = lock_event(event)
    is_organizer = event.is_organizer(actor)
    if not getattr(actor, "is_authenticated", False):
        raise TournamentError(TournamentErrorCode.NOT_YOUR_ENTRANT, "log in to register")
    if not is_organizer and not any(p.user_id == actor.pk for p in players):
        raise TournamentError(
            TournamentErrorCode.NOT_YOUR_ENTRANT, "you can only register yourself (or your team)"
        )
    _refuse_if_started(event)
    if event.status not in OPEN_FOR_REGISTRATION:
        raise TournamentError(
            TournamentErrorCode.REGISTRATION_CLOSED, f"registration for {event.name} is not open"
        )
    players = list(players)
    if len({p.pk for p in players}) != len(players):
        raise TournamentError(TournamentErrorCode.ROSTER_SIZE, "a player is listed twice")
    if len(players) not in event.roster_sizes:
        sizes = " or ".join(str(s) for s in event.roster_sizes)
        raise TournamentError(
            TournamentErrorCode.ROSTER_SIZE,
            f"{event.get_mode_display()} entrants have {sizes} player(s), not {len(players)}",
        )
    lineup = _real_characters([c.strip() for c in lineup if c.strip()], "lineup")
    characters = _real_characters([c.strip() for c in characters if c.strip()], "characters")
    _lineup_check(event, players, lineup, characters)
    taken = EntrantMember.objects.filter(
        event=event, player__in=players, is_accepted=True,
        entrant__status__in=(
            Entrant.Status.REGISTERED, Entrant.Status.WAITLISTED, Entrant.Status.INVITED
        ),
    ).select_related("player")
    if taken:
        names = ", ".join(sorted(m.player.display_name for m in taken))
        raise TournamentError(
            TournamentErrorCode.ALREADY_REGISTERED, f"already registered for {event.name}: {names}"
        )
    _invitations_settle(event, players, actor)
    # Withdrawn entries of these players give their roster places back.
    EntrantMember.objects.filter(event=event, player__in=players).delete()
    invited = [] if is_organizer else [p for p in players if p.user_id != actor.pk]
    entrant = Entrant.objects.create(
        event=event,
        name=name.strip() or " / ".join(p.display_name for p in players),
        status=Entrant.Status.INVITED if invited else _registered_status(event),
        lineup=lineup,
    )
    EntrantMember.objects.bulk_create(
        EntrantMember(
            entrant=entrant, event=event, player=p, order=i,
            character=characters[i] if characters else "", is_accepted=p not in invited,
        )
        for i, p in enumerate(players)
    )
    if invited:
        transaction.on_commit(
            lambda: team_invited.send(sender=Entrant, entrant=entrant, invited=invited)
        )
    return entrant


def _real_characters(names: Sequence[str], field: str) -> list[str]:
    """Declared characters, as the rulebook names them; a made-up name is refused."""
    from tournaments.services.advancement import canonical_character

    real = []
    for name in names:
        character = canonical_character(name)
        if character is None:
            raise TournamentError(
                TournamentErrorCode.LINEUP, f"{field}: there is no character called {name!r}",
                field=field,
            )
        real.append(character)
    return real


def _lineup_check(
    event: Event, players: Sequence[Player], lineup: list[str], characters: list[str]
) -> None:
    """Every mode's declared characters as its rules allow them, refused at registration (the
    room and the verifier would refuse them only after the game): a Triple Threat lineup is
    three different characters (TT-1), a team's characters all differ (TG-1, DB-1), and only
    Triple Threat declares a lineup."""
    mode = event.get_mode_display()
    if lineup and event.mode != Event.Mode.TRIPLE_THREAT:
        raise TournamentError(
            TournamentErrorCode.LINEUP,
            f"lineup: only Triple Threat entrants declare a lineup ({mode} does not)",
            field="lineup",
        )
    if event.mode == Event.Mode.TRIPLE_THREAT and len(players) == 1 and len(lineup) != 3:
        raise TournamentError(
            TournamentErrorCode.LINEUP,
            f"lineup: a Triple Threat player names a lineup of 3 characters, not {len(lineup)}",
            field="lineup",
        )
    if characters and len(characters) != len(players):
        raise TournamentError(
            TournamentErrorCode.LINEUP,
            f"characters: name one character per player ({len(players)}) or none, "
            f"not {len(characters)}",
            field="characters",
        )
    for field, names, rule in (("lineup", lineup, "TT-1: three decks"),
                               ("characters", characters,
                                "TT-1, TG-1, DB-1: one deck each")):
        repeated = sorted({n for n in names if names.count(n) > 1})
        if repeated:
            raise TournamentError(
                TournamentErrorCode.LINEUP,
                f"{field}: a side's characters are all different ({rule}); "
                f"{', '.join(repeated)} is named twice",
                field=field,
            )


def _registered_status(event: Event) -> str:
    full = event.max_entrants is not None and _registered_count(event) >= event.max_entrants
    return Entrant.Status.WAITLISTED if full else Entrant.Status.REGISTERED


def _invitations_settle(event: Event, players: Sequence[Player], actor: Any) -> None:
    """Pending invitations of ``players``: the actor's own are declined by registering anew; a
    teammate's pending invitation elsewhere must be answered by them first."""
    pending = EntrantMember.objects.filter(
        event=event, player__in=players, is_accepted=False, entrant__status=Entrant.Status.INVITED,
    ).select_related("player", "entrant")
    for member in pending:
        if member.player.user_id == actor.pk:
            _invitation_decline(member.entrant)
        else:
            raise TournamentError(
                TournamentErrorCode.ALREADY_REGISTERED,
                f"{member.player.display_name} has an invitation from {member.entrant.name} to "
                "answer first (accept or decline it)",
            )


def _invitation_decline(entrant: Entrant) -> None:
    entrant.status = Entrant.Status.WITHDRAWN
    entrant.save(update_fields=["status"])


def _own_invitation(entrant: Entrant, actor: Any) -> EntrantMember:
    member = (
        entrant.members.filter(player__user_id=getattr(actor, "pk", None), is_accepted=False)
        .select_related("player").first()
    )
    if member is None or entrant.status != Entrant.Status.INVITED:
        raise TournamentError(
            TournamentErrorCode.NOT_YOUR_ENTRANT,
            f"you have no pending invitation to {entrant.name}",
        )
    return member


@transaction.atomic
def entrant_invitation_accept(*, entrant: Entrant, actor: Any) -> Entrant:
    """The invited player accepts their place; the team is registered once all have accepted."""
    event = lock_event(entrant.event)
    entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
    member = _own_invitation(entrant, actor)
    _refuse_if_started(event)
    if event.status not in OPEN_FOR_REGISTRATION:
        raise TournamentError(
            TournamentErrorCode.REGISTRATION_CLOSED, f"registration for {event.name} is not open"
        )
    member.is_accepted = True
    member.save(update_fields=["is_accepted"])
    if not entrant.members.filter(is_accepted=False).exists():
        entrant.status = _registered_status(event)
        entrant.save(update_fields=["status"])
    return entrant


@transaction.atomic
def entrant_invitation_decline(*, entrant: Entrant, actor: Any) -> Entrant:
    """The invited player declines: the team is not registered (it may register again)."""
    lock_event(entrant.event)
    entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
    _own_invitation(entrant, actor)
    _invitation_decline(entrant)
    return entrant


def _promote_waitlist(event: Event) -> list[Entrant]:
    promoted = []
    if event.max_entrants is None:
        free = event.entrants.filter(status=Entrant.Status.WAITLISTED).count()
    else:
        free = max(0, event.max_entrants - _registered_count(event))
    for entrant in event.entrants.filter(status=Entrant.Status.WAITLISTED).order_by(
        "registered_at", "id"
    )[:free]:
        entrant.status = Entrant.Status.REGISTERED
        entrant.save(update_fields=["status"])
        promoted.append(entrant)
        # After the commit: a promotion rolled back must not be announced.
        # send_robust: a failing receiver is logged, never an error for the stored promotion
        transaction.on_commit(
            lambda entrant=entrant: waitlist_promoted.send_robust(sender=Entrant,
                                                                  entrant=entrant)
        )
    return promoted


@transaction.atomic
def entrant_withdraw(*, entrant: Entrant, actor: Any) -> list[Entrant]:
    """Withdraw before the event starts; returns the waitlisted entrants promoted in order."""
    require_member_or_organizer(entrant=entrant, actor=actor)
    event = lock_event(entrant.event)
    _refuse_if_started(event)
    entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
    if entrant.status not in (
        Entrant.Status.REGISTERED, Entrant.Status.WAITLISTED, Entrant.Status.INVITED
    ):
        raise TournamentError(TournamentErrorCode.INVALID, f"{entrant.name} is not registered")
    entrant.status = Entrant.Status.WITHDRAWN
    entrant.seed = None
    entrant.checked_in_at = None
    entrant.save(update_fields=["status", "seed", "checked_in_at"])
    return _promote_waitlist(event)


@transaction.atomic
def event_capacity_change(*, event: Event, actor: Any, max_entrants: int | None) -> list[Entrant]:
    """Change the cap; raising it promotes the waitlist in order."""
    require_organizer(event=event, actor=actor)
    event = lock_event(event)
    _refuse_if_started(event)
    if max_entrants is not None and max_entrants < _registered_count(event):
        raise TournamentError(
            TournamentErrorCode.INVALID,
            "the cap cannot go below the number of registered entrants",
        )
    event.max_entrants = max_entrants
    event.save(update_fields=["max_entrants"])
    return _promote_waitlist(event)


def check_in_is_open(event: Event, now: Any = None) -> bool:
    now = now or timezone.now()
    if event.status != Event.Status.CHECK_IN:
        return False
    if event.check_in_opens_at and now < event.check_in_opens_at:
        return False
    return not (event.check_in_closes_at and now >= event.check_in_closes_at)


@transaction.atomic
def entrant_check_in(*, entrant: Entrant, actor: Any) -> Entrant:
    """A roster member (or an organizer) checks the entrant in while the window is open."""
    require_member_or_organizer(entrant=entrant, actor=actor)
    event = lock_event(entrant.event)
    _refuse_if_started(event)
    if not check_in_is_open(event):
        raise TournamentError(
            TournamentErrorCode.CHECK_IN_CLOSED, f"check-in for {event.name} is not open"
        )
    entrant = Entrant.objects.select_for_update().get(pk=entrant.pk)
    if entrant.status != Entrant.Status.REGISTERED:
        raise TournamentError(
            TournamentErrorCode.INVALID,
            f"{entrant.name} is {entrant.get_status_display().lower()}, not registered",
        )
    if entrant.checked_in_at is None:
        entrant.checked_in_at = timezone.now()
        entrant.save(update_fields=["checked_in_at"])
    return entrant


@transaction.atomic
def event_remove_unchecked(*, event: Event, actor: Any) -> list[Entrant]:
    """Remove registered entrants who did not check in (before the first stage is generated)."""
    require_organizer(event=event, actor=actor)
    event = lock_event(event)
    _refuse_if_started(event)
    removed = list(
        event.entrants.filter(status=Entrant.Status.REGISTERED, checked_in_at__isnull=True)
    )
    event.entrants.filter(pk__in=[e.pk for e in removed]).update(
        status=Entrant.Status.REMOVED, seed=None
    )
    return removed
