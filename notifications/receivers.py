"""What happens elsewhere and who is told.

The lower apps do not import this one (import-linter): matches' logs and disputes are seen
through ``post_save`` of their rows, sets becoming ready through ``tournaments.announcements``,
a waitlist promotion and a team invitation through ``tournaments.signals``, a refused log
through ``matches.signals``, reported scores, verdict changes and results a set could not take
through ``post_save``.
"""

from __future__ import annotations

from typing import Any

from django.db.models.signals import post_save
from django.dispatch import receiver
from django.urls import reverse

from matches.models import (
    AuditEntry,
    Dispute,
    Match,
    MatchLog,
    MatchSide,
    VerdictChange,
    VerificationRun,
)
from matches.signals import logs_refused
from matches.verdicts import verdict_view
from notifications.models import Notification
from notifications.services import notify
from tournaments.announcements import sets_ready
from tournaments.models import Entrant, EntrantMember, Event, Set, SetReport, SetResultChange
from tournaments.signals import team_invited, waitlist_promoted


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
    players, managers = _match_people(dispute.match_id)
    told = players | managers
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


def _match_people(match_id: int) -> tuple[set[int], set[int]]:
    """The users playing a match, and those managing it now (its own managers, and the
    organizers of the event whose set it plays)."""
    players = set(MatchSide.objects.filter(match_id=match_id)
                  .values_list("player__user_id", flat=True))
    managers = set(Match.managers.through.objects.filter(match_id=match_id)
                   .values_list("user_id", flat=True))
    managers |= set(Event.organizers.through.objects.filter(
        event__stages__sets__set_matches__match_id=match_id).values_list("user_id", flat=True))
    return players, managers


def _match_url(match_id: int) -> tuple[str, str]:
    """Where a match is followed: its set's page for an event's match, else the match page;
    and the words naming it."""
    s = (Set.objects.filter(set_matches__match_id=match_id).select_related("stage__event")
         .first())
    if s is None:
        return reverse("matches:match-detail", args=[match_id]), f"match {match_id}"
    event = s.stage.event
    return (reverse("tournaments:set-detail", args=[event.slug, s.pk]),
            f"{event.name}, {s.round_name or s.key} (match {match_id})")


@receiver(logs_refused, dispatch_uid="notifications.logs_refused")
def on_logs_refused(sender: Any, run_ids: list[int], **kwargs: Any) -> None:
    for run in VerificationRun.objects.filter(pk__in=run_ids).select_related("log"):
        players, managers = _match_people(run.log.match_id)
        url, what = _match_url(run.log.match_id)
        why = verdict_view(run.verdict or {}).headline
        notify(users=players | managers, kind=Notification.Kind.LOG_REFUSED,
               text=f"{what}: the log was refused ({why}). No result was recorded: send a "
                    "corrected log, or an organizer enters the result on the set's page.",
               url=url, subject=f"run:{run.pk}")


@receiver(post_save, sender=VerdictChange, dispatch_uid="notifications.verdict_changed")
def on_verdict_changed(sender: Any, instance: VerdictChange, created: bool,
                       **kwargs: Any) -> None:
    if not created:
        return
    change = instance
    players, managers = _match_people(change.match_id)
    url, what = _match_url(change.match_id)
    summary = (change.after or {}).get("summary") or (change.after or {}).get("status", "")
    text = (f"{what}: a newer verification of its result's log says something else "
            f"({summary}). The result stands until an organizer reviews it.")
    notify(users=players - managers, kind=Notification.Kind.VERDICT_CHANGED, text=text,
           url=url, subject=f"verdict-change:{change.pk}")
    notify(users=managers, kind=Notification.Kind.VERDICT_CHANGED,
           text=text + " Review it: override the result or keep it.",
           url=reverse("matches:verdict-changes"), subject=f"verdict-change:{change.pk}")


def _set_sides(s: Set) -> dict[str, set[int]]:
    members = _member_users([e for e in (s.entrant_a_id, s.entrant_b_id) if e])
    return {"a": members.get(s.entrant_a_id or 0, set()),
            "b": members.get(s.entrant_b_id or 0, set())}


@receiver(post_save, sender=SetReport, dispatch_uid="notifications.score_reported")
def on_score_reported(sender: Any, instance: SetReport, created: bool, **kwargs: Any) -> None:
    report = instance
    s = Set.objects.select_related("stage__event", "entrant_a", "entrant_b").get(
        pk=report.set_id)
    event = s.stage.event
    url = reverse("tournaments:set-detail", args=[event.slug, s.pk])
    where = f"{event.name}, {s.round_name or s.stage.name}"
    sides = _set_sides(s)
    reporter = s.entrant_a if report.side == "a" else s.entrant_b
    if created and report.status == SetReport.Status.PENDING:
        notify(users=sides["b" if report.side == "a" else "a"],
               kind=Notification.Kind.SCORE_REPORTED,
               text=f"{where}: {reporter.name if reporter else 'your opponent'} reported the "
                    "set's score: confirm it or dispute it.",
               url=url, subject=f"report:{report.pk}")
    elif report.status == SetReport.Status.DISPUTED:
        organizers = set(event.organizers.values_list("pk", flat=True))
        notify(users=sides[report.side] | organizers, kind=Notification.Kind.SCORE_DISPUTED,
               text=f"{where}: the score {reporter.name if reporter else 'a side'} reported "
                    f"was disputed ({report.reason[:120]}). An organizer decides the set.",
               url=url, subject=f"report:{report.pk}")


@receiver(team_invited, dispatch_uid="notifications.team_invited")
def on_team_invited(sender: Any, entrant: Entrant, invited: list[Any], **kwargs: Any) -> None:
    event = entrant.event
    notify(users=[p.user_id for p in invited if p.user_id],
           kind=Notification.Kind.TEAM_INVITATION,
           text=f"You were invited to {entrant.name} in {event.name}: accept or decline your "
                "place on the event's page.",
           url=reverse("tournaments:event-detail", args=[event.slug]),
           subject=f"entrant:{entrant.pk}")


@receiver(post_save, sender=AuditEntry, dispatch_uid="notifications.room_log_refused")
def on_room_log_refused(sender: Any, instance: AuditEntry, created: bool, **kwargs: Any) -> None:
    entry = instance
    if not created or entry.action != AuditEntry.Action.LOG_ROOM_REFUSED:
        return
    if (entry.after or {}).get("status") != Match.Status.AWAITING_LOG:
        return  # the match closed meanwhile (overridden, cancelled): nothing waits on the log
    players, managers = _match_people(entry.match_id)
    url, what = _match_url(entry.match_id)
    notify(users=players | managers, kind=Notification.Kind.LOG_REFUSED,
           text=f"{what}: the match room's log was refused ({entry.reason}). No result was "
                "recorded: the set's page says how to go on.",
           url=url, subject=f"audit:{entry.pk}")


@receiver(post_save, sender=SetResultChange, dispatch_uid="notifications.result_not_applied")
def on_result_not_applied(sender: Any, instance: SetResultChange, created: bool,
                          **kwargs: Any) -> None:
    """A confirmed match whose set could not take its result (its entrants changed, the set was
    decided another way): the players must not think it counted, the organizers must decide."""
    change = instance
    if not created or change.action != "match_not_applied":
        return
    match_id = (change.after or {}).get("match")
    if not isinstance(match_id, int):
        return
    players, managers = _match_people(match_id)  # managers: the event's organizers among them
    url, what = _match_url(match_id)
    text = (f"{what}: its confirmed result was not credited to the set ({change.reason}).")
    # in the set's transaction (``set_match_result_record``): told only if the change is kept
    notify(users=players - managers, kind=Notification.Kind.RESULT_NOT_APPLIED,
           text=text + " The event's organizers were told and decide the set.",
           url=url, subject=f"set-change:{change.pk}")
    notify(users=managers, kind=Notification.Kind.RESULT_NOT_APPLIED,
           text=text + " Decide the set: enter its result on the set's page.",
           url=url, subject=f"set-change:{change.pk}")
