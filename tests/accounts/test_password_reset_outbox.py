"""Password-reset mails go through the outbox (issue 31): the mail is owed in the database and
sent by the workers after the commit, so a broker or mail-server outage never turns the request
into a 500, and the sweep sends the mail once the outage is over, once."""

from __future__ import annotations

import smtplib
from datetime import timedelta

import pytest
from django.core import mail
from django.urls import reverse
from django.utils import timezone

from accounts.models import PasswordResetMail
from accounts.services import password_reset_mails_owed_send
from tests.accounts.test_accounts import _link
from tests.matches.factories import UserFactory
from tests.support.faults import broker_unreachable
from yomi_site.celery import app

pytestmark = [pytest.mark.faults, pytest.mark.django_db]


def _mail_server_down(monkeypatch) -> None:
    def down(*args, **kwargs):
        raise smtplib.SMTPServerDisconnected("Connection unexpectedly closed")

    monkeypatch.setattr("django.core.mail.backends.locmem.EmailBackend.send_messages", down)


def _sets_a_new_password(client, message: mail.EmailMessage) -> None:
    response = client.get(_link(message), follow=True)
    assert b"Choose a new password" in response.content
    response = client.post(response.redirect_chain[-1][0], {
        "new_password1": "another-long-passphrase", "new_password2": "another-long-passphrase",
    })
    assert response.status_code == 302


def test_a_reset_during_a_broker_outage_answers_the_page_and_is_mailed_later(
    client, django_capture_on_commit_callbacks,
) -> None:
    user = UserFactory(username="forgetful", email="forgetful@example.org")
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False  # tasks go to the broker, as in production
    try:
        with broker_unreachable(app), django_capture_on_commit_callbacks(execute=True):
            response = client.post(reverse("password_reset"),
                                   {"email": "Forgetful@example.org"}, follow=True)
    finally:
        app.conf.task_always_eager = eager
    assert response.status_code == 200
    # the page says what happened: queued, not "sent"
    assert b"queued" in response.content and b"as soon as it is back" in response.content
    owed = PasswordResetMail.objects.get(user=user)
    assert owed.sent_at is None and mail.outbox == []
    # the broker is back: the sweep sends it, once, with a link that works
    assert password_reset_mails_owed_send(older_than=timedelta(0)) == [owed.pk]
    assert [m.to for m in mail.outbox] == [["forgetful@example.org"]]
    assert mail.outbox[0].subject == "Reset your Yomi tournaments password"
    assert password_reset_mails_owed_send(older_than=timedelta(0)) == []
    assert len(mail.outbox) == 1
    _sets_a_new_password(client, mail.outbox[0])
    assert client.login(username="forgetful", password="another-long-passphrase")


def test_a_mail_server_down_is_no_error_either_and_the_mail_is_sent_when_it_is_back(
    client, monkeypatch, django_capture_on_commit_callbacks,
) -> None:
    user = UserFactory(username="forgetful", email="forgetful@example.org")
    with monkeypatch.context() as patched:
        _mail_server_down(patched)
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(reverse("password_reset"),
                                   {"email": "forgetful@example.org"})
    assert response.status_code == 302
    assert response["Location"] == reverse("password_reset_done")
    owed = PasswordResetMail.objects.get(user=user)
    assert owed.sent_at is None
    password_reset_mails_owed_send(older_than=timedelta(0))
    owed.refresh_from_db()
    assert owed.sent_at is not None and [m.to for m in mail.outbox] == [[user.email]]


def test_an_unknown_address_owes_nothing_and_is_answered_the_same(
    client, django_capture_on_commit_callbacks,
) -> None:
    UserFactory(username="forgetful", email="forgetful@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        known = client.post(reverse("password_reset"), {"email": "forgetful@example.org"})
        unknown = client.post(reverse("password_reset"), {"email": "nobody@example.org"})
    assert (known.status_code, known["Location"]) == (unknown.status_code, unknown["Location"])
    assert PasswordResetMail.objects.count() == 1 and len(mail.outbox) == 1


def test_the_sweep_drops_mails_owed_too_long_and_forgets_old_rows() -> None:
    user = UserFactory(username="forgetful", email="forgetful@example.org")
    stale = PasswordResetMail.objects.create(user=user, domain="testserver", use_https=False)
    old = PasswordResetMail.objects.create(user=user, domain="testserver", use_https=False)
    PasswordResetMail.objects.filter(pk=stale.pk).update(
        created_at=timezone.now() - timedelta(hours=2))
    PasswordResetMail.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(days=2))
    assert password_reset_mails_owed_send(older_than=timedelta(0)) == []
    assert mail.outbox == []
    assert list(PasswordResetMail.objects.values_list("pk", flat=True)) == [stale.pk]
