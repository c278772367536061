"""Organizer pages: create and edit an event, stages, co-organizers, entrants, disqualify."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import (
    EventFactory,
    PlayerFactory,
    StageFactory,
    UserFactory,
    entrant_create,
    entrants_create,
)
from tournaments.models import Entrant, Event, Set, SetResultChange, Stage
from tournaments.services.generation import stage_generate
from tournaments.signals import waitlist_promoted

pytestmark = pytest.mark.django_db

EVENT_POST = {
    "name": "Friday Night Yomi", "description": "", "mode": "versus", "best_of": "3",
    "top_rounds": "1", "top_best_of": "5", "grand_final_best_of": "5",
    "character_rule": "winner_locked", "result_policy": "log", "max_entrants": "8",
    "check_in_opens_at": "", "check_in_closes_at": "", "starts_at": "",
}


def test_a_user_creates_a_draft_event_and_organizes_it(client, player) -> None:
    client.force_login(player.user)
    response = client.post("/events/new/", EVENT_POST)
    event = Event.objects.get(name="Friday Night Yomi")
    assert response.status_code == 302
    assert response["Location"] == f"/events/{event.slug}/edit/"
    assert event.status == Event.Status.DRAFT
    assert (event.best_of, event.top_rounds, event.top_best_of, event.max_entrants) == (3, 1, 5, 8)
    assert list(event.organizers.all()) == [player.user]


def test_an_event_may_take_self_reported_scores(client, player) -> None:
    client.force_login(player.user)
    client.post("/events/new/", {**EVENT_POST, "result_policy": "self_report"})
    assert Event.objects.get().result_policy == Event.ResultPolicy.SELF_REPORT


def test_bad_settings_are_form_errors_not_500s(client, player) -> None:
    client.force_login(player.user)
    response = client.post("/events/new/", {**EVENT_POST, "best_of": "4"})
    assert response.status_code == 400
    assert "best of 4: use an odd number from 1 to 15" in response.content.decode()
    response = client.post("/events/new/", {
        **EVENT_POST, "check_in_opens_at": "2030-01-02T10:00",
        "check_in_closes_at": "2030-01-02T09:00",
    })
    assert response.status_code == 400
    assert "check-in must close after it opens" in response.content.decode()
    assert not Event.objects.exists()


def test_anonymous_cannot_create(client) -> None:
    response = client.post("/events/new/", EVENT_POST)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    assert not Event.objects.exists()


def test_edit_until_a_stage_starts(client, event, organizer) -> None:
    client.force_login(organizer)
    response = client.post(f"/events/{event.slug}/edit/", {**EVENT_POST, "name": "Renamed"})
    assert response.status_code == 302
    event.refresh_from_db()
    assert event.name == "Renamed"
    entrants_create(event, 2)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    response = client.post(f"/events/{event.slug}/edit/", {**EVENT_POST, "best_of": "5"})
    assert response.status_code == 400
    assert "its settings can no longer change" in response.content.decode()
    event.refresh_from_db()
    assert event.best_of == 3


def test_only_organizers_edit(client, event, player) -> None:
    client.force_login(player.user)
    assert client.get(f"/events/{event.slug}/edit/").status_code == 403
    assert client.post(f"/events/{event.slug}/edit/", EVENT_POST).status_code == 403
    assert client.post(f"/events/{event.slug}/stages/new/",
                       {"name": "X", "kind": "swiss"}).status_code == 403
    assert client.get(f"/events/{event.slug}/entrants/").status_code == 403


def test_groups_then_playoffs(client, event, organizer) -> None:
    client.force_login(organizer)
    base = {"group_count": "1", "round_days": "7", "advance_count": "", "swiss_rounds": "",
            "starts_at": ""}
    client.post(f"/events/{event.slug}/stages/new/", {
        **base, "name": "Groups", "kind": "round_robin", "group_count": "2",
        "advance_count": "2"})
    client.post(f"/events/{event.slug}/stages/new/", {
        **base, "name": "Playoffs", "kind": "double_elimination", "grand_final_reset": "on"})
    stages = list(event.stages.order_by("order"))
    assert [(s.name, s.kind, s.order, s.group_count, s.advance_count) for s in stages] == [
        ("Groups", "round_robin", 1, 2, 2), ("Playoffs", "double_elimination", 2, 1, None)]
    response = client.post(f"/events/{event.slug}/stages/new/", {
        **base, "name": "Season", "kind": "league"})
    assert response.status_code == 400
    assert "a league season needs a start date" in response.content.decode()


def test_co_organizer(client, event, organizer) -> None:
    friend = UserFactory(username="friend")
    client.force_login(organizer)
    client.post(f"/events/{event.slug}/organizers/", {"username": "friend"})
    assert event.is_organizer(friend)
    response = client.post(f"/events/{event.slug}/organizers/", {"username": "nobody"},
                           follow=True)
    assert "no user called nobody" in response.content.decode()


def test_organizer_adds_an_entrant_past_the_cap_to_the_waitlist(client, event, organizer):
    event.max_entrants = 2
    event.save()
    entrants_create(event, 2)
    newcomer = PlayerFactory(display_name="Newcomer")
    client.force_login(organizer)
    response = client.post(f"/events/{event.slug}/entrants/", {"players": "Newcomer"})
    assert response.status_code == 302
    assert Entrant.objects.get(members__player=newcomer).status == Entrant.Status.WAITLISTED
    response = client.post(f"/events/{event.slug}/entrants/", {"players": "Ghost"})
    assert response.status_code == 400
    assert "no player called Ghost" in response.content.decode()


def test_withdrawal_promotes_the_waitlist_and_signals_it(
    client, event, organizer, django_capture_on_commit_callbacks
) -> None:
    event.max_entrants = 1
    event.save()
    first = entrant_create(event)
    waiting = entrant_create(event, status=Entrant.Status.WAITLISTED)
    heard = []

    def receiver(sender, entrant, **kwargs):
        heard.append(entrant.pk)

    waitlist_promoted.connect(receiver)
    try:
        client.force_login(first.members.get().player.user)
        with django_capture_on_commit_callbacks(execute=True):
            client.post(f"/events/{event.slug}/entrants/{first.pk}/withdraw/")
    finally:
        waitlist_promoted.disconnect(receiver)
    waiting.refresh_from_db()
    assert waiting.status == Entrant.Status.REGISTERED
    assert heard == [waiting.pk]


def test_raising_the_cap_promotes(client, event, organizer) -> None:
    event.max_entrants = 2
    event.save()
    entrants_create(event, 2)
    waiting = entrant_create(event, status=Entrant.Status.WAITLISTED)
    client.force_login(organizer)
    response = client.post(f"/events/{event.slug}/capacity/", {"max_entrants": "3"}, follow=True)
    assert f"Moved off the waitlist: {waiting.name}" in response.content.decode()
    response = client.post(f"/events/{event.slug}/capacity/", {"max_entrants": "x"}, follow=True)
    assert "the cap is a whole number" in response.content.decode()


def test_organizer_checks_anyone_in(client, event, organizer) -> None:
    (entrant,) = entrants_create(event, 1)
    event.status = Event.Status.CHECK_IN
    event.save()
    client.force_login(organizer)
    page = client.get(f"/events/{event.slug}/entrants/").content.decode()
    assert f"Check in {entrant.name}" in page
    client.post(f"/events/{event.slug}/entrants/{entrant.pk}/check-in/")
    entrant.refresh_from_db()
    assert entrant.is_checked_in


def test_disqualify_shows_the_sets_then_confirms(client, event, organizer) -> None:
    entrants_create(event, 4)
    stage = StageFactory(event=event, kind=Stage.Kind.DOUBLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    first = Set.objects.get(stage=stage, key="W1-1")
    cheat = first.entrant_a
    client.force_login(organizer)
    url = f"/events/{event.slug}/entrants/{cheat.pk}/disqualify/"
    page = client.post(url, {"reason": "collusion"}).content.decode()
    assert "Confirm the disqualification" in page
    assert f"{first.key}" in page
    cheat.refresh_from_db()
    assert cheat.status == Entrant.Status.REGISTERED  # nothing written by the preview
    response = client.post(url, {"reason": "collusion", "confirm": "1"})
    assert response.status_code == 302
    cheat.refresh_from_db()
    first.refresh_from_db()
    assert cheat.status == Entrant.Status.DISQUALIFIED
    assert first.outcome == Set.Outcome.DISQUALIFICATION and first.winner_id == first.entrant_b_id
    assert SetResultChange.objects.filter(set=first, action="disqualify",
                                          reason="collusion").exists()


def test_players_cannot_disqualify(client, event, organizer) -> None:
    a, b = entrants_create(event, 2)
    client.force_login(b.members.get().player.user)
    url = f"/events/{event.slug}/entrants/{a.pk}/disqualify/"
    assert client.post(url, {"reason": "x", "confirm": "1"}).status_code == 403
    a.refresh_from_db()
    assert a.status == Entrant.Status.REGISTERED


def test_draft_is_hidden_from_others(client, player) -> None:
    draft = EventFactory(status=Event.Status.DRAFT)
    client.force_login(player.user)
    assert client.get(f"/events/{draft.slug}/edit/").status_code == 404


def _bracket(event, organizer, n=4, kind=Stage.Kind.SINGLE_ELIMINATION) -> Stage:
    entrants_create(event, n)
    stage = StageFactory(event=event, kind=kind)
    stage_generate(stage=stage, actor=organizer)
    return stage


def test_reopen_a_set_clears_it_and_the_sets_it_fed(client, event, organizer) -> None:
    from tests.tournaments.helpers import report

    stage = _bracket(event, organizer)
    w11 = report(stage, "W1-1", "a", organizer)
    report(stage, "W1-2", "a", organizer)
    final = report(stage, "W2-1", "a", organizer)
    assert final.status == Set.Status.FINISHED
    client.force_login(organizer)
    url = f"/events/{event.slug}/sets/{w11.pk}/reopen/"
    page = client.post(url, {"reason": "wrong winner reported"}).content.decode()
    assert "Confirm: reopen the set" in page
    assert "its result 2\u20130 is cleared" in page
    w11.refresh_from_db()
    assert w11.status == Set.Status.FINISHED  # the preview writes nothing
    response = client.post(url, {"reason": "wrong winner reported", "confirm": "1"})
    assert response.status_code == 302
    w11.refresh_from_db()
    final.refresh_from_db()
    stage.refresh_from_db()
    assert (w11.status, w11.score_a, w11.winner_id, w11.games.count()) == (
        Set.Status.READY, 0, None, 0)
    assert final.status == Set.Status.WAITING and final.entrant_a_id is None
    assert final.entrant_b_id is not None  # the other semifinal's winner stays
    assert stage.status == Stage.Status.RUNNING
    assert SetResultChange.objects.filter(set=w11, action="reopen").exists()


def test_reopen_refuses_a_set_that_is_not_finished_or_a_player(client, event, organizer) -> None:
    stage = _bracket(event, organizer)
    ready = Set.objects.get(stage=stage, key="W1-1")
    client.force_login(organizer)
    response = client.post(f"/events/{event.slug}/sets/{ready.pk}/reopen/",
                           {"reason": "x", "confirm": "1"}, follow=True)
    assert "is not finished: nothing to reopen" in response.content.decode()
    client.force_login(ready.entrant_a.members.get().player.user)
    assert client.post(f"/events/{event.slug}/sets/{ready.pk}/reopen/",
                       {"reason": "x", "confirm": "1"}).status_code == 403


def test_league_window_is_enforced_for_players(client, event, organizer) -> None:
    from datetime import timedelta

    from django.utils import timezone

    from tournaments.errors import TournamentError
    from tournaments.services.set_matches import set_match_open

    entrants_create(event, 2)
    stage = StageFactory(event=event, kind=Stage.Kind.LEAGUE,
                         starts_at=timezone.now() + timedelta(days=1), round_days=7)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    player = s.entrant_a.members.get().player.user
    client.force_login(player)
    response = client.post(f"/events/{event.slug}/sets/{s.pk}/match/", follow=True)
    assert "match window opens" in response.content.decode()
    assert not s.set_matches.exists()
    # after the window: players are refused, an organizer may still start the game
    Set.objects.filter(pk=s.pk).update(
        window_opens_at=timezone.now() - timedelta(days=8),
        window_closes_at=timezone.now() - timedelta(days=1))
    s.refresh_from_db()
    with pytest.raises(TournamentError, match="match window closed"):
        set_match_open(set=s, actor=player)
    assert set_match_open(set=s, actor=organizer) is not None


def test_open_disputes_are_listed_for_organizers_only(client, event, organizer) -> None:
    from matches.models import Dispute, MatchLog
    from tournaments.services.set_matches import set_match_open

    stage = _bracket(event, organizer)
    s = Set.objects.get(stage=stage, key="W1-1")
    match = set_match_open(set=s, actor=organizer)
    log = MatchLog.objects.create(match=match, text="x", sha256="0" * 64, size_bytes=1,
                                  submitted_by=organizer)
    dispute = Dispute.objects.create(match=match, log_a=log, reason="he misclicked")
    client.force_login(organizer)
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert f"/matches/{match.pk}/disputes/{dispute.pk}/" in page
    assert "he misclicked" in page
    client.force_login(s.entrant_a.members.get().player.user)
    assert "he misclicked" not in client.get(f"/events/{event.slug}/").content.decode()


def test_manual_report_refuses_made_up_characters(client, event, organizer) -> None:
    stage = _bracket(event, organizer)
    s = Set.objects.get(stage=stage, key="W1-1")
    client.force_login(organizer)
    url = f"/events/{event.slug}/sets/{s.pk}/"
    response = client.post(url, {"game_1_winner": "a", "game_1_a": "Grave", "game_1_b": "Bob",
                                 "game_2_winner": "a", "game_2_a": "Grave",
                                 "game_2_b": "Jaina"}, follow=True)
    assert "game 1, side B: there is no character called &#x27;Bob&#x27;" in (
        response.content.decode())
    s.refresh_from_db()
    assert s.status == Set.Status.READY
    # any case is accepted and stored as the character's name
    client.post(url, {"game_1_winner": "a", "game_1_a": "grave", "game_1_b": "JAINA",
                      "game_2_winner": "a", "game_2_a": "Grave", "game_2_b": "jaina"})
    s.refresh_from_db()
    assert s.status == Set.Status.FINISHED
    assert [(g.characters_a, g.characters_b) for g in s.games.all()] == [
        (["Grave"], ["Jaina"]), (["Grave"], ["Jaina"])]


def test_api_report_refuses_made_up_characters(client, event, organizer) -> None:
    stage = _bracket(event, organizer)
    s = Set.objects.get(stage=stage, key="W1-1")
    client.force_login(organizer)
    response = client.post(f"/api/sets/{s.pk}/report/", {"games": [
        {"winner_side": "a", "characters_a": ["Gravey"], "characters_b": ["Jaina"]},
        {"winner_side": "a", "characters_a": ["Grave"], "characters_b": ["Jaina"]},
    ]}, content_type="application/json")
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "result_invalid" and (body["game"], body["side"]) == (1, "a")
    assert "no character called 'Gravey'" in body["message"]


def test_triple_threat_lineup_names_real_characters(client, event) -> None:
    event.mode = Event.Mode.TRIPLE_THREAT
    event.save()
    me = PlayerFactory()
    client.force_login(me.user)
    response = client.post(f"/events/{event.slug}/register/",
                           {"lineup": "Grave, Jaina, Gandalf"}, follow=True)
    assert "there is no character called &#x27;Gandalf&#x27;" in response.content.decode()
    assert not Entrant.objects.filter(members__player=me).exists()
    client.post(f"/events/{event.slug}/register/", {"lineup": "grave, jaina, rook"})
    assert Entrant.objects.get(members__player=me).lineup == ["Grave", "Jaina", "Rook"]


def test_a_team_registers_with_its_characters(client, event) -> None:
    event.mode = Event.Mode.TAG_TEAM
    event.save()
    me, mate = PlayerFactory(), PlayerFactory(display_name="Mate")
    client.force_login(me.user)
    page = client.get(f"/events/{event.slug}/").content.decode()
    assert 'name="characters"' in page
    response = client.post(f"/events/{event.slug}/register/", {
        "name": "Duo", "teammates": "Mate", "characters": "Grave, Nobody"}, follow=True)
    assert "there is no character called &#x27;Nobody&#x27;" in response.content.decode()
    client.post(f"/events/{event.slug}/register/", {
        "name": "Duo", "teammates": "Mate", "characters": "grave, midori"})
    entrant = Entrant.objects.get(name="Duo")
    assert [(m.player, m.character) for m in entrant.members.order_by("order")] == [
        (me, "Grave"), (mate, "Midori")]


def test_versus_declares_no_characters(client, event, player) -> None:
    client.force_login(player.user)
    assert 'name="characters"' not in client.get(f"/events/{event.slug}/").content.decode()
