"""Writes for matches: creation, log submission, verification, confirmation, overrides.

Each flow locks the match row first (then any run row), so concurrent submissions, verifications
and confirmations of one match are serialised and a result is applied exactly once.
"""

from matches.services.batches import BatchProgress, batch_progress, logs_reverify_bulk
from matches.services.matches import match_create, match_user_side
from matches.services.recorded import match_log_record_from_room, match_room_log_refused
from matches.services.results import (
    LOG_UNNAMED,
    match_cancel,
    match_log_confirm,
    match_log_dispute,
    match_result_override,
    match_settle,
)
from matches.services.reverification import logs_judged_by_older_engine, logs_reverify_stale
from matches.services.solo import solo_run_submit
from matches.services.submission import MAX_LOG_BYTES, SubmissionOutcome, match_log_submit
from matches.services.verification import (
    match_log_verify,
    match_run_requeue,
    verdict_change_record,
    verdict_change_review,
)

__all__ = [
    "LOG_UNNAMED",
    "MAX_LOG_BYTES",
    "BatchProgress",
    "SubmissionOutcome",
    "batch_progress",
    "logs_judged_by_older_engine",
    "logs_reverify_bulk",
    "logs_reverify_stale",
    "match_cancel",
    "match_create",
    "match_log_confirm",
    "match_log_dispute",
    "match_log_record_from_room",
    "match_log_submit",
    "match_log_verify",
    "match_result_override",
    "match_room_log_refused",
    "match_run_requeue",
    "match_settle",
    "match_user_side",
    "solo_run_submit",
    "verdict_change_record",
    "verdict_change_review",
]
