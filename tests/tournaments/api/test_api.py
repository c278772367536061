from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from tests.tournaments.factories import (
    EventFactory,
    PlayerFactory,
    StageFactory,
    entrants_create,
)
from tests.tournaments.helpers import report
from tournaments.models import Event, Set
from tournaments.services.generation import stage_generate

pytestmark = pytest.mark.django_db


@pytest.fixture
def org_client(event, organizer):
    client = APIClient()
    client.force_authenticate(organizer)
    return client


def test_events_are_paginated_and_filterable():
    EventFactory(mode=Event.Mode.TAG_TEAM, name="Tag night")
    EventFactory(mode=Event.Mode.VERSUS, name="Weekly")
    client = APIClient()
    body = client.get("/api/events/", {"mode": "tag_team"}).json()
    assert body["count"] == 1
    assert body["results"][0]["name"] == "Tag night"
    assert set(body) == {"count", "next", "previous", "results"}
    assert client.get("/api/events/", {"name": "week"}).json()["count"] == 1


def test_full_flow_through_the_api(event, org_client):
    # given: an event with 4 entrants and a stage
    entrants_create(event, 4)
    stage = org_client.post(f"/api/events/{event.slug}/stages/",
                            {"name": "Bracket", "kind": "single_elimination"},
                            format="json").json()
    # when: seeded, generated, reported
    preview = org_client.post(f"/api/events/{event.slug}/seeding/preview/",
                              {"method": "random", "random_seed": 7}, format="json").json()
    fixed = org_client.post(f"/api/events/{event.slug}/seeding/",
                            {"method": "random", "random_seed": 7}, format="json").json()
    assert [e["id"] for e in preview["entrants"]] == [e["id"] for e in fixed["entrants"]]
    assert org_client.post(f"/api/stages/{stage['id']}/generate/").json()["status"] == "running"
    sets = APIClient().get("/api/sets/", {"stage": stage["id"], "status": "ready"}).json()
    assert sets["count"] == 2
    first = sets["results"][0]
    reported = org_client.post(f"/api/sets/{first['id']}/report/",
                               {"games": [{"winner_side": "a", "characters_a": ["Grave"],
                                           "characters_b": ["Jaina"]},
                                          {"winner_side": "a"}]}, format="json")
    assert reported.status_code == 200
    assert reported.json()["winner_id"] == first["side_a"]["entrant_id"]
    assert reported.json()["games"][0]["characters_a"] == ["Grave"]
    # then: a second report is refused with a clear code
    again = org_client.post(f"/api/sets/{first['id']}/report/",
                            {"games": [{"winner_side": "b"}, {"winner_side": "b"}]},
                            format="json")
    assert again.status_code == 409
    assert again.json()["code"] == "set_already_finished"
    standings = APIClient().get(f"/api/stages/{stage['id']}/standings/").json()
    assert len(standings["lines"]) == 4


def test_correction_preview_then_confirm(event, organizer, org_client):
    entrants_create(event, 4)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    semi = report(stage, "W1-1", "a", organizer)
    report(stage, "W1-2", "a", organizer)
    final = report(stage, "W2-1", "a", organizer)
    payload = {"games": [{"winner_side": "b"}, {"winner_side": "b"}], "reason": "wrong sheet"}
    preview = org_client.post(f"/api/sets/{semi.pk}/correct/", payload, format="json").json()
    assert preview["confirmed"] is False
    assert [s["key"] for s in preview["reset_sets"]] == ["W2-1"]
    assert Set.objects.get(pk=final.pk).status == Set.Status.FINISHED
    done = org_client.post(f"/api/sets/{semi.pk}/correct/", {**payload, "confirm": True},
                           format="json").json()
    assert done["confirmed"] is True
    assert Set.objects.get(pk=final.pk).status == Set.Status.READY


@pytest.mark.parametrize(
    ("payload", "status"),
    [
        pytest.param({"games": "nope"}, 400, id="games_not_a_list_case"),
        pytest.param({"games": [{"winner_side": "x"}]}, 400, id="bad_side_case"),
        pytest.param({"games": [{"winner_side": "a"}]}, 400, id="undecided_case"),
        pytest.param({"forfeit": "c"}, 400, id="bad_forfeit_case"),
        pytest.param({}, 400, id="empty_case"),
    ],
)
def test_bad_input_is_a_400_never_a_500(event, organizer, org_client, payload, status):
    entrants_create(event, 2)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    response = org_client.post(f"/api/sets/{s.pk}/report/", payload, format="json")
    assert response.status_code == status
    assert Set.objects.get(pk=s.pk).status == Set.Status.READY


def test_unknown_objects_are_404(org_client):
    assert org_client.post("/api/sets/999999/report/", {}, format="json").status_code == 404
    assert APIClient().get("/api/events/nope/").status_code == 404


def test_player_detail_has_rating_and_history():
    player = PlayerFactory(display_name="Solo")
    body = APIClient().get(f"/api/players/{player.pk}/").json()
    assert body == {"id": player.pk, "display_name": "Solo", "region": "Europe",
                    "rating": None, "history": []}
    assert APIClient().get("/api/players/", {"display_name": "sol"}).json()["count"] == 1


def test_token_authentication_works(event, organizer):
    from rest_framework.authtoken.models import Token

    token = Token.objects.create(user=organizer)
    client = APIClient()
    client.credentials(HTTP_AUTHORIZATION=f"Token {token.key}")
    response = client.post(f"/api/events/{event.slug}/status/", {"status": "check_in"},
                           format="json")
    assert response.status_code == 200


def test_every_endpoint_is_in_the_openapi_schema():
    from django.urls import get_resolver

    schema = APIClient().get("/api/schema/", {"format": "json"}).json()
    resolver = get_resolver("tournaments.api.urls")
    paths = set(schema["paths"])
    expected = {
        "/api/" + str(p.pattern).replace("<slug:slug>", "{slug}").replace("<int:pk>", "{id}")
        for p in resolver.url_patterns
    }
    assert expected <= paths, expected - paths
