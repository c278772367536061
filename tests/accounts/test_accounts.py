"""Sign-up (with and without e-mail confirmation), password reset, profile, API tokens."""

from __future__ import annotations

import os
import re
import subprocess
import sys

import pytest
from django.contrib.auth import get_user_model
from django.core import mail
from django.test import override_settings
from django.urls import reverse
from rest_framework.test import APIClient

from accounts.models import ApiToken, Profile
from matches.models import Player
from tests.matches.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory

pytestmark = pytest.mark.django_db

SIGNUP = {
    "username": "newcomer", "email": "newcomer@example.org", "display_name": "Newcomer",
    "password1": "a-long-yomi-passphrase", "password2": "a-long-yomi-passphrase",
}


def _link(message: mail.EmailMessage) -> str:
    match = re.search(r"https?://[^/\s]+(/\S+)", message.body)
    assert match, message.body
    return match.group(1)


@override_settings(YOMI_SIGNUP_CONFIRM_EMAIL=False)
def test_sign_up_without_mail_makes_an_active_player_and_logs_in(client):
    response = client.post(reverse("accounts:signup"), SIGNUP)
    assert response.status_code == 302 and response["Location"] == reverse("accounts:profile")
    user = get_user_model().objects.get(username="newcomer")
    assert user.is_active and user.email == "newcomer@example.org"
    assert Player.objects.get(user=user).display_name == "Newcomer"
    assert Profile.objects.filter(user=user).exists()
    assert client.get(reverse("accounts:profile")).status_code == 200  # signed in
    assert mail.outbox == []


@override_settings(YOMI_SIGNUP_CONFIRM_EMAIL=True)
def test_sign_up_with_mail_waits_for_the_confirmation_link(
    client, django_capture_on_commit_callbacks,
):
    # the mail is sent after the commit (the outbox): in-process tasks here
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("accounts:signup"), SIGNUP)
    assert response.status_code == 200
    assert b"newcomer@example.org" in response.content
    user = get_user_model().objects.get(username="newcomer")
    assert not user.is_active
    assert len(mail.outbox) == 1 and mail.outbox[0].to == ["newcomer@example.org"]
    # not usable before the link is opened
    assert not client.login(username="newcomer", password=SIGNUP["password1"])
    link = _link(mail.outbox[0])
    response = client.get(link)
    assert response.status_code == 302
    user.refresh_from_db()
    assert user.is_active
    assert client.get(reverse("accounts:profile")).status_code == 200
    # the link works once
    client.logout()
    assert client.get(link).status_code == 400
    assert client.get(reverse("accounts:activate", args=["xx", "bad-token"])).status_code == 400


def test_sign_up_refuses_a_taken_display_name_and_username(client):
    PlayerFactory(display_name="Newcomer", user=UserFactory(username="someone"))
    response = client.post(reverse("accounts:signup"), SIGNUP)
    assert response.status_code == 400
    assert "The display name &#x27;Newcomer&#x27; is taken." in response.content.decode()
    response = client.post(reverse("accounts:signup"), {
        **SIGNUP, "username": "someone", "display_name": "Other"})
    assert response.status_code == 400
    assert "username already exists" in response.content.decode()
    assert not get_user_model().objects.filter(username="newcomer").exists()


def test_sign_up_checks_the_password(client):
    response = client.post(reverse("accounts:signup"), {**SIGNUP, "password2": "different"})
    assert response.status_code == 400
    assert "password fields didn" in response.content.decode()


@override_settings(YOMI_RATE_LIMITS_ENABLED=True,
                   YOMI_RATE_LIMITS={"signup_ip": "2/h"})
def test_sign_ups_are_rate_limited_per_address(client):
    from django.core.cache import cache

    cache.clear()
    for i in range(2):
        client.post(reverse("accounts:signup"), {**SIGNUP, "username": f"u{i}",
                                                 "display_name": f"U{i}"})
        client.logout()
    response = client.post(reverse("accounts:signup"), {**SIGNUP, "username": "u3",
                                                        "display_name": "U3"})
    assert response.status_code == 429 and "Too many sign-ups" in response.content.decode()
    assert not get_user_model().objects.filter(username="u3").exists()


def test_password_reset_mails_a_link_that_sets_a_new_password(
    client, django_capture_on_commit_callbacks,
):
    UserFactory(username="forgetful", email="forgetful@example.org")
    # the mail is sent after the commit (the outbox): in-process tasks here
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(reverse("password_reset"), {"email": "forgetful@example.org"})
    assert response.status_code == 302
    assert len(mail.outbox) == 1
    assert mail.outbox[0].subject == "Reset your Yomi tournaments password"
    response = client.get(_link(mail.outbox[0]), follow=True)
    assert b"Choose a new password" in response.content
    response = client.post(response.redirect_chain[-1][0], {
        "new_password1": "another-long-passphrase", "new_password2": "another-long-passphrase",
    })
    assert response.status_code == 302
    assert client.login(username="forgetful", password="another-long-passphrase")


def test_mail_settings_come_from_the_environment():
    # the settings alone, as Django reads them (no django.setup(): loading every app cost most
    # of each child's second of CPU, and only settings are read)
    code = ("from django.conf import settings; "
            "print(settings.EMAIL_BACKEND, settings.EMAIL_HOST, settings.EMAIL_PORT, "
            "settings.EMAIL_USE_TLS, settings.YOMI_SIGNUP_CONFIRM_EMAIL)")
    base = {**os.environ, "DJANGO_SETTINGS_MODULE": "yomi_site.settings", "DEBUG": "1"}
    base.pop("EMAIL_HOST", None)
    base.pop("EMAIL_BACKEND", None)
    smtp = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True,
                          env={**base, "EMAIL_HOST": "smtp.example.org", "EMAIL_PORT": "587"})
    assert smtp.stdout.split() == ["django.core.mail.backends.smtp.EmailBackend",
                                   "smtp.example.org", "587", "True", "True"]
    console = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                             check=True, env=base)
    assert console.stdout.split()[0] == "django.core.mail.backends.console.EmailBackend"
    assert console.stdout.split()[-1] == "False"  # make run: no confirmation to wait for


def test_profile_page_edits_display_name_country_and_mains(client):
    player = PlayerFactory(display_name="Before")
    client.force_login(player.user)
    assert client.get(reverse("accounts:profile")).status_code == 200
    response = client.post(reverse("accounts:profile"), {
        "display_name": "After", "country": "DE", "main_characters": ["grave", "jaina"],
    })
    assert response.status_code == 302
    player.refresh_from_db()
    profile = Profile.objects.get(user=player.user)
    assert player.display_name == "After"
    assert profile.country.code == "DE"
    assert profile.main_characters == ["grave", "jaina"]
    assert profile.email_notifications is False  # unticked box
    page = client.get(reverse("accounts:profile")).content.decode()
    assert 'value="After"' in page and 'value="DE" selected' in page


def test_profile_refuses_too_many_mains_a_taken_name_and_unknown_characters(client):
    PlayerFactory(display_name="Taken")
    player = PlayerFactory(display_name="Mine")
    client.force_login(player.user)
    url = reverse("accounts:profile")
    response = client.post(url, {"display_name": "Mine",
                                 "main_characters": ["grave", "jaina", "rook", "setsuki"]})
    assert response.status_code == 400 and "at most 3 main characters" in response.content.decode()
    response = client.post(url, {"display_name": "taken"})
    assert response.status_code == 400 and "is taken" in response.content.decode()
    response = client.post(url, {"display_name": "Mine", "main_characters": ["ryu"]})
    assert response.status_code == 400 and "not one of the available" in response.content.decode()
    player.refresh_from_db()
    assert player.display_name == "Mine"


def test_profile_gives_a_player_to_a_user_without_one(client):
    user = UserFactory(username="organizer-only")
    client.force_login(user)
    assert client.post(reverse("accounts:profile"), {"display_name": "Now A Player"}).status_code \
        == 302
    assert Player.objects.get(user=user).display_name == "Now A Player"


def test_account_pages_need_a_login(client):
    for name in ("accounts:profile", "accounts:api-tokens"):
        response = client.get(reverse(name))
        assert response.status_code == 302 and "/accounts/login/" in response["Location"]


def test_api_token_is_shown_once_stored_hashed_and_works_against_the_api(client):
    organizer = UserFactory(username="integrator")
    event = EventFactory(organizers=[organizer])
    client.force_login(organizer)
    response = client.post(reverse("accounts:api-tokens"), {"name": "stream overlay"})
    assert response.status_code == 201
    assert response["Cache-Control"] == "no-store"
    key = re.search(r'id="new-token-key">(yomi_[^<]+)<', response.content.decode()).group(1)
    token = ApiToken.objects.get(user=organizer)
    assert key not in (token.digest, token.hint) and key.startswith(token.hint)
    # shown once: the list afterwards has only the hint
    assert key not in client.get(reverse("accounts:api-tokens")).content.decode()

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = api.post(f"/api/events/{event.slug}/status/", {"status": "check_in"},
                        format="json")
    assert response.status_code == 200
    token.refresh_from_db()
    assert token.last_used_at is not None


def test_api_token_names_are_unique_per_user(client):
    user = UserFactory()
    client.force_login(user)
    client.post(reverse("accounts:api-tokens"), {"name": "bot"})
    response = client.post(reverse("accounts:api-tokens"), {"name": "bot"})
    assert response.status_code == 400 and "already have a token named" in response.content.decode()
    assert ApiToken.objects.filter(user=user).count() == 1


def test_revoking_asks_first_then_the_token_stops_working(client):
    user = UserFactory()
    client.force_login(user)
    response = client.post(reverse("accounts:api-tokens"), {"name": "old script"})
    key = re.search(r'id="new-token-key">(yomi_[^<]+)<', response.content.decode()).group(1)
    token = ApiToken.objects.get(user=user)
    url = reverse("accounts:api-token-revoke", args=[token.pk])
    page = client.get(url)
    assert page.status_code == 200 and b"Revoke the token" in page.content
    assert ApiToken.objects.filter(pk=token.pk).exists()  # a GET deletes nothing
    assert client.post(url).status_code == 302
    assert not ApiToken.objects.filter(pk=token.pk).exists()
    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {key}")
    response = api.post("/api/events/any/status/", {"status": "check_in"}, format="json")
    # 403, not 401: DRF answers with the first class's header, and the session one sends none
    assert response.status_code == 403
    assert "Invalid or revoked API token" in response.json()["detail"]


def test_nobody_revokes_another_users_token(client):
    owner = UserFactory()
    client.force_login(owner)
    client.post(reverse("accounts:api-tokens"), {"name": "mine"})
    token = ApiToken.objects.get(user=owner)
    client.force_login(UserFactory())
    url = reverse("accounts:api-token-revoke", args=[token.pk])
    assert client.get(url).status_code == 404
    assert client.post(url).status_code == 404
    assert ApiToken.objects.filter(pk=token.pk).exists()


def test_drf_authtoken_keys_still_work_beside_personal_tokens(event, organizer):
    from rest_framework.authtoken.models import Token

    api = APIClient()
    api.credentials(HTTP_AUTHORIZATION=f"Token {Token.objects.create(user=organizer).key}")
    response = api.post(f"/api/events/{event.slug}/status/", {"status": "check_in"},
                        format="json")
    assert response.status_code == 200
