from __future__ import annotations

from typing import Any

from accounts.models import ApiToken, Profile
from matches.models import Player


def player_of(*, user: Any) -> Player | None:
    return Player.objects.filter(user=user).first()


def profile_initial(*, user: Any) -> dict[str, Any]:
    player = player_of(user=user)
    profile = Profile.objects.filter(user=user).first()
    return {
        "display_name": player.display_name if player else user.get_username(),
        "country": profile.country.code if profile and profile.country else "",
        "main_characters": profile.main_characters if profile else [],
        "email_notifications": profile.email_notifications if profile else True,
    }


def api_tokens_of(*, user: Any) -> list[ApiToken]:
    return list(ApiToken.objects.filter(user=user))


def api_token_of(*, user: Any, token_id: int) -> ApiToken | None:
    return ApiToken.objects.filter(user=user, pk=token_id).first()
