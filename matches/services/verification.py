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
from django.db import transaction
from django.utils import timezone

from matches import engine
from matches.models import AuditEntry, Match, MatchLog, VerificationRun
from matches.services.results import match_result_listeners_on_commit, match_settle
from matches.status import match_status_change, run_status_change

logger = logging.getLogger(__name__)
RS = VerificationRun.Status

VERDICT_STATUS_TO_RUN = {
    "legal": RS.LEGAL,
    "illegal": RS.ILLEGAL,
    "result_mismatch": RS.RESULT_MISMATCH,
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


def match_log_verify(*, run_id: int) -> VerificationRun:
    """Replay the run's log and store the verdict; a finished run is returned unchanged."""
    with transaction.atomic():
        run = VerificationRun.objects.select_for_update().get(pk=run_id)
        if run.is_finished:
            return run
        run_status_change(run, RS.RUNNING)
        run.attempts += 1
        run.started_at = timezone.now()
        run.save(update_fields=["status", "attempts", "started_at"])
    text, match_id = MatchLog.objects.values_list("text", "match_id").get(pk=run.log_id)
    started = time.perf_counter()
    verdict = _engine_verdict(text)
    duration_ms = round((time.perf_counter() - started) * 1000)
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
    return run


def match_run_requeue(
    *, log: MatchLog, requested_by: AbstractBaseUser | None = None
) -> VerificationRun:
    """A new verification run for a log (organizers' re-verification); queued on commit."""
    from matches.tasks import match_log_verify_task

    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=log.match_id)
        run = VerificationRun.objects.create(log=log, requested_by=requested_by)
        if match.status in (Match.Status.AWAITING_LOG, Match.Status.AWAITING_CONFIRMATION):
            match_status_change(match, Match.Status.VERIFYING)
            match.save(update_fields=["status", "updated_at"])
        AuditEntry.objects.create(
            match=match, actor=requested_by, action=AuditEntry.Action.REVERIFY_REQUESTED,
            after={"log": log.pk, "run": run.pk},
        )
        transaction.on_commit(lambda: match_log_verify_task.delay(run.pk))
    return run
