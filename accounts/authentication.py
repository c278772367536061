"""DRF authentication by personal API token (``Authorization: Token yomi_…``)."""

from __future__ import annotations

from typing import Any

from django.utils import timezone
from rest_framework import exceptions
from rest_framework.authentication import TokenAuthentication

from accounts.models import ApiToken, token_digest


class ApiTokenAuthentication(TokenAuthentication):
    """DRF's token header, checked against the stored digests of personal tokens.

    Keys without the ``yomi_`` prefix are left to the next class (DRF's own authtoken), so both
    kinds work with the same header.
    """

    def authenticate(self, request: Any) -> tuple[Any, ApiToken] | None:
        header = request.META.get("HTTP_AUTHORIZATION", "")
        parts = header.split()
        if len(parts) != 2 or parts[0] != self.keyword or not parts[1].startswith(ApiToken.PREFIX):
            return None
        return self.authenticate_credentials(parts[1])

    def authenticate_credentials(self, key: str) -> tuple[Any, ApiToken]:
        token = ApiToken.objects.select_related("user").filter(digest=token_digest(key)).first()
        if token is None:
            raise exceptions.AuthenticationFailed("Invalid or revoked API token.")
        if not token.user.is_active:
            raise exceptions.AuthenticationFailed("This token's account is inactive.")
        now = timezone.now()
        # one write a minute at most, not one per request
        if token.last_used_at is None or (now - token.last_used_at).total_seconds() > 60:
            ApiToken.objects.filter(pk=token.pk).update(last_used_at=now)
        return token.user, token
