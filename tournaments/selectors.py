"""Reads for events."""

from __future__ import annotations

from django.db.models import QuerySet

from tournaments.models import Event


def event_list() -> QuerySet[Event]:
    return Event.objects.order_by("-created_at")
