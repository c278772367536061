from __future__ import annotations

from datetime import timedelta

import pytest
from django.utils import timezone

from tests.tournaments.factories import PlayerFactory, StageFactory, entrants_create
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Entrant, EntrantMember, Event
from tournaments.services.generation import stage_generate
from tournaments.services.registration import (
    entrant_check_in,
    entrant_register,
    entrant_withdraw,
    event_capacity_change,
    event_remove_unchecked,
)

pytestmark = pytest.mark.django_db


def test_a_player_registers_themselves(event, player):
    entrant = entrant_register(event=event, actor=player.user, players=[player])
    assert entrant.status == Entrant.Status.REGISTERED
    assert entrant.name == player.display_name
    assert list(entrant.members.values_list("player", flat=True)) == [player.pk]


def test_a_player_cannot_register_someone_else(event, player):
    other = PlayerFactory()
    with pytest.raises(TournamentError) as error:
        entrant_register(event=event, actor=player.user, players=[other])
    assert error.value.code == TournamentErrorCode.NOT_YOUR_ENTRANT
    assert Entrant.objects.count() == 0


def test_registering_twice_is_refused(event, player):
    entrant_register(event=event, actor=player.user, players=[player])
    with pytest.raises(TournamentError) as error:
        entrant_register(event=event, actor=player.user, players=[player])
    assert error.value.code == TournamentErrorCode.ALREADY_REGISTERED
    assert Entrant.objects.count() == 1


def test_past_the_cap_entrants_wait_and_are_promoted_in_order(event, organizer):
    event.max_entrants = 2
    event.save()
    players = [PlayerFactory() for _ in range(4)]
    entrants = [entrant_register(event=event, actor=p.user, players=[p]) for p in players]
    assert [e.status for e in entrants] == ["registered", "registered", "waitlisted", "waitlisted"]
    promoted = entrant_withdraw(entrant=entrants[0], actor=players[0].user)
    assert promoted == [entrants[2]]
    assert Entrant.objects.get(pk=entrants[3].pk).status == Entrant.Status.WAITLISTED
    promoted = event_capacity_change(event=event, actor=organizer, max_entrants=3)
    assert promoted == [entrants[3]]


@pytest.mark.parametrize(
    ("mode", "size", "lineup", "ok"),
    [
        pytest.param(Event.Mode.TAG_TEAM, 2, [], True, id="tag_team_of_2_case"),
        pytest.param(Event.Mode.TAG_TEAM, 1, [], False, id="tag_team_of_1_case"),
        pytest.param(Event.Mode.DRAMATIC_BATTLE, 1, [], True, id="dramatic_side_of_1_case"),
        pytest.param(Event.Mode.DRAMATIC_BATTLE, 2, [], True, id="dramatic_side_of_2_case"),
        pytest.param(Event.Mode.DRAMATIC_BATTLE, 3, [], False, id="dramatic_side_of_3_case"),
        pytest.param(Event.Mode.TRIPLE_THREAT, 1, ["Grave", "Jaina", "Rook"], True,
                     id="triple_threat_lineup_case"),
        pytest.param(Event.Mode.TRIPLE_THREAT, 1, ["Grave"], False,
                     id="triple_threat_short_lineup_case"),
        pytest.param(Event.Mode.TRIPLE_THREAT, 3, [], True, id="triple_threat_team_case"),
    ],
)
def test_roster_sizes_per_mode(event, mode, size, lineup, ok):
    event.mode = mode
    event.save()
    players = [PlayerFactory() for _ in range(size)]
    if ok:
        entrant = entrant_register(event=event, actor=players[0].user, players=players,
                                   lineup=lineup, name="Team")
        assert entrant.members.count() == size
    else:
        with pytest.raises(TournamentError) as error:
            entrant_register(event=event, actor=players[0].user, players=players, lineup=lineup)
        assert error.value.code in (TournamentErrorCode.ROSTER_SIZE, TournamentErrorCode.LINEUP)
        assert Entrant.objects.count() == 0


def test_registration_is_closed_in_draft(event, player):
    event.status = Event.Status.DRAFT
    event.save()
    with pytest.raises(TournamentError) as error:
        entrant_register(event=event, actor=player.user, players=[player])
    assert error.value.code == TournamentErrorCode.REGISTRATION_CLOSED


def test_late_changes_are_refused_once_a_stage_started(event, organizer, player):
    entrants = entrants_create(event, 4)
    stage_generate(stage=StageFactory(event=event), actor=organizer)
    with pytest.raises(TournamentError) as error:
        entrant_register(event=event, actor=player.user, players=[player])
    assert error.value.code == TournamentErrorCode.STAGE_STARTED
    assert "has started" in error.value.message
    with pytest.raises(TournamentError) as error:
        entrant_withdraw(entrant=entrants[0], actor=organizer)
    assert error.value.code == TournamentErrorCode.STAGE_STARTED
    assert Entrant.objects.get(pk=entrants[0].pk).status == Entrant.Status.REGISTERED


def test_check_in_only_inside_the_window(event, player):
    entrant = entrant_register(event=event, actor=player.user, players=[player])
    with pytest.raises(TournamentError) as error:
        entrant_check_in(entrant=entrant, actor=player.user)
    assert error.value.code == TournamentErrorCode.CHECK_IN_CLOSED
    event.status = Event.Status.CHECK_IN
    event.check_in_closes_at = timezone.now() - timedelta(minutes=1)
    event.save()
    with pytest.raises(TournamentError):
        entrant_check_in(entrant=entrant, actor=player.user)
    event.check_in_closes_at = timezone.now() + timedelta(hours=1)
    event.save()
    assert entrant_check_in(entrant=entrant, actor=player.user).is_checked_in


def test_a_player_checks_in_only_their_own_entrant(event, player):
    entrant = entrant_register(event=event, actor=player.user, players=[player])
    event.status = Event.Status.CHECK_IN
    event.save()
    stranger = PlayerFactory()
    with pytest.raises(TournamentError) as error:
        entrant_check_in(entrant=entrant, actor=stranger.user)
    assert error.value.code == TournamentErrorCode.NOT_YOUR_ENTRANT
    assert Entrant.objects.get(pk=entrant.pk).checked_in_at is None


def test_removing_entrants_who_did_not_check_in(event, organizer):
    entrants = entrants_create(event, 3)
    event.status = Event.Status.CHECK_IN
    event.save()
    entrant_check_in(entrant=entrants[0], actor=organizer)
    removed = event_remove_unchecked(event=event, actor=organizer)
    assert removed == entrants[1:]
    assert list(Entrant.objects.order_by("id").values_list("status", flat=True)) == [
        "registered", "removed", "removed",
    ]


def test_withdrawn_player_may_register_again(event, player):
    entrant = entrant_register(event=event, actor=player.user, players=[player])
    entrant_withdraw(entrant=entrant, actor=player.user)
    again = entrant_register(event=event, actor=player.user, players=[player])
    assert again.status == Entrant.Status.REGISTERED
    assert EntrantMember.objects.filter(player=player).count() == 1
