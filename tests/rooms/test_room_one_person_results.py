"""A room's result never rests on one person's word (issue 31, items 1 and 6).

A one-device recorder is its holder's submission, confirmed by the other side with their own
account; a room of a match outside any event speaks only for the sides whose players chose
themselves, so an opener who ran the other seat's clock out wins nothing alone.
"""

from __future__ import annotations

import random
from datetime import timedelta

import pytest
from django.utils import timezone

from matches.errors import MatchError, MatchErrorCode
from matches.models import LogEndorsement, Match
from matches.services import match_log_confirm
from notifications.models import Notification
from rooms import services
from rooms.errors import RoomError, RoomErrorCode
from rooms.models import Room
from tests.matches.factories import side_user, versus_match
from tests.rooms.helpers import pick_choice
from tests.rooms.helpers import state as _state

pytestmark = pytest.mark.django_db


def test_a_one_device_game_played_by_side_2_alone_is_side_2s_word_side_1_must_confirm(
    django_capture_on_commit_callbacks,
) -> None:
    match = versus_match()
    victim, holder = side_user(match, 1), side_user(match, 2)
    room = services.room_open_for_match(match=match, user=holder, one_device=True)
    services.room_pick(room_id=room.pk, user=holder, character="grave", seat="P1")
    services.room_pick(room_id=room.pk, user=holder, character="jaina", seat="P2")
    rng = random.Random(6)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(5000):
            room.refresh_from_db()
            if room.status == Room.Status.FINISHED:
                break
            seat = _state(room, "P1")["acting"][0]
            now = _state(room, seat)
            services.room_choose(room_id=room.pk, user=holder, seat=seat,
                                 action=pick_choice(now, rng)["action"],
                                 decision=now["decision"])
    assert room.status == Room.Status.FINISHED
    log = room.match_log
    assert log.submitted_by == holder  # the holder's word, never the other side's
    assert list(log.endorsements.values_list("user", "side", "via")) == [
        (holder.pk, 2, LogEndorsement.Via.SUBMISSION)]
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_CONFIRMATION
    # the holder cannot confirm their own recording
    with pytest.raises(MatchError) as refused:
        match_log_confirm(match=match, user=holder)
    assert refused.value.code == MatchErrorCode.NOTHING_TO_CONFIRM
    # the other side is told, and confirms with their own account
    assert Notification.objects.filter(user=victim, kind=Notification.Kind.LOG_SUBMITTED,
                                       subject=f"log:{log.pk}").exists()
    with django_capture_on_commit_callbacks(execute=True):
        match_log_confirm(match=match, user=victim)
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED


def test_an_opener_may_not_set_a_clock_too_short_to_answer() -> None:
    match = versus_match()
    with pytest.raises(RoomError) as refused:
        services.room_open_for_match(match=match, user=side_user(match, 1),
                                     decision_seconds=1)
    assert refused.value.code == RoomErrorCode.BAD_REQUEST
    assert str(services.MIN_OPENER_DECISION_SECONDS) in refused.value.message
    assert not Room.objects.filter(match=match).exists()


def test_a_casual_room_won_on_the_other_seats_clock_waits_for_that_side(
    django_capture_on_commit_callbacks,
) -> None:
    match = versus_match()
    opener, absent = side_user(match, 1), side_user(match, 2)
    room = services.room_open_for_match(match=match, user=opener, decision_seconds=10)
    services.room_pick(room_id=room.pk, user=opener, character="grave")
    services.room_pick(room_id=room.pk, user=absent, character="jaina")  # then walks away
    rng = random.Random(3)
    with django_capture_on_commit_callbacks(execute=True):
        for _ in range(5000):
            room.refresh_from_db()
            if room.status == Room.Status.FINISHED:
                break
            now = _state(room, "P1")
            if now.get("legal"):
                services.room_choose(room_id=room.pk, user=opener,
                                     action=pick_choice(now, rng)["action"],
                                     decision=now["decision"])
            else:  # P2's decision: the opener waits the clock out
                Room.objects.filter(pk=room.pk).update(
                    decision_since=timezone.now() - timedelta(seconds=11))
                assert services.room_clock_check(room_id=room.pk) is not None
    assert room.status == Room.Status.FINISHED and room.chose == ["P1"]
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_CONFIRMATION
    assert list(room.match_log.endorsements.values_list("side", "via")) == [
        (1, LogEndorsement.Via.ROOM)]
    assert Notification.objects.filter(user=absent,
                                       kind=Notification.Kind.LOG_SUBMITTED).exists()
    with pytest.raises(MatchError):
        match_log_confirm(match=match, user=opener)
    with django_capture_on_commit_callbacks(execute=True):
        match_log_confirm(match=match, user=absent)
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
