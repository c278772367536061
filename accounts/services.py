"""Writes of the accounts app: sign-up and its e-mail confirmation, profiles, API tokens."""

from __future__ import annotations

import logging
import secrets
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from accounts.models import ApiToken, Profile, token_digest
from matches.models import Player

logger = logging.getLogger(__name__)

# Enough for a few integrations per person; more is likely a script creating tokens in a loop.
MAX_API_TOKENS = 20


def confirmation_required() -> bool:
    """New accounts wait for their e-mail to be confirmed only where mail is really delivered."""
    return bool(settings.YOMI_SIGNUP_CONFIRM_EMAIL)


def _display_name_check(display_name: str, *, user: Any = None) -> None:
    taken = Player.objects.filter(display_name__iexact=display_name)
    if user is not None:
        taken = taken.exclude(user=user)
    if taken.exists():
        raise ValidationError({"display_name": f"The display name {display_name!r} is taken."})


@transaction.atomic
def user_sign_up(*, username: str, email: str, password: str, display_name: str) -> Any:
    """A new user with their player and profile; inactive until confirmed when mail is on."""
    _display_name_check(display_name)
    User = get_user_model()
    if User.objects.filter(username__iexact=username).exists():
        raise ValidationError({"username": f"The username {username!r} is taken."})
    # one account per address: password resets and notifications go to one person
    if User.objects.filter(email__iexact=email.strip()).exists():
        raise ValidationError({"email": "An account already uses this address: log in, or "
                                        "reset its password."})
    user = User.objects.create_user(
        username=username, email=email, password=password,
        is_active=not confirmation_required(),
    )
    try:
        with transaction.atomic():
            Player.objects.create(user=user, display_name=display_name)
    except IntegrityError as exc:  # a concurrent sign-up took the name after the check
        raise ValidationError({"display_name": f"The display name {display_name!r} is taken."}) \
            from exc
    Profile.objects.create(user=user)
    return user


def activation_mail_send(*, user: Any, base_url: str) -> bool:
    """Mail the one-time confirmation link (``base_url`` is the site's, e.g. from the request).

    False when the mail server refused or could not be reached: the inactive account is then
    deleted, so its owner can sign up again with the same name instead of waiting for a link
    that never comes.
    """
    uidb64 = urlsafe_base64_encode(force_bytes(user.pk))
    token = default_token_generator.make_token(user)
    from django.urls import reverse

    link = base_url.rstrip("/") + reverse("accounts:activate", args=[uidb64, token])
    context = {"user": user, "link": link}
    try:
        send_mail(
            subject="Confirm your Yomi tournaments account",
            message=render_to_string("accounts/email/activation.txt", context),
            from_email=None,
            recipient_list=[user.email],
        )
    except Exception:  # smtplib and socket errors alike: the account cannot be confirmed
        logger.exception("confirmation mail to user %s not sent; the sign-up is undone", user.pk)
        Player.objects.filter(user=user).delete()
        user.delete()
        return False
    return True


def user_activate(*, uidb64: str, token: str) -> Any | None:
    """Activate the account the link names; None when the link is wrong or already used.

    Django's password-reset token is bound to the last login, so a link stops working once the
    account has been used.
    """
    User = get_user_model()
    try:
        user = User.objects.get(pk=force_str(urlsafe_base64_decode(uidb64)))
    except (ValueError, TypeError, OverflowError, User.DoesNotExist):
        return None
    if user.is_active or not default_token_generator.check_token(user, token):
        return None
    user.is_active = True
    user.save(update_fields=["is_active"])
    return user


def profile_for(user: Any) -> Profile:
    profile, _ = Profile.objects.get_or_create(user=user)
    return profile


@transaction.atomic
def profile_update(
    *, user: Any, display_name: str, country: str, main_characters: list[str],
    email_notifications: bool,
) -> Profile:
    """Save the profile; the display name is the player's (created for users who have none)."""
    _display_name_check(display_name, user=user)
    player = Player.objects.select_for_update().filter(user=user).first()
    try:
        with transaction.atomic():
            if player is None:
                Player.objects.create(user=user, display_name=display_name)
            elif player.display_name != display_name:
                player.display_name = display_name
                player.save(update_fields=["display_name"])
    except IntegrityError as exc:
        raise ValidationError({"display_name": f"The display name {display_name!r} is taken."}) \
            from exc
    profile = Profile.objects.select_for_update().get_or_create(user=user)[0]
    profile.country = country
    profile.main_characters = list(main_characters)
    profile.email_notifications = email_notifications
    profile.save()
    return profile


@transaction.atomic
def api_token_create(*, user: Any, name: str) -> tuple[ApiToken, str]:
    """A new token and its key; the key is not stored and cannot be shown again."""
    if not user.is_active:
        raise ValidationError("Inactive accounts cannot create API tokens.")
    # lock the user's row: two concurrent requests cannot both pass the count
    get_user_model().objects.select_for_update().get(pk=user.pk)
    if user.api_tokens.count() >= MAX_API_TOKENS:
        raise ValidationError(
            f"You have {MAX_API_TOKENS} tokens, the most allowed; revoke one first."
        )
    if user.api_tokens.filter(name=name).exists():
        raise ValidationError({"name": f"You already have a token named {name!r}."})
    key = ApiToken.PREFIX + secrets.token_urlsafe(32)
    token = ApiToken.objects.create(
        user=user, name=name, digest=token_digest(key), hint=key[: len(ApiToken.PREFIX) + 6],
    )
    return token, key


def api_token_revoke(*, user: Any, token_id: int) -> bool:
    """Delete one of the user's own tokens; False when it is not theirs (or already gone)."""
    deleted, _ = ApiToken.objects.filter(pk=token_id, user=user).delete()
    return deleted > 0
