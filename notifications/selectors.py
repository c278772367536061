from __future__ import annotations

from typing import Any

from django.db.models import QuerySet

from notifications.models import Notification


def unread_count(*, user: Any) -> int:
    if not user.is_authenticated:
        return 0
    return Notification.objects.filter(user=user, read_at__isnull=True).count()


def inbox(*, user: Any, limit: int = 100) -> QuerySet[Notification]:
    return Notification.objects.filter(user=user)[:limit]
