"""Every write endpoint for: an anonymous user, a player, another event's organizer, the organizer.

Refusals must write nothing (the database fingerprint is unchanged).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

import pytest
from rest_framework.test import APIClient

from tests.tournaments.factories import (
    EventFactory,
    PlayerFactory,
    StageFactory,
    UserFactory,
    entrant_create,
    entrants_create,
)
from tests.tournaments.helpers import report
from tournaments.models import Entrant, Event, Game, Set, Stage
from tournaments.services.generation import stage_generate

pytestmark = pytest.mark.django_db


def fingerprint() -> tuple[Any, ...]:
    return (
        list(Event.objects.order_by("pk").values_list("pk", "name", "status", "best_of")),
        list(Entrant.objects.order_by("pk").values_list("pk", "status", "seed", "checked_in_at")),
        list(Stage.objects.order_by("pk").values_list("pk", "status", "current_round")),
        list(Set.objects.order_by("pk").values_list("pk", "status", "winner", "score_a")),
        Game.objects.count(),
    )


@dataclass
class Case:
    url: str
    payload: dict[str, Any]
    ok_status: int
    method: str = "post"


def _running(event: Event) -> tuple[Stage, list[Entrant]]:
    entrants = entrants_create(event, 4)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=event.organizers.first())
    return stage, entrants


def case_update(event: Event) -> Case:
    return Case(f"/api/events/{event.slug}/", {"name": "Renamed"}, 200, method="patch")


def case_status(event: Event) -> Case:
    return Case(f"/api/events/{event.slug}/status/", {"status": "check_in"}, 200)


def case_stage_create(event: Event) -> Case:
    return Case(f"/api/events/{event.slug}/stages/", {"name": "Top 8",
                                                      "kind": "double_elimination"}, 201)


def case_stage_update(event: Event) -> Case:
    stage = StageFactory(event=event)
    return Case(f"/api/stages/{stage.pk}/", {"third_place": True}, 200, method="patch")


def case_register(event: Event) -> Case:
    target = PlayerFactory(display_name="Target")
    return Case(f"/api/events/{event.slug}/register/", {"players": [target.pk]}, 201)


def case_withdraw(event: Event) -> Case:
    entrant = entrant_create(event)
    return Case(f"/api/entrants/{entrant.pk}/withdraw/", {}, 200)


def case_check_in(event: Event) -> Case:
    entrant = entrant_create(event)
    event.status = Event.Status.CHECK_IN
    event.save()
    return Case(f"/api/entrants/{entrant.pk}/check-in/", {}, 200)


def case_disqualify(event: Event) -> Case:
    _, entrants = _running(event)
    return Case(f"/api/entrants/{entrants[0].pk}/disqualify/", {"reason": "no-show"}, 200)


def case_seeding_preview(event: Event) -> Case:
    entrants_create(event, 3)
    return Case(f"/api/events/{event.slug}/seeding/preview/", {"method": "rating"}, 200)


def case_seeding_set(event: Event) -> Case:
    entrants_create(event, 3)
    return Case(f"/api/events/{event.slug}/seeding/", {"method": "random", "random_seed": 3},
                200)


def case_generate(event: Event) -> Case:
    entrants_create(event, 4)
    stage = StageFactory(event=event)
    return Case(f"/api/stages/{stage.pk}/generate/", {}, 200)


def case_report(event: Event) -> Case:
    stage, _ = _running(event)
    s = Set.objects.get(stage=stage, key="W1-1")
    return Case(f"/api/sets/{s.pk}/report/",
                {"games": [{"winner_side": "a"}, {"winner_side": "a"}]}, 200)


def case_correct(event: Event) -> Case:
    stage, _ = _running(event)
    s = report(stage, "W1-1", "a", event.organizers.first())
    return Case(f"/api/sets/{s.pk}/correct/", {
        "games": [{"winner_side": "b"}, {"winner_side": "b"}], "reason": "typo", "confirm": True,
    }, 200)


CASES: dict[str, Callable[[Event], Case]] = {
    "event_update": case_update,
    "event_status": case_status,
    "stage_create": case_stage_create,
    "stage_update": case_stage_update,
    "entrant_register": case_register,
    "entrant_withdraw": case_withdraw,
    "entrant_check_in": case_check_in,
    "entrant_disqualify": case_disqualify,
    "seeding_preview": case_seeding_preview,
    "seeding_set": case_seeding_set,
    "stage_generate": case_generate,
    "set_report": case_report,
    "set_correct": case_correct,
}


def _client(actor: str, event: Event) -> APIClient:
    client = APIClient()
    if actor == "player":
        client.force_authenticate(PlayerFactory(display_name="Bystander").user)
    elif actor == "other_organizer":
        other = UserFactory(username="other-organizer")
        EventFactory(organizers=[other])
        client.force_authenticate(other)
    elif actor == "organizer":
        client.force_authenticate(event.organizers.first())
    return client


@pytest.mark.parametrize("name", list(CASES))
@pytest.mark.parametrize(
    ("actor", "expected"),
    [
        pytest.param("anonymous", 403, id="anonymous_case"),
        pytest.param("player", 403, id="player_case"),
        pytest.param("other_organizer", 403, id="other_organizer_case"),
        pytest.param("organizer", None, id="organizer_case"),
    ],
)
def test_write_permissions(name, actor, expected):
    # given
    event = EventFactory(organizers=[UserFactory(username="the-organizer")])
    case = CASES[name](event)
    client = _client(actor, event)
    before = fingerprint()
    # when
    response = getattr(client, case.method)(case.url, case.payload, format="json")
    # then
    if expected is None:
        assert response.status_code == case.ok_status, response.content
    else:
        assert response.status_code == expected, response.content
        assert fingerprint() == before
        if actor != "anonymous":
            assert response.json()["code"] in ("not_organizer", "not_your_entrant")


def test_anyone_logged_in_creates_an_event_and_organizes_it():
    player = PlayerFactory()
    client = APIClient()
    assert client.post("/api/events/", {"name": "Open"}, format="json").status_code == 403
    assert Event.objects.count() == 0
    client.force_authenticate(player.user)
    response = client.post("/api/events/", {"name": "Open", "mode": "tag_team"}, format="json")
    assert response.status_code == 201
    assert response.json()["organizers"] == [player.user.username]


def test_a_player_registers_checks_in_and_withdraws_themselves():
    event = EventFactory()
    player = PlayerFactory()
    client = APIClient()
    client.force_authenticate(player.user)
    response = client.post(f"/api/events/{event.slug}/register/", {}, format="json")
    assert response.status_code == 201
    entrant_id = response.json()["id"]
    event.status = Event.Status.CHECK_IN
    event.save()
    response = client.post(f"/api/entrants/{entrant_id}/check-in/", format="json")
    assert response.status_code == 200 and response.json()["checked_in_at"]
    response = client.post(f"/api/entrants/{entrant_id}/withdraw/", format="json")
    assert response.status_code == 200 and response.json()["status"] == "withdrawn"
