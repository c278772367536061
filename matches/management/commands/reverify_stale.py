"""``manage.py reverify_stale``: verify again every log judged by an older rules engine, or
verified before stored analyses existed (this is how their timelines are backfilled).

Runs the same batch as the beat task (chunks on the workers when Redis is configured, in-process
under ``make run``) and prints its progress until it is done.
"""

from __future__ import annotations

import time
from typing import Any

from django.core.management.base import BaseCommand, CommandParser

from matches import engine
from matches.models import VerificationBatch
from matches.services import batch_progress, logs_judged_by_older_engine, logs_reverify_stale


class Command(BaseCommand):
    help = "Re-verify the match logs whose verdict came from an older rules engine."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--chunk-size", type=int, default=50)
        parser.add_argument("--limit", type=int, default=None,
                            help="at most this many logs (the oldest first)")
        parser.add_argument("--dry-run", action="store_true",
                            help="only count the logs that would be verified again")
        parser.add_argument("--no-wait", action="store_true",
                            help="queue the batch and return without following its progress")
        parser.add_argument("--timeout", type=float, default=600.0,
                            help="stop following the progress after this many seconds")

    def handle(self, *args: Any, **options: Any) -> None:
        stale = logs_judged_by_older_engine().count()
        self.stdout.write(f"engine {engine.ENGINE_VERSION}: {stale} log(s) judged by an older "
                          "engine")
        if options["dry_run"] or not stale:
            return
        batch = logs_reverify_stale(chunk_size=options["chunk_size"], limit=options["limit"])
        if batch is None:
            return
        self.stdout.write(f"batch {batch.pk}: {batch.total} log(s) in chunks of "
                          f"{batch.chunk_size}")
        if options["no_wait"]:
            return
        deadline = time.monotonic() + options["timeout"]
        while True:
            progress = batch_progress(VerificationBatch.objects.get(pk=batch.pk))
            self.stdout.write(f"{progress.finished}/{progress.total} ({progress.percent}%) "
                              f"{progress.by_status}")
            if progress.is_done:
                return
            if time.monotonic() > deadline:
                self.stdout.write(f"still running: follow batch {batch.pk} on its page")
                return
            time.sleep(1)
