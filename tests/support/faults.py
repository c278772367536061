"""Fault injection for tests: the broker made unreachable, then back; waiting for a condition."""

from __future__ import annotations

import socket
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Any


def free_port() -> int:
    """A loopback port nothing listens on (bound, then released)."""
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def _reset_producers(app: Any) -> None:
    # Publishers are pooled per broker URL: drop our references so the next send picks the pool
    # of the URL now configured (pools of the other URL stay for when it comes back).
    app._pool = None
    app.amqp._producer_pool = None


@contextmanager
def broker_unreachable(app: Any) -> Iterator[str]:
    """Point the app's publishers at a dead Redis port for the duration, then back.

    Workers keep their own connection to the real broker: only this process loses it, as a web
    process does when Redis is down.
    """
    dead_url = f"redis://127.0.0.1:{free_port()}/0"
    saved = {key: app.conf.get(key) for key in ("broker_url", "broker_write_url")}
    app.conf.broker_url = dead_url
    app.conf.broker_write_url = dead_url
    _reset_producers(app)
    try:
        yield dead_url
    finally:
        for key, value in saved.items():
            app.conf[key] = value
        _reset_producers(app)


