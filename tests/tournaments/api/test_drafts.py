"""Draft events are their organizers' work in progress: hidden from everyone else (issue 11)."""

from __future__ import annotations

import pytest
from django.test import Client
from rest_framework.test import APIClient

from tests.tournaments.factories import EventFactory, StageFactory, UserFactory
from tournaments.models import Event

pytestmark = pytest.mark.django_db


@pytest.fixture
def draft(organizer):
    event = EventFactory(organizers=[organizer], status=Event.Status.DRAFT, name="Secret Cup")
    stage = StageFactory(event=event)
    return event, stage


def api(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


def page(user=None) -> Client:
    client = Client()
    if user is not None:
        client.force_login(user)
    return client


@pytest.mark.parametrize("who", ["anonymous", "player"])
def test_a_draft_is_invisible_to_everyone_but_its_organizers(draft, who) -> None:
    event, stage = draft
    user = UserFactory(username="curious") if who == "player" else None
    public = EventFactory(name="Open Cup")
    slugs = [e["slug"] for e in api(user).get("/api/events/").json()["results"]]
    assert slugs == [public.slug]
    assert api(user).get(f"/api/events/{event.slug}/").status_code == 404
    assert api(user).get(f"/api/stages/{stage.pk}/").status_code == 404
    assert api(user).get(f"/api/stages/?event={event.slug}").json()["results"] == []
    assert api(user).get(f"/api/stages/{stage.pk}/standings/").status_code == 404
    assert page(user).get(f"/events/{event.slug}/").status_code == 404
    assert page(user).get(f"/events/{event.slug}/stages/{stage.pk}/").status_code == 404
    assert "Secret Cup" not in page(user).get("/events/").content.decode()


def test_organizers_and_staff_see_their_draft(draft, organizer) -> None:
    event, stage = draft
    staff = UserFactory(username="staff", is_staff=True)
    for user in (organizer, staff):
        assert api(user).get(f"/api/events/{event.slug}/").status_code == 200
        assert api(user).get(f"/api/stages/{stage.pk}/").status_code == 200
        assert page(user).get(f"/events/{event.slug}/").status_code == 200
        assert "Secret Cup" in page(user).get("/events/").content.decode()
    # once registration opens, everyone sees it
    event.status = Event.Status.REGISTRATION
    event.save()
    assert api().get(f"/api/events/{event.slug}/").status_code == 200
