"""A user's profile beyond Django's auth user, and their personal API tokens.

The display name is the player's (``matches.Player``): it is the name brackets and statistics
show, so the profile page edits it there rather than keeping a second copy.
"""

from __future__ import annotations

import hashlib

from django.conf import settings
from django.db import models
from django_countries.fields import CountryField


class Profile(models.Model):
    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="profile"
    )
    country = CountryField(blank=True)
    # Character ids of the engine's card data (rules_engine.cards), in the order chosen.
    main_characters = models.JSONField(default=list, blank=True)
    # Notification e-mails; the in-site inbox is always kept.
    email_notifications = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"profile of {self.user}"


def token_digest(key: str) -> str:
    return hashlib.sha256(key.encode()).hexdigest()


class ApiToken(models.Model):
    """A personal API token. Only its SHA-256 is stored: the key is shown once, at creation."""

    # Keys start with this, so the authentication class can leave other tokens (DRF's
    # authtoken, used by the load tools) to the classes after it.
    PREFIX = "yomi_"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="api_tokens"
    )
    name = models.CharField(max_length=64)
    digest = models.CharField(max_length=64, unique=True)
    # The first characters of the key, so its owner can tell tokens apart.
    hint = models.CharField(max_length=16)
    created_at = models.DateTimeField(auto_now_add=True)
    last_used_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at"]
        constraints = [
            models.UniqueConstraint(fields=["user", "name"], name="api_token_name_unique_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.name} ({self.hint}…)"


class OwedMail(models.Model):
    """A mail owed to a user: an outbox row (issue 31). Written in the transaction that owes
    it; its task is handed to the broker after the commit and marks ``sent_at`` once the mail
    went out, so a broker or mail-server outage leaves the row owed for its sweep."""

    created_at = models.DateTimeField(auto_now_add=True, db_index=True)
    sent_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        abstract = True
        ordering = ["-created_at", "-pk"]


class PasswordResetMail(OwedMail):
    """A password-reset mail owed to a user: the outbox row (issue 31).

    Written when the reset is asked for; the mail's task is handed to the broker after the
    commit and marks the row once the mail went out, so a broker or mail-server outage leaves
    the row owed for the sweep instead of failing the request. The link's token is made when
    the mail is sent (it is never stored): it is valid for ``PASSWORD_RESET_TIMEOUT`` from then.
    """

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="password_reset_mails"
    )
    # The host and scheme the reset was asked on: the link points back to the same site.
    domain = models.CharField(max_length=255)
    use_https = models.BooleanField(default=True)

    def __str__(self) -> str:
        return f"password reset of user {self.user_id}"


class ConfirmationMail(OwedMail):
    """A sign-up confirmation mail owed to a new, inactive account, written with the account:
    an outage leaves it owed for the sweep instead of undoing the sign-up. The link's token is
    made when the mail is sent (it is never stored)."""

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="confirmation_mails"
    )
    # The site the sign-up was made on (scheme and host): the link points back to it.
    site_url = models.CharField(max_length=255)

    def __str__(self) -> str:
        return f"sign-up confirmation of user {self.user_id}"
