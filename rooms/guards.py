"""What a room's websocket reads before any work: the frame (size, JSON, depth, numbers) and
the sender's rate, per connection and per address (issue 31; docs/security.md).

A frame is checked in this order, each step cheaper than the next: the rate (a counter), the
kind (text only), the size (the length), then the JSON (bounded numbers, a bounded depth). Any
failure is a ``RoomError`` the consumer sends back as a refusal; nothing reaches the database.

Counting is the ``limits`` library's fixed windows. A connection lives in one ASGI process, so
its own count stays in that process's memory (no network round trip per message). An address
may open connections to every process behind the proxy, so its counts (messages, connects) are
kept in Redis (``YOMI_ROOM_RATE_STORAGE``), one count across the processes; without Redis (the
embedded ``make run``) they are in memory, as is right for its one process. If Redis cannot be
reached the address counts fall back to this process's memory for ``SHARED_RETRY_SECONDS``
(logged once): a limit on abuse must not turn a Redis outage into refused players.
"""

from __future__ import annotations

import asyncio
import json
import logging
import time
import weakref
from functools import lru_cache
from typing import Any

import redis.exceptions
from django.conf import settings
from limits import RateLimitItem, parse
from limits.aio.storage import RedisStorage as SharedStorage
from limits.aio.strategies import FixedWindowRateLimiter as SharedRateLimiter
from limits.errors import StorageError
from limits.storage import MemoryStorage
from limits.strategies import FixedWindowRateLimiter
from redis.asyncio.retry import Retry
from redis.backoff import NoBackoff

from rooms.errors import RoomError, RoomErrorCode

logger = logging.getLogger(__name__)

# A choice is a few hundred bytes; the largest (a Tag Team lineup) well under 1 kB.
MAX_FRAME_CHARS = 4096
# {"type", "action": {"cards": [...]}}: three levels; more is not a room message.
MAX_DEPTH = 6
MAX_NUMBER_DIGITS = 20  # a seat's choice never holds a number larger than a 64-bit seed
# Counted per address, across the ASGI processes; "message_connection" is per connection.
SHARED_KINDS = frozenset({"message_address", "connect"})
# After Redis failed, the address counts stay in memory this long before Redis is asked again
# (an outage costs one slow check per this many seconds, not one per message).
SHARED_RETRY_SECONDS = 5.0
# A rate check waits at most this long for Redis (loopback answers in well under 1 ms).
SHARED_TIMEOUT_SECONDS = 0.25
SHARED_ERRORS = (StorageError, redis.exceptions.RedisError, OSError, asyncio.TimeoutError)


@lru_cache(maxsize=1)
def _limiter() -> FixedWindowRateLimiter:
    return FixedWindowRateLimiter(MemoryStorage())


@lru_cache(maxsize=8)
def _rate(text: str) -> RateLimitItem:
    return parse(text)


# The asyncio Redis client belongs to the event loop it was made on: one per loop (daphne runs
# one; tests run one per scenario), keyed by the storage it points at.
_shared: weakref.WeakKeyDictionary[asyncio.AbstractEventLoop,
                                   dict[tuple[str, str], SharedRateLimiter]] = (
    weakref.WeakKeyDictionary())
# storage address -> the monotonic time until which it is not asked (it failed)
_shared_down_until: dict[str, float] = {}


def _shared_limiter() -> tuple[str, SharedRateLimiter] | None:
    """The limiter of the counts shared by the ASGI processes, or None (memory is used) when
    none is configured or it failed less than SHARED_RETRY_SECONDS ago."""
    uri = getattr(settings, "YOMI_ROOM_RATE_STORAGE", "")
    if not uri or time.monotonic() < _shared_down_until.get(uri, 0.0):
        return None
    prefix = getattr(settings, "YOMI_ROOM_RATE_PREFIX", "yomi-room-rates")
    mine = _shared.setdefault(asyncio.get_running_loop(), {})
    limiter = mine.get((uri, prefix))
    if limiter is None:
        storage = SharedStorage(
            uri, implementation="redispy", key_prefix=prefix, wrap_exceptions=True,
            socket_timeout=SHARED_TIMEOUT_SECONDS,
            socket_connect_timeout=SHARED_TIMEOUT_SECONDS,
            # one immediate retry: after a Redis restart the first command finds its old
            # connection closed; no backoff (the default waits seconds, with a player waiting)
            retry=Retry(NoBackoff(), 1),
        )
        limiter = mine[(uri, prefix)] = SharedRateLimiter(storage)
    return uri, limiter


async def rate_allows(kind: str, key: str) -> bool:
    """Count one message (``kind``: "message_connection", "message_address" or "connect") for
    ``key``; False when the rate in ``settings.YOMI_ROOM_RATES`` is used up."""
    rate = settings.YOMI_ROOM_RATES.get(kind, "")
    if not rate or not getattr(settings, "YOMI_RATE_LIMITS_ENABLED", True):
        return True
    item = _rate(rate)
    shared = _shared_limiter() if kind in SHARED_KINDS else None
    if shared is not None:
        uri, limiter = shared
        try:
            return await asyncio.wait_for(limiter.hit(item, "room", kind, key),
                                          timeout=4 * SHARED_TIMEOUT_SECONDS)
        except SHARED_ERRORS:
            _shared_down_until[uri] = time.monotonic() + SHARED_RETRY_SECONDS
            logger.warning("room rates: the shared counts cannot be reached; %s per address is "
                           "counted in this process for %.0f s", kind, SHARED_RETRY_SECONDS,
                           exc_info=True)
    return _limiter().hit(item, "room", kind, key)


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
