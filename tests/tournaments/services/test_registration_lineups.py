"""Every mode's declared characters are checked at registration, in the service, the page and
the API, with a message naming the field and what is wrong (issue 35, part 1): a lineup the room
would play out and the verifier then refuse is never accepted."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.factories import EventFactory, PlayerFactory, UserFactory
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Entrant, Event
from tournaments.services.registration import entrant_register

pytestmark = pytest.mark.django_db


def _event(mode: str) -> Event:
    return EventFactory(organizers=[UserFactory()], mode=mode)


@pytest.mark.parametrize(("mode", "size", "lineup", "characters", "says"), [
    (Event.Mode.TRIPLE_THREAT, 1, ["Grave", "Grave", "Jaina"], [],
     "lineup: a side's characters are all different (TT-1: three decks); Grave is named twice"),
    (Event.Mode.TRIPLE_THREAT, 1, ["Grave", "Jaina"], [],
     "lineup: a Triple Threat player names a lineup of 3 characters, not 2"),
    (Event.Mode.TRIPLE_THREAT, 3, [], ["Rook", "Lum", "Rook"], "Rook is named twice"),
    (Event.Mode.TAG_TEAM, 2, [], ["Jaina", "jaina"], "Jaina is named twice"),
    (Event.Mode.TAG_TEAM, 2, [], ["Jaina"], "name one character per player (2) or none, not 1"),
    (Event.Mode.TAG_TEAM, 2, ["Grave", "Jaina"], [], "only Triple Threat entrants declare"),
    (Event.Mode.DRAMATIC_BATTLE, 2, [], ["Troq", "Troq"], "Troq is named twice"),
    (Event.Mode.VERSUS, 1, ["Grave"], [], "only Triple Threat entrants declare a lineup"),
    (Event.Mode.TAG_TEAM, 2, [], ["Grave", "Nobody"],
     "characters: there is no character called 'Nobody'"),
])
def test_a_lineup_the_rules_refuse_is_refused_at_registration(
        mode, size, lineup, characters, says) -> None:
    event = _event(mode)
    players = [PlayerFactory() for _ in range(size)]
    with pytest.raises(TournamentError) as refused:
        entrant_register(event=event, actor=event.organizers.get(), players=players,
                         lineup=lineup, characters=characters)
    assert refused.value.code == TournamentErrorCode.LINEUP
    assert says in refused.value.message
    assert not Entrant.objects.filter(event=event).exists()


@pytest.mark.parametrize(("mode", "size", "lineup", "characters"), [
    (Event.Mode.TRIPLE_THREAT, 1, ["Grave", "Jaina", "Midori"], []),
    (Event.Mode.TRIPLE_THREAT, 3, [], ["Rook", "Lum", "Setsuki"]),
    (Event.Mode.TAG_TEAM, 2, [], ["Grave", "Jaina"]),
    (Event.Mode.TAG_TEAM, 2, [], []),
    (Event.Mode.DRAMATIC_BATTLE, 2, [], ["Troq", "Lum"]),
    (Event.Mode.DRAMATIC_BATTLE, 1, [], ["Troq"]),
])
def test_a_legal_lineup_is_registered_as_declared(mode, size, lineup, characters) -> None:
    event = _event(mode)
    players = [PlayerFactory() for _ in range(size)]
    entrant = entrant_register(event=event, actor=event.organizers.get(), players=players,
                               lineup=lineup, characters=characters)
    assert entrant.lineup == lineup
    assert list(entrant.members.order_by("order").values_list("character", flat=True)) == (
        characters or [""] * size)


def test_the_api_answers_a_repeated_character_with_a_400_naming_the_field() -> None:
    event = _event(Event.Mode.TRIPLE_THREAT)
    me = PlayerFactory()
    client = APIClient()
    client.force_authenticate(me.user)
    answer = client.post(f"/api/events/{event.slug}/register/",
                         {"lineup": ["Grave", "Grave", "Jaina"]}, format="json")
    assert answer.status_code == 400, answer.content
    body = answer.json()
    assert body["code"] == "lineup" and body["field"] == "lineup"
    assert "Grave is named twice" in body["message"]
    assert not Entrant.objects.filter(event=event).exists()


def test_the_registration_page_shows_the_refusal_and_registers_nothing(client) -> None:
    event = _event(Event.Mode.TRIPLE_THREAT)
    me = PlayerFactory()
    client.force_login(me.user)
    page = client.post(f"/events/{event.slug}/register/", {"lineup": "Grave, Grave, Jaina"},
                       follow=True)
    assert "Grave is named twice" in page.content.decode()
    assert not Entrant.objects.filter(event=event).exists()
