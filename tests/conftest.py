"""Test-session wiring: the `services` marker and a real Celery worker process.

Tests marked `services` need PostgreSQL (the test database) and Redis, and the `celery_worker`
fixture starts a real `celery worker` process against both. Without the services those tests skip;
with YOMI_REQUIRE_SERVICES=1 (CI) they fail instead, so a broken machine cannot pass silently.
"""

from __future__ import annotations

import os
import subprocess
import sys
import tempfile
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

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


@pytest.fixture(scope="session")
def celery_worker_process(django_db_setup: None, django_db_blocker: object) -> Iterator[str]:
    """A real `celery worker` process on the test database and this session's queue.

    Yields the worker's node name. The worker is stopped at the end of the session.
    """
    from django.conf import settings

    from yomi_site.celery import app

    node = f"test-{uuid.uuid4().hex[:8]}@localhost"
    env = {
        **os.environ,
        "DJANGO_SETTINGS_MODULE": "yomi_site.settings",
        "DATABASE_URL": _database_url_for_worker(),
        "REDIS_URL": settings.TEST_REDIS_URL,
        "CELERY_TASK_ALWAYS_EAGER": "0",
        "CELERY_TASK_DEFAULT_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
        "SECRET_KEY": "test-only-not-a-secret",
        "DEBUG": "0",
    }
    log = tempfile.NamedTemporaryFile(  # noqa: SIM115 - outlives this block: closed at teardown
        prefix="celery-worker-", suffix=".log", delete=False
    )
    command = [
        sys.executable, "-m", "celery", "-A", "yomi_site", "worker",
        "-Q", settings.CELERY_TASK_DEFAULT_QUEUE, "-n", node,
        "--concurrency=2", "--without-gossip", "--without-mingle", "-l", "info",
    ]
    process = subprocess.Popen(
        command, cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        deadline = time.monotonic() + 60
        while True:
            if process.poll() is not None:
                raise RuntimeError(f"celery worker exited: {Path(log.name).read_text()}")
            replies = app.control.ping(destination=[node], timeout=0.5)
            if replies:
                break
            if time.monotonic() > deadline:
                raise RuntimeError(f"celery worker did not start: {Path(log.name).read_text()}")
        yield node
    finally:
        process.terminate()
        try:
            process.wait(timeout=20)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


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
