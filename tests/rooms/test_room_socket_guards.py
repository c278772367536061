"""What a room's websocket refuses before any work (issue 31, item 3): frames that are not room
messages, spectators' messages, and senders over their rate (an address's counts shared by the
ASGI processes through Redis, in memory without it); and a first connect after the channel
layer lost its Redis connection."""

from __future__ import annotations

import json
import logging
import os
import subprocess
import sys
import time
from typing import Any

import pytest
import redis
from asgiref.sync import async_to_sync
from channels.layers import get_channel_layer
from channels.routing import URLRouter
from channels.testing import WebsocketCommunicator
from django.conf import settings as django_settings
from django.contrib.auth.models import AnonymousUser

from rooms import guards
from rooms.consumers import CLOSE_RATE_LIMITED, MAX_OVER_RATE, room_group
from rooms.models import RoomEvent
from rooms.routing import websocket_urlpatterns
from tests.conftest import REPO_ROOT
from tests.matches.factories import side_user
from tests.rooms.helpers import match_room
from tests.support.faults import free_port

pytestmark = [pytest.mark.services, pytest.mark.django_db(transaction=True)]
TIMEOUT = 10


def _as(user: Any, address: str = "10.0.0.1"):
    router = URLRouter(websocket_urlpatterns)

    async def app(scope, receive, send):
        return await router(dict(scope, user=user, client=(address, 5000)), receive, send)

    return app


async def _connect(room_id: int, user: Any, address: str = "10.0.0.1"):
    client = WebsocketCommunicator(_as(user, address), f"/ws/rooms/{room_id}/")
    connected, _ = await client.connect(timeout=TIMEOUT)
    assert connected
    return client, await client.receive_json_from(timeout=TIMEOUT)


BAD_FRAMES: list[tuple[str, dict[str, Any], str]] = [
    ("binary", {"bytes_data": b"\x00\x01"}, "binary frames"),
    ("not JSON", {"text_data": "{choose"}, "not JSON"),
    ("5,000 digits", {"text_data": '{"type": "choose", "n": ' + "9" * 5000 + "}"},
     "characters"),
    ("400 digits", {"text_data": '{"type": "choose", "n": ' + "9" * 400 + "}"}, "digits"),
    ("deep", {"text_data": '{"a":' + "[" * 10 + "]" * 10 + "}"}, "deeper"),
    ("very deep", {"text_data": "[" * 2000 + "]" * 2000}, "not JSON"),
    ("NaN", {"text_data": '{"type": "choose", "n": NaN}'}, "NaN"),
    ("a list", {"text_data": "[1, 2]"}, "JSON object"),
    ("too long", {"text_data": json.dumps({"type": "choose", "x": "a" * 5000})},
     "characters"),
]


def test_frames_that_are_not_room_messages_are_refused_and_the_socket_stays() -> None:
    match, room = match_room()
    p1_user = side_user(match, 1)

    async def scenario() -> None:
        p1, first = await _connect(room.pk, p1_user)
        for name, frame, says in BAD_FRAMES:
            await p1.send_to(**frame)
            refused = await p1.receive_json_from(timeout=TIMEOUT)
            assert refused["type"] == "refused" and refused["code"] == "bad_frame", name
            assert says in refused["reason"], (name, refused["reason"])
        # still connected and served: a real choice goes through
        commit = next(c for c in first["legal"] if c["action"]["action"] == "commit")
        await p1.send_json_to({"type": "choose", "action": commit["action"],
                               "decision": first["decision"]})
        moved = await p1.receive_json_from(timeout=TIMEOUT)
        assert moved.get("type") != "refused" and moved["version"] == 1
        await p1.disconnect()

    async_to_sync(scenario)()


def test_spectators_only_listen() -> None:
    _match, room = match_room()

    async def scenario() -> None:
        watcher, _first = await _connect(room.pk, AnonymousUser())
        for message in ({"type": "choose", "action": {"action": "no_card"}},
                        {"type": "clock"}, {"type": "pick", "character": "grave"}):
            await watcher.send_json_to({**message, "ref": 7})
            refused = await watcher.receive_json_from(timeout=TIMEOUT)
            assert (refused["type"], refused["code"], refused["ref"]) == (
                "refused", "not_your_seat", 7)
        await watcher.disconnect()

    async_to_sync(scenario)()
    assert not RoomEvent.objects.filter(room=room).exists()


def test_a_flooding_connection_is_refused_then_closed(settings) -> None:
    settings.YOMI_RATE_LIMITS_ENABLED = True
    settings.YOMI_ROOM_RATES = {**settings.YOMI_ROOM_RATES, "message_connection": "5/hour"}
    match, room = match_room()
    p1_user = side_user(match, 1)

    async def scenario() -> None:
        p1, _ = await _connect(room.pk, p1_user, "10.0.0.2")
        for _ in range(5):  # within the rate: answered (too early for the clock: no reply)
            await p1.send_json_to({"type": "pick", "character": "grave"})
            assert (await p1.receive_json_from(timeout=TIMEOUT))["code"] == "stale"
        await p1.send_json_to({"type": "clock"})
        refused = await p1.receive_json_from(timeout=TIMEOUT)
        assert refused["code"] == "rate_limited"
        for _ in range(MAX_OVER_RATE + 5):  # dropped without a reply, then cut off
            await p1.send_json_to({"type": "clock"})
        closed = await p1.receive_output(timeout=TIMEOUT)
        assert closed == {"type": "websocket.close", "code": CLOSE_RATE_LIMITED}
        # the room's updates are no longer sent to it (daphne: a send on a closed protocol)
        layer = get_channel_layer()
        for audience in ("P1", "P2", "public"):
            await layer.group_send(room_group(room.pk, audience),
                                   {"type": "room.state", "message": {"type": "state"}})
        assert await p1.receive_nothing(timeout=1)

    async_to_sync(scenario)()


def test_one_address_shares_one_rate_across_its_connections(settings) -> None:
    settings.YOMI_RATE_LIMITS_ENABLED = True
    settings.YOMI_ROOM_RATES = {**settings.YOMI_ROOM_RATES, "message_address": "4/hour"}
    match, room = match_room()
    p1_user, p2_user = side_user(match, 1), side_user(match, 2)

    async def scenario() -> None:
        a, _ = await _connect(room.pk, p1_user, "10.0.0.3")
        b, _ = await _connect(room.pk, p2_user, "10.0.0.3")
        other, _ = await _connect(room.pk, p2_user, "10.0.0.4")
        for client in (a, b, a, b):
            await client.send_json_to({"type": "pick", "character": "grave"})
            assert (await client.receive_json_from(timeout=TIMEOUT))["code"] == "stale"
        await b.send_json_to({"type": "pick", "character": "grave"})
        assert (await b.receive_json_from(timeout=TIMEOUT))["code"] == "rate_limited"
        await other.send_json_to({"type": "pick", "character": "grave"})  # another address
        assert (await other.receive_json_from(timeout=TIMEOUT))["code"] == "stale"
        for client in (a, b, other):
            await client.disconnect()

    async_to_sync(scenario)()


def test_connections_per_address_are_limited(settings) -> None:
    settings.YOMI_RATE_LIMITS_ENABLED = True
    settings.YOMI_ROOM_RATES = {**settings.YOMI_ROOM_RATES, "connect": "2/hour"}
    _match, room = match_room()

    async def scenario() -> None:
        opened = [await _connect(room.pk, AnonymousUser(), "10.0.0.5") for _ in range(2)]
        third = WebsocketCommunicator(_as(AnonymousUser(), "10.0.0.5"), f"/ws/rooms/{room.pk}/")
        connected, code = await third.connect(timeout=TIMEOUT)
        assert not connected and code == CLOSE_RATE_LIMITED
        for client, _ in opened:
            await client.disconnect()

    async_to_sync(scenario)()


def test_the_first_connect_after_the_layer_lost_redis_succeeds(monkeypatch) -> None:
    from channels.layers import get_channel_layer

    match, room = match_room()
    layer = get_channel_layer()
    real = layer.group_add
    failures = []

    async def lost_once(group: str, channel: str) -> None:
        if not failures:
            failures.append(group)
            raise ConnectionError("Connection closed by server.")
        await real(group, channel)

    monkeypatch.setattr(layer, "group_add", lost_once)
    p1_user = side_user(match, 1)

    async def scenario() -> None:
        p1, first = await _connect(room.pk, p1_user)
        assert first["you"] == "P1" and failures
        await p1.disconnect()

    async_to_sync(scenario)()


def test_a_frame_is_read_in_bounded_time_and_depth() -> None:
    # the guard itself, without a socket: the largest legal message parses, anything past
    # the limits is refused by what it is
    legal = {"type": "choose", "action": {"action": "combo", "cards": ["a"] * 50}, "ref": 1}
    assert guards.frame_read(json.dumps(legal), None) == legal
    with pytest.raises(guards.RoomError):
        guards.frame_read("9" * 30, None)


# Another ASGI process, as far as the guard can tell: its own interpreter and memory, the same
# settings (and so the same Redis and key prefix).
_OTHER_PROCESS = """
import asyncio, sys
import django
django.setup()
from django.conf import settings
settings.YOMI_RATE_LIMITS_ENABLED = True
settings.YOMI_ROOM_RATES = {**settings.YOMI_ROOM_RATES, "connect": sys.argv[1]}
from rooms import guards

async def main():
    return [await guards.rate_allows("connect", sys.argv[2]) for _ in range(int(sys.argv[3]))]

print(asyncio.run(main()))
"""


def _connect_refused(room_id: int, address: str) -> bool:
    async def attempt() -> bool:
        client = WebsocketCommunicator(_as(AnonymousUser(), address), f"/ws/rooms/{room_id}/")
        connected, code = await client.connect(timeout=TIMEOUT)
        if connected:
            await client.receive_json_from(timeout=TIMEOUT)
            await client.disconnect()
            return False
        assert code == CLOSE_RATE_LIMITED
        return True

    return async_to_sync(attempt)()


def test_an_address_has_one_allowance_across_the_asgi_processes(settings) -> None:
    settings.YOMI_RATE_LIMITS_ENABLED = True
    settings.YOMI_ROOM_RATES = {**settings.YOMI_ROOM_RATES, "connect": "3/hour"}
    _match, room = match_room()
    other = subprocess.run(
        [sys.executable, "-c", _OTHER_PROCESS, "3/hour", "10.0.1.1", "3"],
        cwd=REPO_ROOT, capture_output=True, text=True, timeout=120,
        env={**os.environ, "DJANGO_SETTINGS_MODULE": "yomi_site.test_settings"},
    )
    assert other.returncode == 0, other.stderr
    assert other.stdout.split("\n")[-2] == "[True, True, True]"  # its whole allowance
    # this process has counted nothing from that address, yet it refuses it: one count
    assert _connect_refused(room.pk, "10.0.1.1")
    assert not _connect_refused(room.pk, "10.0.1.2")  # another address has its own
    keys = redis.Redis.from_url(django_settings.TEST_REDIS_URL).keys(
        f"{settings.YOMI_ROOM_RATE_PREFIX}*10.0.1.1*")
    assert len(keys) == 1  # the count is Redis's


def test_without_redis_the_counts_are_kept_in_memory(settings) -> None:
    # make run: SQLite, the in-memory channel layer, no REDIS_URL (YOMI_ROOM_RATE_STORAGE "")
    settings.YOMI_RATE_LIMITS_ENABLED = True
    settings.YOMI_ROOM_RATE_STORAGE = ""
    settings.YOMI_ROOM_RATES = {**settings.YOMI_ROOM_RATES, "connect": "2/hour"}
    _match, room = match_room()
    assert [_connect_refused(room.pk, "10.0.1.3") for _ in range(3)] == [False, False, True]
    assert not redis.Redis.from_url(django_settings.TEST_REDIS_URL).keys("*10.0.1.3*")


def test_a_redis_outage_falls_back_to_memory_quickly_and_says_so_once(settings, caplog) -> None:
    settings.YOMI_RATE_LIMITS_ENABLED = True
    settings.YOMI_ROOM_RATE_STORAGE = f"async+redis://127.0.0.1:{free_port()}/0"  # nobody there
    settings.YOMI_ROOM_RATES = {**settings.YOMI_ROOM_RATES, "message_address": "2/hour"}

    async def hits() -> list[bool]:
        return [await guards.rate_allows("message_address", "10.0.1.4") for _ in range(4)]

    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="rooms.guards"):
        allowed = async_to_sync(hits)()
    # still limited (this process's memory), without waiting on the dead Redis each time
    assert allowed == [True, True, False, False]
    assert time.monotonic() - started < 2
    assert [r.message for r in caplog.records].count(
        "room rates: the shared counts cannot be reached; message_address per address is "
        "counted in this process for 5 s") == 1
