"""The room's websocket on the real Redis channel layer: what each client actually receives.

Each test reads the messages the sockets deliver (not the services' return values): a seat's
socket carries only that seat's view, a spectator's the public one, and a hidden commit reaches
nobody until both are in.
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from asgiref.sync import async_to_sync
from channels.db import database_sync_to_async
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.contrib.auth.models import AnonymousUser

from rooms.routing import websocket_urlpatterns
from tests.matches.factories import PlayerFactory, side_user
from tests.rooms.helpers import match_room

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
TIMEOUT = 10


def _as(user: Any):
    router = URLRouter(websocket_urlpatterns)

    async def app(scope, receive, send):  # what AuthMiddlewareStack does with a session
        return await router(dict(scope, user=user), receive, send)

    return app


async def _connect(room_id: int, user: Any) -> tuple[WebsocketCommunicator, dict[str, Any]]:
    client = WebsocketCommunicator(_as(user), f"/ws/rooms/{room_id}/")
    connected, _ = await client.connect(timeout=TIMEOUT)
    assert connected
    return client, await client.receive_json_from(timeout=TIMEOUT)


def _commit(state: dict[str, Any], index: int = 0) -> dict[str, Any]:
    return [c for c in state["legal"] if c["action"]["action"] == "commit"][index]["action"]


def test_a_hidden_commit_reaches_nobody_until_both_are_in() -> None:
    match, room = match_room()
    p1_user, p2_user = side_user(match, 1), side_user(match, 2)

    async def scenario() -> None:
        p1, p1_state = await _connect(room.pk, p1_user)
        p2, p2_state = await _connect(room.pk, p2_user)
        watcher, public_state = await _connect(room.pk, AnonymousUser())
        assert p1_state["you"] == "P1" and p2_state["you"] == "P2" and public_state["you"] is None
        assert "hand" in p1_state["view"]["players"]["P1"]
        assert "hand" not in p1_state["view"]["players"]["P2"]
        assert all("hand" not in p for p in public_state["view"]["players"].values())
        assert public_state["legal"] == []

        p1_card = _commit(p1_state, 0)
        await p1.send_json_to({"type": "choose", "action": p1_card,
                               "decision": p1_state["decision"]})
        after_p1 = {name: await c.receive_json_from(timeout=TIMEOUT)
                    for name, c in (("P1", p1), ("P2", p2), ("public", watcher))}
        for name in ("P2", "public"):
            seen = after_p1[name]
            assert "combat_card" not in seen["view"]["players"]["P1"]
            assert "hand" not in seen["view"]["players"]["P1"]
            assert seen["acting"] == ["P2"]
            assert "commit" not in json.dumps(seen["view"])

        p2_card = _commit(p2_state, 0)
        await p2.send_json_to({"type": "choose", "action": p2_card,
                               "decision": after_p1["P2"]["decision"]})
        revealed = {name: await c.receive_json_from(timeout=TIMEOUT)
                    for name, c in (("P1", p1), ("P2", p2), ("public", watcher))}
        for seen in revealed.values():
            # both commits are in: the reveal (C2) shows both, or the game moved past combat
            assert seen["version"] == 2
        for client in (p1, p2, watcher):
            assert await client.receive_nothing(timeout=0.2)
            await client.disconnect()

    async_to_sync(scenario)()


def test_refusals_go_to_the_sender_only() -> None:
    match, room = match_room()
    users = side_user(match, 1), side_user(match, 2), PlayerFactory().user

    async def scenario() -> None:
        p1, p1_state = await _connect(room.pk, users[0])
        p2, _ = await _connect(room.pk, users[1])
        stranger, _ = await _connect(room.pk, users[2])
        await stranger.send_json_to({"type": "choose", "action": _commit(p1_state)})
        refused = await stranger.receive_json_from(timeout=TIMEOUT)
        assert refused["type"] == "refused" and refused["code"] == "not_your_seat"
        await p1.send_json_to({"type": "choose", "action": {"action": "pass"}})
        refused = await p1.receive_json_from(timeout=TIMEOUT)
        assert refused["type"] == "refused" and refused["code"] == "illegal"
        await p1.send_json_to({"type": "dance"})
        assert (await p1.receive_json_from(timeout=TIMEOUT))["code"] == "bad_request"
        for client in (p1, p2, stranger):
            assert await client.receive_nothing(timeout=0.2)
            await client.disconnect()

    async_to_sync(scenario)()


def test_a_reconnecting_player_resumes_at_the_current_state() -> None:
    match, room = match_room()
    p1_user, p2_user = side_user(match, 1), side_user(match, 2)

    async def scenario() -> None:
        p1, p1_state = await _connect(room.pk, p1_user)
        await p1.send_json_to({"type": "choose", "action": _commit(p1_state),
                               "decision": p1_state["decision"]})
        await p1.receive_json_from(timeout=TIMEOUT)
        await p1.disconnect()
        p2, p2_state = await _connect(room.pk, p2_user)
        await p2.send_json_to({"type": "choose", "action": _commit(p2_state),
                               "decision": p2_state["decision"]})
        moved = await p2.receive_json_from(timeout=TIMEOUT)
        back, resumed = await _connect(room.pk, p1_user)
        assert resumed["version"] == moved["version"] == 2
        assert resumed["view"]["turn"] == moved["view"]["turn"]
        assert resumed["you"] == "P1"
        for client in (p2, back):
            await client.disconnect()

    async_to_sync(scenario)()


def test_an_unknown_room_is_closed() -> None:
    async def scenario() -> None:
        client = WebsocketCommunicator(_as(AnonymousUser()), "/ws/rooms/999999/")
        connected, code = await client.connect(timeout=TIMEOUT)
        assert not connected and code == 4404

    async_to_sync(scenario)()


def test_a_player_asking_after_the_clock_ran_out_makes_the_default_choices() -> None:
    from datetime import timedelta

    from django.utils import timezone

    from rooms import services
    from rooms.models import Room
    from tests.matches.factories import versus_match

    match = versus_match()
    room = services.room_open_for_match(match=match, user=side_user(match, 1),
                                        decision_seconds=10)
    p1_user, p2_user = side_user(match, 1), side_user(match, 2)
    for user, character in ((p1_user, "grave"), (p2_user, "jaina")):
        services.room_pick(room_id=room.pk, user=user, character=character)

    async def scenario() -> None:
        p1, first = await _connect(room.pk, p1_user)
        watcher, _ = await _connect(room.pk, AnonymousUser())
        assert first["clock"]["seconds"] == 10
        await p1.send_json_to({"type": "clock"})  # too early: nothing happens
        assert await p1.receive_nothing(timeout=0.3)
        await database_sync_to_async(Room.objects.filter(pk=room.pk).update)(
            decision_since=timezone.now() - timedelta(seconds=11))
        await p1.send_json_to({"type": "clock"})  # P2 is away: P1's countdown ended
        moved = await p1.receive_json_from(timeout=TIMEOUT)
        assert moved["version"] == 2 and moved["moves"] == {"P1": 1, "P2": 1}
        assert (await watcher.receive_json_from(timeout=TIMEOUT))["version"] == 2
        for client in (p1, watcher):
            await client.disconnect()

    async_to_sync(scenario)()


def test_tag_team_sockets_each_carry_their_seat_and_a_commit_reaches_nobody_early() -> None:
    from matches.models import Match
    from matches.services.matches import match_create
    from rooms import services

    match = match_create(mode=Match.Mode.TAG_TEAM, side_1=[PlayerFactory(), PlayerFactory()],
                         side_2=[PlayerFactory(), PlayerFactory()])
    opener = match.sides.filter(side=1).first().player.user
    room = services.room_open_for_match(match=match, user=opener)
    users = {s.seat: s.user for s in room.seats.select_related("user")}
    for seat, character in (("P1", "grave"), ("P2", "rook"), ("P3", "jaina"), ("P4", "lum")):
        services.room_pick(room_id=room.pk, user=users[seat], character=character)

    async def scenario() -> None:
        sockets, first = {}, {}
        for seat in ("P1", "P2", "P3", "P4"):
            sockets[seat], first[seat] = await _connect(room.pk, users[seat])
            assert first[seat]["you"] == seat
        sockets["public"], first["public"] = await _connect(room.pk, AnonymousUser())
        await sockets["P1"].send_json_to({"type": "choose", "action": _commit(first["P1"]),
                                          "decision": first["P1"]["decision"]})
        seen = {a: await c.receive_json_from(timeout=TIMEOUT) for a, c in sockets.items()}
        assert {a: m["you"] for a, m in seen.items()} == {
            "P1": "P1", "P2": "P2", "P3": "P3", "P4": "P4", "public": None}
        for audience in ("P2", "P4", "public"):  # the other side and the spectators
            p1 = seen[audience]["view"]["players"]["P1"]
            assert "combat_card" not in p1 and "hand" not in p1
            acting = seen[audience]["acting"]
            # P1 has committed, P2 (active) has not; a bench seat may still place an assist
            # or pass at the same C1 (AS-1)
            assert "P1" not in acting and "P2" in acting and set(acting) <= {"P2", "P3", "P4"}
        # the partner shares P1's hand (TG-6) but not the committed card before C2 either
        assert "hand" in seen["P3"]["view"]["players"]["P1"]
        assert "combat_card" not in seen["P3"]["view"]["players"]["P1"]
        assert seen["P2"]["legal"]
        assert bool(seen["P4"]["legal"]) == ("P4" in seen["P4"]["acting"])
        assert {c["action"]["action"] for c in seen["P4"]["legal"]} <= {"assist", "pass"}
        for client in sockets.values():
            assert await client.receive_nothing(timeout=0.2)
            await client.disconnect()

    async_to_sync(scenario)()
