"""A log verified and confirmed through real workers advances its set exactly once."""

from __future__ import annotations

import threading
import time

import pytest
from django.db import connection

from matches.models import Match, VerificationRun
from matches.services import match_log_confirm, match_log_submit
from tests.matches.factories import self_play_log_won_by, side_user
from tests.support.waiting import wait_for
from tests.tournaments.factories import EventFactory, StageFactory, UserFactory, entrants_create
from tournaments.models import Game, Set, SetResultChange
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open, set_match_result_record
from tournaments.tasks import set_match_result_record_task

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]




def test_confirmed_log_advances_the_set_once_despite_retries_and_races(celery_worker) -> None:
    # given a best-of-1 semifinal and its match
    organizer = UserFactory(username="worker-org")
    event = EventFactory(organizers=[organizer], best_of=1)
    entrants = entrants_create(event, 4)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    semifinal = Set.objects.get(stage=stage, key="W1-1")
    assert semifinal.best_of == 1
    match = set_match_open(set=semifinal, actor=organizer)
    # when side 1's log is verified on the worker and side 2 confirms
    outcome = match_log_submit(
        match=match, submitted_by=side_user(match, 1), log_bytes=self_play_log_won_by("P1").encode()
    )
    wait_for(
        lambda: VerificationRun.objects.get(pk=outcome.run.pk).status == "legal", 60, "the verdict"
    )
    match_log_confirm(match=match, user=side_user(match, 2))
    wait_for(lambda: Game.objects.filter(match=match).exists(), 60, "the game to be recorded")
    # and the callback is delivered again, while four threads record it at the same moment
    for _ in range(3):
        set_match_result_record_task.delay(match.pk)
    barrier = threading.Barrier(4)

    def record() -> None:
        try:
            barrier.wait()
            set_match_result_record(match_id=match.pk)
        finally:
            connection.close()

    threads = [threading.Thread(target=record) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    time.sleep(1)  # let the redelivered callbacks run on the worker too
    # then the set has exactly one game and advanced its winner once
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED
    assert Game.objects.filter(set=semifinal).count() == 1
    semifinal.refresh_from_db()
    final = Set.objects.get(stage=stage, key="W2-1")
    assert semifinal.status == Set.Status.FINISHED
    assert final.entrant_a_id == entrants[0].pk
    assert SetResultChange.objects.filter(set=semifinal, action="game").count() == 1
