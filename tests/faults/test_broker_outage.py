"""The broker unreachable during submissions and confirmations, then back: nothing is lost.

Before the outbox and the sweeper, both requests answered 500 after their commit and the work
(a pending verification, a confirmed result that never reached its set) stayed undone for good.
"""

from __future__ import annotations

from datetime import timedelta

import pytest
from rest_framework.test import APIClient

from matches.models import Match, VerificationRun
from matches.services.sweeper import stale_work_requeue
from tests.matches.factories import self_play_log_won_by, side_user
from tests.support.faults import broker_unreachable
from tests.support.waiting import wait_for, worker_drained
from tests.tournaments.factories import EventFactory, StageFactory, UserFactory, entrants_create
from tournaments.models import Game, Set
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open
from yomi_site.celery import app

pytestmark = [pytest.mark.services, pytest.mark.faults, pytest.mark.django_db(transaction=True)]
RS = VerificationRun.Status


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    return client


def sweep_now() -> dict[str, int]:
    """What Celery beat does every minute, with the deadline already passed."""
    return stale_work_requeue(older_than=timedelta(0)).counts


def test_submission_and_confirmation_survive_a_broker_outage(celery_worker) -> None:
    # given a best-of-1 semifinal whose match is open
    organizer = UserFactory(username="outage-org")
    event = EventFactory(organizers=[organizer], best_of=1)
    entrants_create(event, 4)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    semifinal = Set.objects.get(stage=stage, key="W1-1")
    match = set_match_open(set=semifinal, actor=organizer)
    log = self_play_log_won_by("P1")
    # when side 1 submits while Redis cannot be reached
    with broker_unreachable(app):
        response = client_for(side_user(match, 1)).post(
            f"/api/matches/{match.pk}/logs/", {"log_text": log}, format="json"
        )
        # then the committed submission answers 201, and its run waits in the database
        assert response.status_code == 201, response.content
        run = VerificationRun.objects.get(log__match=match)
        assert run.status == RS.PENDING
        # and a sweep during the outage sends nothing but loses nothing either
        assert sweep_now() == {"runs": 1, "callbacks": 0, "unsent": 1}
    # when the broker is back, the sweeper sends the run again and a worker verifies it
    assert sweep_now()["runs"] == 1
    wait_for(lambda: VerificationRun.objects.get(pk=run.pk).status == RS.LEGAL, 60, "the verdict")
    # when side 2 confirms during a second outage
    with broker_unreachable(app):
        response = client_for(side_user(match, 2)).post(
            f"/api/matches/{match.pk}/confirm/", {"log": match.logs.get().pk}, format="json")
        assert response.status_code == 200, response.content
        match.refresh_from_db()
        assert match.status == Match.Status.CONFIRMED
        assert match.result_callback_pending_since is not None  # owed to the set
        assert not Game.objects.filter(set=semifinal).exists()
    # then once it is back the sweeper delivers the result to the set, exactly once
    assert sweep_now() == {"runs": 0, "callbacks": 1, "unsent": 0}
    wait_for(lambda: Game.objects.filter(match=match).exists(), 60, "the game")
    wait_for(
        lambda: Match.objects.get(pk=match.pk).result_callback_pending_since is None, 30,
        "the callback mark to clear",
    )
    assert sweep_now() == {"runs": 0, "callbacks": 0, "unsent": 0}
    assert Game.objects.filter(set=semifinal).count() == 1
    semifinal.refresh_from_db()
    assert semifinal.status == Set.Status.FINISHED
    assert VerificationRun.objects.filter(log__match=match).count() == 1
    # the finished set's follow-up tasks (ratings, statistics) end before the database is
    # flushed for the next test: one still running there deadlocked the flush once
    wait_for(worker_drained, 60, "the worker to finish the result's follow-up tasks")
