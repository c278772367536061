"""A room's log refused (issue 35, part 1): an entrant registered before lineups were checked,
"Grave, Grave, Jaina", plays the whole Triple Threat game (the engine plays it; here its
self-play's choices stand in for the room's clicks) and at the game's end the room's log is
refused (TT-1). Both players and the organizer are told, the room says no result was recorded
(never "See the match's verified result"), every replay page answers without a 500, and the set
page offers to play the game again in a fresh match."""

from __future__ import annotations

from types import SimpleNamespace

import pytest
from django.urls import reverse

from matches.models import AuditEntry, Match
from notifications.models import Notification
from rooms import games, services
from rooms.errors import RoomError
from rooms.models import Room
from rules_engine.selfplay import play_match
from rules_engine.team import Mode
from tests.rooms.helpers import state as _state
from tests.tournaments.factories import EventFactory, StageFactory, UserFactory, entrant_create
from tournaments.models import Event, Set, SetMatch
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open

pytestmark = pytest.mark.django_db


def test_a_refused_room_log_is_told_shown_and_the_game_can_be_played_again(
        client, django_capture_on_commit_callbacks, monkeypatch) -> None:
    organizer = UserFactory()
    event = EventFactory(organizers=[organizer], best_of=1, mode=Event.Mode.TRIPLE_THREAT)
    # as stored before registration checked lineups (the service now refuses this one)
    entrant_create(event, seed=1, lineup=["Grave", "Grave", "Jaina"])
    entrant_create(event, seed=2, lineup=["Rook", "Troq", "Gwen"])
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    match = set_match_open(set=s, actor=organizer)
    players = {side.player.user_id for side in match.sides.all()}
    room = services.room_open_for_match(
        match=match, user=match.sides.get(side=1).player.user)
    # today the room no longer seats a lineup the rules refuse: its players pick one (and a
    # repeated character is refused there too)
    assert set(room.seats.values_list("character", flat=True)) == {""}
    with pytest.raises(RoomError) as refused:
        services.room_pick(room_id=room.pk, user=match.sides.get(side=1).player.user,
                           character=["grave", "grave", "jaina"])
    assert "(TT-1)" in refused.value.message

    # the room's end of game (rooms.services._finish). The engine starts no game of a refused
    # lineup (Game.new), so the room's log is made the one an older room wrote for this
    # lineup (the same game with Midori's name replaced by Grave's): the verifier refuses it.
    write = games.match_log
    monkeypatch.setattr(games, "match_log", lambda *args, **kwargs: SimpleNamespace(
        dumps=lambda: write(*args, **kwargs).dumps().replace('"midori"', '"grave"')))
    _, log = play_match(Mode.TRIPLE_THREAT, ("grave", "midori", "jaina"),
                        ("rook", "troq", "gwen"), 1, bot="greedy")
    room.seats.filter(seat="P1").update(character="grave,midori,jaina")
    room.seats.filter(seat="P2").update(character="rook,troq,gwen")
    Room.objects.filter(pk=room.pk).update(status=Room.Status.PLAYING, seed=log.seed)
    room.refresh_from_db()
    game = games.game_new(room.seed, ["grave,midori,jaina", "rook,troq,gwen"],
                          Mode.TRIPLE_THREAT.value)
    for event_ in log.events:
        games.apply(game, event_.player, event_.action)
    assert game.is_over
    with django_capture_on_commit_callbacks(execute=True):
        services._finish(room, game)
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    assert "TT-1" in room.result_problem
    assert Match.objects.get(pk=match.pk).status == Match.Status.AWAITING_LOG
    assert "TT-1" in AuditEntry.objects.get(
        match=match, action=AuditEntry.Action.LOG_ROOM_REFUSED).reason

    # told: both players and the organizer, sent to the set's page
    told = Notification.objects.filter(kind=Notification.Kind.LOG_REFUSED)
    assert set(told.values_list("user_id", flat=True)) == players | {organizer.pk}
    set_url = reverse("tournaments:set-detail", args=[event.slug, s.pk])
    assert {n.url for n in told} == {set_url}

    # the room: no "verified result" link, the reason instead
    finished = _state(room, "P1")
    assert finished["match_link_text"] == "See the match (awaiting a log)"
    assert "TT-1" in finished["result_problem"]

    # the replays answer (no 500), saying why the log cannot be replayed
    for url in (reverse("rooms:room-replay", args=[room.pk]),
                reverse("rooms:match-replay", args=[match.pk])):
        page = client.get(url)
        assert page.status_code == 200, url
        assert "This log cannot be replayed" in page.content.decode()
        assert "TT-1" in page.content.decode()

    # the set page: the refusal, the replay link, and a way on for the players
    client.force_login(match.sides.get(side=2).player.user)
    page = client.get(set_url).content.decode()
    assert f"The log of match #{match.pk} was refused" in page and "TT-1" in page
    assert reverse("rooms:match-replay", args=[match.pk]) in page
    answer = client.post(reverse("tournaments:set-match-replay", args=[event.slug, s.pk]))
    fresh = SetMatch.objects.filter(set=s, is_recorded=False).get().match
    assert answer.url == reverse("matches:match-detail", args=[fresh.pk])
    assert fresh.pk != match.pk and fresh.status == Match.Status.AWAITING_LOG
    assert Match.objects.get(pk=match.pk).status == Match.Status.CANCELLED
    # the set no longer shows a refusal to act on; asking again is refused with a message
    assert "Play this game again" not in client.get(set_url).content.decode()
    again = client.post(reverse("tournaments:set-match-replay", args=[event.slug, s.pk]),
                        follow=True)
    assert "has no refused log" in again.content.decode()
