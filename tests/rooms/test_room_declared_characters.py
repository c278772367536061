"""A team set's room offers only the characters its entrants declared with the event (issue 35,
part 1): a Tag Team team that registered Grave and Jaina plays Grave and Jaina, seated as its
members play them; nobody picks anything else."""

from __future__ import annotations

import pytest

from rooms import services
from rooms.errors import RoomError, RoomErrorCode
from rooms.models import Room
from tests.tournaments.factories import EventFactory, PlayerFactory, StageFactory, UserFactory
from tournaments.models import Event, Set, Stage
from tournaments.services.generation import stage_generate
from tournaments.services.registration import entrant_register
from tournaments.services.set_matches import set_match_open

pytestmark = pytest.mark.django_db


def _room(mode: str, declared: dict[int, list[str]], size: int = 2) -> tuple[Set, Room]:
    organizer = UserFactory()
    event = EventFactory(organizers=[organizer], best_of=1, mode=mode)
    for seed, characters in declared.items():
        entrant = entrant_register(event=event, actor=organizer,
                                   players=[PlayerFactory()
                                            for _ in range(len(characters) or size)],
                                   characters=characters)
        entrant.seed = seed
        entrant.save(update_fields=["seed"])
    stage = StageFactory(event=event, kind=Stage.Kind.ROUND_ROBIN)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    match = set_match_open(set=s, actor=organizer)
    user = match.sides.filter(side=1).first().player.user
    return s, services.room_open_for_match(match=match, user=user)


def test_a_tag_team_room_seats_the_declared_characters_and_starts() -> None:
    s, room = _room(Event.Mode.TAG_TEAM, {1: ["Grave", "Jaina"], 2: ["Midori", "Rook"]})
    room.refresh_from_db()
    by_entrant = {1: s.entrant_a, 2: s.entrant_b}
    seats = {seat.seat: seat for seat in room.seats.select_related("user")}
    for seat in seats.values():
        members = list(by_entrant[seat.side].members.order_by("order")
                       .select_related("player"))
        member = next(m for m in members if m.player.user_id == seat.user_id)
        # each member plays the character they declared, as an engine id
        assert seat.character == member.character.lower()
    assert sorted(s.character for s in seats.values()) == ["grave", "jaina", "midori", "rook"]
    assert room.status == Room.Status.PLAYING
    with pytest.raises(RoomError) as refused:
        services.room_pick(room_id=room.pk, user=seats["P1"].user, character="lum")
    assert refused.value.code == RoomErrorCode.STALE


def test_a_dramatic_battle_room_seats_the_lone_character_and_the_pair() -> None:
    s, room = _room(Event.Mode.DRAMATIC_BATTLE, {1: ["Troq"], 2: ["Lum", "Grave"]})
    room.refresh_from_db()
    picks = {seat.side: [] for seat in room.seats.all()}
    for seat in room.seats.order_by("seat"):
        picks[seat.side].append(seat.character)
    lone = 1 if s.entrant_a.members.count() == 1 else 2
    assert picks[lone] == ["troq"] and sorted(picks[3 - lone]) == ["grave", "lum"]
    assert room.status == Room.Status.PLAYING


def test_without_declared_characters_the_players_pick_in_the_room() -> None:
    _, room = _room(Event.Mode.TAG_TEAM, {1: [], 2: []})
    room.refresh_from_db()
    assert room.status == Room.Status.PICKING
    assert set(room.seats.values_list("character", flat=True)) == {""}
