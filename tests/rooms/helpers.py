"""Rooms for tests, and a scripted player that clicks one of the listed choices."""

from __future__ import annotations

import random
from typing import Any

from matches.models import Match
from rooms import services
from rooms.models import Room
from rooms.selectors import room_game, room_seats, room_state
from tests.matches.factories import side_user, versus_match


def match_room(characters: tuple[str, str] | None = ("grave", "jaina")) -> tuple[Match, Room]:
    """A Versus match and its open room; characters picked unless None."""
    match = versus_match()
    room = services.room_open_for_match(match=match, user=side_user(match, 1))
    if characters is not None:
        for side, character in zip((1, 2), characters, strict=True):
            services.room_pick(room_id=room.pk, user=side_user(match, side), character=character)
    room.refresh_from_db()
    return match, room


def offered(now: dict[str, Any]) -> list[dict[str, Any]]:
    """The choices a state offers: its listed ones, and each picker's first (a picker stands
    for a big group of choices differing only in their cards)."""
    return [*now["legal"], *(p["first"] for p in now.get("pickers", []))]


def pick_choice(now: dict[str, Any], rng: random.Random) -> dict[str, Any]:
    """Like the engine's random bot: a kind of choice first, then one of that kind (so the many
    pumps do not drown the single stop and games end), among what the state ``now`` offers."""
    legal = offered(now)
    kinds: dict[str, list[dict[str, Any]]] = {}
    for choice in legal:
        kinds.setdefault(choice["action"]["action"], []).append(choice)
    group = kinds[rng.choice(sorted(kinds))]
    return rng.choice(group)


def anonymous(message: dict[str, Any]) -> dict[str, Any]:
    """A message without what differs between two rooms of the same deal: the room's id, its
    players' names (and the seats named by them), the time its open decision started."""
    message.pop("room")
    message.pop("names", None)
    message.pop("since", None)
    for seat in message["seats"]:
        seat.pop("name")
    return message


def state(room: Room, audience: str) -> dict[str, Any]:
    """What the audience ("P1", "P2", "public") would be sent now."""
    room.refresh_from_db()
    seats = room_seats(room)
    return room_state(room, seats, room_game(room, seats), audience)


def deciding(room: Room) -> tuple[str, dict[str, Any]]:
    """The seat that has a choice to make now, and what it is sent: an acting seat's own
    state, or, when card text gave another seat control of it (Mistress's Command), the
    controller's (``deciding_for``), whose player decides. Acting seats are tried first, in
    order, so a scripted game stays the same for a seed."""
    acting = state(room, "public")["acting"]
    seats = sorted(room.seats.values_list("seat", flat=True))
    for seat in [*acting, *(s for s in seats if s not in acting)]:
        now = state(room, seat)
        if offered(now):
            return seat, now
    raise AssertionError(f"no seat has a choice to make (acting: {acting})")


def play_out(match: Match, room: Room, seed: int = 7) -> None:
    """Both players click listed choices (seeded) until the game ends."""
    from tests.matches.factories import side_user

    rng = random.Random(seed)
    users = {"P1": side_user(match, 1), "P2": side_user(match, 2)}
    for _ in range(5000):
        room.refresh_from_db()
        if room.status == Room.Status.FINISHED:
            return
        seat, now = deciding(room)
        choice = pick_choice(now, rng)
        services.room_choose(room_id=room.pk, user=users[seat], action=choice["action"],
                             decision=now["decision"], seat=now.get("deciding_for"))
    raise AssertionError("the game did not end")


def quince_at_two_truths(user: Any) -> Room:
    """A practice room (Quince against the random bot) played through the services until
    Quince's Two Truths offers a picker: the player plays Two Truths whenever it can, else a
    random choice."""
    rng = random.Random(30)
    for _ in range(6):
        room = services.room_open_practice(user=user, name=user.username, bot="random",
                                           character="quince", bot_character="grave")
        for _ in range(3000):
            room.refresh_from_db()
            if room.status == Room.Status.FINISHED:
                break
            now = state(room, "P1")
            if any(p["template"].get("ability") == "Two Truths" for p in now["pickers"]):
                return room
            if not now["legal"] and not now["pickers"]:
                continue
            plays = [c for c in now["legal"] if c["action"].get("ability") == "Two Truths"]
            choice = plays[0] if plays else pick_choice(now, rng)
            services.room_choose(room_id=room.pk, user=user, action=choice["action"],
                                 decision=now["decision"])
    raise AssertionError("no Two Truths picker came up in six games")
