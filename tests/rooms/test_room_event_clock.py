"""The decision clock set by the event (issue 22): the organizers' setting, validated on the
form and the API, and used by the rooms of the event's matches."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone
from rest_framework.test import APIClient

from rooms import services
from rooms.models import Room, RoomEvent
from tests.matches.factories import side_user
from tests.rooms.helpers import state
from tests.tournaments.factories import EventFactory, StageFactory, UserFactory, entrants_create
from tournaments.models import Event, Set
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open

pytestmark = pytest.mark.django_db

EVENT_POST = {
    "name": "Clocked Yomi", "description": "", "mode": "versus", "best_of": "3",
    "top_rounds": "0", "top_best_of": "5", "grand_final_best_of": "5",
    "character_rule": "free", "result_policy": "log", "max_entrants": "",
    "check_in_opens_at": "", "check_in_closes_at": "", "starts_at": "",
}


def _event_match(seconds: int | None):
    organizer = UserFactory()
    event = EventFactory(organizers=[organizer], best_of=1, room_decision_seconds=seconds,
                         character_rule=Event.CharacterRule.FREE)
    entrants_create(event, 2)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    return set_match_open(set=Set.objects.get(stage=stage), actor=organizer)


def test_the_event_form_takes_the_clock_and_names_a_bad_value(client) -> None:
    user = UserFactory()
    client.force_login(user)
    response = client.post("/events/new/", {**EVENT_POST, "room_decision_seconds": "2"})
    assert response.status_code == 400
    assert "a decision clock of 2 seconds: use 5 to 3600 seconds" in response.content.decode()
    response = client.post("/events/new/", {**EVENT_POST, "room_decision_seconds": "soon"})
    assert response.status_code == 400
    assert "Enter a whole number" in response.content.decode()
    assert not Event.objects.exists()
    response = client.post("/events/new/", {**EVENT_POST, "room_decision_seconds": "45"})
    assert response.status_code == 302
    assert Event.objects.get().room_decision_seconds == 45
    # the edit page shows the field with its label
    event = Event.objects.get()
    page = client.get(f"/events/{event.slug}/edit/").content.decode()
    assert "Match room clock (seconds per decision)" in page and 'value="45"' in page


def test_the_api_validates_the_clock_and_clears_it_with_null() -> None:
    organizer = UserFactory()
    event = EventFactory(organizers=[organizer])
    api = APIClient()
    api.force_authenticate(organizer)
    url = f"/api/events/{event.slug}/"
    for bad in (0, 3601, -5):
        response = api.patch(url, {"room_decision_seconds": bad}, format="json")
        assert response.status_code == 400, bad
        assert f"a decision clock of {bad} seconds: use 5 to 3600" in response.content.decode()
    response = api.patch(url, {"room_decision_seconds": "fast"}, format="json")
    assert response.status_code == 400
    assert "room_decision_seconds" in response.json()
    response = api.patch(url, {"room_decision_seconds": 20}, format="json")
    assert response.status_code == 200 and response.json()["room_decision_seconds"] == 20
    response = api.patch(url, {"room_decision_seconds": None}, format="json")
    assert response.status_code == 200 and response.json()["room_decision_seconds"] is None
    event.refresh_from_db()
    assert event.room_decision_seconds is None


def test_a_room_of_the_events_match_times_out_a_decision_and_the_game_goes_on() -> None:
    match = _event_match(20)
    # a player's own choice on the opening page does not override the event's clock
    room = services.room_open_for_match(match=match, user=side_user(match, 1),
                                        decision_seconds=600)
    assert room.decision_seconds == 20
    for side, character in ((1, "grave"), (2, "jaina")):
        services.room_pick(room_id=room.pk, user=side_user(match, side), character=character)
    assert state(room, "P1")["clock"]["seconds"] == 20
    assert state(room, "public")["clock"]["seconds"] == 20
    assert services.room_clock_check(room_id=room.pk) is None  # not due yet
    Room.objects.filter(pk=room.pk).update(decision_since=timezone.now() - timedelta(seconds=21))
    update = services.room_clock_check(room_id=room.pk)
    assert update is not None
    logged = list(RoomEvent.objects.filter(room=room).values_list("player", "action"))
    assert logged == [("P1", {"action": "no_card"}), ("P2", {"action": "no_card"})]
    # the game goes on: a new decision with its own clock, and the players can choose
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    now = state(room, update.messages["P1"]["acting"][0])
    assert now["legal"] and now["clock"]["deadline"] > timezone.now().timestamp()
    services.room_choose(room_id=room.pk, user=side_user(match, int(now["you"][1])),
                         action=now["legal"][0]["action"], decision=now["decision"])
    assert RoomEvent.objects.filter(room=room).count() >= 3


def test_an_event_without_a_clock_gives_its_rooms_none(client) -> None:
    match = _event_match(None)
    client.force_login(side_user(match, 1))
    page = client.get(f"/matches/{match.pk}/room/").content.decode()
    assert "The event sets no clock." in page and 'name="decision_seconds"' not in page
    client.post(f"/matches/{match.pk}/room/", {"decision_seconds": "30"})
    assert Room.objects.get(match=match).decision_seconds is None


def test_a_bad_clock_on_the_opening_page_is_a_clear_400(client) -> None:
    from tests.matches.factories import versus_match

    match = versus_match()
    client.force_login(side_user(match, 1))
    response = client.post(f"/matches/{match.pk}/room/", {"decision_seconds": "ten"})
    assert response.status_code == 400
    assert "seconds per decision: &#x27;ten&#x27; is not a whole number" in \
        response.content.decode()
    assert not Room.objects.filter(match=match).exists()
