"""What happens elsewhere and who is told.

The lower apps do not import this one (import-linter): matches' logs and disputes are seen
through ``post_save`` of their rows, sets becoming ready through ``tournaments.announcements``,
a waitlist promotion through ``tournaments.signals``.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver
from django.urls import reverse

from matches.models import Dispute, MatchLog, MatchSide
from notifications.models import Notification
from notifications.services import notify
from tournaments.announcements import sets_ready
from tournaments.models import Entrant, EntrantMember, Event, Set
from tournaments.signals import waitlist_promoted


def _member_users(entrant_ids: list[int]) -> dict[int, set[int]]:
    users: dict[int, set[int]] = {}
    for entrant_id, user_id in EntrantMember.objects.filter(
        entrant_id__in=entrant_ids, is_accepted=True
    ).values_list("entrant_id", "player__user_id"):
        users.setdefault(entrant_id, set()).add(user_id)
    return users


@receiver(sets_ready, dispatch_uid="notifications.sets_ready")
def on_sets_ready(sender: Any, set_ids: list[int], **kwargs: Any) -> None:
    sets = list(Set.objects.filter(pk__in=set_ids, status=Set.Status.READY)
                .select_related("stage__event", "entrant_a", "entrant_b"))
    members = _member_users([e for s in sets for e in (s.entrant_a_id, s.entrant_b_id) if e])
    for s in sets:
        event = s.stage.event
        url = reverse("tournaments:set-detail", args=[event.slug, s.pk])
        for mine, theirs in ((s.entrant_a, s.entrant_b), (s.entrant_b, s.entrant_a)):
            if mine is None or theirs is None:
                continue
            notify(users=members.get(mine.pk, ()), kind=Notification.Kind.SET_READY,
                   text=f"{event.name}, {s.round_name or s.stage.name}: your set against "
                        f"{theirs.name} is ready to play.",
                   url=url, subject=f"set:{s.pk}")


@receiver(post_save, sender=MatchLog, dispatch_uid="notifications.log_submitted")
def on_log_submitted(sender: Any, instance: MatchLog, created: bool, **kwargs: Any) -> None:
    if not created:
        return
    log = instance
    sides = list(MatchSide.objects.filter(match_id=log.match_id).order_by()  # no join to order
                 .values_list("side", "player__user_id", "player__display_name"))
    by = next((side for side, uid, _ in sides if uid == log.submitted_by_id), None)
    name = next((n for _, uid, n in sides if uid == log.submitted_by_id), "an organizer")
    # the other side; everyone on the match when an organizer sent it
    told = {uid for side, uid, _ in sides if side != by}
    # in the submission's transaction: no notification for a log that was rolled back
    notify(
        users=told, kind=Notification.Kind.LOG_SUBMITTED,
        text=f"{name} submitted a log for match {log.match_id}: confirm it or dispute it.",
        url=reverse("matches:match-detail", args=[log.match_id]), subject=f"log:{log.pk}",
    )


@receiver(post_save, sender=Dispute, dispatch_uid="notifications.dispute_opened")
def on_dispute_opened(sender: Any, instance: Dispute, created: bool, **kwargs: Any) -> None:
    if not created:
        return
    dispute = instance
    told = set(MatchSide.objects.filter(match_id=dispute.match_id)
               .values_list("player__user_id", flat=True))
    told |= set(dispute.match.managers.values_list("pk", flat=True))
    # an event's match has no managers of its own: its event's organizers decide (issue 31)
    told |= set(Event.organizers.through.objects.filter(
        event__stages__sets__set_matches__match_id=dispute.match_id,
    ).values_list("user_id", flat=True))
    told.discard(dispute.opened_by_id)
    notify(
        users=told, kind=Notification.Kind.DISPUTE_OPENED,
        text=f"A dispute was opened on match {dispute.match_id}.",
        url=reverse("matches:dispute-detail", args=[dispute.match_id, dispute.pk]),
        subject=f"dispute:{dispute.pk}",
    )


@receiver(waitlist_promoted, dispatch_uid="notifications.waitlist_promoted")
def on_waitlist_promoted(sender: Any, entrant: Entrant, **kwargs: Any) -> None:
    event = entrant.event
    notify(users=_member_users([entrant.pk]).get(entrant.pk, ()),
           kind=Notification.Kind.WAITLIST_PROMOTED,
           text=f"You were moved off the waitlist: {entrant.name} is in {event.name}.",
           url=reverse("tournaments:event-detail", args=[event.slug]),
           subject=f"entrant:{entrant.pk}")
