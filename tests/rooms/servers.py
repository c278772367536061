"""A real ASGI server (daphne) in a subprocess, on the test database and Redis.

It is the production shape: websockets through the Redis channel layer, Celery tasks through
Redis to the session's worker (``celery_worker``). DEBUG is on only so that static files are
served and cookies work over plain http on loopback.
"""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path

from tests.conftest import REPO_ROOT, _database_url_for_worker


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class AsgiServer:
    def __init__(self, extra_env: dict[str, str] | None = None) -> None:
        from django.conf import settings

        self.port = free_port()
        self.url = f"http://127.0.0.1:{self.port}"
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "yomi_site.settings",
            "DATABASE_URL": _database_url_for_worker(),
            "REDIS_URL": settings.TEST_REDIS_URL,
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "CELERY_TASK_DEFAULT_QUEUE": settings.CELERY_TASK_DEFAULT_QUEUE,
            "SECRET_KEY": "test-only-not-a-secret",
            "DEBUG": "1",
            "YOMI_RATE_LIMITS_ENABLED": "0",
            "LOG_LEVEL": "WARNING",
            **(extra_env or {}),
        }
        self.log_path = Path(tempfile.mkstemp(prefix="daphne-", suffix=".log")[1])
        with self.log_path.open("w") as log:
            self.process = subprocess.Popen(
                [sys.executable, "-m", "daphne", "-b", "127.0.0.1", "-p", str(self.port),
                 "yomi_site.asgi:application"],
                cwd=REPO_ROOT, env=env, stdout=log, stderr=subprocess.STDOUT,
                start_new_session=True,
            )

    def wait_ready(self, timeout: float = 60) -> None:
        deadline = time.monotonic() + timeout
        while True:
            if self.process.poll() is not None:
                raise RuntimeError(f"daphne exited: {self.log_path.read_text()}")
            try:
                urllib.request.urlopen(self.url + "/healthz", timeout=2)
                return
            except OSError:
                if time.monotonic() > deadline:
                    raise RuntimeError(
                        f"daphne did not start: {self.log_path.read_text()}") from None
                time.sleep(0.2)

    def stop(self) -> None:
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(timeout=20)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
