"""Settings for the test suite.

The database is PostgreSQL when one answers (DATABASE_URL, or the local server on 127.0.0.1:5432),
otherwise SQLite so that `make test` runs anywhere; tests marked `services` need PostgreSQL and
Redis and skip without them, unless YOMI_REQUIRE_SERVICES=1, when they fail instead.
"""

from __future__ import annotations

import os
import socket
import uuid

os.environ.setdefault("SECRET_KEY", "test-only-not-a-secret")
os.environ.setdefault("DEBUG", "0")
os.environ.setdefault("YOMI_ODDS_RUNS", "300")  # event odds after each result: fewer runs
# The tests run the interpreted engine even where `make compile` built the compiled one (some
# patch engine classes); `make test-compiled` asks for the compiled one. Set here, before the
# apps (and with them the engine) are imported; the workers the tests start inherit it.
os.environ.setdefault("YOMI_ENGINE", "interpreted")
# Each test session gets its own queue so that its worker never takes another session's tasks.
# Under pytest-xdist (`make test-all` runs two processes) each process is a session of its own:
# the controller's queue, inherited through the environment, is not reused, and each process
# takes the next Redis database after the one REDIS_URL names (its locks, cache and rate counts
# apart from the other's, as its PostgreSQL database is: pytest-django suffixes it per process).
# A process a test starts inherits its session's queue and Redis database (the marker below).
XDIST_WORKER = os.environ.get("PYTEST_XDIST_WORKER", "")  # "gw0", "gw1", ... or ""
if XDIST_WORKER and os.environ.get("YOMI_TEST_SESSION") != XDIST_WORKER:
    os.environ["YOMI_TEST_SESSION"] = XDIST_WORKER
    os.environ["CELERY_TASK_DEFAULT_QUEUE"] = f"yomi-test-{uuid.uuid4().hex[:10]}-{XDIST_WORKER}"
    _base, _, _db = os.environ.get("REDIS_URL", "redis://127.0.0.1:6379/0").rpartition("/")
    os.environ["REDIS_URL"] = f"{_base}/{int(_db or 0) + int(XDIST_WORKER.removeprefix('gw'))}"
else:
    os.environ.setdefault("CELERY_TASK_DEFAULT_QUEUE", f"yomi-test-{uuid.uuid4().hex[:10]}")

DEFAULT_TEST_DATABASE_URL = "postgres://postgres@127.0.0.1:5432/yomi"
DEFAULT_TEST_REDIS_URL = "redis://127.0.0.1:6379/0"


def _port_open(host: str, port: int) -> bool:
    try:
        with socket.create_connection((host, port), timeout=0.5):
            return True
    except OSError:
        return False


if "DATABASE_URL" not in os.environ and _port_open("127.0.0.1", 5432):
    os.environ["DATABASE_URL"] = DEFAULT_TEST_DATABASE_URL

from yomi_site.settings import *  # noqa: E402,F403
from yomi_site.settings import DATABASES  # noqa: E402

# The test client speaks plain http; the production redirect is tested through `check --deploy`.
SECURE_SSL_REDIRECT = False
ALLOWED_HOSTS = ["testserver", "127.0.0.1", "localhost"]
PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "django.contrib.staticfiles.storage.StaticFilesStorage"},
}

# Tasks run in-process unless a `services` test hands them to the real worker (tests/conftest.py).
TEST_REDIS_URL = os.environ.get("REDIS_URL", DEFAULT_TEST_REDIS_URL)
REDIS_URL = TEST_REDIS_URL
CELERY_BROKER_URL = TEST_REDIS_URL
CELERY_RESULT_BACKEND = TEST_REDIS_URL
CELERY_TASK_ALWAYS_EAGER = True

USES_POSTGRES = DATABASES["default"]["ENGINE"].endswith("postgresql")
# Rate limits are off unless a test turns them on (tests/yomi_site/test_rate_limits.py); counts
# live in local memory so that tests never share them through Redis.
YOMI_RATE_LIMITS_ENABLED = False
CACHES = {"default": {"BACKEND": "django.core.cache.backends.locmem.LocMemCache"}}
# The rooms' per-address counts are shared through the real Redis, as in production, under a
# prefix of this session's own (inherited by the processes it starts: they share the counts).
YOMI_ROOM_RATE_STORAGE = f"async+{TEST_REDIS_URL}"
YOMI_ROOM_RATE_PREFIX = f"{os.environ['CELERY_TASK_DEFAULT_QUEUE']}-room-rates"
# Serve static files through the finders: the suite never runs collectstatic.
WHITENOISE_AUTOREFRESH = True
WHITENOISE_USE_FINDERS = True
# The match rooms' websocket tests (marked `services`) use the real Redis channel layer, with a
# prefix of this session's own so that parallel sessions sharing a Redis never hear each other.
CHANNEL_LAYERS = {
    "default": {
        "BACKEND": "channels_redis.pubsub.RedisPubSubChannelLayer",
        "CONFIG": {"hosts": [TEST_REDIS_URL],
                   "prefix": f"{os.environ['CELERY_TASK_DEFAULT_QUEUE']}-rooms"},
    }
}
