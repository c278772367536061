"""The database refusing writes (as a read-only replica after a failover does), then back.

A request answers 503 with nothing stored; a worker's verification fails without a verdict and
is sent again by the sweeper once writes work: every result is stored exactly once.
"""

from __future__ import annotations

import time
from collections.abc import Iterator
from contextlib import contextmanager
from datetime import timedelta

import pytest
from django.db import connection
from rest_framework.test import APIClient

from matches.models import Match, MatchLog, VerificationRun
from matches.services.sweeper import stale_work_requeue
from tests.matches.factories import self_play_log_text, side_user, versus_match
from tests.support.waiting import wait_for

pytestmark = [pytest.mark.services, pytest.mark.faults, pytest.mark.django_db(transaction=True)]
RS = VerificationRun.Status


@contextmanager
def writes_refused(table: str, operation: str) -> Iterator[None]:
    """Every ``operation`` (INSERT/UPDATE) on ``table`` fails as on a read-only server (25006)."""
    with connection.cursor() as cursor:
        cursor.execute(
            "CREATE OR REPLACE FUNCTION yomi_test_refuse() RETURNS trigger AS $$ BEGIN "
            "RAISE EXCEPTION 'cannot execute % in a read-only transaction', TG_OP "
            "USING ERRCODE = '25006'; END; $$ LANGUAGE plpgsql"
        )
        cursor.execute(f"CREATE TRIGGER yomi_test_refuse BEFORE {operation} ON {table} "
                       "FOR EACH ROW EXECUTE FUNCTION yomi_test_refuse()")
    try:
        yield
    finally:
        with connection.cursor() as cursor:
            cursor.execute(f"DROP TRIGGER IF EXISTS yomi_test_refuse ON {table}")


def post_log(match: Match, text: str):
    client = APIClient()
    client.force_authenticate(side_user(match, 1))
    return client.post(f"/api/matches/{match.pk}/logs/", {"log_text": text}, format="json")


def test_a_submission_the_database_refuses_is_a_503_with_nothing_stored() -> None:
    match = versus_match()
    with writes_refused("matches_matchlog", "INSERT"):
        response = post_log(match, self_play_log_text())
    assert response.status_code == 503
    assert response.json()["code"] == "unavailable"
    assert response["Retry-After"] == "30"
    assert not MatchLog.objects.filter(match=match).exists()
    assert Match.objects.get(pk=match.pk).status == Match.Status.AWAITING_LOG
    # the same request again, once writes work
    assert post_log(match, self_play_log_text()).status_code == 201


def test_a_verification_whose_writes_are_refused_is_finished_once_after(celery_worker) -> None:
    match = versus_match()
    with writes_refused("matches_verificationrun", "UPDATE"):
        response = post_log(match, self_play_log_text())
        assert response.status_code == 201
        run = VerificationRun.objects.get(log__match=match)
        # the worker took the task (off the queue, acknowledged) and could not even mark the
        # run as running
        wait_for(_broker_drained, 30, "the worker to take and finish the task")
        time.sleep(0.5)  # the window between taking a message and marking it unacknowledged
    assert VerificationRun.objects.get(pk=run.pk).status == RS.PENDING
    report = stale_work_requeue(older_than=timedelta(0))
    assert report.runs == [run.pk]
    wait_for(lambda: VerificationRun.objects.get(pk=run.pk).status == RS.LEGAL, 60, "the verdict")
    run.refresh_from_db()
    assert run.attempts == 1
    assert VerificationRun.objects.filter(log__match=match).count() == 1
    assert Match.objects.get(pk=match.pk).status == Match.Status.AWAITING_CONFIRMATION


def _broker_drained() -> bool:
    """Nothing waiting on this session's queue and nothing of it taken but unacknowledged.

    Only this queue's entries count: Redis's ``unacked`` hash is shared by every queue on the
    database, and a worker killed in another run leaves its entries there for the whole
    visibility timeout (600 s).
    """
    import json

    import redis
    from django.conf import settings

    queue = settings.CELERY_TASK_DEFAULT_QUEUE
    broker = redis.Redis.from_url(settings.TEST_REDIS_URL)
    if broker.llen(queue):
        return False
    # each entry is [message, exchange, routing_key]
    return all(json.loads(entry)[2] != queue for entry in broker.hvals("unacked"))
