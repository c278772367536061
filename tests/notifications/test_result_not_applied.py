"""A confirmed match whose set cannot take its result (``match_not_applied``) is told to its players
and to the event's organizers, with a mail through the outbox (issue 31): before, the change
was only a row on the set's history that nobody was pointed to."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.core import mail

from matches.models import Match
from matches.services import match_log_confirm, match_log_submit
from matches.services.results import match_result_callback_run
from notifications.models import Notification
from notifications.services import notification_emails_owed_send
from tests.matches.factories import self_play_log_won_by, side_user
from tests.tournaments.factories import StageFactory, entrants_create
from tournaments.models import Game, Set, SetResultChange, Stage
from tournaments.services.advancement import (
    GameInput,
    SetResult,
    set_result_correct,
    set_result_report,
)
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open

pytestmark = pytest.mark.django_db


def test_a_result_the_set_cannot_take_is_told_to_the_players_and_the_organizers(
    event, organizer, django_capture_on_commit_callbacks,
) -> None:
    event.best_of = 1
    event.save(update_fields=["best_of"])
    e = entrants_create(event, 4)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    w11, w12 = (Set.objects.get(stage=stage, key=k) for k in ("W1-1", "W1-2"))
    for s in (w11, w12):  # seeds 1 and 2 reach the final
        set_result_report(set=s, actor=organizer, result=SetResult(games=[GameInput("a")]))
    final = Set.objects.get(stage=stage, key="W2-1")
    match = set_match_open(set=final, actor=organizer)
    players = {side_user(match, 1), side_user(match, 2)}
    for i, user in enumerate([*players, organizer]):
        user.email = f"told-{i}@example.org"
        user.save(update_fields=["email"])
    # the finalists confirm their game; its callback has not run yet when the organizer
    # corrects W1-1 (seed 4 won it): the final's entrants are no longer the match's players
    with django_capture_on_commit_callbacks(execute=True):
        match_log_submit(match=match, submitted_by=side_user(match, 1),
                         log_bytes=self_play_log_won_by("P1").encode())
    with django_capture_on_commit_callbacks(execute=False):
        match_log_confirm(match=match, user=side_user(match, 2))
    assert Match.objects.get(pk=match.pk).status == Match.Status.CONFIRMED
    set_result_correct(set=w11, actor=organizer, result=SetResult(games=[GameInput("b")]),
                       reason="score sheet misread", confirm=True)
    mail.outbox.clear()
    with django_capture_on_commit_callbacks(execute=True):
        assert match_result_callback_run(match_id=match.pk) is True
    assert not Game.objects.filter(set=final).exists()
    change = SetResultChange.objects.get(set=final, action="match_not_applied")

    told = Notification.objects.filter(kind=Notification.Kind.RESULT_NOT_APPLIED,
                                       subject=f"set-change:{change.pk}")
    assert {n.user_id for n in told} == {u.pk for u in players} | {organizer.pk}
    assert not told.filter(user__in=[m.player.user for m in e[3].members.all()]).exists()
    for n in told:
        assert "was not credited" in n.text and change.reason in n.text
        assert n.url == f"/events/{event.slug}/sets/{final.pk}/"
    assert "Decide the set" in told.get(user=organizer).text
    assert "organizers were told" in told.get(user=side_user(match, 1)).text
    # the mails went through the outbox, once each
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        u.email for u in [*players, organizer])
    assert all(n.emailed_at is not None for n in told)
    assert notification_emails_owed_send(older_than=timedelta(0)) == []
