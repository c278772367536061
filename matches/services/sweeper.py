"""The backstop for lost messages: send again whatever the database says is still owed.

Every piece of background work is first written to the database (a PENDING run, a match whose
``result_callback_pending_since`` is set) and only then handed to the broker. A broker outage, a
worker killed after the visibility timeout gave up, or a task that exhausted its retries while the
database was down can therefore lose the message, never the work: Celery beat runs
``stale_work_requeue`` every ``YOMI_SWEEP_INTERVAL`` seconds and sends again each run and each
result callback that waited longer than ``YOMI_SWEEP_AFTER`` seconds since it was last sent.
Every task it sends is idempotent (a finished run is not replayed, a recorded game is not
recorded again), so a message that was only late is harmless.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime, timedelta

from django.conf import settings
from django.db.models import Q
from django.db.models.functions import Coalesce
from django.utils import timezone

from matches.dispatch import task_send
from matches.models import Match, VerificationRun

RS = VerificationRun.Status


@dataclass(frozen=True)
class SweepReport:
    runs: list[int] = field(default_factory=list)
    callbacks: list[int] = field(default_factory=list)
    unsent: int = 0  # sends that failed again (the broker is still down): next sweep

    @property
    def counts(self) -> dict[str, int]:
        return {"runs": len(self.runs), "callbacks": len(self.callbacks), "unsent": self.unsent}


def stale_work_requeue(
    *, older_than: timedelta | None = None, limit: int | None = None, now: datetime | None = None
) -> SweepReport:
    """Send again every unfinished run and owed result callback not sent for ``older_than``.

    Each re-sent item is stamped with the time of this sweep first, so it is sent again only
    after another full deadline; at most ``limit`` of each kind per sweep keep one sweep short.
    """
    from matches.tasks import match_log_verify_task, match_result_callback_task

    now = now or timezone.now()
    if older_than is None:
        older_than = timedelta(seconds=settings.YOMI_SWEEP_AFTER)
    limit = limit or settings.YOMI_SWEEP_LIMIT
    cutoff = now - older_than
    run_ids = list(
        VerificationRun.objects.filter(status__in=(RS.PENDING, RS.RUNNING))
        .annotate(last_sent=Coalesce("enqueued_at", "created_at"))
        .filter(last_sent__lt=cutoff)
        .filter(Q(started_at__isnull=True) | Q(started_at__lt=cutoff))
        .order_by("last_sent", "id")
        .values_list("pk", flat=True)[:limit]
    )
    VerificationRun.objects.filter(pk__in=run_ids).update(enqueued_at=now)
    match_ids = list(
        Match.objects.filter(result_callback_pending_since__lt=cutoff)
        .order_by("result_callback_pending_since", "id")
        .values_list("pk", flat=True)[:limit]
    )
    Match.objects.filter(pk__in=match_ids).update(result_callback_pending_since=now)
    unsent = 0
    for run_id in run_ids:
        unsent += not task_send(f"run {run_id}", lambda r=run_id: match_log_verify_task.delay(r))
    for match_id in match_ids:
        unsent += not task_send(
            f"result callback of match {match_id}",
            lambda m=match_id: match_result_callback_task.delay(m),
        )
    return SweepReport(runs=run_ids, callbacks=match_ids, unsent=unsent)
