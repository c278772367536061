"""Verifying a log in a worker: idempotent, and safe when a worker dies half-way.

The run is marked RUNNING in its own transaction (so progress is visible), the engine replays the
log with no database access, and the verdict is stored with the match locked. A redelivered task
whose run already finished does nothing; one whose run is still RUNNING (its worker died) replays
again. An illegal log is a stored result, never an exception to retry.
"""

from __future__ import annotations

import logging
import time
import traceback
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import DataError, IntegrityError, transaction
from django.utils import timezone

from matches import engine
from matches.dispatch import task_send_on_commit
from matches.models import AuditEntry, Match, MatchLog, VerdictChange, VerificationRun
from matches.services.matches import match_authorize_manager
from matches.services.results import match_result_listeners_on_commit, match_settle
from matches.status import match_status_change, run_status_change
from matches.storable import json_storable
from matches.verdicts import verdict_view

logger = logging.getLogger(__name__)
RS = VerificationRun.Status
# A run started this many times without a verdict is given up (stored as an engine error).
MAX_ATTEMPTS = 5

VERDICT_STATUS_TO_RUN = {
    "legal": RS.LEGAL,
    "illegal": RS.ILLEGAL,
    "result_mismatch": RS.RESULT_MISMATCH,
    "unverifiable": RS.UNVERIFIABLE,
    "unreadable": RS.ILLEGAL,
    "engine_error": RS.ERROR,
}


def _engine_verdict(text: str) -> dict[str, Any]:
    try:
        return engine.log_verdict(text)
    except Exception as exc:  # the engine is pure: anything it raises is our bug
        logger.exception("rules engine failed on a log")
        return {
            "status": "engine_error",
            "error": {
                "kind": exc.__class__.__name__,
                "message": str(exc),
                "traceback": traceback.format_exc(limit=20),
            },
            "engine_version": engine.ENGINE_VERSION,
        }


def _storage_error_verdict(exc: BaseException) -> dict[str, Any]:
    return {
        "status": "engine_error",
        "error": {
            "kind": "storage_error",
            "message": json_storable(f"the verdict could not be stored: {exc.__class__.__name__}: "
                                     f"{str(exc)[:500]}"),
        },
        "engine_version": engine.ENGINE_VERSION,
    }


def _gave_up_verdict(attempts: int) -> dict[str, Any]:
    return {
        "status": "engine_error",
        "error": {
            "kind": "gave_up",
            "message": f"verification did not finish in {attempts} attempts (each worker died "
                       "or timed out); an organizer can re-verify the log",
        },
        "engine_version": engine.ENGINE_VERSION,
    }


def _verdict_store(run_id: int, match_id: int, verdict: dict[str, Any],
                   duration_ms: int | None) -> VerificationRun:
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match_id)
        run = VerificationRun.objects.select_for_update().get(pk=run_id)
        if run.is_finished:
            return run  # a duplicate delivery finished first
        run_status_change(run, VERDICT_STATUS_TO_RUN.get(verdict.get("status", ""), RS.ERROR))
        run.verdict = verdict
        run.engine_version = str(verdict.get("engine_version") or engine.ENGINE_VERSION)
        run.duration_ms = duration_ms
        run.finished_at = timezone.now()
        run.save(update_fields=["status", "verdict", "engine_version", "duration_ms",
                                "finished_at"])
        became_confirmed = match_settle(match)
        if (not became_confirmed and match.status == Match.Status.CONFIRMED
                and match.result_log_id == run.log_id):
            match_result_listeners_on_commit(match)  # a new verdict on a final result's log
            verdict_change_record(match=match, run=run)
    return run


def _outcome(status: str, verdict: dict[str, Any]) -> dict[str, Any]:
    """What a verdict says about a result: its status, the winner it gives, and in words."""
    final = verdict.get("final") or {}
    return {"status": status, "winner": final.get("winner"),
            "engine_version": verdict.get("engine_version"),
            "summary": verdict_view(verdict).headline}


def verdict_change_record(*, match: Match, run: VerificationRun) -> VerdictChange | None:
    """A final result's log got a new verdict (a newer engine, an organizer's re-verification):
    if it says something else than the verdict the result stands on (another status or
    winner), record it for the organizers and in the audit log. The result itself is never
    changed here: a bracket moves only by an organizer's override (match locked by the caller).
    """
    previous = (
        VerificationRun.objects.filter(log_id=run.log_id, status__in=RS.values)
        .exclude(pk=run.pk)
        .filter(finished_at__isnull=False)
        .order_by("-finished_at", "-id")
        .first()
    )
    if previous is None:
        return None
    before, after = _outcome(previous.status, previous.verdict), _outcome(run.status, run.verdict)
    if (before["status"], before["winner"]) == (after["status"], after["winner"]):
        return None
    change = VerdictChange.objects.create(match=match, log_id=run.log_id, run=run,
                                          before=json_storable(before),
                                          after=json_storable(after))
    AuditEntry.objects.create(match=match, action=AuditEntry.Action.VERDICT_CHANGED,
                              before=change.before, after=change.after)
    return change


def verdict_change_review(*, change: VerdictChange, user: AbstractBaseUser,
                          note: str = "") -> VerdictChange:
    """An organizer has looked at a verdict change (and overridden the result, or kept it)."""
    with transaction.atomic():
        change = VerdictChange.objects.select_for_update().select_related("match").get(
            pk=change.pk)
        match_authorize_manager(change.match, user, "review a verdict change")
        if change.reviewed_at is None:
            change.reviewed_by, change.reviewed_at = user, timezone.now()
            change.review_note = note
            change.save(update_fields=["reviewed_by", "reviewed_at", "review_note"])
            AuditEntry.objects.create(match=change.match, actor=user,
                                      action=AuditEntry.Action.VERDICT_CHANGE_REVIEWED,
                                      reason=note, after={"change": change.pk})
    return change


def match_log_verify(*, run_id: int) -> VerificationRun:
    """Replay the run's log and store the verdict; a finished run is returned unchanged.

    Whatever happens, the run ends finished: a verdict the database refuses (a data error, not an
    outage) is stored as an ``engine_error`` verdict instead, and a run that was started
    ``MAX_ATTEMPTS`` times without finishing (its workers kept dying) is given up as one. Outages
    (the database unreachable or refusing writes) propagate: the task retries what Celery can,
    and the sweeper sends the still-unfinished run again later.
    """
    with transaction.atomic():
        run = VerificationRun.objects.select_for_update().get(pk=run_id)
        if run.is_finished:
            return run
        run_status_change(run, RS.RUNNING)
        run.attempts += 1
        run.started_at = timezone.now()
        run.save(update_fields=["status", "attempts", "started_at"])
    text, match_id = MatchLog.objects.values_list("text", "match_id").get(pk=run.log_id)
    if run.attempts > MAX_ATTEMPTS:
        return _verdict_store(run_id, match_id, _gave_up_verdict(run.attempts - 1), None)
    started = time.perf_counter()
    verdict = json_storable(_engine_verdict(text))
    duration_ms = round((time.perf_counter() - started) * 1000)
    try:
        return _verdict_store(run_id, match_id, verdict, duration_ms)
    except (DataError, IntegrityError, ValueError) as exc:  # refused data: a retry cannot help
        logger.exception("verdict of run %s refused by the database", run_id)
        return _verdict_store(run_id, match_id, _storage_error_verdict(exc), duration_ms)


def match_run_requeue(
    *, log: MatchLog, requested_by: AbstractBaseUser | None = None
) -> VerificationRun:
    """A new verification run for a log (organizers' re-verification); queued on commit."""
    from matches.tasks import match_log_verify_task

    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=log.match_id)
        run = VerificationRun.objects.create(
            log=log, requested_by=requested_by, enqueued_at=timezone.now()
        )
        if match.status in (Match.Status.AWAITING_LOG, Match.Status.AWAITING_CONFIRMATION):
            match_status_change(match, Match.Status.VERIFYING)
            match.save(update_fields=["status", "updated_at"])
        AuditEntry.objects.create(
            match=match, actor=requested_by, action=AuditEntry.Action.REVERIFY_REQUESTED,
            after={"log": log.pk, "run": run.pk},
        )
        task_send_on_commit(f"verification of run {run.pk}",
                            lambda: match_log_verify_task.delay(run.pk))
    return run
