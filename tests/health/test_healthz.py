"""/healthz reports database and broker reachability: 200 when both answer, 503 otherwise."""

from __future__ import annotations

import pytest
from django.db import DatabaseError

pytestmark = pytest.mark.django_db


def test_healthy_when_tasks_run_in_process(client, settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["status"] == "ok"
    assert body["database"]["ok"] is True
    assert body["broker"] == {"ok": True, "detail": "tasks run in-process (no broker needed)"}


def test_unavailable_when_broker_does_not_answer(client, settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = "redis://127.0.0.1:1/0"  # nothing listens on port 1
    response = client.get("/healthz")
    assert response.status_code == 503
    body = response.json()
    assert body["status"] == "unavailable"
    assert body["database"]["ok"] is True
    assert body["broker"]["ok"] is False
    assert "Error" in body["broker"]["detail"]


def test_unavailable_when_database_fails(client, settings, monkeypatch) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = True

    def broken_cursor(*args, **kwargs):
        raise DatabaseError("connection refused")

    from django.db import connection

    monkeypatch.setattr(connection, "cursor", broken_cursor)
    response = client.get("/healthz")
    assert response.status_code == 503
    assert response.json()["database"] == {
        "ok": False,
        "detail": f"{connection.vendor}: DatabaseError: connection refused",
    }


@pytest.mark.services
def test_healthy_with_real_redis_broker(client, settings) -> None:
    settings.CELERY_TASK_ALWAYS_EAGER = False
    settings.CELERY_BROKER_URL = settings.TEST_REDIS_URL
    response = client.get("/healthz")
    assert response.status_code == 200
    body = response.json()
    assert body["broker"]["ok"] is True
    assert body["database"] == {"ok": True, "detail": "postgresql"}
