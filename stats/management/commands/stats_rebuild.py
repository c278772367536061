"""Recompute the statistics from scratch: ``manage.py stats_rebuild [--reextract] [--queue]``.

Without options the aggregates are recomputed from the stored game records (seconds even for
100,000 games). ``--reextract`` first brings every match's record in line with its final result
and replays its log again (after an engine change, or to check nothing drifted). ``--queue``
hands the work to the Celery workers instead of running it here (with ``--reextract``, in
chunks of matches spread over every worker). The numbers are the ones the
incremental task keeps; the tests check that both agree.
"""

from __future__ import annotations

from typing import Any

from django.core.management.base import BaseCommand

from stats.services import stats_rebuild, stats_reextract_enqueue
from stats.tasks import stats_rebuild_task


class Command(BaseCommand):
    help = "Recompute every statistics aggregate (and with --reextract, every game record)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--reextract", action="store_true",
                            help="replay every final result's log again first")
        parser.add_argument("--queue", action="store_true", help="run it on a Celery worker")

    def handle(self, *args: Any, **options: Any) -> None:
        if options["queue"] and options["reextract"]:
            chunks = stats_reextract_enqueue()
            self.stdout.write(f"statistics re-extraction queued in {chunks} chunks")
            return
        if options["queue"]:
            stats_rebuild_task.delay()
            self.stdout.write("statistics rebuild queued")
            return
        summary = stats_rebuild(reextract=options["reextract"])
        self.stdout.write(", ".join(f"{k.replace('_', ' ')}: {v}" for k, v in summary.items()))
