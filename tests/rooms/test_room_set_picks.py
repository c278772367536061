"""A Versus set's character picks and its game's room (asked through the match-owner protocol):
revealed picks start the room's seats; pending picks keep the room shut, saying why; a set
without picks for the game is picked in the room as before."""

from __future__ import annotations

import pytest

from matches.models import Match
from rooms import services
from rooms.errors import RoomError, RoomErrorCode
from rooms.models import Room
from tests.rooms.helpers import play_out
from tests.rooms.helpers import state as _state
from tests.tournaments.factories import EventFactory, StageFactory, UserFactory, entrants_create
from tournaments.models import Game, Set, Stage
from tournaments.services.advancement import GameInput, set_game_record
from tournaments.services.generation import stage_generate
from tournaments.services.picks import character_pick_lock
from tournaments.services.set_matches import set_match_open

pytestmark = pytest.mark.django_db


def _user(entrant):
    return entrant.members.get().player.user


def _ready_set() -> Set:
    organizer = UserFactory()
    event = EventFactory(organizers=[organizer])  # Versus, the winner keeps its character
    entrants_create(event, 2)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    s.best_of = 3
    s.save()
    return s


def _set_match() -> tuple[Set, Match]:
    s = _ready_set()
    return s, set_match_open(set=s, actor=_user(s.entrant_a))


def test_game_two_seats_the_winners_kept_character_and_the_losers_open_pick() -> None:
    s = _ready_set()
    character_pick_lock(set=s, actor=_user(s.entrant_a), character="Grave")
    character_pick_lock(set=s, actor=_user(s.entrant_b), character="Jaina")
    set_game_record(set=s, game=GameInput("a", ["Grave"], ["Jaina"]))
    character_pick_lock(set=s, actor=_user(s.entrant_b), character="Midori")  # open, revealed
    match = set_match_open(set=s, actor=_user(s.entrant_b))
    room = services.room_open_for_match(match=match, user=_user(s.entrant_b))
    room.refresh_from_db()
    assert _seats(room) == {"P1": "grave", "P2": "midori"}
    assert room.status == Room.Status.PLAYING


def _seats(room: Room) -> dict[str, str]:
    return dict(room.seats.values_list("seat", "character"))


def test_revealed_picks_seat_the_characters_and_start_the_game() -> None:
    s, match = _set_match()
    character_pick_lock(set=s, actor=_user(s.entrant_a), character="Grave")
    character_pick_lock(set=s, actor=_user(s.entrant_b), character="Jaina")
    room = services.room_open_for_match(match=match, user=_user(s.entrant_b))
    room.refresh_from_db()
    assert _seats(room) == {"P1": "grave", "P2": "jaina"}  # entrant A plays side 1
    assert room.status == Room.Status.PLAYING
    with pytest.raises(RoomError) as caught:  # nothing left to pick
        services.room_pick(room_id=room.pk, user=_user(s.entrant_a), character="midori")
    assert caught.value.code == RoomErrorCode.STALE


def test_pending_picks_keep_the_room_shut_saying_why(client) -> None:
    s, match = _set_match()
    character_pick_lock(set=s, actor=_user(s.entrant_a), character="Grave")
    for user in (_user(s.entrant_a), _user(s.entrant_b)):
        with pytest.raises(RoomError) as caught:
            services.room_open_for_match(match=match, user=user)
        assert caught.value.code == RoomErrorCode.PICKS_PENDING
        assert "game 1's character picks are not revealed yet" in caught.value.message
        assert "side B has not locked a pick" in caught.value.message
        assert "side A's pick is locked and hidden" in caught.value.message
        assert "Grave" not in caught.value.message  # the hidden pick stays hidden
    assert not Room.objects.filter(match=match).exists()
    # the page says so and offers no way in; a forced POST is refused with the reason
    client.force_login(_user(s.entrant_b))
    page = client.get(f"/matches/{match.pk}/room/").content.decode()
    assert 'id="picks-pending"' in page and "side B has not locked a pick" in page
    assert 'id="open-room"' not in page and "Grave" not in page
    response = client.post(f"/matches/{match.pk}/room/", follow=True)
    assert "side B has not locked a pick" in response.content.decode()
    assert not Room.objects.filter(match=match).exists()


def test_without_picks_the_room_asks_for_characters_as_before() -> None:
    s, match = _set_match()
    room = services.room_open_for_match(match=match, user=_user(s.entrant_a))
    room.refresh_from_db()
    assert _seats(room) == {"P1": "", "P2": ""}
    assert room.status == Room.Status.PICKING
    services.room_pick(room_id=room.pk, user=_user(s.entrant_a), character="midori")
    services.room_pick(room_id=room.pk, user=_user(s.entrant_b), character="rook")
    room.refresh_from_db()
    assert _seats(room) == {"P1": "midori", "P2": "rook"}
    assert room.status == Room.Status.PLAYING


def test_picks_locked_after_the_room_opened_hold_its_unpicked_seats() -> None:
    s, match = _set_match()
    room = services.room_open_for_match(match=match, user=_user(s.entrant_a))
    character_pick_lock(set=s, actor=_user(s.entrant_b), character="Jaina")
    with pytest.raises(RoomError) as caught:  # pending: no pick in the room meanwhile
        services.room_pick(room_id=room.pk, user=_user(s.entrant_a), character="grave")
    assert caught.value.code == RoomErrorCode.PICKS_PENDING
    assert "side A has not locked a pick" in caught.value.message
    for seat in ("P1", "P2"):  # the page says why and offers no character meanwhile
        message = _state(room, seat)
        assert "side A has not locked a pick" in message["picks_pending"]
        assert "characters" not in message and "Jaina" not in str(message)
    character_pick_lock(set=s, actor=_user(s.entrant_a), character="Grave")
    assert _state(room, "P1")["characters"] == {"grave": "Grave"}  # the set's pick only
    assert "picks_pending" not in _state(room, "P1")
    with pytest.raises(RoomError) as caught:  # revealed: only the set's pick
        services.room_pick(room_id=room.pk, user=_user(s.entrant_a), character="midori")
    assert caught.value.code == RoomErrorCode.BAD_REQUEST
    assert "P1 plays 'grave', not 'midori'" in caught.value.message
    services.room_pick(room_id=room.pk, user=_user(s.entrant_a), character="grave")
    room.refresh_from_db()
    assert _seats(room) == {"P1": "grave", "P2": "jaina"}
    assert room.status == Room.Status.PLAYING


def test_the_rooms_log_of_the_picked_characters_is_accepted_by_the_set(
        django_capture_on_commit_callbacks) -> None:
    s, match = _set_match()
    character_pick_lock(set=s, actor=_user(s.entrant_a), character="Setsuki")
    character_pick_lock(set=s, actor=_user(s.entrant_b), character="Rook")
    room = services.room_open_for_match(match=match, user=_user(s.entrant_a))
    room.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        play_out(match, room)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    assert room.result_problem == ""  # no log_picks_mismatch: the log is the set's
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    game = Game.objects.get(set=s, number=1)
    assert (game.characters_a, game.characters_b) == (["Setsuki"], ["Rook"])
    if match.winner_side is not None:  # the room's winner is the set's game winner
        assert game.winner_side == "ab"[match.winner_side - 1]
