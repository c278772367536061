from __future__ import annotations

from typing import Any

from django.http import HttpRequest

from notifications.selectors import unread_count


def unread_notifications(request: HttpRequest) -> dict[str, Any]:
    """The header's badge: one COUNT on an indexed column, only for signed-in users."""
    user = getattr(request, "user", None)
    if user is None or not user.is_authenticated:
        return {}
    return {"unread_notifications": unread_count(user=user)}
