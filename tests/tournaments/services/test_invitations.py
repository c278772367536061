"""Team registrations need the consent of every player put on the roster (issue 11, item 8)."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.factories import EventFactory, PlayerFactory, StageFactory, UserFactory
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Entrant, Event, Stage
from tournaments.services.generation import stage_generate
from tournaments.services.registration import (
    entrant_invitation_accept,
    entrant_register,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def tag_event(organizer):
    return EventFactory(organizers=[organizer], mode=Event.Mode.TAG_TEAM)


def test_a_team_waits_for_the_invited_player_and_does_not_block_them(tag_event) -> None:
    captain, victim, friend = PlayerFactory(), PlayerFactory(), PlayerFactory()
    team = entrant_register(event=tag_event, actor=captain.user, players=[captain, victim])
    assert team.status == Entrant.Status.INVITED
    assert list(team.members.values_list("player_id", "is_accepted")) == [
        (captain.pk, True), (victim.pk, False),
    ]
    # the invited player is not blocked: registering their own team declines the invitation
    own = entrant_register(event=tag_event, actor=victim.user, players=[victim, friend])
    assert own.status == Entrant.Status.INVITED  # friend must accept in turn
    team.refresh_from_db()
    assert team.status == Entrant.Status.WITHDRAWN
    # and the captain cannot accept in the victim's place
    with pytest.raises(TournamentError) as refused:
        entrant_invitation_accept(entrant=own, actor=captain.user)
    assert refused.value.code == TournamentErrorCode.NOT_YOUR_ENTRANT
    assert entrant_invitation_accept(entrant=own, actor=friend.user).status == "registered"


def test_an_invited_team_is_registered_only_once_all_accepted_and_is_not_seeded_before(
    organizer,
) -> None:
    event = EventFactory(organizers=[organizer], mode=Event.Mode.TAG_TEAM, max_entrants=2)
    players = [PlayerFactory() for _ in range(6)]
    first = entrant_register(event=event, actor=organizer, players=players[0:2])
    assert first.status == Entrant.Status.REGISTERED  # an organizer's registration stands
    invited = entrant_register(event=event, actor=players[2].user, players=players[2:4])
    direct = entrant_register(event=event, actor=organizer, players=players[4:6])
    assert direct.status == Entrant.Status.REGISTERED  # the invited team held no place
    invited = entrant_invitation_accept(entrant=invited, actor=players[3].user)
    assert invited.status == Entrant.Status.WAITLISTED  # full by the time it was complete


def test_decline_and_the_api(tag_event) -> None:
    captain, invitee = PlayerFactory(), PlayerFactory()
    stranger = UserFactory(username="stranger")
    client = APIClient()
    client.force_authenticate(captain.user)
    response = client.post(f"/api/events/{tag_event.slug}/register/",
                           {"players": [captain.pk, invitee.pk]}, format="json")
    assert response.status_code == 201
    body = response.json()
    assert body["status"] == "invited"
    accepted = {m["player"]["id"]: m["is_accepted"] for m in body["members"]}
    assert accepted == {captain.pk: True, invitee.pk: False}
    client.force_authenticate(stranger)
    assert client.post(f"/api/entrants/{body['id']}/accept/").status_code == 403
    client.force_authenticate(invitee.user)
    response = client.post(f"/api/entrants/{body['id']}/decline/")
    assert response.status_code == 200
    assert response.json()["status"] == "withdrawn"
    # a declined team can be registered again once they agree
    again = entrant_register(event=tag_event, actor=invitee.user, players=[invitee, captain])
    assert entrant_invitation_accept(entrant=again, actor=captain.user).status == "registered"


def test_a_pending_invitation_elsewhere_is_answered_by_its_player_first(tag_event) -> None:
    a, b, c = PlayerFactory(), PlayerFactory(), PlayerFactory()
    entrant_register(event=tag_event, actor=a.user, players=[a, b])
    with pytest.raises(TournamentError) as refused:
        entrant_register(event=tag_event, actor=c.user, players=[c, b])
    assert "has an invitation from" in refused.value.message


def test_invited_teams_are_left_out_of_the_bracket(tag_event, organizer) -> None:
    players = [PlayerFactory() for _ in range(6)]
    entrant_register(event=tag_event, actor=organizer, players=players[0:2])
    entrant_register(event=tag_event, actor=organizer, players=players[2:4])
    pending = entrant_register(event=tag_event, actor=players[4].user, players=players[4:6])
    stage = StageFactory(event=tag_event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    assert not stage.entries.filter(entrant=pending).exists()
    assert stage.entries.count() == 2


def test_the_event_page_shows_the_invitation_with_accept_and_decline(tag_event) -> None:
    from django.test import Client

    captain, invitee = PlayerFactory(), PlayerFactory()
    team = entrant_register(event=tag_event, actor=captain.user, players=[captain, invitee])
    client = Client()
    client.force_login(invitee.user)
    page = client.get(f"/events/{tag_event.slug}/").content.decode()
    assert f"{team.name} invites you to its roster." in page
    response = client.post(f"/events/{tag_event.slug}/entrants/{team.pk}/accept/", follow=True)
    assert response.status_code == 200
    team.refresh_from_db()
    assert team.status == Entrant.Status.REGISTERED
    assert "invites you" not in response.content.decode()
