"""Test-session wiring: the `services` marker and a real Celery worker process.

Tests marked `services` need PostgreSQL (the test database) and Redis, and the `celery_worker`
fixture starts a real `celery worker` process against both. Without the services those tests skip;
with YOMI_REQUIRE_SERVICES=1 (CI) they fail instead, so a broken machine cannot pass silently.
"""

from __future__ import annotations

import os
import signal
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest

REPO_ROOT = Path(__file__).resolve().parent.parent


def _require_services() -> bool:
    return os.environ.get("YOMI_REQUIRE_SERVICES", "") in {"1", "true", "yes"}


def _missing_services() -> list[str]:
    from django.conf import settings

    missing = []
    if not getattr(settings, "USES_POSTGRES", False):
        missing.append("PostgreSQL (the tests fell back to SQLite)")
    try:
        import redis

        redis.Redis.from_url(settings.TEST_REDIS_URL, socket_connect_timeout=1).ping()
    except Exception as exc:  # any failure means Redis is not usable
        missing.append(f"Redis at {settings.TEST_REDIS_URL} ({exc.__class__.__name__})")
    return missing


def pytest_runtest_setup(item: pytest.Item) -> None:
    if item.get_closest_marker("services") is None:
        return
    missing = _missing_services()
    if not missing:
        return
    message = "needs " + " and ".join(missing)
    if _require_services():
        pytest.fail(f"YOMI_REQUIRE_SERVICES=1 but this test {message}", pytrace=False)
    pytest.skip(message)


def _database_url_for_worker() -> str:
    from django.db import connection

    s = connection.settings_dict
    auth = s["USER"] or ""
    if s.get("PASSWORD"):
        auth += f":{s['PASSWORD']}"
    host = s["HOST"] or "127.0.0.1"
    port = s["PORT"] or "5432"
    return f"postgres://{auth}@{host}:{port}/{s['NAME']}"


class WorkerProcess:
    """A real `celery worker` process on the test database; stop() ends it, kill() crashes it."""

    def __init__(
        self, *, queue: str, app_module: str = "yomi_site", extra_env: dict[str, str] | None = None
    ) -> None:
        from django.conf import settings

        self.node = f"test-{uuid.uuid4().hex[:8]}@localhost"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "yomi_site.settings",
            "DATABASE_URL": _database_url_for_worker(),
            "REDIS_URL": settings.TEST_REDIS_URL,
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "CELERY_TASK_DEFAULT_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
            "SECRET_KEY": "test-only-not-a-secret",
            "DEBUG": "0",
            **(extra_env or {}),
        }
        self.log_path = Path(tempfile.mkstemp(prefix="celery-worker-", suffix=".log")[1])
        command = [
            sys.executable, "-m", "celery", "-A", app_module, "worker",
            "-Q", queue, "-n", self.node,
            "--concurrency=2", "--without-gossip", "--without-mingle", "-l", "info",
        ]
        with self.log_path.open("w") as log:
            # A session of its own, so kill() takes the pool's children down with it.
            self.process = subprocess.Popen(
                command, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_ready(self, timeout: float = 60) -> None:
        from yomi_site.celery import app

        deadline = time.monotonic() + timeout
        while not app.control.ping(destination=[self.node], timeout=0.5):
            if self.process.poll() is not None:
                raise RuntimeError(f"celery worker exited: {self.log_path.read_text()}")
            if time.monotonic() > deadline:
                raise RuntimeError(f"celery worker did not start: {self.log_path.read_text()}")

    def kill(self) -> None:
        """Crash the worker and its pool at once (SIGKILL): nothing gets to clean up."""
        os.killpg(self.process.pid, signal.SIGKILL)
        self.process.wait(timeout=20)

    def stop(self) -> None:
        if self.process.poll() is not None:
            return
        self.process.terminate()
        try:
            self.process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup: None, django_db_blocker: object) -> Iterator[str]:
    """A real worker on this session's queue for the whole session; yields its node name."""
    from django.conf import settings

    worker = WorkerProcess(queue=settings.CELERY_TASK_DEFAULT_QUEUE)
    try:
        worker.wait_ready()
        yield worker.node
    finally:
        worker.stop()


@pytest.fixture
def celery_worker(celery_worker_process: str) -> Iterator[str]:
    """Send tasks through Redis to the real worker for this test (not in-process)."""
    from yomi_site.celery import app

    previous = app.conf.task_always_eager
    app.conf.task_always_eager = False
    try:
        yield celery_worker_process
    finally:
        app.conf.task_always_eager = previous


@pytest.fixture
def browser(monkeypatch: pytest.MonkeyPatch) -> Iterator[Any]:
    """Debian's Chromium through Playwright (tests/support/browser.py)."""
    from tests.support.browser import chromium

    yield from chromium(monkeypatch)
