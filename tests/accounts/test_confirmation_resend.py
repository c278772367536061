"""A confirmation mail asked for again: a sign-up whose first mail was lost (an outage longer
than the sweep's window) or whose link expired is not stuck with its username and address
taken; the page answers the same whether an account waits for the address or not, and is
limited per address and per e-mail address asked for."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.test import Client, override_settings
from django.urls import reverse

from accounts.models import ConfirmationMail
from tests.accounts.test_accounts import SIGNUP, _link
from tests.matches.factories import UserFactory

pytestmark = pytest.mark.django_db

RESEND = reverse("accounts:confirmation-resend")
ANSWER = b"If an account waiting for its confirmation has the address"


@pytest.fixture
def waiting(client, django_capture_on_commit_callbacks):
    """A sign-up whose first mail never arrived (sent, but lost on the way)."""
    with override_settings(YOMI_SIGNUP_CONFIRM_EMAIL=True), \
            django_capture_on_commit_callbacks(execute=True):
        signed_up = client.post(reverse("accounts:signup"), SIGNUP)
    assert signed_up.status_code == 200
    assert f'href="{RESEND}"'.encode() in signed_up.content  # the page offers to send it again
    mail.outbox.clear()
    return get_user_model().objects.get(username="newcomer")


def test_a_new_link_is_mailed_and_confirms_the_waiting_account(
    client, waiting, django_capture_on_commit_callbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(RESEND, {"email": " NEWCOMER@example.org"})
    assert response.status_code == 200 and ANSWER in response.content
    assert ConfirmationMail.objects.filter(user=waiting).count() == 2
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["newcomer@example.org"]
    assert client.get(_link(mail.outbox[0])).status_code == 302
    waiting.refresh_from_db()
    assert waiting.is_active
    assert client.get(reverse("accounts:profile")).status_code == 200  # logged in


@pytest.mark.parametrize("email", ["nobody@example.org", "active@example.org"])
def test_an_unknown_or_active_address_gets_the_same_answer_and_no_mail(
    client, email, django_capture_on_commit_callbacks,
) -> None:
    UserFactory(username="active", email="active@example.org")
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(RESEND, {"email": email})
    assert response.status_code == 200 and ANSWER in response.content
    assert not ConfirmationMail.objects.exists() and mail.outbox == []


def test_an_account_that_logged_in_once_is_not_confirmed_again(client, waiting) -> None:
    # inactive after having been active: not a sign-up waiting for its first confirmation
    get_user_model().objects.filter(pk=waiting.pk).update(last_login="2026-01-01T00:00Z")
    client.post(RESEND, {"email": "newcomer@example.org"})
    assert ConfirmationMail.objects.filter(user=waiting).count() == 1


def test_a_bad_address_is_named_on_the_form(client) -> None:
    response = client.post(RESEND, {"email": "not an address"})
    assert response.status_code == 400
    assert b"Enter a valid email address." in response.content


def test_asking_again_is_limited_per_address_asked_for(waiting, settings) -> None:
    cache.clear()
    settings.YOMI_RATE_LIMITS_ENABLED = True
    settings.YOMI_RATE_LIMITS = {**settings.YOMI_RATE_LIMITS, "resend_ip": "100/h",
                                 "resend_email": "2/h"}
    try:
        answers = [Client(REMOTE_ADDR=f"10.3.0.{i}").post(RESEND, {"email": email})
                   for i, email in enumerate(["newcomer@example.org", "NEWCOMER@example.org ",
                                              "newcomer@example.org"])]
    finally:
        cache.clear()
    assert [a.status_code for a in answers] == [200, 200, 429]
    assert answers[2]["Retry-After"] and b"Too many confirmation mails" in answers[2].content
    assert b"newcomer@example.org" not in answers[2].content  # nothing said about the address
    assert ConfirmationMail.objects.filter(user=waiting).count() == 3  # the sign-up's and two
