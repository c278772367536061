"""Verification on real workers through Redis and PostgreSQL, including a worker that dies."""

from __future__ import annotations

import uuid

import pytest

from matches.models import AuditEntry, Match, VerificationRun
from matches.services import match_log_submit
from matches.tasks import match_log_verify_task
from tests.conftest import WorkerProcess
from tests.matches.factories import log_bytes, self_play_log_text, side_user, versus_match
from tests.support.waiting import wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
RS = VerificationRun.Status




def run_status(run_id: int) -> str:
    return VerificationRun.objects.values_list("status", flat=True).get(pk=run_id)


def test_submission_is_verified_by_a_real_worker(celery_worker: str) -> None:
    # given a match; when side 1 submits, the commit hands the run to the worker through Redis
    match = versus_match()
    outcome = match_log_submit(
        match=match, submitted_by=side_user(match, 1), log_bytes=log_bytes(self_play_log_text())
    )
    wait_for(lambda: run_status(outcome.run.pk) == RS.LEGAL, 60, "the verdict")
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_CONFIRMATION


def test_many_submissions_are_verified_by_shared_drain_tasks(celery_worker: str) -> None:
    # given several submissions in a row; each commit asks for a drain (at most one waits)
    runs = []
    for seed in range(1, 9):
        match = versus_match()
        runs.append(match_log_submit(
            match=match, submitted_by=side_user(match, 1),
            log_bytes=log_bytes(self_play_log_text("grave", "jaina", seed))).run)
    # then every run gets its verdict, each replayed once, each match settled once
    wait_for(lambda: all(run_status(r.pk) == RS.LEGAL for r in runs), 90, "all verdicts")
    assert set(VerificationRun.objects.filter(pk__in=[r.pk for r in runs])
               .values_list("attempts", flat=True)) == {1}
    for run in runs:
        match = Match.objects.get(pk=run.log.match_id)
        assert match.status == Match.Status.AWAITING_CONFIRMATION
        assert AuditEntry.objects.filter(match=match).count() == 1
    # a drain sent after its runs were claimed by another finds nothing: let it finish before
    # the database is emptied for the next test
    wait_for(lambda: drains_done(celery_worker), 30, "the last drain to finish")


def drains_done(node: str) -> bool:
    from matches.dispatch import _broker_flags
    from matches.services.verification import runs_drain_flag
    from yomi_site.celery import app

    flags = _broker_flags()
    active = app.control.inspect(destination=[node], timeout=1).active() or {}
    return (flags is None or not flags.exists(runs_drain_flag())) and not any(active.values())


def test_worker_killed_mid_verification_loses_nothing(celery_worker: str, monkeypatch) -> None:
    # given a run whose verification we start by hand on a queue of its own
    monkeypatch.setattr(
        "matches.services.submission._verification_enqueue_on_commit", lambda run_id: None
    )
    match = versus_match()
    run = match_log_submit(
        match=match, submitted_by=side_user(match, 1), log_bytes=log_bytes(self_play_log_text())
    ).run
    queue = f"kill-test-{uuid.uuid4().hex[:8]}"
    redeliver_after = {"CELERY_VISIBILITY_TIMEOUT": "3"}
    doomed = WorkerProcess(
        queue=queue,
        app_module="tests.support.slow_verify_worker",
        extra_env={"YOMI_TEST_VERIFY_DELAY": "60", **redeliver_after},
    )
    rescuer = None
    try:
        doomed.wait_ready()
        match_log_verify_task.apply_async(args=[run.pk], queue=queue)
        wait_for(lambda: run_status(run.pk) == RS.RUNNING, 30, "the worker to start the run")
        # when the worker dies in the middle of the replay
        doomed.kill()
        assert run_status(run.pk) == RS.RUNNING
        # then another worker gets the same task again and finishes it, exactly once
        rescuer = WorkerProcess(queue=queue, extra_env=redeliver_after)
        rescuer.wait_ready()
        wait_for(lambda: run_status(run.pk) == RS.LEGAL, 90, "the redelivered task's verdict")
    finally:
        doomed.stop()
        if rescuer is not None:
            rescuer.stop()
    run.refresh_from_db()
    assert run.attempts == 2
    assert VerificationRun.objects.filter(log__match=match).count() == 1
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_CONFIRMATION
    assert AuditEntry.objects.filter(match=match, action="log_submitted").count() == 1


def test_bulk_reverification_is_split_into_chunks_across_the_worker(
    celery_worker: str, monkeypatch
) -> None:
    from matches.models import MatchLog
    from matches.services import batch_progress, logs_reverify_bulk

    monkeypatch.setattr(
        "matches.services.submission._verification_enqueue_on_commit", lambda run_id: None
    )
    for seed in range(1, 7):
        match = versus_match()
        match_log_submit(
            match=match,
            submitted_by=side_user(match, 1),
            log_bytes=log_bytes(self_play_log_text("grave", "jaina", seed)),
        )
    batch = logs_reverify_bulk(logs=MatchLog.objects.all(), label="all", chunk_size=2)
    wait_for(lambda: batch_progress(batch).is_done, 90, "the batch to finish")
    assert batch_progress(batch).by_status == {"legal": 6}
    attempts = set(VerificationRun.objects.filter(batch=batch).values_list("attempts", flat=True))
    assert attempts == {1}  # each run replayed once
