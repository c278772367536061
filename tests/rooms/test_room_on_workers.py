"""A game played in a set's match room becomes the set's game through the real workers."""

from __future__ import annotations

import pytest

from matches.models import AuditEntry, LogEndorsement, Match, MatchLog
from rooms import services
from rooms.models import Room
from tests.matches.factories import side_user
from tests.rooms.helpers import play_out
from tests.support.waiting import wait_for, worker_drained
from tests.tournaments.factories import EventFactory, StageFactory, UserFactory, entrants_create
from tournaments.models import Game, Set
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]




def test_the_rooms_log_is_verified_on_a_worker_and_advances_the_bracket(celery_worker) -> None:
    # given a best-of-1 semifinal, its match, and the match's room
    organizer = UserFactory(username="room-org")
    event = EventFactory(organizers=[organizer], best_of=1)
    entrants = entrants_create(event, 4)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    semifinal = Set.objects.get(stage=stage, key="W1-1")
    match = set_match_open(set=semifinal, actor=organizer)
    room = services.room_open_for_match(match=match, user=side_user(match, 1))
    Room.objects.filter(pk=room.pk).update(seed=20261123)  # a deal that ends with a winner
    for side, character in ((1, "grave"), (2, "jaina")):
        services.room_pick(room_id=room.pk, user=side_user(match, side), character=character)
    # when both players play it to the end in the room
    play_out(match, room, seed=11)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED and room.outcome["winner"] in ("P1", "P2")
    # then the worker verifies the room's log and, with no submission or confirmation by
    # anyone, the set records the game and the winner advances
    wait_for(lambda: Game.objects.filter(match=match).exists(), 90, "the set's game")
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert match.result_source == Match.ResultSource.LOG
    assert MatchLog.objects.filter(match=match).count() == 1
    assert match.result_log.text == room.log_text
    assert set(match.result_log.endorsements.values_list("via", "side")) == {
        (LogEndorsement.Via.ROOM, 1), (LogEndorsement.Via.ROOM, 2)}
    recorded = match.audit_entries.get(action=AuditEntry.Action.LOG_ROOM_RECORDED)
    assert recorded.actor is None and recorded.after["room"] == f"room {room.pk}"
    semifinal.refresh_from_db()
    assert semifinal.status == Set.Status.FINISHED
    final = Set.objects.get(stage=stage, key="W2-1")
    advanced = final.entrant_a_id
    assert advanced in (semifinal.entrant_a_id, semifinal.entrant_b_id)
    expected = semifinal.entrant_a_id if room.outcome["winner"] == "P1" else semifinal.entrant_b_id
    assert advanced == expected
    assert advanced in {e.pk for e in entrants}
    # the result's follow-up tasks (statistics) finish before the database is flushed
    wait_for(worker_drained, 60, "the worker to finish the match's follow-up tasks")
