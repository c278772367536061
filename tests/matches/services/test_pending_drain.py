"""The shared verification of pending runs: claiming them (SKIP LOCKED), judging them as a
chunk, and the coalesced send of the drain task (at most one waiting at a time)."""

from __future__ import annotations

import threading
import uuid

import pytest
from django.db import connection, connections, transaction

from matches.dispatch import coalesced_flag_clear, task_send_coalesced
from matches.models import AuditEntry, Match, MatchLog, VerificationRun
from matches.services import logs_reverify_bulk, match_log_submit
from matches.services.verification import match_runs_claim, match_runs_judge
from tests.matches.factories import self_play_log_text, side_user, versus_match

RS = VerificationRun.Status


@pytest.fixture
def no_enqueue(monkeypatch):
    monkeypatch.setattr(
        "matches.services.submission._verification_enqueue_on_commit", lambda run_id: None
    )


def pending_runs(n: int) -> list[VerificationRun]:
    runs = []
    for seed in range(1, n + 1):
        match = versus_match()
        outcome = match_log_submit(match=match, submitted_by=side_user(match, 1),
                                   log_bytes=self_play_log_text("grave", "jaina", seed).encode())
        assert outcome.run is not None
        runs.append(outcome.run)
    return runs


@pytest.mark.django_db
def test_claim_starts_the_oldest_pending_single_runs_only(no_enqueue) -> None:
    runs = pending_runs(4)
    # a bulk batch's runs are its chunks' work, never a drain's
    batch = logs_reverify_bulk(logs=MatchLog.objects.filter(pk=runs[0].log_id), label="b")
    assert VerificationRun.objects.filter(batch=batch, status=RS.PENDING).count() == 1
    first = match_runs_claim(limit=3)
    assert [r.pk for r in first] == [r.pk for r in runs[:3]]
    assert all(r.status == RS.RUNNING and r.attempts == 1 for r in first)
    assert all(r.log.text for r in first)  # the texts come with the claim
    stored = dict(VerificationRun.objects.filter(pk__in=[r.pk for r in runs])
                  .values_list("pk", "status"))
    assert [stored[r.pk] for r in runs] == [RS.RUNNING] * 3 + [RS.PENDING]
    rest = match_runs_claim(limit=3)
    assert [r.pk for r in rest] == [runs[3].pk]
    assert match_runs_claim(limit=3) == []  # RUNNING runs are the sweeper's, not a drain's
    assert VerificationRun.objects.get(batch=batch).status == RS.PENDING


@pytest.mark.django_db
def test_claimed_runs_are_judged_as_a_chunk_like_single_verifications(no_enqueue) -> None:
    runs = pending_runs(3)
    judged = match_runs_judge(match_runs_claim(limit=10))
    assert sorted(r.pk for r in judged) == sorted(r.pk for r in runs)
    for run in runs:
        run.refresh_from_db()
        assert run.status == RS.LEGAL and run.attempts == 1 and run.turn_count > 0
        match = Match.objects.get(pk=run.log.match_id)
        assert match.status == Match.Status.AWAITING_CONFIRMATION
        assert AuditEntry.objects.filter(match=match).count() == 1  # the submission only
    assert match_runs_judge([]) == []


@pytest.mark.services  # SKIP LOCKED: PostgreSQL
@pytest.mark.django_db(transaction=True)
def test_a_run_another_worker_is_claiming_is_skipped(no_enqueue) -> None:
    runs = pending_runs(2)
    locked, release = threading.Event(), threading.Event()

    def other_worker() -> None:  # holds the first run's lock, as a claim in progress does
        try:
            with transaction.atomic():
                list(VerificationRun.objects.select_for_update().filter(pk=runs[0].pk))
                locked.set()
                release.wait(30)
        finally:
            connections.close_all()

    thread = threading.Thread(target=other_worker)
    thread.start()
    try:
        assert locked.wait(30)
        assert [r.pk for r in match_runs_claim(limit=10)] == [runs[1].pk]
    finally:
        release.set()
        thread.join()
    assert [r.pk for r in match_runs_claim(limit=10)] == [runs[0].pk]
    assert connection.vendor == "postgresql"


@pytest.mark.services  # the flag lives in the broker's Redis
def test_coalesced_send_sends_once_until_the_task_clears_its_flag() -> None:
    flag = f"yomi:test-flag:{uuid.uuid4().hex}"
    sent: list[int] = []
    try:
        assert task_send_coalesced("a", flag, lambda: sent.append(1), 60)
        assert task_send_coalesced("b", flag, lambda: sent.append(2), 60)  # one is waiting
        assert sent == [1]
        coalesced_flag_clear(flag)  # the task started: new work sends a new task
        assert task_send_coalesced("c", flag, lambda: sent.append(3), 60)
        assert sent == [1, 3]
    finally:
        coalesced_flag_clear(flag)


@pytest.mark.services
def test_a_failed_coalesced_send_clears_its_flag_so_the_next_one_is_sent() -> None:
    import redis.exceptions

    flag = f"yomi:test-flag:{uuid.uuid4().hex}"
    sent: list[int] = []

    def broker_down() -> None:
        raise redis.exceptions.ConnectionError("down")

    try:
        assert not task_send_coalesced("a", flag, broker_down, 60)
        assert task_send_coalesced("b", flag, lambda: sent.append(1), 60)
        assert sent == [1]
    finally:
        coalesced_flag_clear(flag)


def test_coalesced_send_without_a_redis_broker_always_sends(monkeypatch) -> None:
    from celery import current_app

    monkeypatch.setattr(current_app.conf, "broker_write_url", None)
    monkeypatch.setattr(current_app.conf, "broker_url", "memory://localhost/")
    sent: list[int] = []
    assert task_send_coalesced("a", "f", lambda: sent.append(1), 60)
    assert task_send_coalesced("b", "f", lambda: sent.append(2), 60)
    assert sent == [1, 2]
