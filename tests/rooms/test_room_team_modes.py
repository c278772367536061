"""Team modes in the room (issue 22): Triple Threat. Each side picks its lineup (hidden until
both have), the first characters are picked in the game (TT-2, simultaneous and hidden), each
seat sees only its own hand and acts through its listed choices, and the log is written as
version 2 and verified through the room's recorded-log path."""

from __future__ import annotations

import json
import random

import pytest

from matches.models import AuditEntry, LogEndorsement, Match
from matches.services.matches import match_create
from rooms import services
from rooms.errors import RoomError, RoomErrorCode
from rooms.models import Room, RoomEvent
from rooms.selectors import PUBLIC
from rules_engine.log import parse_log
from rules_engine.replay import replay
from rules_engine.team import Mode
from tests.matches.factories import PlayerFactory, side_user
from tests.rooms.helpers import pick_choice, play_out
from tests.rooms.helpers import state as _state

pytestmark = pytest.mark.django_db

LINEUPS = {1: ["grave", "jaina", "midori"], 2: ["rook", "lum", "setsuki"]}


def _tt_room(players: int = 1) -> tuple[Match, Room]:
    match = match_create(mode=Match.Mode.TRIPLE_THREAT,
                         side_1=[PlayerFactory() for _ in range(players)],
                         side_2=[PlayerFactory()])
    room = services.room_open_for_match(match=match, user=side_user(match, 2))
    return match, room


def _first_user(match: Match, side: int):
    return match.sides.filter(side=side).order_by("order").first().player.user


def _picked(match: Match, room: Room) -> Room:
    for side in (1, 2):
        services.room_pick(room_id=room.pk, user=_first_user(match, side),
                           character=LINEUPS[side])
    room.refresh_from_db()
    return room


def test_lineups_are_picked_whole_and_stay_hidden_until_both_sides_have() -> None:
    match, room = _tt_room()
    assert room.mode == "triple_threat"
    offer = _state(room, "P1")
    assert offer["team_size"] == 3 and "grave" in offer["characters"]
    for bad, says in ((["grave"], "pick 3 characters"),
                      (["grave", "grave", "jaina"], "must all be different"),
                      (["grave", "jaina", "nobody"], "there is no character 'nobody'"),
                      ("grave", "pick 3 characters")):
        with pytest.raises(RoomError) as refused:
            services.room_pick(room_id=room.pk, user=side_user(match, 1), character=bad)
        assert refused.value.code == RoomErrorCode.BAD_REQUEST and says in refused.value.message
    services.room_pick(room_id=room.pk, user=side_user(match, 1), character=LINEUPS[1])
    p2, public = _state(room, "P2"), _state(room, PUBLIC)
    for message in (p2, public):
        seat = next(s for s in message["seats"] if s["seat"] == "P1")
        assert seat == {**seat, "picked": True, "character": None}
        assert "grave" not in json.dumps({k: v for k, v in message.items()
                                          if k != "characters"})
    services.room_pick(room_id=room.pk, user=side_user(match, 2), character=LINEUPS[2])
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    # the lineups are declared (public): the game starts with TT-2's secret first picks
    now = _state(room, PUBLIC)
    assert now["view"]["step"] == "TT-2" and sorted(now["acting"]) == ["P1", "P2"]
    assert now["view"]["players"]["P1"]["team"]["characters"] == LINEUPS[1]


def _messages_after_p1_picks(index: int) -> tuple[str, str]:
    match, room = _tt_room()
    room = _picked(match, room)
    mine = _state(room, "P1")
    assert [c["action"] for c in mine["legal"]] == [
        {"action": "pick", "incoming": c} for c in LINEUPS[1]]
    update = services.room_choose(room_id=room.pk, user=side_user(match, 1),
                                  action=mine["legal"][index]["action"],
                                  decision=mine["decision"])
    out = []
    for audience in ("P2", PUBLIC):
        message = update.messages[audience]
        message.pop("room")
        for seat in message["seats"]:
            seat.pop("name")
        out.append(json.dumps(message, sort_keys=True))
    return out[0], out[1]


def test_a_first_pick_is_hidden_from_the_other_side_and_the_spectators() -> None:
    # P1 sends in Jaina in one room, Midori in another: what P2 and the spectators receive is
    # the same, byte for byte, until P2 has picked too
    jaina, midori = _messages_after_p1_picks(1), _messages_after_p1_picks(2)
    assert jaina == midori
    p2 = json.loads(jaina[0])
    assert p2["acting"] == ["P2"] and p2["moves"] == {"P1": 1, "P2": 0}
    assert "jaina" not in json.dumps(p2["view"]["players"]["P1"].get("character"))


def test_a_triple_threat_game_is_played_to_the_end_and_its_v2_log_verified_as_the_rooms(
    django_capture_on_commit_callbacks,
) -> None:
    match, room = _tt_room()
    room = _picked(match, room)
    # each seat sees only its own hand once the first characters are in
    for seat in ("P1", "P2"):
        now = _state(room, seat)
        services.room_choose(room_id=room.pk, user=side_user(match, int(seat[1])),
                             action=now["legal"][0]["action"], decision=now["decision"])
    p1, p2, public = (_state(room, a) for a in ("P1", "P2", PUBLIC))
    assert "hand" in p1["view"]["players"]["P1"] and "hand" not in p1["view"]["players"]["P2"]
    assert "hand" in p2["view"]["players"]["P2"] and "hand" not in p2["view"]["players"]["P1"]
    assert all("hand" not in p for p in public["view"]["players"].values())
    with django_capture_on_commit_callbacks(execute=True):
        play_out(match, room, seed=11)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    log = parse_log(room.log_text)
    assert (log.version, log.mode) == (2, Mode.TRIPLE_THREAT)
    assert [list(m.character for m in side) for side in log.sides] == [LINEUPS[1], LINEUPS[2]]
    assert len(log.events) == RoomEvent.objects.filter(room=room).count()
    picks = [e for e in log.events if e.action.kind == "pick"]
    # TT-2's two first picks at least (TT-4's follow a knockout when the side has a choice)
    assert [e.player.name for e in picks[:2]] == ["P1", "P2"]
    assert all(e.character is None for e in picks)
    assert all(e.character for e in log.events if e.action.kind != "pick")
    assert replay(log).status == "legal"
    # the room's own record: both sides endorsed via the room, verified, the match's result
    match.refresh_from_db()
    assert set(room.match_log.endorsements.values_list("via", flat=True)) == {
        LogEndorsement.Via.ROOM}
    assert match.audit_entries.filter(action=AuditEntry.Action.LOG_ROOM_RECORDED).exists()
    assert match.status == Match.Status.CONFIRMED and match.result_log_id == room.match_log_id
    winner = log.result.winner
    assert match.winner_side == (None if winner is None else int(winner) + 1)


def test_a_rebuilt_triple_threat_game_matches_the_cached_one() -> None:
    from rooms import games

    match, room = _tt_room()
    room = _picked(match, room)
    rng = random.Random(2)
    for _ in range(30):
        seat = _state(room, PUBLIC)["acting"][0]
        now = _state(room, seat)
        services.room_choose(room_id=room.pk, user=side_user(match, int(seat[1])),
                             action=pick_choice(now["legal"], rng)["action"],
                             decision=now["decision"])
    before = {a: _state(room, a) for a in ("P1", "P2", PUBLIC)}
    games._cache.clear()  # a new process replays the stored events (with their characters)
    assert {a: _state(room, a) for a in ("P1", "P2", PUBLIC)} == before


def test_every_player_of_a_three_player_side_acts_for_its_seat_and_nobody_else_does() -> None:
    match, room = _tt_room(players=3)
    second = match.sides.get(side=1, order=1).player.user
    services.room_pick(room_id=room.pk, user=second, character=LINEUPS[1])
    services.room_pick(room_id=room.pk, user=side_user(match, 2), character=LINEUPS[2])
    room.refresh_from_db()
    third = match.sides.get(side=1, order=2).player.user
    now = _state(room, "P1")
    services.room_choose(room_id=room.pk, user=third, action=now["legal"][0]["action"],
                         decision=now["decision"])
    assert RoomEvent.objects.get(room=room, index=0).player == "P1"
    with pytest.raises(RoomError) as refused:
        services.room_choose(room_id=room.pk, user=PlayerFactory().user,
                             action={"action": "pick", "incoming": "rook"}, decision=None)
    assert refused.value.code == RoomErrorCode.NOT_YOUR_SEAT


def test_tag_team_matches_are_refused_with_a_clear_reason() -> None:
    match = match_create(mode=Match.Mode.TAG_TEAM, side_1=[PlayerFactory(), PlayerFactory()],
                         side_2=[PlayerFactory(), PlayerFactory()])
    with pytest.raises(RoomError) as refused:
        services.room_open_for_match(match=match, user=side_user_first(match))
    assert "Versus and Triple Threat" in refused.value.message


def side_user_first(match: Match):
    return _first_user(match, 1)
