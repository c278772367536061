"""Submitting a match log: read it at once, store it exactly as sent, verify it in a worker."""

from __future__ import annotations

import hashlib
from dataclasses import dataclass

from django.contrib.auth.models import AbstractBaseUser
from django.db import transaction
from django.utils import timezone

from matches import engine
from matches.dispatch import task_send_on_commit
from matches.errors import MatchError, MatchErrorCode
from matches.models import AuditEntry, LogEndorsement, Match, MatchLog, VerificationRun
from matches.owners import owners
from matches.services.matches import match_authorize_player_or_manager
from matches.services.results import match_settle
from matches.status import match_status_change

MAX_LOG_BYTES = 2 * 1024 * 1024  # 2 MB: a long Versus game is well under 200 kB
# What one match may store (issue 31): a match's logs are its players' claims and corrections,
# a handful; more is someone filling the database through one match.
MAX_LOGS_PER_MATCH = 20
MAX_MATCH_BYTES = 10 * 1024 * 1024


@dataclass(frozen=True)
class SubmissionOutcome:
    log: MatchLog
    is_new: bool  # False: the same content was already stored for this match
    run: VerificationRun | None  # the verification queued for a new log


def log_text_decode(log_bytes: bytes) -> tuple[str, str]:
    """Check the size, encoding, parse and schema; return (text, the log's mode) or raise a
    MatchError naming what is wrong and where."""
    text, readable = log_text_read(log_bytes)
    return text, readable.mode


def log_text_read(log_bytes: bytes) -> tuple[str, engine.ReadableLog]:
    """``log_text_decode``, returning what was read (the mode, the characters): the text is
    decoded and parsed once."""
    size = len(log_bytes)
    if size > MAX_LOG_BYTES:
        raise MatchError(
            MatchErrorCode.LOG_TOO_LARGE,
            f"the log is {size:,} bytes; the limit is {MAX_LOG_BYTES:,} bytes (2 MB)",
            size_bytes=size, limit_bytes=MAX_LOG_BYTES,
        )
    try:
        text = log_bytes.decode("utf-8")
    except UnicodeDecodeError as exc:
        raise MatchError(
            MatchErrorCode.LOG_UNREADABLE,
            f"the log is not UTF-8 text (byte {exc.start})",
            json_path="$", reason="not UTF-8 text",
        ) from None
    try:
        readable = engine.log_check_readable(text)
    except engine.Unreadable as exc:
        raise MatchError(
            MatchErrorCode.LOG_UNREADABLE,
            f"the log cannot be read at {exc.json_path}: {exc.reason}",
            json_path=exc.json_path, reason=exc.reason,
        ) from None
    return text, readable


def match_log_submit(
    *, match: Match, submitted_by: AbstractBaseUser, log_bytes: bytes
) -> SubmissionOutcome:
    """Store a log for ``match`` and queue its verification once the transaction commits.

    Sending the same bytes again is the same submission (no new row). The opponent sending the
    identical log counts as their confirmation (docs/architecture.md, the flow of a match).
    """
    # Who may submit is checked first (without the lock; again under it): reading a log is
    # work a stranger must not cause. Reading happens before any lock or write: a bad log is
    # refused with nothing stored.
    side = match_authorize_player_or_manager(match, submitted_by, "submit a log")
    text, readable = log_text_read(log_bytes)
    log_mode, log_characters = readable.mode, readable.characters
    sha256 = hashlib.sha256(log_bytes).hexdigest()
    with transaction.atomic():
        # (a match's players never change: a set whose entrants change cancels its match)
        match = Match.objects.select_for_update().get(pk=match.pk)
        if log_mode != match.mode:
            raise MatchError(
                MatchErrorCode.LOG_MODE_MISMATCH,
                f"the log records a {log_mode} game ($.mode) but this match is "
                f"{match.get_mode_display()}",
                json_path="$.mode", log_mode=log_mode, match_mode=match.mode,
            )
        for owner in owners():  # e.g. a set's character picks (tournaments)
            owner.log_characters_check(match, log_characters)
        if match.status == Match.Status.CANCELLED:
            raise MatchError(
                MatchErrorCode.MATCH_CLOSED,
                "the match was cancelled (its set changed entrants); open the set's match again",
                status=match.status,
            )
        if match.status in (Match.Status.CONFIRMED, Match.Status.DISPUTED):
            raise MatchError(
                MatchErrorCode.MATCH_CLOSED,
                f"the match is {match.get_status_display().lower()}; "
                "only an organizer can change its result now",
                status=match.status,
            )
        # The match row is locked, so a plain look-up then insert cannot race (and avoids the
        # savepoints get_or_create would cost on every submission).
        # (match, sha256) is unique: no ordering (the model's would join the match table). The
        # match's logs are few (capped below): one read gives both the duplicate and the cap.
        stored = dict(MatchLog.objects.filter(match=match).order_by()
                      .values_list("sha256", "size_bytes"))
        log = (MatchLog.objects.filter(match=match, sha256=sha256).order_by().first()
               if sha256 in stored else None)
        is_new = log is None
        if log is None:
            if (len(stored) >= MAX_LOGS_PER_MATCH
                    or sum(stored.values()) + len(log_bytes) > MAX_MATCH_BYTES):
                raise MatchError(
                    MatchErrorCode.MATCH_STORAGE_FULL,
                    f"this match already stores {len(stored)} logs "
                    f"({sum(stored.values()):,} bytes); a match keeps at most "
                    f"{MAX_LOGS_PER_MATCH} logs and {MAX_MATCH_BYTES:,} bytes: ask an "
                    "organizer to decide its result",
                    logs=len(stored), limit_logs=MAX_LOGS_PER_MATCH,
                    limit_bytes=MAX_MATCH_BYTES,
                )
            log = MatchLog.objects.create(
                match=match, sha256=sha256, text=text, size_bytes=len(log_bytes),
                submitted_by=submitted_by,
            )
        is_new_endorsement = (
            is_new or not log.endorsements.filter(user=submitted_by).exists()
        )
        if is_new_endorsement:
            LogEndorsement.objects.create(
                log=log, user=submitted_by, side=side, via=LogEndorsement.Via.SUBMISSION
            )
        run = None
        if is_new:
            run = VerificationRun.objects.create(
                log=log, requested_by=submitted_by, enqueued_at=timezone.now()
            )
            if match.status != Match.Status.VERIFYING:
                match_status_change(match, Match.Status.VERIFYING)
                match.save(update_fields=["status", "updated_at"])
            AuditEntry.objects.create(
                match=match, actor=submitted_by, action=AuditEntry.Action.LOG_SUBMITTED,
                after={"log": log.pk, "sha256": sha256, "size_bytes": log.size_bytes},
            )
            _verification_enqueue_on_commit(run.pk)
        elif is_new_endorsement:
            AuditEntry.objects.create(
                match=match, actor=submitted_by, action=AuditEntry.Action.LOG_CONFIRMED,
                after={"log": log.pk, "via": "identical submission"},
            )
            match_settle(match)
    return SubmissionOutcome(log=log, is_new=is_new, run=run)


def _verification_enqueue_on_commit(run_id: int) -> None:
    """Have the new run verified once the transaction commits: by the shared drain (a worker
    claims the pending runs and verifies them as one chunk; ``runs_drain_request``), or this
    run's own task when tasks run in-process (eager: nothing to batch)."""
    from celery import current_app

    from matches.services.verification import runs_drain_request
    from matches.tasks import match_log_verify_task

    if current_app.conf.task_always_eager:
        task_send_on_commit(
            f"verification of run {run_id}", lambda: match_log_verify_task.delay(run_id)
        )
    else:
        transaction.on_commit(lambda: runs_drain_request(f"verification of run {run_id}"))
