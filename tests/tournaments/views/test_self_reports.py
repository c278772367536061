"""Self-reporting events: a player reports the score, the opponent confirms (or disputes)."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import StageFactory, entrants_create
from tournaments.models import Event, Set, SetReport, SetResultChange, Stage
from tournaments.services.generation import stage_generate

pytestmark = pytest.mark.django_db

TWO_NIL = {"game_1_winner": "a", "game_1_a": "Grave", "game_1_b": "Jaina",
           "game_2_winner": "a", "game_2_a": "Grave", "game_2_b": "Rook"}


@pytest.fixture
def ready_set(event, organizer) -> Set:
    event.result_policy = Event.ResultPolicy.SELF_REPORT
    event.character_rule = Event.CharacterRule.FREE
    event.save()
    entrants_create(event, 2)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    return Set.objects.get(stage=stage)


def _user(entrant):
    return entrant.members.get().player.user


def _url(s: Set, tail: str = "") -> str:
    return f"/events/{s.stage.event.slug}/sets/{s.pk}/{tail}"


def test_report_then_the_opponent_confirms(client, ready_set) -> None:
    a, b = _user(ready_set.entrant_a), _user(ready_set.entrant_b)
    from tournaments.services.picks import character_pick_lock

    client.force_login(a)
    assert "Pick your character for game 1" in client.get("/my-matches/").content.decode()
    character_pick_lock(set=ready_set, actor=a, character="Grave")
    character_pick_lock(set=ready_set, actor=b, character="Jaina")
    assert "Play the set and report its score" in client.get("/my-matches/").content.decode()
    client.post(_url(ready_set, "report/"), TWO_NIL)
    report = SetReport.objects.get()
    assert (report.side, report.score, report.status) == ("a", (2, 0), "pending")
    ready_set.refresh_from_db()
    assert ready_set.status == Set.Status.READY  # nothing counts before the opponent agrees
    # the reporter cannot confirm their own report
    client.post(_url(ready_set, f"reports/{report.pk}/confirm/"))
    ready_set.refresh_from_db()
    assert ready_set.status == Set.Status.READY
    client.force_login(b)
    assert "Your opponent reported 2-0" in client.get("/my-matches/").content.decode()
    client.post(_url(ready_set, f"reports/{report.pk}/confirm/"))
    ready_set.refresh_from_db()
    assert (ready_set.status, ready_set.score_a, ready_set.winner_id) == (
        Set.Status.FINISHED, 2, ready_set.entrant_a_id)
    assert SetResultChange.objects.filter(set=ready_set, action="self_report").exists()
    assert "unverified" in client.get(_url(ready_set)).content.decode()


def test_dispute_leaves_it_to_an_organizer(client, ready_set, organizer) -> None:
    client.force_login(_user(ready_set.entrant_a))
    client.post(_url(ready_set, "report/"), TWO_NIL)
    report = SetReport.objects.get()
    client.force_login(_user(ready_set.entrant_b))
    client.post(_url(ready_set, f"reports/{report.pk}/dispute/"), {"reason": "I won game 2"})
    report.refresh_from_db()
    assert report.status == SetReport.Status.DISPUTED
    client.force_login(organizer)
    page = client.get(_url(ready_set)).content.decode()
    assert "I won game 2" in page and "Record result" in page
    event_page = client.get(f"/events/{ready_set.stage.event.slug}/").content.decode()
    assert "Disputed scores" in event_page and "I won game 2" in event_page


def test_bad_reports_are_refused(client, ready_set, player) -> None:
    client.force_login(player.user)
    response = client.post(_url(ready_set, "report/"), TWO_NIL, follow=True)
    assert "only the set&#x27;s players report its score" in response.content.decode()
    client.force_login(_user(ready_set.entrant_a))
    response = client.post(_url(ready_set, "report/"), {**TWO_NIL, "game_2_b": "Zorro"},
                           follow=True)
    assert "no character called &#x27;Zorro&#x27;" in response.content.decode()
    response = client.post(_url(ready_set, "report/"), {"game_1_winner": "a"}, follow=True)
    assert "a side needs 2 wins" in response.content.decode()
    assert not SetReport.objects.exists()


def test_log_events_take_no_reported_scores(client, ready_set) -> None:
    event = ready_set.stage.event
    event.result_policy = Event.ResultPolicy.LOG
    event.save()
    client.force_login(_user(ready_set.entrant_a))
    response = client.post(_url(ready_set, "report/"), TWO_NIL, follow=True)
    assert "takes results from verified match logs" in response.content.decode()
    assert not SetReport.objects.exists()


def test_league_scores_are_reported_inside_the_window(client, event, organizer) -> None:
    from datetime import timedelta

    from django.utils import timezone

    event.result_policy = Event.ResultPolicy.SELF_REPORT
    event.save()
    entrants_create(event, 2)
    stage = StageFactory(event=event, kind=Stage.Kind.LEAGUE,
                         starts_at=timezone.now() + timedelta(days=2))
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    client.force_login(_user(s.entrant_a))
    response = client.post(_url(s, "report/"), TWO_NIL, follow=True)
    assert "match window opens" in response.content.decode()
    assert not SetReport.objects.exists()
