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
from tests.rooms.helpers import anonymous, deciding, pick_choice, play_out
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
        message = anonymous(update.messages[audience])
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
        seat, now = deciding(room)
        services.room_choose(room_id=room.pk, user=side_user(match, int(seat[1])),
                             action=pick_choice(now, rng)["action"],
                             decision=now["decision"], seat=now.get("deciding_for"))
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


# --- Tag Team: four seats, a person each -------------------------------------------------

TAG = {"P1": "grave", "P2": "rook", "P3": "jaina", "P4": "lum"}


def _tag_room() -> tuple[Match, Room, dict[str, object]]:
    match = match_create(mode=Match.Mode.TAG_TEAM, side_1=[PlayerFactory(), PlayerFactory()],
                         side_2=[PlayerFactory(), PlayerFactory()])
    room = services.room_open_for_match(match=match, user=_first_user(match, 1))
    users = {s.seat: s.user for s in room.seats.select_related("user")}
    return match, room, users


def test_tag_team_seats_each_player_and_shows_picks_and_hands_to_partners_only() -> None:
    match, room, users = _tag_room()
    rosters = {side: [m.player.user for m in match.sides.filter(side=side).order_by("order")]
               for side in (1, 2)}
    assert users == {"P1": rosters[1][0], "P3": rosters[1][1],
                     "P2": rosters[2][0], "P4": rosters[2][1]}
    services.room_pick(room_id=room.pk, user=users["P1"], character="grave")
    # the partner sees the pick (and may not take the same character); nobody else does
    seen = {a: next(s for s in _state(room, a)["seats"] if s["seat"] == "P1")["character"]
            for a in ("P2", "P3", "P4", PUBLIC)}
    assert seen == {"P2": None, "P3": "grave", "P4": None, PUBLIC: None}
    with pytest.raises(RoomError) as refused:
        services.room_pick(room_id=room.pk, user=users["P3"], character="grave")
    assert "your partner (P1) already picked 'grave'" in refused.value.message
    for seat in ("P2", "P3", "P4"):
        services.room_pick(room_id=room.pk, user=users[seat], character=TAG[seat])
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING
    views = {a: _state(room, a) for a in ("P1", "P2", "P3", "P4", PUBLIC)}
    for seat in ("P1", "P2", "P3", "P4"):
        players = views[seat]["view"]["players"]
        partner = {"P1": "P3", "P3": "P1", "P2": "P4", "P4": "P2"}[seat]
        # TG-6: a seat sees its own hand and its partner's, never the other side's
        assert {p for p, v in players.items() if "hand" in v} == {seat, partner}
    assert all("hand" not in v for v in views[PUBLIC]["view"]["players"].values())
    # the active characters commit; at the same C1 each bench seat holding a Jack, Queen or
    # King places an assist or passes (AS-1), and only those choices are its
    acting = set(views[PUBLIC]["acting"])
    assert {"P1", "P2"} <= acting <= {"P1", "P2", "P3", "P4"}
    for bench in ("P3", "P4"):
        kinds = {c["action"]["action"] for c in views[bench]["legal"]}
        assert (bench in acting) == bool(kinds) and kinds <= {"assist", "pass"}


def _tag_commit_messages(index: int) -> dict[str, str]:
    _match, room, users = _tag_room()
    Room.objects.filter(pk=room.pk).update(seed=4321)  # the same deal in both rooms
    for seat, character in TAG.items():
        services.room_pick(room_id=room.pk, user=users[seat], character=character)
    room.refresh_from_db()
    mine = _state(room, "P1")
    commits = [c for c in mine["legal"] if c["action"]["action"] == "commit"]
    update = services.room_choose(room_id=room.pk, user=users["P1"],
                                  action=commits[index]["action"], decision=mine["decision"])
    out = {}
    for audience in ("P2", "P4", PUBLIC):
        message = anonymous(update.messages[audience])
        out[audience] = json.dumps(message, sort_keys=True)
    out["card"] = json.dumps(commits[index]["action"])
    return out


def test_a_tag_team_commit_is_hidden_from_the_other_side_and_the_spectators() -> None:
    # the same deal, P1 commits two different cards: what the other side's seats and the
    # spectators receive is byte for byte the same
    first, other = _tag_commit_messages(0), _tag_commit_messages(-1)
    assert first.pop("card") != other.pop("card")
    assert first == other
    for audience in ("P2", "P4", PUBLIC):
        message = json.loads(first[audience])
        assert message["moves"]["P1"] == 1 and "combat_card" not in \
            message["view"]["players"]["P1"]
        assert "hand" not in message["view"]["players"]["P1"]
    acting = json.loads(first["P2"])["acting"]
    assert "P1" not in acting and "P2" in acting  # P1's commit is in, unseen


def test_a_tag_team_game_is_played_to_the_end_and_its_v2_log_verified_as_the_rooms(
    django_capture_on_commit_callbacks, client,
) -> None:
    match, room, users = _tag_room()
    for seat, character in TAG.items():
        services.room_pick(room_id=room.pk, user=users[seat], character=character)
    rng = random.Random(4)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(5000):
            room.refresh_from_db()
            if room.status == Room.Status.FINISHED:
                break
            seat, now = deciding(room)
            services.room_choose(room_id=room.pk, user=users[seat],
                                 action=pick_choice(now, rng)["action"],
                                 decision=now["decision"], seat=now.get("deciding_for"))
    assert room.status == Room.Status.FINISHED
    log = parse_log(room.log_text)
    assert (log.version, log.mode) == (2, Mode.TAG_TEAM)
    assert [[m.character for m in side] for side in log.sides] == [["grave", "jaina"],
                                                                   ["rook", "lum"]]
    # each character's player, as TT-1 lets a log say
    names = {s.seat: s.name for s in room.seats.all()}
    assert [m.controller for m in log.sides[0]] == [names["P1"], names["P3"]]
    assert {e.player.name for e in log.events} == {"P1", "P2", "P3", "P4"}
    assert replay(log).status == "legal"
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.result_log_id == room.match_log_id
    # the replay viewer steps through it with all four seats, both sides' hands shown
    from rooms.replay import replay_frames

    frames = replay_frames(room.log_text)
    assert frames["problem"] is None and frames["mode"] == "tag_team"
    assert set(frames["frames"][-1]["board"]["players"]) == {"P1", "P2", "P3", "P4"}
    assert all("hand" in p for p in frames["frames"][1]["board"]["players"].values())
    assert client.get(f"/rooms/{room.pk}/replay/").status_code == 200


def test_a_side_of_one_player_plays_both_its_seats() -> None:
    match = match_create(mode=Match.Mode.TAG_TEAM, side_1=[PlayerFactory()],
                         side_2=[PlayerFactory(), PlayerFactory()])
    room = services.room_open_for_match(match=match, user=_first_user(match, 2))
    solo = _first_user(match, 1)
    assert set(room.seats.filter(user=solo).values_list("seat", flat=True)) == {"P1", "P3"}
    services.room_pick(room_id=room.pk, user=solo, character="grave", seat="P1")
    services.room_pick(room_id=room.pk, user=solo, character="jaina", seat="P3")
    # naming a seat of the other side changes nothing: the sender's own seats only
    with pytest.raises(RoomError) as refused:
        services.room_pick(room_id=room.pk, user=solo, character="rook", seat="P2")
    assert refused.value.code == RoomErrorCode.STALE  # both of the sender's seats have picked
    assert dict(room.seats.values_list("seat", "character")) == {
        "P1": "grave", "P3": "jaina", "P2": "", "P4": ""}



# --- Dramatic Battle: the lone side's seat and the pair's two ----------------------------


@pytest.mark.parametrize(("pair_side", "seating"), [
    (2, {"P1": 1, "P2": 2, "P3": 2}),  # the lone side first, as the CLI writes it
    (1, {"P1": 1, "P3": 1, "P2": 2}),  # the pair first (DB-1: a log may name it first)
])
def test_a_dramatic_battle_is_played_to_the_end_and_its_v2_log_verified(
    pair_side, seating, django_capture_on_commit_callbacks,
) -> None:
    rosters = {pair_side: [PlayerFactory(), PlayerFactory()], 3 - pair_side: [PlayerFactory()]}
    match = match_create(mode=Match.Mode.DRAMATIC_BATTLE, side_1=rosters[1], side_2=rosters[2])
    room = services.room_open_for_match(match=match, user=_first_user(match, 1))
    seats = {s.seat: s for s in room.seats.select_related("user")}
    assert {seat: s.side for seat, s in seats.items()} == seating
    pair = sorted(seat for seat, side in seating.items() if side == pair_side)
    lone = next(seat for seat, side in seating.items() if side != pair_side)
    # the pair's players each play a seat, and see each other's hand (DB-1: Tag Team rules)
    assert [seats[s].user for s in pair] == [p.user for p in rosters[pair_side]]
    picks = {lone: "grave", pair[0]: "rook", pair[1]: "lum"}
    for seat, character in picks.items():
        services.room_pick(room_id=room.pk, user=seats[seat].user, character=character)
    view = _state(room, pair[0])["view"]["players"]
    assert "hand" in view[pair[1]] and "hand" not in view[lone]
    rng = random.Random(5)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(5000):
            room.refresh_from_db()
            if room.status == Room.Status.FINISHED:
                break
            seat, now = deciding(room)
            services.room_choose(room_id=room.pk, user=seats[seat].user,
                                 action=pick_choice(now, rng)["action"],
                                 decision=now["decision"], seat=now.get("deciding_for"))
    assert room.status == Room.Status.FINISHED
    log = parse_log(room.log_text)
    assert (log.version, log.mode) == (2, Mode.DRAMATIC_BATTLE)
    expected = {pair_side: ["rook", "lum"], 3 - pair_side: ["grave"]}
    assert [[m.character for m in side] for side in log.sides] == [expected[1], expected[2]]
    assert replay(log).status == "legal"
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED and match.result_log_id == room.match_log_id
    winner = log.result.winner
    if winner is not None:  # the winning seat's side is the match's winner
        assert match.winner_side == seating[winner.name]


def test_a_triple_threat_sets_room_starts_with_the_registered_lineups() -> None:
    from tests.tournaments.factories import EventFactory, StageFactory, UserFactory, entrant_create
    from tournaments.models import Event, Set
    from tournaments.services.generation import stage_generate
    from tournaments.services.set_matches import set_match_open

    organizer = UserFactory()
    event = EventFactory(organizers=[organizer], best_of=1, mode=Event.Mode.TRIPLE_THREAT)
    lineups = {1: ["Grave", "Jaina", "Midori"], 2: ["Rook", "Troq", "Gwen"]}
    for i in (1, 2):
        entrant_create(event, seed=i, lineup=lineups[i])
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    match = set_match_open(set=s, actor=organizer)
    room = services.room_open_for_match(match=match, user=_first_user(match, 1))
    room.refresh_from_db()
    # entrant A plays side 1: its lineup, in its declared order, as engine ids
    expected = {1: s.entrant_a.lineup, 2: s.entrant_b.lineup}
    assert dict(room.seats.values_list("seat", "character")) == {
        "P1": ",".join(c.lower() for c in expected[1]),
        "P2": ",".join(c.lower() for c in expected[2])}
    assert room.status == Room.Status.PLAYING
    assert _state(room, "P1")["view"]["step"] == "TT-2"
