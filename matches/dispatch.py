"""Handing tasks to the broker after a commit, without letting a broker outage undo the request.

The database is the record of what must happen (a PENDING run, a match marked
``result_callback_pending_since``); the broker only carries the reminder. So a send that fails
because Redis is unreachable is logged and dropped: the request that committed still answers
normally, and the periodic sweeper (``matches.services.sweeper``) sends the work again later.
Errors raised by a task itself (in-process, eager mode) are not broker errors and still propagate.
"""

from __future__ import annotations

import logging
from collections.abc import Callable, Iterable
from functools import lru_cache
from typing import Any

import redis
import redis.exceptions
from django.db import transaction
from kombu.exceptions import OperationalError as BrokerError

logger = logging.getLogger(__name__)

# What a publish raises when the broker cannot be reached (kombu wraps most of them).
BROKER_ERRORS: tuple[type[BaseException], ...] = (
    BrokerError,
    redis.exceptions.ConnectionError,
    redis.exceptions.TimeoutError,
    ConnectionError,
    TimeoutError,
)


def task_send(what: str, send: Callable[[], object]) -> bool:
    """Call ``send`` (a ``.delay``/``.apply_async``); False, logged, if the broker is down."""
    try:
        send()
    except BROKER_ERRORS:
        logger.warning("broker unreachable: %s not sent now; the sweeper will send it", what,
                       exc_info=True)
        return False
    return True


def outbox_tasks_send(what: str, row_ids: Iterable[int], task: Any) -> int:
    """Hand ``task.delay(pk)`` to the workers for each owed row of an outbox (a mail owed in the
    database); how many were handed over. Never raises: a broker down (or, with in-process
    tasks, a mail server down) leaves the row owed for the outbox's sweep."""
    sent = 0
    for pk in row_ids:
        try:
            sent += task_send(f"{what} {pk}", lambda pk=pk: task.delay(pk))
        except Exception:  # in-process (eager) tasks: the send itself failed
            logger.warning("%s %s not sent now; the sweep sends it", what, pk, exc_info=True)
    return sent


def task_send_on_commit(what: str, send: Callable[[], object]) -> None:
    """``task_send`` once the current transaction commits (at once outside a transaction)."""
    transaction.on_commit(lambda: task_send(what, send))


@lru_cache(maxsize=4)
def _flag_client(url: str) -> redis.Redis:
    return redis.Redis.from_url(url, socket_connect_timeout=1, socket_timeout=1)


def _broker_flags() -> redis.Redis | None:
    """A client of the broker's Redis (flags live beside the messages they stand for); None
    when the broker is not Redis (tests' memory broker)."""
    from celery import current_app

    url = str(current_app.conf.broker_write_url or current_app.conf.broker_url or "")
    return _flag_client(url) if url.startswith(("redis://", "rediss://")) else None


def task_send_coalesced(what: str, flag: str, send: Callable[[], object],
                        hold_seconds: int) -> bool:
    """Send a task unless one sent under ``flag`` is still waiting to start: the task calls
    ``coalesced_flag_clear(flag)`` first thing, so whatever was committed before it cleared the
    flag is seen by it, and whatever commits after sends a new one (no wake-up is lost).

    The flag is a Redis key (``SET NX`` with a timeout of ``hold_seconds``, so a message lost
    with its flag set delays the work by at most that long; the sweeper is the backstop). If
    the flag cannot be read the task is sent anyway (a task too many is harmless), and a failed
    send clears the flag again. True when the work is covered (sent now or already waiting).
    """
    client = _broker_flags()
    try:
        if client is not None and not client.set(flag, 1, nx=True, ex=hold_seconds):
            return True  # a task sent earlier has not started yet: it will see this work
    except redis.exceptions.RedisError:
        client = None  # cannot tell: send
    if task_send(what, send):
        return True
    try:
        if client is not None:
            client.delete(flag)
    except redis.exceptions.RedisError:
        pass
    return False


def coalesced_flag_clear(flag: str) -> None:
    """The task sent under ``flag`` has started: the next piece of work sends a new one."""
    client = _broker_flags()
    try:
        if client is not None:
            client.delete(flag)
    except redis.exceptions.RedisError:  # the flag times out by itself
        logger.warning("could not clear %s", flag, exc_info=True)
