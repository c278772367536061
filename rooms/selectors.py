"""Reads for rooms: who sits where, and what each audience may see (GEN-9).

Every message a client receives is built here for one audience: a seat gets the engine's
``public_view`` for that seat (its own hand) and its own legal choices; spectators get
``public_view(None)``. Nothing else of the game goes out, so a hidden card can only reach a
client through the engine's own view.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.contrib.auth.models import AbstractBaseUser, AnonymousUser
from django.urls import reverse

from matches.owners import owner_room_picks
from rooms import games, presentation
from rooms.models import Room, RoomEvent, RoomSeat
from rooms.result_link import room_match_link
from rules_engine.game import Game

PUBLIC = "public"


def room_get(room_id: int) -> Room | None:
    return Room.objects.select_related("match").filter(pk=room_id).first()


def room_seats(room: Room) -> list[RoomSeat]:
    """The room's seats. Once the characters are picked they never change, so this process
    keeps them (one query less per choice); while picking they are read each time."""
    if room.status == Room.Status.PICKING:
        return list(room.seats.order_by("seat"))
    cached = games.seats_cached(room.pk)
    if cached is None:
        cached = games.seats_keep(room.pk, list(room.seats.order_by("seat")))
    return cached


def room_seats_of(seats: Sequence[RoomSeat],
                  user: AbstractBaseUser | AnonymousUser) -> list[str]:
    """The seats ``user`` plays (a Tag Team side of one player plays two); none: a spectator."""
    if not user.is_authenticated:
        return []
    return [s.seat for s in seats if s.user_id == user.pk or user.pk in s.partners]


def room_seat_of(seats: Sequence[RoomSeat], user: AbstractBaseUser | AnonymousUser) -> str | None:
    """The (first) seat ``user`` plays, or None (a spectator)."""
    return next(iter(room_seats_of(seats, user)), None)


def partner_seat(room: Room, seats: Sequence[RoomSeat], seat: str | None) -> str | None:
    """The seat's partner in a mode with a bench (TG-6: teammates share their hands, and see
    each other's pick); None elsewhere."""
    if room.mode not in games.BENCH_MODES or seat is None:
        return None
    side = next((s.side_number for s in seats if s.seat == seat), None)
    return next((s.seat for s in seats if s.side_number == side and s.seat != seat), None)


def room_picks(room: Room, seats: Sequence[RoomSeat]) -> list[str]:
    """What the game is built from: each seat's pick, or in a mode with a bench each side's
    lineup (its seats' picks, in seat order: the table seats the members so)."""
    if room.mode not in games.BENCH_MODES:
        return [s.character for s in seats]
    return [",".join(s.character for s in seats if s.side_number == side) for side in (1, 2)]


def room_is_device(room: Room, user: AbstractBaseUser | AnonymousUser) -> bool:
    """Is ``user`` the device of a one-device tabletop recorder (its opener)?"""
    return bool(room.one_device and user.is_authenticated and user.pk == room.created_by_id)


def room_audiences(room: Room, seats: Sequence[RoomSeat],
                   user: AbstractBaseUser | AnonymousUser) -> list[str]:
    """The audiences a connection hears: its seat, the spectators', or on a one-device
    recorder's device every seat (the page shows one seat at a time, behind a hand-over)."""
    if room_is_device(room, user):
        return [s.seat for s in seats]
    return room_seats_of(seats, user) or [PUBLIC]


def room_events(room_id: int) -> list[tuple[str, dict[str, Any], str]]:
    return [(p, a, c) for p, a, c in
            RoomEvent.objects.filter(room_id=room_id).order_by("index")
            .values_list("player", "action", "character")]


def room_game(room: Room, seats: Sequence[RoomSeat]) -> Game | None:
    """The game now (None while characters are picked), from the cache or the stored events."""
    if room.status == Room.Status.PICKING:
        return None
    return games.game_for(room.pk, room.seed, room_picks(room, seats), room.version,
                          load=lambda: room_events(room.pk), mode=room.mode)


def decision_token(game: Game, seat: str) -> str:
    """Names the decision a seat's choices answer: a choice sent for an older one (a double
    click, a message that crossed an update) is refused instead of applied to the new one."""
    own = sum(1 for p, _ in game.history if p.name == seat)
    return f"{game.turn}:{game.step}:{own}"


def room_state(room: Room, seats: Sequence[RoomSeat], game: Game | None,
               audience: str) -> dict[str, Any]:
    """The message for one audience: a seat ("P1", "P2") or ``PUBLIC`` (spectators)."""
    seat = None if audience == PUBLIC else audience
    picking = room.status == Room.Status.PICKING
    partner = partner_seat(room, seats, seat)
    state: dict[str, Any] = {
        "type": "state",
        "room": room.pk,
        "status": room.status,
        "you": seat,
        "mode": room.mode,
        "one_device": room.one_device,
        "seats": [
            {
                "seat": s.seat, "name": s.name, "bot": s.bot or None,
                "picked": bool(s.character),
                # a pick stays hidden until every seat has picked (simultaneous, like C1)
                "character": s.character
                if (not picking or s.seat in (seat, partner)) and s.character else None,
            }
            for s in seats
        ],
        "version": 0,
        "view": None,
        "acting": [],
        "legal": [],
        "pickers": [],
    }
    if picking:
        state["acting"] = [s.seat for s in seats if not s.character]
        mine = next((s for s in seats if s.seat == seat), None)
        # a set's character picks (asked through the match owner): still pending, nobody
        # picks here meanwhile; revealed, the seat's pick is the only one offered
        picked = owner_room_picks(room.match) if room.match is not None else None
        if picked is not None and picked.pending:
            state["picks_pending"] = picked.pending
        elif mine is not None and not mine.character:
            offered = games.playable_characters()
            if picked is not None and picked.characters and seat in ("P1", "P2"):
                fixed = picked.characters[("P1", "P2").index(seat)]
                offered = {fixed: offered.get(fixed, fixed)}
            state["characters"] = offered
            state["team_size"] = games.TEAM_SIZES[room.mode]
        return state
    assert game is not None
    viewer = games.seat_id(seat) if seat is not None else None
    state["version"] = len(game.history)
    # how many choices each seat has made: public (the table sees who has acted), and lets a
    # client tell the update its own choice caused from one the other seat's caused
    moves = {s.seat: 0 for s in seats}
    for p, _ in game.history:
        moves[p.name] = moves.get(p.name, 0) + 1
    state["moves"] = moves
    state["view"] = game.public_view(viewer)
    names = seat_names(seats, game)
    state["names"] = names
    state["log"] = presentation.turn_log(room.pk, game, room.seed, room_picks(room, seats),
                                         room.mode, games.acting_characters(game), names)
    state["acting"] = [p.name for p in game.acting_players]
    if viewer is not None:
        # the seat's own decision first, then one of a seat card text gave it control of
        # (Mistress's Command: the decision and its event stay that seat's)
        decides = sorted((p for p in game.acting_players if game.controller(p) is viewer),
                         key=lambda p: p is not viewer)
        if decides:
            target = decides[0]
            state["decision"] = decision_token(game, target.name)
            # each choice as the engine describes it for a person (its label, the action to
            # send back, its cards, option, move, speed, damage), made on the cards; a big group
            # of them as one picker (presentation)
            state["legal"], state["pickers"] = presentation.decision(
                game, target, game.legal_actions(target))
            if target is not viewer:
                state["deciding_for"] = target.name
        controller = game.controller(viewer)
        if controller is not viewer:
            # card text gave another seat this seat's decisions (Mistress's Command): say
            # who makes them, so the player does not wait on a list of no choices
            state["controlled_by"] = {
                "seat": controller.name,
                "character": game.state(controller).character.name,
            }
    if room.status == Room.Status.PLAYING and room.decision_since:
        state["since"] = room.decision_since.timestamp()  # the open decision's start
    if room.decision_seconds and room.status == Room.Status.PLAYING and room.decision_since:
        # the clock: when the open decision's time runs out (server time), and its length
        state["clock"] = {"seconds": room.decision_seconds,
                          "deadline": (room.decision_since.timestamp() + room.decision_seconds)}
    if room.status == Room.Status.FINISHED:
        # The game is over: the seed is no longer a secret, and the log can be replayed.
        state["outcome"] = room.outcome
        # a string: a 64-bit seed does not survive a JavaScript number (2**53)
        state["seed"] = None if room.seed is None else str(room.seed)
        state["replay_url"] = reverse("rooms:room-replay", args=[room.pk])
        state.update(room_match_link(room))
        if room.result_problem:
            state["result_problem"] = room.result_problem
    return state


def seat_names(seats: Sequence[RoomSeat], game: Game) -> dict[str, str]:
    """Each seat as the page names it: its player, and its character where a seat keeps
    one character (Versus, Tag Team, Dramatic Battle: "Ann (Grave)")."""
    out = {}
    for s in seats:
        ps = game.state(games.seat_id(s.seat))
        keeps = "," not in s.character and ps.character is not None
        out[s.seat] = f"{s.name} ({ps.character.name})" if keeps else s.name
    return out


def room_states(room: Room, seats: Sequence[RoomSeat], game: Game | None) -> dict[str, Any]:
    """One message per audience: every seat and the spectators."""
    return {aud: room_state(room, seats, game, aud)
            for aud in [*(s.seat for s in seats), PUBLIC]}


def room_for_match(match_id: int) -> Room | None:
    return Room.objects.filter(match_id=match_id).first()
