"""Play a simulated matchup chart from the shell; write its JSON.

In-process under ``make run`` (no REDIS_URL: Celery runs each chunk here, one after the other);
with Redis configured the chunks go to the workers and this command waits, printing progress.
``--resume JOB`` sends a job's missing chunks again and waits for it.
"""

from __future__ import annotations

import json
import time
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from simulations import selectors, services
from simulations.errors import SimulationError
from simulations.models import MatchupJob


class Command(BaseCommand):
    help = "Simulate the matchup chart (N games per seating of every pair) with a bot."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("--games-per-pair", type=int, default=100)
        parser.add_argument("--bot", default=services.DEFAULT_BOT,
                            help=f"the bot that plays both seats ({services.DEFAULT_BOT})")
        parser.add_argument("--characters", default="", help="ids, comma-separated (all)")
        parser.add_argument("--chunk-size", type=int, default=services.DEFAULT_CHUNK_SIZE)
        parser.add_argument("--seed", type=int, default=0)
        parser.add_argument("--out", default="", help="JSON file (default: standard output)")
        parser.add_argument("--resume", type=int, default=None, help="a job id to resume")
        parser.add_argument("--timeout", type=float, default=24 * 3600)

    def handle(self, *args: Any, **options: Any) -> None:
        started = time.monotonic()
        try:
            if options["resume"] is not None:
                job = MatchupJob.objects.get(pk=options["resume"])
                services.matchup_job_resume(job=job)
            else:
                chars = [c.strip() for c in options["characters"].split(",") if c.strip()]
                job = services.matchup_job_create(
                    bot=options["bot"], games_per_pair=options["games_per_pair"],
                    characters=chars or None, chunk_size=options["chunk_size"],
                    base_seed=options["seed"],
                )
        except (SimulationError, MatchupJob.DoesNotExist) as exc:
            raise CommandError(str(exc)) from exc
        self.stderr.write(f"job {job.pk}: {job.bot} bot, {job.games_total} games in "
                          f"{job.chunks_total} chunks")
        last = -1
        while True:
            job.refresh_from_db()
            progress = selectors.matchup_job_progress(job=job)
            if progress.games_done != last:
                last = progress.games_done
                rate = progress.games_per_second
                self.stderr.write(
                    f"  {progress.games_done}/{progress.games_total} games"
                    + (f", {rate:.0f} games/s" if rate else "")
                    + (f", ETA {progress.eta_seconds:.0f} s" if progress.eta_seconds else "")
                )
            if job.status == MatchupJob.Status.FINISHED:
                break
            if time.monotonic() - started > options["timeout"]:
                raise CommandError(f"job {job.pk} not finished after {options['timeout']} s "
                                   f"(resume it with --resume {job.pk})")
            time.sleep(2)
        elapsed = time.monotonic() - started
        self.stderr.write(f"job {job.pk} finished ({job.bot} bot): {progress.games_done} games "
                          f"in {elapsed:.1f} s "
                          f"({progress.games_done / max(elapsed, 1e-9):.0f} games/s)")
        chart = selectors.matchup_job_chart(job=job)
        self.stderr.write(split_half_line(chart))
        text = json.dumps(chart.as_dict())
        if options["out"]:
            with open(options["out"], "w", encoding="utf-8") as f:
                f.write(text + "\n")
        else:
            self.stdout.write(text)


def split_half_line(chart: selectors.SimulatedChart) -> str:
    """The chart's split-half reliability in one line (the job page shows the same)."""
    rel = chart.reliability
    if rel is None:
        return "split-half reliability: not known (chunks stored before the halves were kept)"

    def f(x: float | None) -> str:
        return "n/a" if x is None else f"{x:.3f}"

    return (f"split-half reliability (even against odd seeds): cells r = {f(rel.cells)} over "
            f"{rel.pairs} pairs (whole chart {f(rel.cells_full)}), character averages "
            f"r = {f(rel.averages)} (whole chart {f(rel.averages_full)})")
