"""Every step that waits on someone tells them, in the inbox and by mail, with links on the
site's configured address (issue 35, part 3): a reported score, a disputed score, a team
invitation, a refused log, a changed verdict (a ready set: test_notifications.py)."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from matches.models import Match, VerdictChange, VerificationRun
from matches.services import match_log_submit
from notifications.models import Notification
from tests.matches.factories import PlayerFactory, UserFactory, with_extra_event
from tests.stats.helpers import log_won_by
from tests.tournaments.factories import EventFactory, StageFactory, entrants_create
from tournaments.models import Event, Set, Stage
from tournaments.services.advancement import GameInput, SetResult
from tournaments.services.generation import stage_generate
from tournaments.services.registration import entrant_register
from tournaments.services.self_reports import set_report_dispute, set_report_submit
from tournaments.services.set_matches import set_match_open

pytestmark = pytest.mark.django_db

K = Notification.Kind
SITE = "https://yomi.example.org"


def _told(kind: str) -> set[int]:
    return set(Notification.objects.filter(kind=kind).values_list("user_id", flat=True))


def _user(entrant):
    return entrant.members.get().player.user


def _ready_set(**event_fields) -> Set:
    organizer = UserFactory(email="org@example.org")
    event = EventFactory(organizers=[organizer], best_of=1, **event_fields)
    for e in entrants_create(event, 2):
        user = _user(e)
        user.email = f"{user.username}@example.org"
        user.save()
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    return Set.objects.select_related("stage__event").get(stage=stage)


def _set_url(s: Set) -> str:
    return reverse("tournaments:set-detail", args=[s.stage.event.slug, s.pk])


def test_a_reported_score_tells_the_opponent_and_a_dispute_tells_reporter_and_organizers(
        settings, django_capture_on_commit_callbacks) -> None:
    settings.YOMI_SITE_URL = SITE
    s = _ready_set(result_policy=Event.ResultPolicy.SELF_REPORT,
                   character_rule=Event.CharacterRule.FREE)
    a, b = _user(s.entrant_a), _user(s.entrant_b)
    organizer = s.stage.event.organizers.get()
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        report = set_report_submit(set=s, actor=a, result=SetResult(
            games=[GameInput("a", ["Grave"], ["Jaina"])]))
    assert _told(K.SCORE_REPORTED) == {b.pk}
    told = Notification.objects.get(kind=K.SCORE_REPORTED)
    assert told.url == _set_url(s) and "confirm it or dispute it" in told.text
    assert [m.to for m in mail.outbox] == [[b.email]]
    assert f"{SITE}{_set_url(s)}" in mail.outbox[0].body
    with django_capture_on_commit_callbacks(execute=True):
        set_report_dispute(report=report, actor=b, reason="I won that game")
    assert _told(K.SCORE_DISPUTED) == {a.pk, organizer.pk}
    assert "I won that game" in Notification.objects.filter(kind=K.SCORE_DISPUTED).first().text


def test_a_team_invitation_tells_the_invited_teammate(django_capture_on_commit_callbacks) -> None:
    event = EventFactory(organizers=[UserFactory()], mode=Event.Mode.TAG_TEAM)
    me, mate = PlayerFactory(), PlayerFactory()
    with django_capture_on_commit_callbacks(execute=True):
        entrant_register(event=event, actor=me.user, players=[me, mate], name="Pair")
    assert _told(K.TEAM_INVITATION) == {mate.user_id}
    told = Notification.objects.get(kind=K.TEAM_INVITATION)
    assert told.url == reverse("tournaments:event-detail", args=[event.slug])
    assert "Pair" in told.text and "accept or decline" in told.text


def test_a_refused_log_tells_both_players_and_the_organizer(
        settings, django_capture_on_commit_callbacks) -> None:
    settings.YOMI_SITE_URL = SITE
    s = _ready_set()
    organizer = s.stage.event.organizers.get()
    match = set_match_open(set=s, actor=organizer)
    a = match.sides.get(side=1).player
    b = match.sides.get(side=2).player
    illegal = with_extra_event(log_won_by("P1", "grave", "jaina"))
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):  # verified in-process on commit
        match_log_submit(match=match, submitted_by=a.user, log_bytes=illegal.encode())
    assert VerificationRun.objects.get(log__match=match).status == "illegal"
    assert Match.objects.get(pk=match.pk).status == Match.Status.AWAITING_LOG
    assert _told(K.LOG_REFUSED) == {a.user_id, b.user_id, organizer.pk}
    told = Notification.objects.filter(kind=K.LOG_REFUSED).first()
    assert told.url == _set_url(s)
    assert "the log was refused" in told.text and "END-2" in told.text


def test_a_changed_verdict_tells_the_players_and_sends_the_organizers_to_review_it(
        django_capture_on_commit_callbacks) -> None:
    s = _ready_set()
    organizer = s.stage.event.organizers.get()
    match = set_match_open(set=s, actor=organizer)
    a = match.sides.get(side=1).player
    with django_capture_on_commit_callbacks(execute=True):
        outcome = match_log_submit(match=match, submitted_by=a.user,
                                   log_bytes=log_won_by("P1", "grave", "jaina").encode())
    VerdictChange.objects.create(
        match=match, log=outcome.log, run=outcome.run,
        before={"status": "legal", "winner": "P1"},
        after={"status": "illegal", "winner": None, "summary": "Illegal at event 3"})
    players = {side.player.user_id for side in match.sides.all()}
    assert _told(K.VERDICT_CHANGED) == players | {organizer.pk}
    review = Notification.objects.get(kind=K.VERDICT_CHANGED, user=organizer)
    assert review.url == reverse("matches:verdict-changes") and "Review it" in review.text
    assert "Illegal at event 3" in review.text


def test_a_disputed_log_of_an_events_match_tells_its_organizers(
        django_capture_on_commit_callbacks) -> None:
    """The organizer's inbox promised "when a dispute opens": an event's match has no managers
    of its own (its organizers are asked at each action), so they were never told."""
    from matches.services import match_log_dispute

    s = _ready_set()
    organizer = s.stage.event.organizers.get()
    match = set_match_open(set=s, actor=organizer)
    a = match.sides.get(side=1).player
    b = match.sides.get(side=2).player
    with django_capture_on_commit_callbacks(execute=True):
        match_log_submit(match=match, submitted_by=a.user,
                         log_bytes=log_won_by("P1", "grave", "jaina").encode())
    match_log_dispute(match=match, user=b.user, reason="not our game")
    assert _told(K.DISPUTE_OPENED) == {a.user_id, organizer.pk}
