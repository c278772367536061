"""The inbox, its badge, marking read, e-mails, and the four triggers."""

from __future__ import annotations

import pytest
from django.core import mail
from django.urls import reverse

from accounts.models import Profile
from matches.services import match_log_dispute, match_log_submit
from notifications.models import Notification
from tests.matches.factories import (
    PlayerFactory,
    UserFactory,
    log_bytes,
    self_play_log_text,
    side_user,
    versus_match,
)
from tests.tournaments.factories import StageFactory, entrant_create, entrants_create
from tests.tournaments.helpers import report
from tournaments.models import Set
from tournaments.services.generation import stage_generate
from tournaments.signals import waitlist_promoted

pytestmark = pytest.mark.django_db

K = Notification.Kind


def _users_told(kind: str) -> set[int]:
    return set(Notification.objects.filter(kind=kind).values_list("user_id", flat=True))


def _members(entrant) -> set[int]:
    return {m.player.user_id for m in entrant.members.all()}


def test_generating_a_bracket_tells_both_sides_of_each_ready_set(
    event, organizer, django_capture_on_commit_callbacks,
):
    entrants = entrants_create(event, 4)
    for e in entrants:
        user = e.members.get().player.user
        user.email = f"{user.username}@example.org"
        user.save()
    stage = StageFactory(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        stage_generate(stage=stage, actor=organizer)
    assert _users_told(K.SET_READY) == set().union(*(_members(e) for e in entrants))
    first = Notification.objects.filter(user=entrants[0].members.get().player.user).get()
    s = Set.objects.get(stage=stage, entrant_a=entrants[0])
    assert first.url == reverse("tournaments:set-detail", args=[event.slug, s.pk])
    assert f"against {entrants[3].name}" in first.text
    # and by e-mail, once each
    assert sorted(m.to[0] for m in mail.outbox) == sorted(
        f"{e.members.get().player.user.username}@example.org" for e in entrants)


def test_the_final_is_announced_when_its_second_side_arrives(
    event, organizer, django_capture_on_commit_callbacks,
):
    entrants = entrants_create(event, 4)
    stage = StageFactory(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        stage_generate(stage=stage, actor=organizer)
    final = Set.objects.get(stage=stage, round=2)
    subject = f"set:{final.pk}"
    semis = list(Set.objects.filter(stage=stage, round=1).order_by("position"))
    with django_capture_on_commit_callbacks(execute=True):
        report(stage, semis[0].key, "a", organizer)
    assert not Notification.objects.filter(subject=subject).exists()  # one side still unknown
    with django_capture_on_commit_callbacks(execute=True):
        report(stage, semis[1].key, "a", organizer)
    final.refresh_from_db()
    assert set(Notification.objects.filter(subject=subject).values_list("user_id", flat=True)) \
        == _members(final.entrant_a) | _members(final.entrant_b)
    assert _members(entrants[3]).isdisjoint(
        Notification.objects.filter(subject=subject).values_list("user_id", flat=True))


def test_a_set_announced_twice_is_one_notification(event, organizer,
                                                   django_capture_on_commit_callbacks):
    from tournaments.announcements import sets_ready

    entrants_create(event, 2)
    stage = StageFactory(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    sets_ready.send(sender=Set, set_ids=[s.pk])
    assert Notification.objects.filter(subject=f"set:{s.pk}").count() == 2  # one per side


def test_a_submitted_log_tells_the_opponent_not_the_submitter(django_capture_on_commit_callbacks):
    match = versus_match()
    with django_capture_on_commit_callbacks(execute=True):
        match_log_submit(match=match, submitted_by=side_user(match, 1),
                         log_bytes=log_bytes(self_play_log_text()))
    assert _users_told(K.LOG_SUBMITTED) == {side_user(match, 2).pk}
    n = Notification.objects.get(kind=K.LOG_SUBMITTED)
    assert n.url == reverse("matches:match-detail", args=[match.pk])
    assert match.sides.get(side=1).player.display_name in n.text


def test_a_dispute_tells_the_other_side_and_the_managers(django_capture_on_commit_callbacks):
    manager = UserFactory()
    match = versus_match()
    match.managers.add(manager)
    with django_capture_on_commit_callbacks(execute=True):
        match_log_submit(match=match, submitted_by=side_user(match, 1),
                         log_bytes=log_bytes(self_play_log_text()))
    with django_capture_on_commit_callbacks(execute=True):
        dispute = match_log_dispute(match=match, user=side_user(match, 2), reason="not my game")
    assert _users_told(K.DISPUTE_OPENED) == {side_user(match, 1).pk, manager.pk}
    assert Notification.objects.filter(kind=K.DISPUTE_OPENED).first().url == reverse(
        "matches:dispute-detail", args=[match.pk, dispute.pk])


def test_waitlist_promotion_tells_every_member(event):
    team = [PlayerFactory(), PlayerFactory()]
    entrant = entrant_create(event, team)
    waitlist_promoted.send(sender=type(entrant), entrant=entrant)
    assert _users_told(K.WAITLIST_PROMOTED) == {p.user_id for p in team}
    assert event.name in Notification.objects.filter(kind=K.WAITLIST_PROMOTED).first().text


def test_no_email_for_those_who_opted_out(django_capture_on_commit_callbacks, event):
    keen, quiet = PlayerFactory(), PlayerFactory()
    for p in (keen, quiet):
        p.user.email = f"{p.user.username}@example.org"
        p.user.save()
    Profile.objects.create(user=quiet.user, email_notifications=False)
    entrant = entrant_create(event, [keen, quiet])
    with django_capture_on_commit_callbacks(execute=True):
        waitlist_promoted.send(sender=type(entrant), entrant=entrant)
    assert [m.to for m in mail.outbox] == [[keen.user.email]]
    assert mail.outbox[0].subject == "[Yomi] You were moved off the waitlist"
    assert reverse("tournaments:event-detail", args=[event.slug]) in mail.outbox[0].body
    assert Notification.objects.filter(user=quiet.user).exists()  # the inbox keeps it


def _notify(user, text="Your set is ready", subject="s:1", url="/events/"):
    return Notification.objects.create(user=user, kind=K.SET_READY, text=text, url=url,
                                       subject=subject)


def test_inbox_lists_and_the_header_counts_unread(client):
    user = UserFactory()
    _notify(user, "first", "s:1")
    _notify(user, "second", "s:2")
    _notify(UserFactory(), "someone else's", "s:3")
    client.force_login(user)
    page = client.get(reverse("notifications:inbox")).content.decode()
    assert "first" in page and "second" in page and "someone else" not in page
    assert 'data-unread="2"' in page
    assert 'data-unread="2"' in client.get(reverse("home")).content.decode()


def test_opening_marks_read_and_goes_to_the_target(client):
    user = UserFactory()
    n = _notify(user, url="/events/")
    client.force_login(user)
    response = client.post(reverse("notifications:read", args=[n.pk]), {"next": "/events/"})
    assert response.status_code == 302 and response["Location"] == "/events/"
    n.refresh_from_db()
    assert n.is_read
    assert "data-unread" not in client.get(reverse("home")).content.decode()
    # never off-site
    response = client.post(reverse("notifications:read", args=[n.pk]),
                           {"next": "https://evil.example/"})
    assert response["Location"] == reverse("notifications:inbox")


def test_mark_all_read_and_nobody_reads_anothers(client):
    user, other = UserFactory(), UserFactory()
    mine = [_notify(user, subject=f"s:{i}") for i in range(3)]
    theirs = _notify(other)
    client.force_login(user)
    assert client.get(reverse("notifications:read", args=[mine[0].pk])).status_code == 405
    assert client.post(reverse("notifications:read", args=[theirs.pk])).status_code == 404
    theirs.refresh_from_db()
    assert not theirs.is_read
    client.post(reverse("notifications:read-all"))
    assert not Notification.objects.filter(user=user, read_at__isnull=True).exists()
    assert not Notification.objects.get(pk=theirs.pk).is_read


def test_inbox_needs_a_login(client):
    response = client.get(reverse("notifications:inbox"))
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_a_failing_receiver_never_fails_the_write_that_made_sets_ready(
    event, organizer, django_capture_on_commit_callbacks, monkeypatch, caplog,
):
    def broken(**kwargs):
        raise RuntimeError("inbox unavailable")

    monkeypatch.setattr("notifications.receivers.notify", broken)
    entrants_create(event, 2)
    stage = StageFactory(event=event)
    with django_capture_on_commit_callbacks(execute=True):
        stage_generate(stage=stage, actor=organizer)  # does not raise
    assert Set.objects.get(stage=stage).status == Set.Status.READY
    assert "sets_ready receiver" in caplog.text
