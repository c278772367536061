"""What a room's websocket reads before any work: the frame (size, JSON, depth, numbers) and
the sender's rate, per connection and per address (issue 31; docs/security.md).

A frame is checked in this order, each step cheaper than the next: the rate (a counter), the
kind (text only), the size (the length), then the JSON (bounded numbers, a bounded depth). Any
failure is a ``RoomError`` the consumer sends back as a refusal; nothing reaches the database.
Counting is the ``limits`` library's, in this process's memory: an ASGI process counts its own
connections (docs/security.md says what that means behind several processes).
"""

from __future__ import annotations

import json
from functools import lru_cache
from typing import Any

from django.conf import settings
from limits import RateLimitItem, parse
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter

from rooms.errors import RoomError, RoomErrorCode

# A choice is a few hundred bytes; the largest (a Tag Team lineup) well under 1 kB.
MAX_FRAME_CHARS = 4096
# {"type", "action": {"cards": [...]}}: three levels; more is not a room message.
MAX_DEPTH = 6
MAX_NUMBER_DIGITS = 20  # a seat's choice never holds a number larger than a 64-bit seed


@lru_cache(maxsize=1)
def _limiter() -> FixedWindowRateLimiter:
    return FixedWindowRateLimiter(MemoryStorage())


@lru_cache(maxsize=8)
def _rate(text: str) -> RateLimitItem:
    return parse(text)


def rate_allows(kind: str, key: str) -> bool:
    """Count one message (``kind``: "message_connection", "message_address" or "connect") for
    ``key``; False when the rate in ``settings.YOMI_ROOM_RATES`` is used up."""
    rate = settings.YOMI_ROOM_RATES.get(kind, "")
    if not rate or not getattr(settings, "YOMI_RATE_LIMITS_ENABLED", True):
        return True
    return _limiter().hit(_rate(rate), "room", kind, key)


def _bounded_int(text: str) -> int:
    if len(text.lstrip("-")) > MAX_NUMBER_DIGITS:
        raise ValueError(f"a number of {len(text)} digits (at most {MAX_NUMBER_DIGITS})")
    return int(text)


def _constant(name: str) -> Any:
    raise ValueError(f"{name} is not JSON")


def _too_deep(value: Any) -> bool:
    """Whether ``value`` nests deeper than MAX_DEPTH (iterative: no recursion to exhaust)."""
    level: list[Any] = [value]
    for _ in range(MAX_DEPTH):
        level = [child for item in level if isinstance(item, dict | list)
                 for child in (item.values() if isinstance(item, dict) else item)]
        if not level:
            return False
    return any(isinstance(item, dict | list) for item in level)


def frame_read(text: str | None, binary: bytes | None) -> dict[str, Any]:
    """The message a frame holds, or a ``RoomError`` naming what is wrong with it."""
    if text is None:
        raise RoomError(RoomErrorCode.BAD_FRAME,
                        "binary frames are not read: send a JSON object as text")
    if len(text) > MAX_FRAME_CHARS:
        raise RoomError(RoomErrorCode.BAD_FRAME,
                        f"the message is {len(text):,} characters; at most "
                        f"{MAX_FRAME_CHARS:,} are read")
    # nesting deeper than the frame's length allows cannot be built in 4 kB anyway, so the
    # parser's own recursion stays shallow; the depth is checked on the parsed value
    try:
        content = json.loads(text, parse_int=_bounded_int, parse_constant=_constant)
    except (ValueError, RecursionError) as exc:
        raise RoomError(RoomErrorCode.BAD_FRAME, f"the message is not JSON: {exc}") from None
    if not isinstance(content, dict):
        raise RoomError(RoomErrorCode.BAD_FRAME,
                        f"send a JSON object, not {type(content).__name__}")
    if _too_deep(content):
        raise RoomError(RoomErrorCode.BAD_FRAME,
                        f"the message nests deeper than {MAX_DEPTH} levels")
    return content
