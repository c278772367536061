"""Reads for players and matches."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, overload

from django.core.paginator import Page, Paginator
from django.db.models import Prefetch, QuerySet

from matches.models import (
    Dispute,
    Match,
    MatchLog,
    MatchSide,
    Player,
    TimelineChunk,
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
    """A match with its sides, logs (newest run first) and disputes, in few queries.

    Neither the logs' texts (up to 2 MB each) nor their timelines are loaded: the page shows
    stored analyses, a page of turns at a time (``run_timeline``).
    """
    runs = VerificationRun.objects.order_by("-created_at", "-id")
    logs = MatchLog.objects.defer("text").select_related("submitted_by").prefetch_related(
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


class StoredTimeline(Sequence[dict[str, Any]]):
    """A run's stored timeline as a sequence for Django's Paginator: its length is the run's
    ``turn_count`` and a slice reads only the chunks it covers (one query for a page of
    ``TimelineChunk.TURNS_PER_CHUNK`` turns)."""

    def __init__(self, run: VerificationRun) -> None:
        self.run_id = run.pk
        self.count = run.turn_count or 0

    def __len__(self) -> int:
        return self.count

    @overload
    def __getitem__(self, index: int) -> dict[str, Any]: ...

    @overload
    def __getitem__(self, index: slice) -> list[dict[str, Any]]: ...

    def __getitem__(self, index: int | slice) -> dict[str, Any] | list[dict[str, Any]]:
        if isinstance(index, int):
            return self[index:index + 1][0]
        start, stop, _ = index.indices(self.count)
        if start >= stop:
            return []
        size = TimelineChunk.TURNS_PER_CHUNK
        chunks = TimelineChunk.objects.filter(
            run_id=self.run_id, number__gte=start // size, number__lte=(stop - 1) // size
        ).order_by("number").values_list("turns", flat=True)
        turns = [turn for chunk in chunks for turn in chunk]
        offset = (start // size) * size
        return turns[start - offset:stop - offset]


def run_timeline_page(run: VerificationRun, page: object) -> Page[dict[str, Any]]:
    """One page of a run's stored timeline (a bad page number gives the nearest page)."""
    paginator = Paginator(StoredTimeline(run), TimelineChunk.TURNS_PER_CHUNK)
    return paginator.get_page(page)
