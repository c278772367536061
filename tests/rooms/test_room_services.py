"""The room's services: the engine on the server decides; each audience sees only its view."""

from __future__ import annotations

import json
import random

import pytest

from matches.models import AuditEntry, LogEndorsement, Match
from rooms import services
from rooms.errors import RoomError, RoomErrorCode
from rooms.models import Room, RoomEvent
from rooms.selectors import PUBLIC
from rules_engine.log import parse_log
from rules_engine.replay import replay
from tests.matches.factories import PlayerFactory, side_user
from tests.rooms.helpers import anonymous, deciding, match_room, pick_choice, play_out
from tests.rooms.helpers import state as _state

pytestmark = pytest.mark.django_db


def test_picks_stay_hidden_until_both_have_picked() -> None:
    match, room = match_room(characters=None)
    update = services.room_pick(room_id=room.pk, user=side_user(match, 1), character="grave")
    assert update.messages["P1"]["seats"][0]["character"] == "grave"
    for audience in ("P2", PUBLIC):
        message = dict(update.messages[audience])
        message.pop("characters", None)  # P2's own menu lists every character
        assert "grave" not in json.dumps(message)
        assert update.messages[audience]["seats"][0]["picked"] is True
    update = services.room_pick(room_id=room.pk, user=side_user(match, 2), character="jaina")
    assert update.messages[PUBLIC]["status"] == "playing"
    assert [s["character"] for s in update.messages[PUBLIC]["seats"]] == ["grave", "jaina"]


def test_a_choice_out_of_turn_or_by_a_spectator_is_refused() -> None:
    match, room = match_room()
    state = _state(room, "P1")
    services.room_choose(room_id=room.pk, user=side_user(match, 1),
                         action=state["legal"][1]["action"], decision=state["decision"])
    # P1 has committed: a second commit is not their decision any more
    with pytest.raises(RoomError) as refused:
        services.room_choose(room_id=room.pk, user=side_user(match, 1),
                             action=state["legal"][2]["action"], decision=None)
    assert refused.value.code == RoomErrorCode.NOT_YOUR_TURN
    with pytest.raises(RoomError) as refused:
        services.room_choose(room_id=room.pk, user=PlayerFactory().user,
                             action=state["legal"][1]["action"], decision=None)
    assert refused.value.code == RoomErrorCode.NOT_YOUR_SEAT
    # a card P2 does not hold is refused by the engine, with its rule
    hand = _state(room, "P2")["view"]["players"]["P2"]["hand"]
    missing = next(c for c in ("AS", "AH", "AD", "AC", "KS", "KH") if c not in hand)
    with pytest.raises(RoomError) as refused:
        services.room_choose(room_id=room.pk, user=side_user(match, 2),
                             action={"action": "commit", "card": missing, "move": "attack"},
                             decision=None)
    assert refused.value.code == RoomErrorCode.ILLEGAL and refused.value.extra["rule"]
    assert RoomEvent.objects.filter(room=room).count() == 1


def test_a_choice_naming_the_other_seat_is_still_the_senders() -> None:
    match, room = match_room()
    p2 = _state(room, "P2")
    services.room_choose(room_id=room.pk, user=side_user(match, 2),
                         action={"player": "P1", **p2["legal"][1]["action"]}, decision=None)
    assert list(RoomEvent.objects.filter(room=room).values_list("player", flat=True)) == ["P2"]


def test_a_stale_decision_is_refused() -> None:
    match, room = match_room()
    state = _state(room, "P1")
    services.room_choose(room_id=room.pk, user=side_user(match, 1),
                         action=state["legal"][1]["action"], decision=state["decision"])
    p2 = _state(room, "P2")
    with pytest.raises(RoomError) as refused:
        services.room_choose(room_id=room.pk, user=side_user(match, 2),
                             action=p2["legal"][1]["action"], decision="0:C1:7")
    assert refused.value.code == RoomErrorCode.STALE


def _p2_messages_after_p1_commits(card_index: int) -> list[str]:
    match, room = match_room()
    Room.objects.filter(pk=room.pk).update(seed=1234)  # same deal for both runs
    room.refresh_from_db()
    state = _state(room, "P1")
    commits = [c for c in state["legal"] if c["action"]["action"] == "commit"]
    update = services.room_choose(room_id=room.pk, user=side_user(match, 1),
                                  action=commits[card_index]["action"],
                                  decision=state["decision"])
    return [json.dumps(update.messages["P2"], sort_keys=True),
            json.dumps(update.messages[PUBLIC], sort_keys=True),
            commits[card_index]["action"]["card"]]


def test_a_hidden_commit_changes_nothing_the_opponent_or_spectators_receive() -> None:
    # the same deal, P1 commits two different cards: P2's and the spectators' messages are
    # byte for byte the same, so they carry nothing about which card it was
    first = _p2_messages_after_p1_commits(0)
    other = _p2_messages_after_p1_commits(-1)
    assert first[2] != other[2]
    p2 = json.loads(first[0])
    assert p2["room"] != json.loads(other[0])["room"]
    for a, b in ((first[0], other[0]), (first[1], other[1])):
        da, db = json.loads(a), json.loads(b)
        for d in (da, db):  # two rooms: their ids, players' names and clocks differ
            anonymous(d)
        assert da == db
    assert "hand" not in p2["view"]["players"]["P1"]
    assert "combat_card" not in p2["view"]["players"]["P1"]


def test_each_seat_sees_only_its_own_hand() -> None:
    _, room = match_room()
    p1, p2, public = (_state(room, a) for a in ("P1", "P2", PUBLIC))
    assert "hand" in p1["view"]["players"]["P1"] and "hand" not in p1["view"]["players"]["P2"]
    assert "hand" in p2["view"]["players"]["P2"] and "hand" not in p2["view"]["players"]["P1"]
    assert all("hand" not in p for p in public["view"]["players"].values())
    assert public["legal"] == [] and "seed" not in public


def test_a_finished_game_is_recorded_and_sent_to_verification_as_the_rooms_own(
    django_capture_on_commit_callbacks,
) -> None:
    match, room = match_room()
    with django_capture_on_commit_callbacks(execute=True):
        play_out(match, room)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    log = parse_log(room.log_text)
    assert log.seed == room.seed
    assert len(log.events) == RoomEvent.objects.filter(room=room).count()
    assert replay(log).status == "legal"
    match.refresh_from_db()
    # in-process tasks here: verified at once, both sides' word implied by the room
    assert room.match_log is not None
    assert set(room.match_log.endorsements.values_list("via", flat=True)) == {
        LogEndorsement.Via.ROOM}
    assert match.audit_entries.filter(action=AuditEntry.Action.LOG_ROOM_RECORDED).exists()
    assert match.status == Match.Status.CONFIRMED
    assert match.result_log_id == room.match_log_id
    winner = log.result.winner
    assert match.winner_side == (None if winner is None else int(winner) + 1)


def test_the_state_after_a_restart_is_rebuilt_from_the_stored_events() -> None:
    from rooms import games

    match, room = match_room()
    play_out_steps = random.Random(3)
    for _ in range(12):
        seat, state = deciding(room)
        services.room_choose(room_id=room.pk, user=side_user(match, int(seat[1])),
                             action=pick_choice(state, play_out_steps)["action"],
                             decision=state["decision"], seat=state.get("deciding_for"))
    before = {a: _state(room, a) for a in ("P1", "P2", PUBLIC)}
    games._cache.clear()  # a new process
    after = {a: _state(room, a) for a in ("P1", "P2", PUBLIC)}
    assert before == after


def test_practice_against_the_greedy_bot_plays_to_the_end() -> None:
    user = PlayerFactory().user
    room = services.room_open_practice(user=user, name="me", bot="greedy",
                                       character="grave", bot_character="jaina")
    rng = random.Random(5)
    for _ in range(5000):
        room.refresh_from_db()
        if room.status == Room.Status.FINISHED:
            break
        state = _state(room, "P1")
        assert state["acting"] == ["P1"]  # the bot has always chosen already
        services.room_choose(room_id=room.pk, user=user,
                             action=pick_choice(state, rng)["action"],
                             decision=state["decision"])
    assert room.status == Room.Status.FINISHED
    assert replay(parse_log(room.log_text)).status == "legal"
    assert room.match_id is None


def test_an_unknown_bot_is_refused() -> None:
    with pytest.raises(RoomError) as refused:
        services.room_open_practice(user=PlayerFactory().user, name="me", bot="deep-blue")
    assert refused.value.code == RoomErrorCode.UNKNOWN_BOT


def test_only_the_matchs_players_or_organizers_open_its_room() -> None:
    from tests.matches.factories import versus_match

    match = versus_match()
    with pytest.raises(RoomError):
        services.room_open_for_match(match=match, user=PlayerFactory().user)
    assert services.room_open_for_match(match=match, user=side_user(match, 2)).match_id == match.pk


def test_the_tabletop_recorder_records_the_drawn_cards_and_submits_the_log(
    django_capture_on_commit_callbacks,
) -> None:
    from tests.matches.factories import versus_match

    match = versus_match()
    room = services.room_open_for_match(match=match, user=side_user(match, 1), tabletop=True)
    for side, character in ((1, "setsuki"), (2, "rook")):
        services.room_pick(room_id=room.pk, user=side_user(match, side), character=character)
    room.refresh_from_db()
    assert room.is_tabletop
    # each player enters their own draws: the engine offers the cards left in their deck
    first = _state(room, "P1")
    assert {c["action"]["action"] for c in first["legal"]} == {"draw"}
    assert len(first["legal"]) > 40
    assert _state(room, "P2")["legal"] == []  # P1 draws first; P2 only sees the count
    with django_capture_on_commit_callbacks(execute=True):
        play_out(match, room, seed=4)
    room.refresh_from_db()
    log = parse_log(room.log_text)
    assert log.seed is None and any(e.action.kind == "draw" for e in log.events)
    assert replay(log).status == "legal"
    # submitted like any other log: side 1's submission, waiting for side 2's confirmation
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_CONFIRMATION
    assert list(room.match_log.endorsements.values_list("via", "side")) == [
        (LogEndorsement.Via.SUBMISSION, 1)]


def test_the_practice_page_offers_the_engines_bots(client) -> None:
    from rooms.games import bots_available

    assert bots_available()[:1] in (["strong"], ["greedy"]) and "random" in bots_available()
    user = PlayerFactory().user
    client.force_login(user)
    page = client.get("/rooms/practice/")
    assert page.status_code == 200 and 'value="greedy"' in page.content.decode()
    created = client.post("/rooms/practice/", {"character": "grave", "bot": "greedy",
                                                "bot_character": "jaina"})
    assert created.status_code == 302
    room = Room.objects.get(created_by=user)
    assert room.status == Room.Status.PLAYING and room.match_id is None
    assert client.get(created["Location"]).status_code == 200


def test_when_the_clock_runs_out_the_default_choice_is_made_and_logged() -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tests.matches.factories import versus_match

    match = versus_match()
    room = services.room_open_for_match(match=match, user=side_user(match, 1),
                                        decision_seconds=30)
    for side, character in ((1, "grave"), (2, "jaina")):
        services.room_pick(room_id=room.pk, user=side_user(match, side), character=character)
    state = _state(room, "P1")
    assert state["clock"]["seconds"] == 30
    assert services.room_clock_check(room_id=room.pk) is None  # not yet
    Room.objects.filter(pk=room.pk).update(
        decision_since=timezone.now() - timedelta(seconds=31))
    update = services.room_clock_check(room_id=room.pk)
    assert update is not None
    # both seats were to commit at C1: each gets the documented default, "no card", logged
    events = list(RoomEvent.objects.filter(room=room).values_list("player", "action"))
    assert events == [("P1", {"action": "no_card"}), ("P2", {"action": "no_card"})]
    assert update.messages["P2"]["version"] == 2
    assert services.room_clock_check(room_id=room.pk) is None  # a new decision, a new clock


def test_the_default_choice_prefers_passing_then_the_engines_first() -> None:
    from rules_engine.actions import NoCard, Pass, Stop

    assert isinstance(services.default_choice([Stop(), Pass()]), Pass)
    assert isinstance(services.default_choice([NoCard()]), NoCard)


def test_a_choice_costs_one_locked_read_and_one_write() -> None:
    # the server-side cost of a round trip (docs/rooms.md, load test): the seats are kept once
    # picked, the game is the cached one, and the events and the room's version are one statement
    from django.db import connection
    from django.test.utils import CaptureQueriesContext

    match, room = match_room()
    _state(room, "P1")  # a connected client has read the room: its seats and game are kept
    now = _state(room, "P1")
    user = side_user(match, 1)
    with CaptureQueriesContext(connection) as queries:
        services.room_choose(room_id=room.pk, user=user,
                             action=now["legal"][0]["action"], decision=now["decision"])
    sql = [q["sql"] for q in queries.captured_queries
           if "SAVEPOINT" not in q["sql"]]  # the test's own transaction
    assert len(sql) == 2, sql
    assert sql[0].startswith('SELECT "rooms_room"') and sql[0].endswith("FOR UPDATE")
    assert "INSERT INTO \"rooms_roomevent\"" in sql[1] and "UPDATE \"rooms_room\"" in sql[1]
    stored = RoomEvent.objects.get(room=room, index=0)
    assert (stored.player, stored.action) == ("P1", now["legal"][0]["action"])
    room.refresh_from_db()
    assert room.version == 1


def test_a_seat_card_text_gave_control_of_is_decided_by_its_controller() -> None:
    # Persephone's Mistress's Command: until C2 her player makes the opponent's decisions
    # (Game.controller); the room offers them to her player only and refuses the seat's own
    from rooms.selectors import room_game, room_seats
    from rules_engine.bots import make_bot
    from tests.matches.factories import versus_match

    match = versus_match()
    room = services.room_open_for_match(match=match, user=side_user(match, 1))
    Room.objects.filter(pk=room.pk).update(seed=5)  # a deal where the command comes early
    users = {"P1": side_user(match, 1), "P2": side_user(match, 2)}
    for seat, character in (("P1", "persephone"), ("P2", "grave")):
        services.room_pick(room_id=room.pk, user=users[seat], character=character)
    bot = make_bot("random", 5)
    for _ in range(400):
        room.refresh_from_db()
        game = room_game(room, room_seats(room))
        if game.controllers:
            break
        player = game.acting_players[0]
        services.room_choose(room_id=room.pk, user=users[player.name], decision=None,
                             action=bot.choose(game, player,
                                               game.legal_actions(player)).to_json())
    else:
        raise AssertionError("the command never came")
    assert {p.name: c.name for p, c in game.controllers.items()} == {"P2": "P1"}
    controlled = _state(room, "P2")
    assert controlled["legal"] == []  # P2's player decides nothing now, and is told why
    assert controlled["controlled_by"] == {"seat": "P1", "character": "Persephone"}
    assert "controlled_by" not in _state(room, "P1")
    if "P1" in _state(room, "P1")["acting"]:  # her own decision first
        own = _state(room, "P1")
        assert "deciding_for" not in own
        services.room_choose(room_id=room.pk, user=users["P1"],
                             action=own["legal"][0]["action"], decision=own["decision"])
    mine = _state(room, "P1")
    assert mine["deciding_for"] == "P2" and mine["legal"]
    with pytest.raises(RoomError) as refused:
        services.room_choose(room_id=room.pk, user=users["P2"],
                             action=mine["legal"][0]["action"], decision=None)
    assert "P2's decision is P1's to make now" in refused.value.message
    before = RoomEvent.objects.filter(room=room).count()
    services.room_choose(room_id=room.pk, user=users["P1"], seat="P2",
                         action=mine["legal"][0]["action"], decision=mine["decision"])
    made = RoomEvent.objects.get(room=room, index=before)
    assert (made.player, made.action) == ("P2", mine["legal"][0]["action"])
