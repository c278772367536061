"""Matchup jobs on real workers (PostgreSQL, Redis, `celery worker` processes): the chunks are
shared by the workers and stored once; a worker SIGKILLed mid-chunk loses nothing and doubles
nothing, and a resumed job sends only what is missing."""

from __future__ import annotations

import uuid
from collections import Counter

import pytest
from django.db.models import Sum

from simulations import selectors, services
from simulations.models import MatchupChunk, MatchupJob
from simulations.tasks import matchup_chunk_task
from tests.conftest import WorkerProcess
from tests.support.waiting import wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
REDELIVER_AFTER = {"CELERY_VISIBILITY_TIMEOUT": "3"}


def finished(job: MatchupJob) -> bool:
    return MatchupJob.objects.get(pk=job.pk).status == MatchupJob.Status.FINISHED


def assert_each_chunk_once(job: MatchupJob) -> None:
    keys = Counter(MatchupChunk.objects.filter(job=job).values_list("p1", "p2", "index"))
    assert set(keys) == set(job.chunk_keys())
    assert set(keys.values()) == {1}
    assert MatchupChunk.objects.filter(job=job).aggregate(g=Sum("games"))["g"] == job.games_total


def test_a_job_runs_on_the_workers_and_matches_in_process_play(celery_worker) -> None:
    job = services.matchup_job_create(bot="greedy", games_per_pair=6, chunk_size=2,
                                      characters=["grave", "jaina", "troq"])
    wait_for(lambda: finished(job), 120, "the job on the worker")
    assert_each_chunk_once(job)
    progress = selectors.matchup_job_progress(job=job)
    assert progress.games_done == 54 and progress.games_per_second > 0
    # the same seeds in this process give the same chunk
    services_row = MatchupChunk.objects.get(job=job, p1="troq", p2="grave", index=2)
    again = MatchupJob.objects.create(bot="greedy", games_per_pair=6, chunk_size=2,
                                      characters=["grave", "jaina", "troq"])
    services.matchup_chunk_run(job_id=again.pk, p1="troq", p2="grave", index=2)
    mine = MatchupChunk.objects.get(job=again)
    assert (mine.p1_wins, mine.p2_wins, mine.draws) == (
        services_row.p1_wins, services_row.p2_wins, services_row.draws)


@pytest.mark.faults
def test_a_worker_killed_mid_job_loses_and_doubles_no_chunk(celery_worker, monkeypatch) -> None:
    queue = f"sim-kill-{uuid.uuid4().hex[:8]}"
    original = matchup_chunk_task.apply_async
    monkeypatch.setattr(matchup_chunk_task, "delay",
                        lambda *args: original(args=list(args), queue=queue))
    doomed = WorkerProcess(queue=queue, app_module="tests.support.slow_chunk_worker",
                           extra_env={"YOMI_TEST_GAME_DELAY": "0.5", **REDELIVER_AFTER})
    rescuer = None
    try:
        doomed.wait_ready()
        job = services.matchup_job_create(bot="random", games_per_pair=4, chunk_size=2,
                                          characters=["grave", "troq"])
        # a chunk takes about 1 s on the slow worker (two at a time): kill it after the first
        # ones are stored, while the next two are being played
        wait_for(lambda: job.chunks.count() >= 2, 60, "the first chunks")
        doomed.kill()
        stored = job.chunks.count()
        assert stored < job.chunks_total
        # the restarted job: a resume sends what is missing (the killed chunks are also
        # redelivered by Redis, so some chunks arrive twice)
        assert services.matchup_job_resume(job=job) == job.chunks_total - stored
        rescuer = WorkerProcess(queue=queue, extra_env=REDELIVER_AFTER)
        rescuer.wait_ready()
        wait_for(lambda: finished(job), 120, "the job to finish")
        wait_for(lambda: False if not rescuer else _idle(queue), 30, "the queue to drain")
    finally:
        doomed.stop()
        if rescuer is not None:
            rescuer.stop()
    assert_each_chunk_once(job)
    assert services.matchup_job_resume(job=job) == 0


def _idle(queue: str) -> bool:
    import redis
    from django.conf import settings

    return redis.Redis.from_url(settings.TEST_REDIS_URL).llen(queue) == 0
