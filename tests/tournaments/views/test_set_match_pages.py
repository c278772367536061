"""The set page lets the set's players and organizers play a game with a match log."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import StageFactory, entrants_create
from tournaments.models import Set, SetMatch, Stage
from tournaments.services.generation import stage_generate

pytestmark = pytest.mark.django_db


@pytest.fixture
def ready_set(event, organizer) -> Set:
    entrants_create(event, 4)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    return Set.objects.get(stage=stage, key="W1-1")


def test_player_of_the_set_opens_a_match_and_lands_on_its_page(client, ready_set) -> None:
    player = ready_set.entrant_a.members.get().player.user
    client.force_login(player)
    page = client.get(f"/events/{ready_set.stage.event.slug}/sets/{ready_set.pk}/").content.decode()
    assert "Submit a log for the next game" in page
    response = client.post(f"/events/{ready_set.stage.event.slug}/sets/{ready_set.pk}/match/")
    link = SetMatch.objects.get(set=ready_set)
    assert response.status_code == 302
    assert response["Location"] == f"/matches/{link.match_id}/"
    page = client.get(f"/events/{ready_set.stage.event.slug}/sets/{ready_set.pk}/").content.decode()
    assert f"/matches/{link.match_id}/" in page
    assert "Awaiting a log" in page


def test_someone_else_sees_no_button_and_is_refused(client, ready_set, player) -> None:
    client.force_login(player.user)
    url = f"/events/{ready_set.stage.event.slug}/sets/{ready_set.pk}/"
    assert "Submit a log for the next game" not in client.get(url).content.decode()
    response = client.post(url + "match/", follow=True)
    assert "only the set&#x27;s players or the event&#x27;s organizers" in response.content.decode()
    assert SetMatch.objects.count() == 0


def test_anonymous_is_sent_to_log_in(client, ready_set) -> None:
    response = client.post(f"/events/{ready_set.stage.event.slug}/sets/{ready_set.pk}/match/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")
    assert SetMatch.objects.count() == 0
