"""Errors the matches services raise: a stable code, a message a person understands, details.

Views turn them into 4xx responses (never a 500); ``extra`` carries structured fields such as the
JSON path of an unreadable log.
"""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class MatchErrorCode(StrEnum):
    LOG_UNREADABLE = "log_unreadable"
    LOG_TOO_LARGE = "log_too_large"
    NOT_ALLOWED = "not_allowed"
    INVALID_TRANSITION = "invalid_transition"
    MATCH_CLOSED = "match_closed"
    NOTHING_TO_CONFIRM = "nothing_to_confirm"
    INVALID_RESULT = "invalid_result"
    REASON_REQUIRED = "reason_required"
    RESULT_NOT_APPLICABLE = "result_not_applicable"
    LOG_MODE_MISMATCH = "log_mode_mismatch"
    LOG_PICKS_MISMATCH = "log_picks_mismatch"
    RATE_LIMITED = "rate_limited"
    MATCH_STORAGE_FULL = "match_storage_full"  # the match holds as many logs as it may
    LOG_CHANGED = "log_changed"  # the log waiting for confirmation is not the one named


class MatchError(Exception):
    def __init__(self, code: MatchErrorCode, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    @property
    def data(self) -> dict[str, Any]:
        return {"code": self.code.value, "message": self.message, **self.extra}
