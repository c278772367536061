"""The limits' holes (issue 31, item 5): the per-username login limit counts every spelling that
signs in as the same user; password resets are limited; one address holds one account; the
sign-up page over its limit says nothing about the username sent."""

from __future__ import annotations

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.core.cache import cache
from django.core.exceptions import ValidationError
from django.test import Client

from accounts.models import PasswordResetMail
from accounts.services import user_sign_up
from tests.matches.factories import UserFactory

pytestmark = pytest.mark.django_db


@pytest.fixture
def limits(settings):
    cache.clear()
    settings.YOMI_RATE_LIMITS_ENABLED = True
    settings.YOMI_RATE_LIMITS = {
        "login_ip": "100/m", "login_username": "3/m", "signup_ip": "1/h",
        "reset_ip": "100/h", "reset_email": "2/h",
    }
    yield
    cache.clear()


FULL_WIDTH = "\uff56\uff49\uff43\uff54\uff49\uff4d"  # "victim", full-width


@pytest.mark.parametrize("spelling", ["victim ", "victim\t", FULL_WIDTH, "VICTIM"])
def test_spellings_of_one_username_share_its_login_limit(limits, spelling) -> None:
    victim = UserFactory(username="victim")
    victim.set_password("right-password")
    victim.save()
    for i in range(3):
        response = Client(REMOTE_ADDR=f"10.1.0.{i}").post(
            "/accounts/login/", {"username": "victim", "password": "wrong"})
        assert response.status_code == 200
    refused = Client(REMOTE_ADDR="10.1.1.1").post(
        "/accounts/login/", {"username": spelling, "password": "right-password"})
    assert refused.status_code == 429
    assert "_auth_user_id" not in refused.wsgi_request.session


def test_password_resets_are_limited_per_address_asked_for(
    limits, django_capture_on_commit_callbacks,
) -> None:
    UserFactory(username="resettable", email="reset@example.org")
    with django_capture_on_commit_callbacks(execute=True):  # the mails are sent after the commit
        answers = [Client(REMOTE_ADDR=f"10.2.0.{i}").post(
            "/accounts/password_reset/", {"email": email}).status_code
            for i, email in enumerate(["reset@example.org", "RESET@example.org ",
                                       "reset@example.org"])]
    assert answers == [302, 302, 429]
    assert len(mail.outbox) == 2
    assert PasswordResetMail.objects.count() == 2  # none owed for the refused one
    # an address without an account is answered the same way
    unknown = [Client(REMOTE_ADDR="10.2.1.1").post(
        "/accounts/password_reset/", {"email": "nobody@example.org"}).status_code
        for _ in range(3)]
    assert unknown == [302, 302, 429]


def test_one_address_holds_one_account() -> None:
    user_sign_up(username="first", email="shared@example.org", password="pw-1234567x",
                 display_name="First")
    with pytest.raises(ValidationError) as refused:
        user_sign_up(username="second", email="Shared@Example.org", password="pw-1234567x",
                     display_name="Second")
    assert "email" in refused.value.error_dict
    assert not get_user_model().objects.filter(username="second").exists()


def test_the_signup_limit_page_says_nothing_about_the_username(limits) -> None:
    UserFactory(username="taken")
    client = Client(REMOTE_ADDR="10.3.0.1")
    client.post("/accounts/signup/", {"username": "someone"})  # uses the one sign-up
    over = client.post("/accounts/signup/", {"username": "taken", "email": "x@example.org",
                                             "password1": "a", "password2": "b",
                                             "display_name": "X"})
    assert over.status_code == 429
    page = over.content.decode()
    assert "Too many sign-ups" in page
    assert "already exists" not in page and "is taken" not in page
