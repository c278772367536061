"""The tabletop recorder on one device (issue 22): the device (the opener) enters both sides'
decisions in turn; nobody else may choose for another seat."""

from __future__ import annotations

import random

import pytest
from asgiref.sync import async_to_sync

from matches.models import LogEndorsement, Match
from rooms import services
from rooms.errors import RoomError, RoomErrorCode
from rooms.models import Room
from rules_engine.log import parse_log
from rules_engine.replay import replay
from tests.matches.factories import PlayerFactory, side_user, versus_match
from tests.rooms.helpers import pick_choice
from tests.rooms.helpers import state as _state


def _device_room() -> tuple[Match, Room]:
    match = versus_match()
    room = services.room_open_for_match(match=match, user=side_user(match, 1), one_device=True)
    assert room.one_device and room.is_tabletop
    return match, room


@pytest.mark.django_db
def test_the_device_records_both_sides_and_the_log_is_submitted(
    django_capture_on_commit_callbacks,
) -> None:
    match, room = _device_room()
    device = side_user(match, 1)
    services.room_pick(room_id=room.pk, user=device, character="grave", seat="P1")
    services.room_pick(room_id=room.pk, user=device, character="jaina", seat="P2")
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    rng = random.Random(6)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(5000):
            room.refresh_from_db()
            if room.status == Room.Status.FINISHED:
                break
            seat = _state(room, "P1")["acting"][0]
            now = _state(room, seat)
            services.room_choose(room_id=room.pk, user=device, seat=seat,
                                 action=pick_choice(now, rng)["action"],
                                 decision=now["decision"])
    assert room.status == Room.Status.FINISHED
    log = parse_log(room.log_text)
    assert log.seed is None and {e.player.name for e in log.events} == {"P1", "P2"}
    assert replay(log).status == "legal"
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_CONFIRMATION  # side 2 confirms, as usual
    assert list(room.match_log.endorsements.values_list("via", "side")) == [
        (LogEndorsement.Via.SUBMISSION, 1)]


@pytest.mark.django_db
def test_only_the_device_chooses_for_another_seat() -> None:
    match, room = _device_room()
    # the other player, on their own phone, naming P1: still their own seat, P2
    services.room_pick(room_id=room.pk, user=side_user(match, 2), character="rook", seat="P1")
    room.refresh_from_db()
    assert dict(room.seats.values_list("seat", "character")) == {"P1": "", "P2": "rook"}
    with pytest.raises(RoomError) as refused:
        services.room_pick(room_id=room.pk, user=PlayerFactory().user, character="grave",
                           seat="P1")
    assert refused.value.code == RoomErrorCode.NOT_YOUR_SEAT
    with pytest.raises(RoomError) as refused:
        services.room_pick(room_id=room.pk, user=side_user(match, 1), character="grave",
                           seat="P7")
    assert refused.value.code == RoomErrorCode.BAD_REQUEST
    assert "there is no seat 'P7'" in refused.value.message
    # a two-phone tabletop room: a player naming the other seat still chooses for their own
    other = versus_match()
    two = services.room_open_for_match(match=other, user=side_user(other, 1), tabletop=True)
    services.room_pick(room_id=two.pk, user=side_user(other, 1), character="grave", seat="P2")
    assert dict(two.seats.values_list("seat", "character")) == {"P1": "grave", "P2": ""}


@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_the_devices_socket_hears_every_seat_and_a_phone_only_its_own() -> None:
    from tests.rooms.test_room_websocket import TIMEOUT, _connect

    match, room = _device_room()
    holder, other = side_user(match, 1), side_user(match, 2)

    async def scenario() -> None:
        device, first = await _connect(room.pk, holder)
        second = await device.receive_json_from(timeout=TIMEOUT)
        assert {first["you"], second["you"]} == {"P1", "P2"}
        assert first["one_device"] is True
        phone, mine = await _connect(room.pk, other)
        assert mine["you"] == "P2"
        await device.send_json_to({"type": "pick", "character": "grave", "seat": "P1"})
        heard = [await device.receive_json_from(timeout=TIMEOUT) for _ in range(2)]
        assert {m["you"] for m in heard} == {"P1", "P2"}
        got = await phone.receive_json_from(timeout=TIMEOUT)
        assert got["you"] == "P2" and got["seats"][0]["character"] is None
        assert await phone.receive_nothing(timeout=0.3)
        for client in (device, phone):
            await client.disconnect()

    async_to_sync(scenario)()
