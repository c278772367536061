"""The room's websocket: thin. It finds the connection's audience (a seat, or spectators), sends
the current state on connect (a reconnecting player resumes there), hands choices to the
services and forwards each audience its own message through the channel layer.

Before any work a frame passes ``rooms.guards`` (rates, size, JSON, depth); spectators only
listen: whatever they send is refused without reading the database (issue 31).
"""

from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import redis.exceptions
from channels.db import database_sync_to_async
from channels.generic.websocket import AsyncJsonWebsocketConsumer

from rooms import games, guards, services
from rooms.errors import RoomError, RoomErrorCode
from rooms.selectors import room_audiences, room_game, room_get, room_seats, room_state


def room_group(room_id: int, audience: str) -> str:
    """One group per audience: a seat's group only ever carries that seat's view."""
    return f"room-{room_id}-{audience}"


def _connect_state(room_id: int, user: Any) -> list[tuple[str, dict[str, Any]]] | None:
    # Under the room's lock: a choice being applied in another thread changes the cached game.
    with games.room_lock(room_id):
        room = room_get(room_id)
        if room is None:
            return None
        seats = room_seats(room)
        game = room_game(room, seats)
        return [(audience, room_state(room, seats, game, audience))
                for audience in room_audiences(room, seats, user)]


logger = logging.getLogger(__name__)

# Refused messages over the rate a connection may send before it is closed (code 4429), and
# frames that are no room message at all (code 4400): a client that keeps flooding is cut off,
# and whatever it had already sent is dropped unread.
MAX_OVER_RATE = 100
MAX_BAD_FRAMES = 10
CLOSE_RATE_LIMITED = 4429
CLOSE_BAD_FRAMES = 4400


def _address(scope: dict[str, Any]) -> str:
    client = scope.get("client") or ("unknown", 0)
    return str(client[0])


def _seat(content: dict[str, Any]) -> str | None:
    """The seat a one-device recorder names (the services ignore it for anyone else)."""
    seat = content.get("seat")
    return seat if isinstance(seat, str) else None


class RoomConsumer(AsyncJsonWebsocketConsumer):
    """One connection: a seat's, the spectators', or a one-device recorder's (every seat)."""

    room_id: int
    audiences: tuple[str, ...] = ()
    over_rate = 0  # messages refused for the rate so far
    bad_frames = 0  # frames refused as no room message
    cut_off = False  # closed by the server: frames still queued are dropped unread
    refused_rate_at = 0.0  # when the last rate refusal was sent (one a second at most)

    async def connect(self) -> None:
        self.room_id = int(self.scope["url_route"]["kwargs"]["room_id"])
        self.address = _address(self.scope)
        if not await guards.rate_allows("connect", self.address):
            await self.close(code=CLOSE_RATE_LIMITED)
            return
        found = await database_sync_to_async(_connect_state)(self.room_id, self.scope.get("user"))
        if found is None:
            await self.close(code=4404)
            return
        self.audiences = tuple(audience for audience, _ in found)
        for audience in self.audiences:
            await self._group_add(room_group(self.room_id, audience))
        await self.accept()
        for _, state in found:
            await self.send_json(state)

    async def _group_add(self, group: str) -> None:
        # After a Redis restart the layer's first command finds its old connection closed;
        # the layer reconnects on the next one, so one retry turns that into a normal connect.
        try:
            await self.channel_layer.group_add(group, self.channel_name)
        except (ConnectionError, OSError, redis.exceptions.ConnectionError):
            logger.warning("channel layer: group_add failed, retrying once", exc_info=True)
            await asyncio.sleep(0.2)
            await self.channel_layer.group_add(group, self.channel_name)

    @property
    def plays(self) -> bool:
        """A seat's connection (or a one-device recorder's): spectators only listen."""
        return any(audience != "public" for audience in self.audiences)

    async def _refuse(self, error: RoomError, ref: Any = None) -> None:
        await self.send_json({"type": "refused", "ref": ref, **error.data})

    async def receive(self, text_data: str | None = None,
                      bytes_data: bytes | None = None, **kwargs: Any) -> None:
        """Every frame: the rates, then the frame, then (players only) the services."""
        if self.cut_off:
            return
        # the connection's own count first: it is in memory, and a flood past it never
        # reaches the shared (Redis) count of its address
        if not (await guards.rate_allows("message_connection", self.channel_name)
                and await guards.rate_allows("message_address", self.address)):
            self.over_rate += 1
            if self.over_rate > MAX_OVER_RATE:
                await self._cut_off(CLOSE_RATE_LIMITED)
                return
            now = time.monotonic()
            if now - self.refused_rate_at >= 1:
                self.refused_rate_at = now
                await self._refuse(RoomError(
                    RoomErrorCode.RATE_LIMITED,
                    "too many messages: this one and the others this second were dropped"))
            return
        try:
            content = guards.frame_read(text_data, bytes_data)
        except RoomError as error:
            self.bad_frames += 1
            if self.bad_frames > MAX_BAD_FRAMES:
                await self._cut_off(CLOSE_BAD_FRAMES)
                return
            await self._refuse(error)
            return
        if not self.plays:
            await self._refuse(RoomError(RoomErrorCode.NOT_YOUR_SEAT,
                                         "spectators watch; only the players send"),
                               content.get("ref"))
            return
        await self.receive_json(content)

    async def _cut_off(self, code: int) -> None:
        self.cut_off = True
        logger.warning("room %s: connection from %s cut off (%s): %d over the rate, %d bad "
                       "frames", self.room_id, self.address, code, self.over_rate,
                       self.bad_frames)
        await self.close(code=code)

    async def disconnect(self, code: int) -> None:
        for audience in self.audiences:
            await self.channel_layer.group_discard(room_group(self.room_id, audience),
                                                   self.channel_name)

    async def receive_json(self, content: Any, **kwargs: Any) -> None:
        user = self.scope.get("user")
        kind = content.get("type") if isinstance(content, dict) else None
        try:
            if kind == "choose":
                # Not thread-sensitive: choices of different rooms run in parallel threads
                # (their database waits overlap); one room's are serialised by its locks.
                update = await database_sync_to_async(services.room_choose,
                                                      thread_sensitive=False)(
                    room_id=self.room_id, user=user, action=content.get("action"),
                    decision=content.get("decision"), seat=_seat(content),
                )
            elif kind == "clock":
                # any connected client may say its countdown ended; the server's clock decides
                update = await database_sync_to_async(services.room_clock_check,
                                                      thread_sensitive=False)(
                    room_id=self.room_id)
                if update is None:
                    return
            elif kind == "pick":
                update = await database_sync_to_async(services.room_pick,
                                                      thread_sensitive=False)(
                    room_id=self.room_id, user=user, character=content.get("character"),
                    seat=_seat(content),
                )
            else:
                raise RoomError(RoomErrorCode.BAD_REQUEST, "send a 'choose' or a 'pick'")
        except RoomError as error:
            await self._refuse(error, content.get("ref") if isinstance(content, dict) else None)
            return
        # every audience's message at once: the sender's update does not wait behind the
        # others' publishes
        await asyncio.gather(*(
            self.channel_layer.group_send(room_group(self.room_id, audience),
                                          {"type": "room.state", "message": message})
            for audience, message in update.messages.items()
        ))

    async def room_state(self, event: dict[str, Any]) -> None:
        # cut off by the server: its groups still broadcast to it until daphne reports the
        # disconnect, and a send on the closed transport is a traceback in the log
        if self.cut_off:
            return
        await self.send_json(event["message"])
