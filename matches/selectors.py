"""Reads for players and matches."""

from __future__ import annotations

from django.db.models import Prefetch, QuerySet

from matches.models import (
    Dispute,
    Match,
    MatchLog,
    MatchSide,
    Player,
    VerdictChange,
    VerificationRun,
)


def player_list() -> QuerySet[Player]:
    return Player.objects.select_related("user").order_by("display_name")


def match_list() -> QuerySet[Match]:
    return Match.objects.prefetch_related(
        Prefetch("sides", queryset=MatchSide.objects.select_related("player"))
    ).order_by("-created_at", "-id")


def match_detail_queryset() -> QuerySet[Match]:
    """A match with its sides, logs (newest run first) and disputes, in few queries."""
    runs = VerificationRun.objects.order_by("-created_at", "-id")
    logs = MatchLog.objects.select_related("submitted_by").prefetch_related(
        Prefetch("runs", queryset=runs), "endorsements__user"
    )
    return Match.objects.prefetch_related(
        Prefetch("sides", queryset=MatchSide.objects.select_related("player")),
        Prefetch("logs", queryset=logs),
        Prefetch("disputes", queryset=Dispute.objects.all()),
    )


def verdict_changes_open(user: object) -> list[VerdictChange]:
    """Open verdict changes on matches ``user`` manages now (organizers, staff), newest first."""
    from matches.services.matches import match_user_is_manager

    changes = (VerdictChange.objects.filter(reviewed_at__isnull=True)
               .select_related("match", "log").order_by("-created_at", "-id"))
    return [c for c in changes if match_user_is_manager(c.match, user)]  # type: ignore[arg-type]


def log_latest_run(log: MatchLog) -> VerificationRun | None:
    """The newest run (uses the prefetched, newest-first list when present)."""
    runs = list(log.runs.all())
    return runs[0] if runs else None
