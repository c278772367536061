"""From verdicts to a match result: confirmation, disputes and organizer overrides.

``match_settle`` is the one place that decides a match's status from its logs and their latest
verification runs; every flow that changes a log, a run or an endorsement calls it with the match
row locked, so the result is applied exactly once.
"""

from __future__ import annotations

from dataclasses import dataclass
from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from matches import engine
from matches.bulk import rows_update
from matches.dispatch import task_send_on_commit
from matches.errors import MatchError, MatchErrorCode
from matches.models import (
    SOLO_MODES,
    AuditEntry,
    Dispute,
    LogEndorsement,
    Match,
    MatchLog,
    VerificationRun,
)
from matches.owners import owners
from matches.services.matches import match_authorize_manager, match_user_side
from matches.status import match_status_change
from matches.storable import json_storable

MS = Match.Status
RS = VerificationRun.Status
RS_ENDORSABLE = VerificationRun.ENDORSABLE_STATUSES


def _latest_runs(match: Match) -> dict[int, VerificationRun]:
    """Each log's newest run; verdicts (large JSON) are loaded only when read."""
    latest: dict[int, VerificationRun] = {}
    runs = VerificationRun.objects.filter(log__match=match).defer("verdict")
    for run in runs.order_by("-created_at", "-id"):
        latest.setdefault(run.log_id, run)
    return latest


def verdict_winner_side(verdict: dict[str, Any]) -> int | None:
    """Side 1 is the log's P1, side 2 its P2; None is a draw."""
    winner = (verdict.get("final") or {}).get("winner")
    return {"P1": 1, "P2": 2}.get(winner) if winner else None


def _endorsing_sides(log_ids: list[int]) -> dict[int, set[int | None]]:
    """For each log, the sides that vouch for it (None: an organizer or staff)."""
    sides: dict[int, set[int | None]] = {log_id: set() for log_id in log_ids}
    rows = LogEndorsement.objects.filter(log_id__in=log_ids).values_list("log_id", "side")
    for log_id, side in rows:
        sides[log_id].add(side)
    return sides


def _clashing_pair(
    legal: list[MatchLog], sides_of: dict[int, set[int | None]]
) -> tuple[MatchLog, MatchLog] | None:
    """Two different legal logs vouched for by different parties, older first; else None.

    A dispute needs two parties who disagree: one side sending two different logs (or the same
    organizer twice) only replaces its own claim (the newest one waits for the other side), so a
    player cannot force a dispute in their own match alone. Each party's newest claim counts:
    ``legal`` is in submission order, so the pairs are searched from the newest log back.
    """
    newest_first = legal[::-1]
    for i, later in enumerate(newest_first):
        for earlier in newest_first[i + 1:]:
            if len(sides_of[later.pk] | sides_of[earlier.pk]) >= 2:
                return earlier, later
    return None


def claimed_winner_side(verdict: dict[str, Any]) -> int | None:
    """The winner the log claims (a log the engine cannot verify yet): side 1 is its P1."""
    winner = (verdict.get("claimed") or {}).get("winner")
    return {"P1": 1, "P2": 2}.get(winner) if winner else None


def _result_snapshot(match: Match) -> dict[str, Any]:
    return {
        "status": match.status,
        "winner_side": match.winner_side,
        "is_draw": match.is_draw,
        "result_source": match.result_source,
        "result_log": match.result_log_id,
    }


def _result_callback_on_commit(match: Match) -> None:
    """Mark the match's result callback as owed (same transaction), and send it after commit.

    The mark is the outbox: if the broker is down the send is dropped, the mark stays, and the
    sweeper sends it again; ``match_result_callback_run`` clears it once the callback has run.
    The site's listeners (statistics) are told too.
    """
    match_result_listeners_on_commit(match)
    if not match.result_callback_task:
        return
    from matches.tasks import match_result_callback_task

    match.result_callback_pending_since = timezone.now()
    Match.objects.filter(pk=match.pk).update(
        result_callback_pending_since=match.result_callback_pending_since
    )
    match_id = match.pk
    task_send_on_commit(
        f"result callback of match {match_id}", lambda: match_result_callback_task.delay(match_id)
    )


def match_result_callback_run(*, match_id: int) -> bool:
    """Run the task the match names for its result, in this process; clear the outbox mark.

    The named task must be idempotent (the tournaments one records a game exactly once): a
    callback may run twice when a worker dies after it ran but before the mark was cleared.
    Returns False when nothing was owed.
    """
    row = (
        Match.objects.filter(pk=match_id)
        .values_list("result_callback_task", "result_callback_pending_since")
        .first()
    )
    if row is None or row[1] is None or not row[0]:
        return False
    name, pending_since = row
    if name not in current_app.tasks:
        current_app.loader.import_default_modules()  # task modules are discovered lazily
    current_app.tasks[name](match_id)  # calling a task runs it here, synchronously
    # Only the mark this run saw: a newer result change (an override meanwhile) stays owed.
    Match.objects.filter(pk=match_id, result_callback_pending_since=pending_since).update(
        result_callback_pending_since=None
    )
    return True


def match_result_listeners_on_commit(match: Match) -> None:
    """After commit, call every task named in ``settings.MATCH_RESULT_LISTENERS`` with the match.

    Listeners (the statistics) follow every result change of every match, and a new verdict on
    a final result's log: the result flows up without an upward import. A send lost to a broker
    outage is logged; a listener can always be rebuilt from the stored results
    (``stats_rebuild``).
    """
    match_id = match.pk
    for name in getattr(settings, "MATCH_RESULT_LISTENERS", ()):
        task_send_on_commit(f"{name} for match {match_id}", partial(_send_task, name, match_id))


def _send_task(name: str, match_id: int) -> None:
    if name not in current_app.tasks:
        current_app.loader.import_default_modules()  # task modules are discovered lazily
    current_app.tasks[name].delay(match_id)


def _change(match: Match, new: str) -> None:
    if match.status != new:
        match_status_change(match, new)


@dataclass(frozen=True)
class _MatchLogs:
    """What settling a match reads: its logs (oldest first, texts deferred), each log's newest
    run (verdicts deferred), and who vouches for each log."""

    logs: list[MatchLog]
    latest: dict[int, VerificationRun]
    sides_of: dict[int, set[int | None]]


def _matches_logs(match_ids: list[int]) -> dict[int, _MatchLogs]:
    """``_MatchLogs`` of many matches in three queries."""
    logs: dict[int, list[MatchLog]] = {pk: [] for pk in match_ids}
    for log in MatchLog.objects.filter(match_id__in=match_ids).defer("text").order_by(
            "created_at", "id"):  # texts only if disputed
        logs[log.match_id].append(log)
    latest: dict[int, VerificationRun] = {}
    log_ids = [log.pk for found in logs.values() for log in found]
    if log_ids:
        for run in VerificationRun.objects.filter(log_id__in=log_ids).defer("verdict").order_by(
                "-created_at", "-id"):
            latest.setdefault(run.log_id, run)
    sides_of = _endorsing_sides([
        log_id for log_id, run in latest.items() if run.status in RS_ENDORSABLE])
    return {pk: _MatchLogs(found, {log.pk: latest[log.pk] for log in found if log.pk in latest},
                           sides_of) for pk, found in logs.items()}


def match_settle(match: Match) -> bool:
    """Recompute the status of a locked match from its logs; True if it became confirmed."""
    if match.status in (MS.CONFIRMED, MS.DISPUTED, MS.CANCELLED):
        return False
    became_confirmed = _settle(match, _matches_logs([match.pk])[match.pk])
    match.save()
    if became_confirmed:
        _result_callback_on_commit(match)
    return became_confirmed


# What settling may change on a match (``match_settle_many`` writes these, and only these).
SETTLED_FIELDS = ["status", "winner_side", "is_draw", "result_source", "result_log",
                  "updated_at"]


def match_settle_many(matches: list[Match]) -> None:
    """``match_settle`` for many locked matches (a chunk of verifications): their logs, runs
    and endorsements read in three queries, the matches written by one UPDATE."""
    open_matches = [m for m in matches
                    if m.status not in (MS.CONFIRMED, MS.DISPUTED, MS.CANCELLED)]
    if not open_matches:
        return
    known = _matches_logs([m.pk for m in open_matches])
    confirmed = [m for m in open_matches if _settle(m, known[m.pk])]
    now = timezone.now()
    for match in open_matches:
        match.updated_at = now  # as save() would (auto_now)
    if len(open_matches) == 1:
        open_matches[0].save(update_fields=SETTLED_FIELDS)
    else:
        rows_update(open_matches, SETTLED_FIELDS)
    for match in confirmed:
        _result_callback_on_commit(match)


def _settle(match: Match, known: _MatchLogs) -> bool:
    """Decide the match's status from what was read (the match is saved by the caller); True
    if it became confirmed."""
    latest, logs = known.latest, known.logs
    # logs that may become the result when both sides vouch: verified legal, or not verifiable
    # yet (a character or mode the engine does not play: the claimed result counts)
    legal = [log for log in logs
             if latest.get(log.pk) and latest[log.pk].status in RS_ENDORSABLE]
    is_pending = any(run.status in (RS.PENDING, RS.RUNNING) for run in latest.values())
    sides_of = known.sides_of
    became_confirmed = False
    needed = {1} if match.mode in SOLO_MODES else {1, 2}  # solo: the bot endorses nothing
    agreed = next((log for log in legal if sides_of[log.pk] >= needed), None)
    clash = _clashing_pair(legal, sides_of) if agreed is None else None
    if agreed is not None:
        verdict = VerificationRun.objects.values_list("verdict", flat=True).get(
            pk=latest[agreed.pk].pk
        )
        unverified = latest[agreed.pk].status == RS.UNVERIFIABLE
        winner_side = claimed_winner_side(verdict) if unverified else verdict_winner_side(verdict)
        _change(match, MS.CONFIRMED)
        match.winner_side = winner_side
        match.is_draw = winner_side is None
        match.result_source = (Match.ResultSource.UNVERIFIED_LOG if unverified
                               else Match.ResultSource.LOG)
        match.result_log = agreed
        AuditEntry.objects.create(
            match=match, action=AuditEntry.Action.RESULT_CONFIRMED,
            after=_result_snapshot(match),
        )
        became_confirmed = True
    elif clash is not None:
        first, second = clash
        index, divergence = engine.logs_first_divergence(first.text, second.text)
        Dispute.objects.create(
            match=match, log_a=first, log_b=second,
            first_divergence_index=index, divergence=json_storable(divergence),
        )
        _change(match, MS.DISPUTED)
        AuditEntry.objects.create(
            match=match, action=AuditEntry.Action.DISPUTE_OPENED,
            after={"logs": [first.pk, second.pk], "first_divergence_index": index},
        )
    elif legal and not is_pending:
        _change(match, MS.AWAITING_CONFIRMATION)
    elif is_pending:
        _change(match, MS.VERIFYING)
    else:
        _change(match, MS.AWAITING_LOG)
    return became_confirmed


# What the pages and the API pass when the request named no log (or no readable one).
LOG_UNNAMED = 0


def _log_for_the_other_side(match: Match, side: int, doing: str,
                            seen: int | None = None) -> MatchLog:
    """The verified log waiting for ``side`` to confirm or dispute it; refuse anything else,
    and refuse if it is not ``seen`` (the log the player read: a confirmation is bound to it,
    so a log swapped in after the page was opened is never confirmed unread)."""
    if match.status != MS.AWAITING_CONFIRMATION:
        raise MatchError(
            MatchErrorCode.NOTHING_TO_CONFIRM,
            f"the match is {match.get_status_display().lower()}: there is no verified log "
            f"waiting for you to {doing}",
            status=match.status,
        )
    latest = _latest_runs(match)
    log = next(
        (log for log in match.logs.order_by("-created_at", "-id")
         if log.pk in latest and latest[log.pk].status in RS_ENDORSABLE),
        None,
    )  # the newest: a side that sent two legal logs stands by its latest
    if log is None:
        raise MatchError(
            MatchErrorCode.NOTHING_TO_CONFIRM,
            "the log is being verified again; wait for the new verdict",
        )
    if log.endorsements.filter(side=side).exists():
        raise MatchError(
            MatchErrorCode.NOTHING_TO_CONFIRM,
            f"your side vouched for this log; the other side may {doing} it",
        )
    if seen == LOG_UNNAMED:
        raise MatchError(
            MatchErrorCode.LOG_CHANGED,
            f"name the log you {doing} (log: its id, {log.pk} now): a confirmation or a "
            "dispute is bound to the log its sender read",
            log=log.pk,
        )
    if seen is not None and log.pk != seen:
        raise MatchError(
            MatchErrorCode.LOG_CHANGED,
            f"the log waiting for you changed since you read it (log {log.pk}, not {seen}): "
            f"read the new one before you {doing} it",
            log=log.pk, seen=seen,
        )
    return log


def match_log_confirm(*, match: Match, user: AbstractBaseUser, log_id: int | None = None) -> Match:
    """The opponent confirms the verified log; the match result then becomes final.
    ``log_id``: the log the confirmer read (the pages and the API always send it); another
    log waiting instead is refused (LOG_CHANGED).

    Repeating a confirmation that already took effect changes nothing (retries are safe).
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        side = match_user_side(match, user)
        if side is None:
            raise MatchError(
                MatchErrorCode.NOT_ALLOWED, "only a player of the other side may confirm a log"
            )
        if (
            match.status == MS.CONFIRMED
            and match.result_log is not None
            and match.result_log.endorsements.filter(user=user).exists()
        ):
            return match  # already confirmed by this user: a retry changes nothing
        log = _log_for_the_other_side(match, side, "confirm", log_id)
        LogEndorsement.objects.create(
            log=log, user=user, side=side, via=LogEndorsement.Via.CONFIRMATION
        )
        AuditEntry.objects.create(
            match=match, actor=user, action=AuditEntry.Action.LOG_CONFIRMED,
            after={"log": log.pk, "via": "confirmation"},
        )
        match_settle(match)
    return match


def match_result_override(
    *,
    match: Match,
    actor: AbstractBaseUser,
    winner_side: int | None,
    is_draw: bool = False,
    reason: str,
    log: MatchLog | None = None,
) -> Match:
    """An organizer sets or corrects the result, with a reason; recorded in the audit log."""
    if not reason.strip():
        raise MatchError(MatchErrorCode.REASON_REQUIRED, "say why the result is overridden")
    if is_draw == (winner_side is not None) or winner_side not in (None, 1, 2):
        raise MatchError(
            MatchErrorCode.INVALID_RESULT, "give either the winning side (1 or 2) or a draw"
        )
    with transaction.atomic():
        for owner in owners():
            owner.result_override_lock(match)
        match = Match.objects.select_for_update().get(pk=match.pk)
        match_authorize_manager(match, actor, "override a result")
        if log is not None and log.match_id != match.pk:
            raise MatchError(MatchErrorCode.INVALID_RESULT, "that log belongs to another match")
        before = _result_snapshot(match)
        match_status_change(match, MS.CONFIRMED)
        match.winner_side = winner_side
        match.is_draw = is_draw
        match.result_source = Match.ResultSource.OVERRIDE
        match.result_log = log
        match.save()
        match.disputes.filter(status=Dispute.Status.OPEN).update(
            status=Dispute.Status.RESOLVED, resolved_by=actor, resolution=reason,
            resolved_at=timezone.now(),
        )
        AuditEntry.objects.create(
            match=match, actor=actor, action=AuditEntry.Action.RESULT_OVERRIDDEN,
            reason=reason, before=before, after=_result_snapshot(match),
        )
        # Where the result goes (an event's set) takes it now or refuses the whole override.
        for owner in owners():
            owner.result_override_apply(match, actor)
        _result_callback_on_commit(match)
    return match


def match_log_dispute(*, match: Match, user: AbstractBaseUser, reason: str,
                      log_id: int | None = None) -> Dispute:
    """The other side contests the verified log waiting for their confirmation.

    The match becomes disputed and an organizer decides (``match_result_override``).
    """
    if not reason.strip():
        raise MatchError(MatchErrorCode.REASON_REQUIRED, "say what is wrong with the log")
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        side = match_user_side(match, user)
        if side is None:
            raise MatchError(
                MatchErrorCode.NOT_ALLOWED, "only a player of the other side may dispute a log"
            )
        log = _log_for_the_other_side(match, side, "dispute", log_id)
        dispute = Dispute.objects.create(
            match=match, log_a=log, opened_by=user, reason=reason.strip()
        )
        match_status_change(match, MS.DISPUTED)
        match.save(update_fields=["status", "updated_at"])
        AuditEntry.objects.create(
            match=match, actor=user, action=AuditEntry.Action.DISPUTE_OPENED, reason=reason,
            after={"logs": [log.pk], "dispute": dispute.pk},
        )
    return dispute


def match_cancel(*, match: Match, reason: str, actor: AbstractBaseUser | None = None) -> bool:
    """Cancel an unfinished match its owner no longer needs; False if it already has a result.

    Called by the owner (tournaments) when the match's set changed entrants: the match's players
    are no longer the set's, so its result must never be credited. Logs and verdicts stay.
    """
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if match.status in (MS.CONFIRMED, MS.CANCELLED):
            return False
        before = _result_snapshot(match)
        match_status_change(match, MS.CANCELLED)
        match.result_callback_task = ""
        match.result_callback_pending_since = None
        match.save(update_fields=[
            "status", "result_callback_task", "result_callback_pending_since", "updated_at",
        ])
        match.disputes.filter(status=Dispute.Status.OPEN).update(
            status=Dispute.Status.RESOLVED, resolved_by=actor, resolution=reason,
            resolved_at=timezone.now(),
        )
        AuditEntry.objects.create(
            match=match, actor=actor, action=AuditEntry.Action.MATCH_CANCELLED, reason=reason,
            before=before, after=_result_snapshot(match),
        )
    return True
