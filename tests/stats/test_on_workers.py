"""On real workers: a confirmed result reaches the statistics once, despite redelivery and races."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from matches.models import VerificationRun
from matches.services import match_log_confirm, match_log_submit
from stats.models import CharacterStat, GameRecord
from stats.services import game_record_sync
from stats.tasks import game_record_sync_task
from tests.matches.factories import PlayerFactory
from tests.stats.helpers import log_won_by, snapshot, versus
from tests.support.waiting import wait_for

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]




def test_a_result_confirmed_through_workers_counts_once(celery_worker) -> None:
    match = versus(PlayerFactory(), PlayerFactory())
    outcome = match_log_submit(match=match, submitted_by=match.sides.get(side=1).player.user,
                               log_bytes=log_won_by("P2", "quince", "troq").encode())
    wait_for(lambda: VerificationRun.objects.get(pk=outcome.run.pk).status == "legal", 60,
             "the verdict")
    match_log_confirm(match=match, user=match.sides.get(side=2).player.user)
    wait_for(lambda: GameRecord.objects.filter(match=match).exists(), 60,
             "the statistics task on the worker")
    counted = snapshot()
    for _ in range(3):
        game_record_sync_task.delay(match.pk)
    barrier = threading.Barrier(4)

    def sync() -> None:
        try:
            barrier.wait()
            game_record_sync(match_id=match.pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=sync) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    time.sleep(1.5)  # let the redelivered tasks run on the worker too
    assert snapshot() == counted
    row = CharacterStat.objects.get(mode="", event_key=0, month__year=1, character="troq",
                                    opponent="quince")
    assert (row.games, row.wins) == (1, 1)
