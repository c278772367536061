"""Handing tasks to the broker after a commit, without letting a broker outage undo the request.

The database is the record of what must happen (a PENDING run, a match marked
``result_callback_pending_since``); the broker only carries the reminder. So a send that fails
because Redis is unreachable is logged and dropped: the request that committed still answers
normally, and the periodic sweeper (``matches.services.sweeper``) sends the work again later.
Errors raised by a task itself (in-process, eager mode) are not broker errors and still propagate.
"""

from __future__ import annotations

import logging
from collections.abc import Callable

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


def task_send_on_commit(what: str, send: Callable[[], object]) -> None:
    """``task_send`` once the current transaction commits (at once outside a transaction)."""
    transaction.on_commit(lambda: task_send(what, send))
