"""Odds recomputed after every result, without the tournaments app importing simulations.

Every result path of the tournaments app (report, confirmed match, correction, forfeit,
disqualification) ends by scheduling one rebuild of the ratings after its commit
(``tournaments.tasks.ratings_recompute_task``). When that task succeeds (on a worker, or
in-process under ``make run``), ``ratings_rebuilt`` sends ``stage_odds_refresh_task`` for every
running or finished stage (any kind) whose latest result (its newest ``SetResultChange``) is
not the one its odds followed, so the odds use the new ratings too. A stage being generated gets
its first odds (its *initial* odds, kept for calibration) after the commit that generates it.
Both are connected in ``SimulationsConfig.ready``.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.db.models import Max

from matches.dispatch import task_send
from tournaments.models import Stage

RATINGS_TASK = "tournaments.tasks.ratings_recompute_task"
ODDS_KINDS = (*Stage.ELIMINATION_KINDS, *Stage.TABLE_KINDS)


def _send(stage_id: int) -> None:
    from simulations.tasks import stage_odds_refresh_task

    task_send(f"odds of stage {stage_id}", lambda: stage_odds_refresh_task.delay(stage_id))


def stale_stage_ids() -> list[int]:
    """Running (or just finished) stages with odds whose newest result is not the one their
    odds followed: the final result too (issue 35: a finished event kept the odds from before
    its final)."""
    from simulations.models import StageOdds

    latest = dict(
        Stage.objects.filter(status__in=(Stage.Status.RUNNING, Stage.Status.FINISHED),
                             kind__in=ODDS_KINDS)
        .annotate(last=Max("sets__changes__id")).values_list("pk", "last")
    )
    followed = dict(StageOdds.objects.filter(stage_id__in=latest, kind=StageOdds.Kind.CURRENT)
                    .values_list("stage_id", "last_change"))
    return [pk for pk, last in latest.items()
            if pk not in followed or (last or 0) != followed[pk]]


def ratings_rebuilt(sender: Any = None, **kwargs: Any) -> None:
    if getattr(sender, "name", None) != RATINGS_TASK:
        return
    for stage_id in stale_stage_ids():
        _send(stage_id)


def stage_saved(sender: Any, instance: Stage, **kwargs: Any) -> None:
    if instance.status == Stage.Status.RUNNING and instance.kind in ODDS_KINDS:
        stage_id = instance.pk
        transaction.on_commit(lambda: _send(stage_id))
