"""Re-verification when the engine grows: every stored verdict records the engine version that
reached it; logs judged by an older engine are verified again, in chunks on the workers.

A "not verifiable yet" verdict (a character or mode the engine did not play) thus becomes a real
verdict once the engine supports it; a changed verdict on a final result is recorded for the
organizers (``verdict_change_record``) and never rewrites a result by itself.
"""

from __future__ import annotations

from django.contrib.auth.models import AbstractBaseUser
from django.db.models import OuterRef, Q, QuerySet, Subquery

from matches import engine
from matches.models import MatchLog, VerificationBatch, VerificationRun
from matches.services.batches import DEFAULT_CHUNK_SIZE, logs_reverify_bulk

RS = VerificationRun.Status


def logs_judged_by_older_engine(version: str = engine.ENGINE_RELEASE) -> QuerySet[MatchLog]:
    """Logs whose newest run is finished and was reached by another engine release, or has no
    stored analyses (verified before they were stored: this backfills them). Runs still pending
    or running are left to finish first. Either build of a release (``0.3.0``,
    ``0.3.0+mypyc.…``) is that release: the builds give the same verdicts."""
    newest = VerificationRun.objects.filter(log=OuterRef("pk")).order_by("-created_at", "-id")
    return (
        MatchLog.objects.defer("text").annotate(
            newest_status=Subquery(newest.values("status")[:1]),
            newest_version=Subquery(newest.values("engine_version")[:1]),
            newest_turn_count=Subquery(newest.values("turn_count")[:1]),
        )
        .filter(newest_status__in=VerificationRun.FINISHED_STATUSES)
        .filter(~Q(newest_version=version) & ~Q(newest_version__startswith=f"{version}+")
                | Q(newest_turn_count__isnull=True))
        .order_by("pk")
    )


def logs_reverify_stale(
    *, requested_by: AbstractBaseUser | None = None, chunk_size: int = DEFAULT_CHUNK_SIZE,
    limit: int | None = None,
) -> VerificationBatch | None:
    """One batch re-verifying every log judged by an older engine (at most ``limit``); None
    when there is none. Progress is the batch's (``batch_progress``, the batch page)."""
    logs = logs_judged_by_older_engine()
    ids = list(logs.values_list("pk", flat=True)[:limit] if limit else
               logs.values_list("pk", flat=True))
    if not ids:
        return None
    return logs_reverify_bulk(
        logs=MatchLog.objects.filter(pk__in=ids).only("pk"),
        label=f"engine {engine.ENGINE_RELEASE}: {len(ids)} log(s) judged by an older engine",
        requested_by=requested_by, chunk_size=chunk_size,
    )
