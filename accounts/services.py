"""Writes of the accounts app: sign-up and its e-mail confirmation, password-reset mails,
profiles, API tokens.

Both mails go through an outbox (issue 31), as notification mails do: a row written in the
caller's transaction owes the mail; after the commit its task is handed to the workers
(``matches.dispatch.outbox_tasks_send``), which send it with retries and mark the row; a sweep
sends again what a broker or mail-server outage left owed. Nothing is sent in the request."""

from __future__ import annotations

import secrets
import unicodedata
from collections.abc import Callable, Iterable
from datetime import timedelta
from typing import Any

from django.conf import settings
from django.contrib.auth import get_user_model
from django.contrib.auth.tokens import default_token_generator
from django.core.exceptions import ValidationError
from django.core.mail import send_mail
from django.db import IntegrityError, transaction
from django.template.loader import render_to_string
from django.urls import reverse
from django.utils import timezone
from django.utils.encoding import force_bytes, force_str
from django.utils.http import urlsafe_base64_decode, urlsafe_base64_encode

from accounts.models import (
    ApiToken,
    ConfirmationMail,
    OwedMail,
    PasswordResetMail,
    Profile,
    token_digest,
)
from matches.dispatch import outbox_tasks_send
from matches.models import Player

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
def user_sign_up(*, username: str, email: str, password: str, display_name: str,
                 site_url: str = "") -> Any:
    """A new user with their player and profile; inactive until confirmed when mail is on, and
    then owed the confirmation mail, with a link to ``site_url`` (the site the sign-up was made
    on, e.g. from the request; YOMI_SITE_URL when empty), sent after the commit."""
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
    if not user.is_active:
        _mails_owe(ConfirmationMail, [user], confirmation_mails_send,
                   site_url=site_url or settings.YOMI_SITE_URL)
    return user


def confirmation_mail_queue(*, email: str, site_url: str = "") -> int:
    """Owe a new confirmation mail to the account with this address that still waits for its
    first confirmation (inactive and never logged in: its mail was lost or its link expired,
    and its username and address stay taken until it is confirmed); how many are owed (0 or 1).
    Sent after the commit by the workers, like the first one; the caller says the same thing
    whether such an account exists or not."""
    users = _holders(email.strip(), is_active=False, last_login__isnull=True)
    return _mails_owe(ConfirmationMail, users, confirmation_mails_send,
                      site_url=site_url or settings.YOMI_SITE_URL)


# A confirmation mail still owed after this long is dropped by the sweep (whoever signed up has
# given up or asked for help); rows are deleted after CONFIRMATION_MAIL_KEPT_FOR (they hold no
# secret: the token is made when the mail is sent).
CONFIRMATION_MAIL_OWED_FOR = timedelta(days=2)
CONFIRMATION_MAIL_KEPT_FOR = timedelta(days=7)


def confirmation_mails_send(mail_ids: Iterable[int]) -> int:
    """Hand each owed confirmation mail to the workers; how many were handed over. Never
    raises: a broker down (or, with in-process tasks, a mail server down) leaves it owed for
    the sweep."""
    from accounts.tasks import confirmation_mail_send_task

    return outbox_tasks_send("sign-up confirmation mail", mail_ids, confirmation_mail_send_task)


def confirmation_mails_owed_send(*, older_than: timedelta) -> list[int]:
    """The sweep: send again each confirmation mail owed for longer than ``older_than`` (and
    less than CONFIRMATION_MAIL_OWED_FOR) to an account still waiting for it; forget the rows
    older than CONFIRMATION_MAIL_KEPT_FOR."""
    return _owed_mails_send(ConfirmationMail, confirmation_mails_send, older_than=older_than,
                            owed_for=CONFIRMATION_MAIL_OWED_FOR,
                            kept_for=CONFIRMATION_MAIL_KEPT_FOR, user__is_active=False)


def confirmation_mail_send(*, mail_id: int) -> bool:
    """Send one owed confirmation mail with a fresh one-time link; once only. False when it was
    sent already, is too old, or the account is confirmed already."""
    with transaction.atomic():
        owed = _owed_mail(ConfirmationMail, mail_id, owed_for=CONFIRMATION_MAIL_OWED_FOR)
        if owed is None or owed.user.is_active or not owed.user.email:
            return False
        user = owed.user
        uidb64 = urlsafe_base64_encode(force_bytes(user.pk))
        token = default_token_generator.make_token(user)
        link = owed.site_url.rstrip("/") + reverse("accounts:activate", args=[uidb64, token])
        send_mail(subject="Confirm your Yomi tournaments account",
                  message=render_to_string("accounts/email/activation.txt",
                                           {"user": user, "link": link}),
                  from_email=None, recipient_list=[user.email])
        _mail_sent(owed)
        return True


def _owed_mails_send(model: type[OwedMail], send: Callable[[Iterable[int]], int], *,
                     older_than: timedelta, owed_for: timedelta, kept_for: timedelta,
                     **still_wanted: Any) -> list[int]:
    """An outbox's sweep: forget its rows older than ``kept_for``, hand over again those owed
    for longer than ``older_than`` and less than ``owed_for`` (and matching ``still_wanted``),
    oldest first, 500 at a time; their ids."""
    now = timezone.now()
    model._default_manager.filter(created_at__lt=now - kept_for).delete()
    owed = list(model._default_manager.filter(
        sent_at__isnull=True, created_at__lte=now - older_than,
        created_at__gte=now - owed_for, **still_wanted,
    ).order_by("created_at").values_list("pk", flat=True)[:500])
    send(owed)
    return owed


def _owed_mail(model: type[OwedMail], mail_id: int, *, owed_for: timedelta) -> Any:
    """The outbox row ``mail_id`` locked with its user, if still owed (unsent, not too old);
    else None."""
    return (model._default_manager.select_for_update().select_related("user")
            .filter(pk=mail_id, sent_at__isnull=True,
                    created_at__gte=timezone.now() - owed_for).first())


def _mail_sent(owed: Any) -> None:
    # marked after the send: a send that fails is retried, one that succeeds is not repeated
    owed.sent_at = timezone.now()
    owed.save(update_fields=["sent_at"])


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


# A reset mail still owed after this long is dropped by the sweep: whoever asked for it has asked
# again or given up. Rows are deleted after RESET_MAIL_KEPT_FOR (they hold no secret: the token
# is made when the mail is sent).
RESET_MAIL_OWED_FOR = timedelta(hours=1)
RESET_MAIL_KEPT_FOR = timedelta(days=1)


def _same_address(a: str, b: str) -> bool:
    def fold(text: str) -> str:
        return unicodedata.normalize("NFKC", text).casefold()

    return fold(a) == fold(b)


def _holders(email: str, **state: Any) -> list[Any]:
    """The accounts (0 or 1: an address holds one) with this address, in the given state."""
    return [u for u in get_user_model()._default_manager.filter(email__iexact=email, **state)
            if _same_address(email, u.email)]


def _mails_owe(model: type[OwedMail], users: Iterable[Any],
               send: Callable[[Iterable[int]], int], **fields: Any) -> int:
    """Owe each user a mail of ``model`` (the outbox row) and hand them to the workers after the
    commit (``send``); how many are owed. Nothing is sent in the caller's request: a broker or
    mail-server outage leaves them owed for the sweep, never an error."""
    with transaction.atomic():
        ids = [model._default_manager.create(user=u, **fields).pk for u in users]
        if ids:
            transaction.on_commit(lambda: send(ids))
    return len(ids)


def password_reset_mail_queue(*, email: str, domain: str, use_https: bool) -> int:
    """Owe a password-reset mail to the active account with this address (with a password to
    reset); how many are owed (0 or 1: an address holds one account).

    Nothing is sent in the caller's request: the row is the outbox, and the mail's task is handed
    to the workers after the commit through the guarded path, so a broker or mail-server outage
    leaves the mail owed for the sweep (``password_reset_mails_owed_send``), never an error. The
    caller says the same thing whether an account has the address or not.
    """
    users = [u for u in _holders(email, is_active=True) if u.has_usable_password()]
    return _mails_owe(PasswordResetMail, users, password_reset_mails_send,
                      domain=domain, use_https=use_https)


def password_reset_mails_send(mail_ids: Iterable[int]) -> int:
    """Hand each owed reset mail to the workers; how many were handed over. Never raises: a
    broker down (or, with in-process tasks, a mail server down) leaves it owed for the sweep."""
    from accounts.tasks import password_reset_mail_send_task

    return outbox_tasks_send("password-reset mail", mail_ids, password_reset_mail_send_task)


def password_reset_mails_owed_send(*, older_than: timedelta) -> list[int]:
    """The sweep: send again each reset mail owed for longer than ``older_than`` (and less than
    RESET_MAIL_OWED_FOR); forget the rows older than RESET_MAIL_KEPT_FOR."""
    return _owed_mails_send(PasswordResetMail, password_reset_mails_send, older_than=older_than,
                            owed_for=RESET_MAIL_OWED_FOR, kept_for=RESET_MAIL_KEPT_FOR)


def password_reset_mail_send(*, mail_id: int) -> bool:
    """Send one owed reset mail with a fresh one-time link; once only. False when it was sent
    already, is too old, or the account can no longer reset its password."""
    with transaction.atomic():
        owed = _owed_mail(PasswordResetMail, mail_id, owed_for=RESET_MAIL_OWED_FOR)
        if owed is None:
            return False
        user = owed.user
        if not user.is_active or not user.email or not user.has_usable_password():
            return False
        context = {
            "email": user.email, "domain": owed.domain, "site_name": owed.domain,
            "uid": urlsafe_base64_encode(force_bytes(user.pk)), "user": user,
            "token": default_token_generator.make_token(user),
            "protocol": "https" if owed.use_https else "http",
        }
        subject = "".join(render_to_string("registration/password_reset_subject.txt",
                                           context).splitlines())
        send_mail(subject=subject,
                  message=render_to_string("registration/password_reset_email.html", context),
                  from_email=None, recipient_list=[user.email])
        _mail_sent(owed)
        return True


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
