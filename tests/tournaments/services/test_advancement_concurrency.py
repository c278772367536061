"""Exactly-once advancement under concurrent reports, with real threads on PostgreSQL."""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from tests.tournaments.factories import EventFactory, StageFactory, UserFactory, entrants_create
from tests.tournaments.helpers import win
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Game, Set, SetResultChange
from tournaments.services.advancement import set_result_report
from tournaments.services.generation import stage_generate


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_concurrent_reports_of_one_set_advance_exactly_once():
    # given
    organizer = UserFactory(username="race-org")
    event = EventFactory(organizers=[organizer])
    entrants = entrants_create(event, 4)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    target = Set.objects.get(stage=stage, key="W1-1")
    barrier = threading.Barrier(6)
    outcomes: list[str] = []
    lock = threading.Lock()

    def attempt(side: str) -> None:
        try:
            barrier.wait()
            set_result_report(set=target, actor=organizer, result=win(side))
            result = f"ok:{side}"
        except TournamentError as exc:
            result = str(exc.code)
        finally:
            connection.close()
        with lock:
            outcomes.append(result)

    # when: six reports race, three for each side
    threads = [threading.Thread(target=attempt, args=("ab"[i % 2],)) for i in range(6)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    # then: one wins, five are told the set is finished; the final got exactly one entrant
    wins = [o for o in outcomes if o.startswith("ok:")]
    assert len(wins) == 1
    assert sorted(o for o in outcomes if not o.startswith("ok:")) == [
        TournamentErrorCode.SET_ALREADY_FINISHED
    ] * 5
    winner = entrants[0] if wins[0] == "ok:a" else entrants[3]
    final = Set.objects.get(stage=stage, key="W2-1")
    assert final.entrant_a_id == winner.pk
    assert Game.objects.filter(set=target).count() == 2
    assert SetResultChange.objects.filter(set=target).count() == 1
