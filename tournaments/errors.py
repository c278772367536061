"""Errors that tournament services raise: a stable code, a readable message, structured extra."""

from __future__ import annotations

from enum import StrEnum
from typing import Any


class TournamentErrorCode(StrEnum):
    NOT_ORGANIZER = "not_organizer"
    NOT_YOUR_ENTRANT = "not_your_entrant"
    INVALID_TRANSITION = "invalid_transition"
    REGISTRATION_CLOSED = "registration_closed"
    ALREADY_REGISTERED = "already_registered"
    ROSTER_SIZE = "roster_size"
    LINEUP = "lineup"
    CHECK_IN_CLOSED = "check_in_closed"
    STAGE_STARTED = "stage_started"
    STAGE_NOT_READY = "stage_not_ready"
    TOO_FEW_ENTRANTS = "too_few_entrants"
    TOO_MANY_ENTRANTS = "too_many_entrants"
    SEEDING_INVALID = "seeding_invalid"
    SET_NOT_READY = "set_not_ready"
    SET_ALREADY_FINISHED = "set_already_finished"
    SET_NOT_FINISHED = "set_not_finished"
    RESULT_INVALID = "result_invalid"
    CONFIRMATION_REQUIRED = "confirmation_required"
    SWISS_COMPLETE = "swiss_complete"
    ROUND_NOT_FINISHED = "round_not_finished"
    OUTSIDE_WINDOW = "outside_window"
    INVALID = "invalid"


class TournamentError(Exception):
    def __init__(self, code: TournamentErrorCode, message: str, **extra: Any) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    def as_dict(self) -> dict[str, Any]:
        return {"code": str(self.code), "message": self.message, **self.extra}

    def __str__(self) -> str:
        return self.message
