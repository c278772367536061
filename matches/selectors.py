"""Reads for players and matches."""

from __future__ import annotations

from django.db.models import QuerySet

from matches.models import Player


def player_list() -> QuerySet[Player]:
    return Player.objects.select_related("user").order_by("display_name")
