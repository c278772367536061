"""Workers killed (SIGKILL) in the middle of verifications and of a bulk re-verification.

Each test ends with every result stored exactly once: one run per log (per batch), each finished
with the verdict its log deserves, matches settled once, no duplicate audit rows.
"""

from __future__ import annotations

import uuid
from datetime import timedelta

import pytest

from matches.models import AuditEntry, Match, MatchLog, VerificationRun
from matches.services import batch_progress, logs_reverify_bulk, match_log_submit
from matches.services.sweeper import stale_work_requeue
from matches.tasks import match_log_verify_task, match_runs_drain_task
from tests.conftest import WorkerProcess
from tests.matches.factories import self_play_log_text, side_user, versus_match
from tests.support.waiting import wait_for

pytestmark = [pytest.mark.services, pytest.mark.faults, pytest.mark.django_db(transaction=True)]
RS = VerificationRun.Status
REDELIVER_AFTER = {"CELERY_VISIBILITY_TIMEOUT": "3"}


@pytest.fixture
def no_enqueue(monkeypatch):
    monkeypatch.setattr(
        "matches.services.submission._verification_enqueue_on_commit", lambda run_id: None
    )


def submitted_matches(n: int) -> list[Match]:
    matches = []
    for seed in range(1, n + 1):
        match = versus_match()
        match_log_submit(match=match, submitted_by=side_user(match, 1),
                         log_bytes=self_play_log_text("grave", "jaina", seed).encode())
        matches.append(match)
    return matches


def statuses(runs) -> list[str]:
    return sorted(VerificationRun.objects.filter(pk__in=[r.pk for r in runs])
                  .values_list("status", flat=True))


def test_a_worker_killed_during_several_verifications_loses_and_doubles_nothing(
    celery_worker, no_enqueue
) -> None:
    matches = submitted_matches(4)
    runs = list(VerificationRun.objects.filter(log__match__in=matches))
    queue = f"kill-{uuid.uuid4().hex[:8]}"
    doomed = WorkerProcess(queue=queue, app_module="tests.support.slow_verify_worker",
                           extra_env={"YOMI_TEST_VERIFY_DELAY": "60", **REDELIVER_AFTER})
    rescuer = None
    try:
        doomed.wait_ready()
        for run in runs:
            match_log_verify_task.apply_async(args=[run.pk], queue=queue)
        # concurrency 2: two runs are mid-replay when the worker dies, two still queued
        wait_for(lambda: statuses(runs).count(RS.RUNNING) == 2, 30, "two runs to start")
        doomed.kill()
        rescuer = WorkerProcess(queue=queue, extra_env=REDELIVER_AFTER)
        rescuer.wait_ready()
        wait_for(lambda: statuses(runs) == [RS.LEGAL] * 4, 120, "all four verdicts")
    finally:
        doomed.stop()
        if rescuer is not None:
            rescuer.stop()
    assert VerificationRun.objects.filter(log__match__in=matches).count() == 4
    assert sorted(VerificationRun.objects.filter(pk__in=[r.pk for r in runs])
                  .values_list("attempts", flat=True)) == [1, 1, 2, 2]
    for match in matches:
        match.refresh_from_db()
        assert match.status == Match.Status.AWAITING_CONFIRMATION
        assert AuditEntry.objects.filter(match=match).count() == 1  # the submission only


def test_a_worker_killed_during_a_drain_of_pending_runs_loses_and_doubles_nothing(
    celery_worker, no_enqueue
) -> None:
    # given four pending runs, and a drain task (the shared verification of pending runs) sent
    # to a worker that will die: it claims all four at once, then dies mid-replay
    matches = submitted_matches(4)
    runs = list(VerificationRun.objects.filter(log__match__in=matches))
    queue = f"drain-kill-{uuid.uuid4().hex[:8]}"
    doomed = WorkerProcess(queue=queue, app_module="tests.support.slow_verify_worker",
                           extra_env={"YOMI_TEST_VERIFY_DELAY": "60", **REDELIVER_AFTER})
    rescuer = None
    try:
        doomed.wait_ready()
        match_runs_drain_task.apply_async(queue=queue)
        wait_for(lambda: statuses(runs) == [RS.RUNNING] * 4, 30, "the drain to claim the runs")
        doomed.kill()
        # the redelivered drain finds nothing pending (the runs are RUNNING, not PENDING) ...
        rescuer = WorkerProcess(queue=queue, extra_env=REDELIVER_AFTER)
        rescuer.wait_ready()
        # ... and the sweeper sends the unfinished runs again, to the session's worker
        assert stale_work_requeue(older_than=timedelta(0)).counts["runs"] == 4
        wait_for(lambda: statuses(runs) == [RS.LEGAL] * 4, 120, "all four verdicts")
    finally:
        doomed.stop()
        if rescuer is not None:
            rescuer.stop()
    assert VerificationRun.objects.filter(log__match__in=matches).count() == 4
    assert sorted(VerificationRun.objects.filter(pk__in=[r.pk for r in runs])
                  .values_list("attempts", flat=True)) == [2, 2, 2, 2]
    for match in matches:
        match.refresh_from_db()
        assert match.status == Match.Status.AWAITING_CONFIRMATION
        assert AuditEntry.objects.filter(match=match).count() == 1  # the submission only


def test_a_worker_killed_during_bulk_reverification_loses_and_doubles_nothing(
    celery_worker, no_enqueue, monkeypatch
) -> None:
    matches = submitted_matches(6)
    queue = f"bulk-kill-{uuid.uuid4().hex[:8]}"
    # the batch's chunks go to the doomed worker's queue
    from matches import tasks

    original = tasks.match_runs_verify_chunk_task.s
    monkeypatch.setattr(tasks.match_runs_verify_chunk_task, "s",
                        lambda *args: original(*args).set(queue=queue))
    doomed = WorkerProcess(queue=queue, app_module="tests.support.slow_verify_worker",
                           extra_env={"YOMI_TEST_VERIFY_DELAY": "60", **REDELIVER_AFTER})
    rescuer = None
    try:
        doomed.wait_ready()
        batch = logs_reverify_bulk(logs=MatchLog.objects.filter(match__in=matches),
                                   label="bulk under fire", chunk_size=2)
        runs = list(VerificationRun.objects.filter(batch=batch))
        # a chunk marks all its runs running at once (one bulk write), then replays them
        wait_for(lambda: statuses(runs).count(RS.RUNNING) >= 2, 30, "chunks to start")
        doomed.kill()
        rescuer = WorkerProcess(queue=queue, extra_env=REDELIVER_AFTER)
        rescuer.wait_ready()
        wait_for(lambda: batch_progress(batch).is_done, 120, "the batch to finish")
    finally:
        doomed.stop()
        if rescuer is not None:
            rescuer.stop()
    assert batch_progress(batch).by_status == {"legal": 6}
    assert VerificationRun.objects.filter(batch=batch).count() == 6
    # each log: its submission's run (pending: its message was dropped) and one batch run
    for log in MatchLog.objects.filter(match__in=matches):
        assert log.runs.filter(batch=batch).count() == 1
    assert max(VerificationRun.objects.filter(batch=batch).values_list("attempts", flat=True)) <= 2
