"""An override racing a hand report of the same set: one wins, the other answers a clear 4xx.

Before: overriding a match whose set was being reported by hand answered 200 and changed nothing
in 3 of 8 races. Now the override takes the stage lock first (the order reports use), applies
its result to the set inside its own transaction or fails as a whole.
"""

from __future__ import annotations

import threading

import pytest
from django.db import connection

from matches.errors import MatchError
from matches.models import Match
from matches.services import match_result_override
from tests.tournaments.factories import EventFactory, StageFactory, UserFactory, entrants_create
from tournaments.errors import TournamentError
from tournaments.models import Game, Set
from tournaments.services.advancement import GameInput, SetResult, set_result_report
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]


def race_once(i: int) -> str:
    organizer = UserFactory(username=f"race-org-{i}")
    event = EventFactory(organizers=[organizer], best_of=1)
    entrants_create(event, 4)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage, key="W1-1")
    match = set_match_open(set=s, actor=organizer)
    barrier = threading.Barrier(2)
    outcome: dict[str, str] = {}

    def override() -> None:
        try:
            barrier.wait()
            match_result_override(match=match, actor=organizer, winner_side=2, reason="ruling")
            outcome["override"] = "ok"
        except MatchError as error:
            outcome["override"] = error.code.value
        finally:
            connection.close()

    def report() -> None:
        try:
            barrier.wait()
            set_result_report(set=s, actor=organizer, result=SetResult(games=[GameInput("a")]))
            outcome["report"] = "ok"
        except TournamentError as error:
            outcome["report"] = error.code.value
        finally:
            connection.close()

    threads = [threading.Thread(target=override), threading.Thread(target=report)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    s.refresh_from_db()
    match.refresh_from_db()
    assert s.status == Set.Status.FINISHED
    if outcome["override"] == "ok":
        assert outcome["report"] == "set_already_finished"
        assert s.winner_id == s.entrant_b_id
        assert Game.objects.get(match=match).winner_side == "b"
        return "override"
    assert outcome == {"report": "ok", "override": "invalid_transition"}
    assert match.status == Match.Status.CANCELLED
    assert s.winner_id == s.entrant_a_id
    assert not Game.objects.filter(match=match).exists()
    return "report"


def test_eight_races_each_end_with_one_clear_winner() -> None:
    winners = [race_once(i) for i in range(8)]
    assert set(winners) <= {"override", "report"}
    assert len(winners) == 8
