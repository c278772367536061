"""Sign-up confirmation mails go through the outbox (issue 31), as password-reset mails do: the
mail is owed in the database with the new account and sent by the workers after the commit, so
a broker or mail-server outage never undoes the sign-up nor turns it into an error page; the
page says the mail is on its way, and the sweep sends it once the outage is over, once."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import override_settings
from django.urls import reverse
from django.utils import timezone

from accounts.models import ConfirmationMail
from accounts.services import confirmation_mail_send, confirmation_mails_owed_send
from matches.models import Player
from tests.accounts.test_accounts import SIGNUP, _link
from tests.accounts.test_password_reset_outbox import _mail_server_down
from tests.matches.factories import UserFactory
from tests.support.faults import broker_unreachable
from yomi_site.celery import app

pytestmark = [pytest.mark.faults, pytest.mark.django_db,
              pytest.mark.usefixtures("confirmation_on")]

ON_ITS_WAY = b"is on its way to <strong>newcomer@example.org</strong>"


@pytest.fixture
def confirmation_on():
    with override_settings(YOMI_SIGNUP_CONFIRM_EMAIL=True):
        yield


def _confirms(client, message: mail.EmailMessage) -> None:
    assert message.to == ["newcomer@example.org"]
    assert message.subject == "Confirm your Yomi tournaments account"
    assert client.get(_link(message)).status_code == 302
    assert get_user_model().objects.get(username="newcomer").is_active
    assert client.get(reverse("accounts:profile")).status_code == 200  # signed in


def test_a_sign_up_during_a_broker_outage_answers_the_page_and_is_mailed_later(
    client, django_capture_on_commit_callbacks,
) -> None:
    eager = app.conf.task_always_eager
    app.conf.task_always_eager = False  # tasks go to the broker, as in production
    try:
        with broker_unreachable(app), django_capture_on_commit_callbacks(execute=True):
            response = client.post(reverse("accounts:signup"), SIGNUP)
    finally:
        app.conf.task_always_eager = eager
    assert response.status_code == 200 and ON_ITS_WAY in response.content
    user = get_user_model().objects.get(username="newcomer")
    assert not user.is_active and Player.objects.filter(user=user).exists()
    owed = ConfirmationMail.objects.get(user=user)
    assert owed.sent_at is None and owed.site_url == "http://testserver/" and mail.outbox == []
    # the broker is back: the sweep sends it, once, with a link that works
    assert confirmation_mails_owed_send(older_than=timedelta(0)) == [owed.pk]
    assert len(mail.outbox) == 1
    assert confirmation_mails_owed_send(older_than=timedelta(0)) == []
    assert len(mail.outbox) == 1
    _confirms(client, mail.outbox[0])


def test_a_mail_server_down_is_no_error_either_and_the_mail_is_sent_when_it_is_back(
    client, monkeypatch, django_capture_on_commit_callbacks,
) -> None:
    with monkeypatch.context() as patched:
        _mail_server_down(patched)
        with django_capture_on_commit_callbacks(execute=True):
            response = client.post(reverse("accounts:signup"), SIGNUP)
    # the sign-up stands (it used to be undone with a 503 page)
    assert response.status_code == 200 and ON_ITS_WAY in response.content
    owed = ConfirmationMail.objects.get(user__username="newcomer")
    assert owed.sent_at is None and mail.outbox == []
    confirmation_mails_owed_send(older_than=timedelta(0))
    owed.refresh_from_db()
    assert owed.sent_at is not None and len(mail.outbox) == 1
    _confirms(client, mail.outbox[0])


def test_a_confirmed_account_is_not_mailed_again(client, django_capture_on_commit_callbacks,
                                                 ) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        client.post(reverse("accounts:signup"), SIGNUP)
    _confirms(client, mail.outbox[0])
    owed = ConfirmationMail.objects.get()
    # a second task for the same row (a retry after the send went out) sends nothing
    assert confirmation_mail_send(mail_id=owed.pk) is False
    # a row still owed for an account confirmed meanwhile is neither swept nor sent
    ConfirmationMail.objects.filter(pk=owed.pk).update(sent_at=None)
    assert confirmation_mails_owed_send(older_than=timedelta(0)) == []
    assert confirmation_mail_send(mail_id=owed.pk) is False
    assert len(mail.outbox) == 1


def test_the_sweep_drops_mails_owed_too_long_and_forgets_old_rows() -> None:
    user = UserFactory(username="newcomer", email="newcomer@example.org", is_active=False)
    stale = ConfirmationMail.objects.create(user=user, site_url="http://testserver/")
    old = ConfirmationMail.objects.create(user=user, site_url="http://testserver/")
    ConfirmationMail.objects.filter(pk=stale.pk).update(
        created_at=timezone.now() - timedelta(days=3))
    ConfirmationMail.objects.filter(pk=old.pk).update(
        created_at=timezone.now() - timedelta(days=8))
    assert confirmation_mails_owed_send(older_than=timedelta(0)) == []
    assert confirmation_mail_send(mail_id=stale.pk) is False
    assert mail.outbox == []
    assert list(ConfirmationMail.objects.values_list("pk", flat=True)) == [stale.pk]
