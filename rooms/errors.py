"""Errors of the room services: a stable code and a sentence a player understands."""

from __future__ import annotations

from enum import StrEnum


class RoomErrorCode(StrEnum):
    NOT_FOUND = "not_found"
    NOT_ALLOWED = "not_allowed"
    NOT_YOUR_SEAT = "not_your_seat"
    NOT_YOUR_TURN = "not_your_turn"
    ILLEGAL = "illegal"
    STALE = "stale"
    BAD_REQUEST = "bad_request"
    BAD_FRAME = "bad_frame"  # not a room message: binary, too large, not JSON, too deep
    RATE_LIMITED = "rate_limited"
    UNKNOWN_BOT = "unknown_bot"
    FINISHED = "finished"
    PICKS_PENDING = "picks_pending"


class RoomError(Exception):
    def __init__(self, code: RoomErrorCode, message: str, **extra: object) -> None:
        super().__init__(message)
        self.code = code
        self.message = message
        self.extra = extra

    @property
    def data(self) -> dict[str, object]:
        return {"code": self.code.value, "reason": self.message, **self.extra}
