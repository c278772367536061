from __future__ import annotations

import pytest
from django.test import Client

from tests.tournaments.factories import (
    EventFactory,
    PlayerFactory,
    StageFactory,
    entrants_create,
)
from tests.tournaments.helpers import play_out, report, win
from tournaments.models import Entrant, Event, Set, Stage
from tournaments.services.advancement import set_result_report
from tournaments.services.generation import stage_generate
from tournaments.services.ratings import ratings_recompute

pytestmark = pytest.mark.django_db


@pytest.fixture
def org_client(organizer):
    client = Client()
    client.force_login(organizer)
    return client


def test_event_list_links_to_events(event):
    response = Client().get("/events/")
    assert response.status_code == 200
    assert f'href="/events/{event.slug}/"' in response.content.decode()


def test_event_detail_shows_entrants_and_registration(event):
    entrants_create(event, 3)
    player = PlayerFactory(display_name="Newcomer")
    client = Client()
    client.force_login(player.user)
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert "Entrants (3)" in page and "Register" in page
    response = client.post(f"/events/{event.slug}/register/", follow=True)
    assert "Newcomer is registered." in response.content.decode()
    assert Entrant.objects.filter(members__player=player).count() == 1


def test_register_error_is_a_message_not_a_500(event):
    event.status = Event.Status.RUNNING
    event.save()
    player = PlayerFactory()
    client = Client()
    client.force_login(player.user)
    response = client.post(f"/events/{event.slug}/register/", follow=True)
    assert response.status_code == 200
    assert "has started: entrants can no longer change" in response.content.decode()
    assert Entrant.objects.count() == 0
    # a draft is not shown to players at all (tests/tournaments/api/test_drafts.py)
    event.status = Event.Status.DRAFT
    event.save()
    assert client.post(f"/events/{event.slug}/register/").status_code == 404


def test_check_in_page_flow(event):
    player = PlayerFactory()
    client = Client()
    client.force_login(player.user)
    client.post(f"/events/{event.slug}/register/")
    event.status = Event.Status.CHECK_IN
    event.save()
    entrant = Entrant.objects.get()
    assert "Check in" in client.get(f"/events/{event.slug}/").content.decode()
    client.post(f"/events/{event.slug}/entrants/{entrant.pk}/check-in/")
    assert Entrant.objects.get().is_checked_in


def test_double_elimination_bracket_page_has_sections_rounds_and_scores(event, organizer):
    entrants_create(event, 8)
    stage = StageFactory(event=event, kind=Stage.Kind.DOUBLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    report(stage, "W1-1", "a", organizer)
    page = Client().get(f"/events/{event.slug}/stages/{stage.pk}/").content.decode()
    for text in ("Winners bracket", "Losers bracket", "Grand final", "Winners Quarterfinals",
                 "Losers Final", "W→W2-1", "L→L1-"):
        assert text in page, text
    assert "Grand Final Reset" not in page  # shown only once it is needed


def test_round_robin_page_has_group_tables(event, organizer):
    entrants_create(event, 6)
    stage = StageFactory(event=event, kind=Stage.Kind.ROUND_ROBIN, group_count=2)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.filter(stage=stage).first()
    set_result_report(set=s, actor=organizer, result=win("a"))
    page = Client().get(f"/events/{event.slug}/stages/{stage.pk}/").content.decode()
    assert "Group 1" in page and "Group 2" in page and "Head to head" in page


def test_organizer_reports_on_the_set_page(event, organizer, org_client):
    entrants_create(event, 2)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    url = f"/events/{event.slug}/sets/{s.pk}/"
    assert "Record result" in org_client.get(url).content.decode()
    response = org_client.post(url, {"game_1_winner": "b", "game_1_a": "Grave",
                                     "game_1_b": "Midori", "game_2_winner": "b"}, follow=True)
    assert "Result recorded." in response.content.decode()
    s.refresh_from_db()
    assert (s.status, s.score_b) == (Set.Status.FINISHED, 2)


def test_a_player_cannot_report_on_the_set_page(event, organizer):
    entrants_create(event, 2)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    client = Client()
    client.force_login(PlayerFactory().user)
    page = client.get(f"/events/{event.slug}/sets/{s.pk}/").content.decode()
    assert "Record result" not in page
    response = client.post(f"/events/{event.slug}/sets/{s.pk}/", {"game_1_winner": "a",
                                                                  "game_2_winner": "a"})
    assert response.status_code == 403
    assert Set.objects.get(pk=s.pk).status == Set.Status.READY


def test_correction_page_shows_the_change_then_confirms(event, organizer, org_client):
    entrants_create(event, 4)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    semi = report(stage, "W1-1", "a", organizer)
    report(stage, "W1-2", "a", organizer)
    report(stage, "W2-1", "a", organizer)
    url = f"/events/{event.slug}/sets/{semi.pk}/correct/"
    data = {"game_1_winner": "b", "game_2_winner": "b", "reason": "sheet was wrong"}
    page = org_client.post(url, data).content.decode()
    assert "This will change" in page and "is cleared" in page and "W2-1" in page
    assert Set.objects.get(stage=stage, key="W2-1").status == Set.Status.FINISHED
    org_client.post(url, {**data, "confirm": "1"})
    assert Set.objects.get(stage=stage, key="W2-1").status == Set.Status.READY


def test_correction_page_is_organizers_only(event, organizer):
    entrants_create(event, 2)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    s = report(stage, "W1-1", "a", organizer)
    client = Client()
    client.force_login(PlayerFactory().user)
    assert client.get(f"/events/{event.slug}/sets/{s.pk}/correct/").status_code == 403


def test_seeding_page_previews_then_fixes(event, organizer, org_client):
    entrants = entrants_create(event, 3)
    Entrant.objects.update(seed=None)
    url = f"/events/{event.slug}/seeding/"
    page = org_client.get(url, {"method": "manual"}).content.decode()
    assert "Preview" in page and entrants[0].name in page
    data = {"method": "manual", f"seed_{entrants[0].pk}": "3", f"seed_{entrants[1].pk}": "1",
            f"seed_{entrants[2].pk}": "2"}
    org_client.post(url, data)
    assert set(Entrant.objects.values_list("seed", flat=True)) == {None}
    org_client.post(url, {**data, "confirm": "1"})
    assert list(Entrant.objects.order_by("seed").values_list("pk", flat=True)) == [
        entrants[1].pk, entrants[2].pk, entrants[0].pk,
    ]


def test_seeding_page_is_organizers_only(event):
    client = Client()
    client.force_login(PlayerFactory().user)
    assert client.get(f"/events/{event.slug}/seeding/").status_code == 403


def test_player_page_shows_rating_history_and_results(event, organizer):
    entrants = entrants_create(event, 2)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    play_out(stage, organizer)
    ratings_recompute()
    player = entrants[0].members.get().player
    page = Client().get(f"/events/players/{player.pk}/").content.decode()
    assert "Rating history" in page and "<polyline" in page and event.name in page
    assert player.display_name in Client().get("/events/players/").content.decode()


def test_unknown_pages_are_404():
    assert Client().get("/events/nope/").status_code == 404
    assert Client().get("/events/players/999999/").status_code == 404
    EventFactory(slug="real")
    assert Client().get("/events/real/stages/999/").status_code == 404
