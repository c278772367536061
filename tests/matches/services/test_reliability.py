"""Verdicts PostgreSQL would refuse, runs that never finish, and the sweeper that re-sends work."""

from __future__ import annotations

import json
from datetime import timedelta

import pytest
from django.utils import timezone

import tests.support.callbacks  # noqa: F401  (registers the test callback task)
from matches.models import Match, VerificationRun
from matches.services import match_log_confirm, match_log_submit, match_log_verify
from matches.services.sweeper import stale_work_requeue
from matches.services.verification import MAX_ATTEMPTS
from tests.matches.factories import self_play_log_text, side_user, versus_match

RS = VerificationRun.Status


def log_with_nul_in_an_ability_name() -> str:
    """Readable and schema-valid, illegal at event 3: the verdict quotes the name with its NUL."""
    doc = json.loads(self_play_log_text())
    assert doc["events"][3]["action"] == "ability"
    doc["events"][3]["ability"] = "Unstable\u0000Power"
    return json.dumps(doc)


@pytest.fixture
def no_enqueue(monkeypatch):
    """Submissions store their run but send nothing: as if the broker had dropped the message."""
    monkeypatch.setattr(
        "matches.services.submission._verification_enqueue_on_commit", lambda run_id: None
    )


@pytest.mark.services  # jsonb's refusal of \u0000 exists only on PostgreSQL
@pytest.mark.django_db
def test_a_nul_in_a_move_name_is_stored_as_a_verdict_on_postgresql(
    django_capture_on_commit_callbacks,
) -> None:
    match = versus_match()
    with django_capture_on_commit_callbacks(execute=True):
        run = match_log_submit(
            match=match, submitted_by=side_user(match, 1),
            log_bytes=log_with_nul_in_an_ability_name().encode(),
        ).run
    run.refresh_from_db()
    assert run.status == RS.ILLEGAL
    assert run.verdict["first_error"]["index"] == 3
    assert "Unstable\ufffdPower" in run.verdict["first_error"]["action"]
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_LOG


@pytest.mark.services
@pytest.mark.django_db
def test_any_verdict_the_database_refuses_becomes_a_stored_engine_error(
    no_enqueue, monkeypatch
) -> None:
    # given the storable-text guard taken away, so PostgreSQL itself refuses the verdict
    match = versus_match()
    run = match_log_submit(
        match=match, submitted_by=side_user(match, 1),
        log_bytes=log_with_nul_in_an_ability_name().encode(),
    ).run
    monkeypatch.setattr("matches.services.verification.json_storable_from",
                        lambda text, value: value)
    # when the run is verified, then it ends finished with the storage error as its verdict
    run = match_log_verify(run_id=run.pk)
    run.refresh_from_db()
    assert run.status == RS.ERROR
    assert run.verdict["error"]["kind"] == "storage_error"
    assert "DataError" in run.verdict["error"]["message"]
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_LOG


@pytest.mark.django_db
def test_a_run_whose_workers_keep_dying_is_given_up_not_left_running(no_enqueue) -> None:
    match = versus_match()
    run = match_log_submit(
        match=match, submitted_by=side_user(match, 1),
        log_bytes=self_play_log_text().encode(),
    ).run
    # as if MAX_ATTEMPTS workers had started it and died each time
    VerificationRun.objects.filter(pk=run.pk).update(status=RS.RUNNING, attempts=MAX_ATTEMPTS)
    run = match_log_verify(run_id=run.pk)
    assert run.status == RS.ERROR
    assert run.verdict["error"]["kind"] == "gave_up"
    assert Match.objects.get(pk=match.pk).status == Match.Status.AWAITING_LOG


@pytest.mark.django_db
def test_the_sweeper_resends_a_dropped_verification_once_per_deadline(no_enqueue) -> None:
    match = versus_match()
    run = match_log_submit(
        match=match, submitted_by=side_user(match, 1),
        log_bytes=self_play_log_text().encode(),
    ).run
    # before the deadline nothing is sent
    assert stale_work_requeue(older_than=timedelta(minutes=5)).runs == []
    assert VerificationRun.objects.get(pk=run.pk).status == RS.PENDING
    # after it, the run is sent again (tasks run in-process here) and verified
    report = stale_work_requeue(now=timezone.now() + timedelta(minutes=6))
    assert report.runs == [run.pk]
    assert VerificationRun.objects.get(pk=run.pk).status == RS.LEGAL
    assert Match.objects.get(pk=match.pk).status == Match.Status.AWAITING_CONFIRMATION
    assert stale_work_requeue(now=timezone.now() + timedelta(hours=1)).runs == []


@pytest.mark.django_db
def test_the_sweeper_resends_an_owed_result_callback_until_it_ran(
    monkeypatch, django_capture_on_commit_callbacks
) -> None:
    calls: list[int] = []
    match = versus_match()
    match.result_callback_task = "tests.support.callbacks.record_call_task"
    match.save(update_fields=["result_callback_task"])
    monkeypatch.setattr("tests.support.callbacks.CALLS", calls)
    with django_capture_on_commit_callbacks(execute=True):
        match_log_submit(match=match, submitted_by=side_user(match, 1),
                         log_bytes=self_play_log_text().encode())
    # the confirmation's callback is dropped (its send after commit never happens)
    with django_capture_on_commit_callbacks(execute=False):
        match_log_confirm(match=match, user=side_user(match, 2))
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert match.result_callback_pending_since is not None
    assert calls == []
    # the sweeper sends it; once it ran the mark is cleared and nothing is sent again
    report = stale_work_requeue(now=timezone.now() + timedelta(minutes=6))
    assert report.callbacks == [match.pk]
    assert calls == [match.pk]
    assert Match.objects.get(pk=match.pk).result_callback_pending_since is None
    assert stale_work_requeue(now=timezone.now() + timedelta(hours=1)).callbacks == []
    assert calls == [match.pk]


def test_celery_beat_runs_the_sweeper_and_its_task_is_registered() -> None:
    from django.conf import settings

    from yomi_site.celery import app

    entry = settings.CELERY_BEAT_SCHEDULE["stale-work-requeue"]
    assert entry["task"] == "matches.tasks.stale_work_requeue_task"
    assert entry["schedule"] == settings.YOMI_SWEEP_INTERVAL == 60
    app.loader.import_default_modules()
    assert entry["task"] in app.tasks
    # redelivery of a dead worker's task is sized in minutes, not an hour
    assert settings.CELERY_BROKER_TRANSPORT_OPTIONS["visibility_timeout"] == 600


@pytest.mark.django_db
def test_the_sweeper_resends_a_run_left_running_by_a_dead_worker_but_not_a_fresh_one(
    no_enqueue,
) -> None:
    match = versus_match()
    run = match_log_submit(
        match=match, submitted_by=side_user(match, 1),
        log_bytes=self_play_log_text().encode(),
    ).run
    now = timezone.now()
    # started two minutes ago (sent ten minutes ago): its worker may still be replaying it
    VerificationRun.objects.filter(pk=run.pk).update(
        status=RS.RUNNING, attempts=1, enqueued_at=now - timedelta(minutes=10),
        started_at=now - timedelta(minutes=2),
    )
    assert stale_work_requeue(older_than=timedelta(minutes=5), now=now).runs == []
    # started ten minutes ago: its worker died; the sweep replays it, once
    VerificationRun.objects.filter(pk=run.pk).update(started_at=now - timedelta(minutes=10))
    assert stale_work_requeue(older_than=timedelta(minutes=5), now=now).runs == [run.pk]
    run.refresh_from_db()
    assert (run.status, run.attempts) == (RS.LEGAL, 2)
    assert VerificationRun.objects.filter(log__match=match).count() == 1
