"""Notification mails go through the outbox (issue 31, item 7): a broker outage after the commit
never turns the stored submission into a 500, and the sweep sends the mail once it is back."""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
from django.core import mail
from rest_framework.test import APIClient

from matches.models import MatchLog
from notifications.models import Notification
from notifications.services import notification_emails_owed_send
from tests.matches.factories import self_play_log_text, side_user, versus_match
from tests.support.faults import broker_unreachable
from yomi_site.celery import app

pytestmark = [pytest.mark.faults, pytest.mark.django_db]


def _with_addresses(match):
    for side in (1, 2):
        user = side_user(match, side)
        user.email = f"side{side}-{match.pk}@example.org"
        user.save(update_fields=["email"])


def test_a_submission_during_a_broker_outage_is_stored_answered_201_and_mailed_later(
    django_capture_on_commit_callbacks,
) -> None:
    match = versus_match()
    _with_addresses(match)
    client = APIClient()
    client.force_authenticate(side_user(match, 1))
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False  # tasks go to the broker, as in production
    try:
        with broker_unreachable(app), django_capture_on_commit_callbacks(execute=True):
            response = client.post(f"/api/matches/{match.pk}/logs/",
                                   {"log_text": self_play_log_text()}, format="json")
    finally:
        app.conf.task_always_eager = eager
    assert response.status_code == 201, response.content
    assert MatchLog.objects.filter(match=match).exists()
    told = Notification.objects.get(user=side_user(match, 2))
    assert told.emailed_at is None and mail.outbox == []
    # the broker is back: the sweep sends the owed mail, once
    assert notification_emails_owed_send(older_than=timedelta(0)) == [told.pk]
    assert [m.to for m in mail.outbox] == [[side_user(match, 2).email]]
    assert notification_emails_owed_send(older_than=timedelta(0)) == []
    assert len(mail.outbox) == 1


def test_a_mail_server_down_with_in_process_tasks_is_no_error_either(
    monkeypatch, django_capture_on_commit_callbacks,
) -> None:
    match = versus_match()
    _with_addresses(match)

    def down(*args, **kwargs):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")

    monkeypatch.setattr("notifications.services.send_mail", down)
    client = APIClient()
    client.force_authenticate(side_user(match, 1))
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/matches/{match.pk}/logs/",
                               {"log_text": self_play_log_text()}, format="json")
    assert response.status_code == 201, response.content
    assert Notification.objects.get(user=side_user(match, 2)).emailed_at is None
