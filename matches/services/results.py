"""From verdicts to a match result: confirmation, disputes and organizer overrides.

``match_settle`` is the one place that decides a match's status from its logs and their latest
verification runs; every flow that changes a log, a run or an endorsement calls it with the match
row locked, so the result is applied exactly once.
"""

from __future__ import annotations

from functools import partial
from typing import Any

from celery import current_app
from django.conf import settings
from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from matches import engine
from matches.errors import MatchError, MatchErrorCode
from matches.models import (
    AuditEntry,
    Dispute,
    LogEndorsement,
    Match,
    MatchLog,
    VerificationRun,
)
from matches.services.matches import match_authorize_manager, match_user_side
from matches.status import match_status_change

MS = Match.Status
RS = VerificationRun.Status


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


def _result_snapshot(match: Match) -> dict[str, Any]:
    return {
        "status": match.status,
        "winner_side": match.winner_side,
        "is_draw": match.is_draw,
        "result_source": match.result_source,
        "result_log": match.result_log_id,
    }


def _send_on_commit(names: list[str], match_id: int) -> None:
    def send(name: str) -> None:
        if name not in current_app.tasks:
            current_app.loader.import_default_modules()  # task modules are discovered lazily
        current_app.tasks[name].delay(match_id)

    for name in names:
        transaction.on_commit(partial(send, name))


def match_result_listeners_on_commit(match: Match) -> None:
    """After commit, call every task named in ``settings.MATCH_RESULT_LISTENERS`` with the match.

    Listeners (the statistics) follow every result change of every match, and a new verdict on
    a final result's log: the result flows up without an upward import.
    """
    _send_on_commit(list(getattr(settings, "MATCH_RESULT_LISTENERS", ())), match.pk)


def _result_callback_on_commit(match: Match) -> None:
    """After commit, call the match's own callback task, then the site's listeners."""
    if match.result_callback_task:
        _send_on_commit([match.result_callback_task], match.pk)
    match_result_listeners_on_commit(match)


def _change(match: Match, new: str) -> None:
    if match.status != new:
        match_status_change(match, new)


def match_settle(match: Match) -> bool:
    """Recompute the status of a locked match from its logs; True if it became confirmed."""
    if match.status in (MS.CONFIRMED, MS.DISPUTED):
        return False
    latest = _latest_runs(match)
    logs = list(match.logs.defer("text").order_by("created_at", "id"))  # texts only if disputed
    legal = [log for log in logs if latest.get(log.pk) and latest[log.pk].status == RS.LEGAL]
    is_pending = any(run.status in (RS.PENDING, RS.RUNNING) for run in latest.values())
    became_confirmed = False
    if len(legal) >= 2:
        first, second = legal[0], legal[1]
        index, divergence = engine.logs_first_divergence(first.text, second.text)
        Dispute.objects.create(
            match=match, log_a=first, log_b=second,
            first_divergence_index=index, divergence=divergence,
        )
        _change(match, MS.DISPUTED)
        AuditEntry.objects.create(
            match=match, action=AuditEntry.Action.DISPUTE_OPENED,
            after={"logs": [first.pk, second.pk], "first_divergence_index": index},
        )
    elif len(legal) == 1:
        log = legal[0]
        sides = set(log.endorsements.exclude(side=None).values_list("side", flat=True))
        if sides >= {1, 2}:
            verdict = latest[log.pk].verdict
            winner_side = verdict_winner_side(verdict)
            _change(match, MS.CONFIRMED)
            match.winner_side = winner_side
            match.is_draw = winner_side is None
            match.result_source = Match.ResultSource.LOG
            match.result_log = log
            AuditEntry.objects.create(
                match=match, action=AuditEntry.Action.RESULT_CONFIRMED,
                after=_result_snapshot(match),
            )
            became_confirmed = True
        elif not is_pending:
            _change(match, MS.AWAITING_CONFIRMATION)
    elif is_pending:
        _change(match, MS.VERIFYING)
    else:
        _change(match, MS.AWAITING_LOG)
    match.save()
    if became_confirmed:
        _result_callback_on_commit(match)
    return became_confirmed


def _log_for_the_other_side(match: Match, side: int, doing: str) -> MatchLog:
    """The verified log waiting for ``side`` to confirm or dispute it; refuse anything else."""
    if match.status != MS.AWAITING_CONFIRMATION:
        raise MatchError(
            MatchErrorCode.NOTHING_TO_CONFIRM,
            f"the match is {match.get_status_display().lower()}: there is no verified log "
            f"waiting for you to {doing}",
            status=match.status,
        )
    latest = _latest_runs(match)
    log = next(
        (log for log in match.logs.all()
         if log.pk in latest and latest[log.pk].status == RS.LEGAL),
        None,
    )
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
    return log


def match_log_confirm(*, match: Match, user: AbstractBaseUser) -> Match:
    """The opponent confirms the verified log; the match result then becomes final.

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
        log = _log_for_the_other_side(match, side, "confirm")
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
        _result_callback_on_commit(match)
    return match


def match_log_dispute(*, match: Match, user: AbstractBaseUser, reason: str) -> Dispute:
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
        log = _log_for_the_other_side(match, side, "dispute")
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
