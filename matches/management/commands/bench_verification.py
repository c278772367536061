"""Benchmark: match logs submitted and verified end to end by real workers.

    DATABASE_URL=postgres://... REDIS_URL=redis://... python manage.py bench_verification \\
        --logs 10000 --workers 2

Creates one match per log, starts ``--workers`` Celery worker processes (one process each) on a
private queue, submits every log through ``match_log_submit`` (which queues its verification on
commit) and waits for the last verdict. Prints logs per second from the first submission to the
last verdict stored. The benchmark's rows are deleted afterwards unless ``--keep``.

``--backlog``: every log is submitted before the workers start, and the verification of the
pending runs is timed alone (drain tasks with full batches: the rate the workers keep up with
when submissions arrive faster than they verify).

Then (unless ``--no-bulk``) the same logs are re-verified in bulk (``logs_reverify_bulk``: chunks
spread over the workers) and timed from the batch's creation to its last verdict. Those logs were
analysed by this engine release a moment before: each is replayed for its verdict and keeps its
stored timeline and board (``services.verification``); the in-process lines below give a chunk of
logs the release has not analysed too (a first verification, or a bulk run after a release).
Issue 17's targets: single submissions >= 150 logs/s end to end, bulk >= 500 logs/s, with two
workers.

The machine may be shared: beside the wall-clock rate each phase prints the CPU time the worker
processes spent per log (from /proc), and the rate two otherwise idle cores would give at that
cost (workers only: PostgreSQL's and Redis's own CPU time is not counted); the submissions' own
CPU time per log (this process); the load average before and after; and, measured in this
process on 20 more logs, the SQL queries and CPU time per log of a submission, of a
verification task (one log) and of a bulk chunk.
"""

from __future__ import annotations

import gc
import os
import random
import resource
import socket
import subprocess
import sys
import threading
import time
import uuid
from pathlib import Path
from typing import Any

from celery import current_app as app
from django.conf import settings
from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection, reset_queries
from django.db.models import Count, Max, QuerySet
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

import rules_engine
from matches.engine import ENGINE_VERSION
from matches.models import Match, MatchLog, MatchSide, Player, VerificationRun
from matches.services import batch_progress, logs_reverify_bulk, match_log_submit, submission
from matches.services.batches import DEFAULT_CHUNK_SIZE
from matches.services.verification import match_log_verify, match_runs_verify
from rules_engine.cards import characters
from rules_engine.judge import judge
from rules_engine.replay import replay
from rules_engine.selfplay import play_game

REPO_ROOT = Path(__file__).resolve().parents[3]
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")
TARGET_SINGLE, TARGET_BULK = 150, 500  # issue 17, logs/s with two workers
# issue 32: CPU per log, steady on a busy machine and scaling with cores: a bulk re-verification
# costs at most 3.0 ms of worker CPU per log, a single submission 8.0 ms in all (the submission's
# CPU in the web process plus the worker's verification)
TARGET_BULK_CPU_MS, TARGET_SINGLE_CPU_MS = 3.0, 8.0


def _own_cpu() -> float:
    """This process's user + system CPU seconds (every thread)."""
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def _seconds_to_last_verdict(runs: QuerySet[VerificationRun], since: Any) -> float:
    """Seconds from ``since`` to the last of the runs' verdicts, by the runs' own
    ``finished_at``: the harness polls coarsely (not to take the workers' CPU), and timing by
    the poll that saw the end added up to a whole poll interval (a second in six)."""
    last = runs.aggregate(last=Max("finished_at"))["last"]
    return (last - since).total_seconds() if last is not None else 0.0


def _load() -> str:
    return "/".join(f"{x:.1f}" for x in os.getloadavg())


def _tree_cpu(processes: list[subprocess.Popen[bytes]]) -> float:
    """User + system CPU seconds of processes and all their descendants (Linux /proc)."""
    total = 0
    pending = [p.pid for p in processes]
    while pending:
        pid = pending.pop()
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])  # utime, stime
            for task in Path(f"/proc/{pid}/task").iterdir():
                pending += [int(c) for c in (task / "children").read_text().split()]
        except (FileNotFoundError, ProcessLookupError):
            continue
    return total / CLOCK_TICKS


class Command(BaseCommand):
    help = "Submit N self-play logs and time their verification by real workers."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--logs", type=int, default=10_000)
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--distinct", type=int, default=200,
                            help="distinct self-play games, cycled over the matches")
        parser.add_argument("--bot", default="greedy", choices=["random", "greedy"])
        parser.add_argument("--submitters", type=int, default=1,
                            help="threads submitting logs at the same time")
        parser.add_argument("--keep", action="store_true", help="keep the benchmark's rows")
        parser.add_argument("--backlog", action="store_true",
                            help="submit every log before the workers start, then time the "
                                 "verification of the pending runs (drains of full batches)")
        parser.add_argument("--no-bulk", action="store_true",
                            help="skip the bulk re-verification of the submitted logs")
        parser.add_argument("--chunk-size", type=int, default=DEFAULT_CHUNK_SIZE)
        parser.add_argument("--pool", default="prefork", choices=["prefork", "solo"],
                            help="the workers' pool (production: prefork)")
        parser.add_argument("--prefetch", type=int, default=None,
                            help="the workers' prefetch multiplier (default: the settings')")

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql" or not settings.REDIS_URL:
            raise CommandError("set DATABASE_URL to PostgreSQL and REDIS_URL to Redis first")
        total, distinct = options["logs"], min(options["distinct"], options["logs"])
        ids = sorted(characters())
        rng = random.Random(2026)
        started = time.perf_counter()
        texts = [
            play_game(rng.choice(ids), rng.choice(ids), seed, bot=options["bot"])[1].dumps()
            for seed in range(1, distinct + 1)
        ]
        self.stdout.write(f"{distinct} self-play logs generated in "
                          f"{time.perf_counter() - started:.1f} s")
        matches, user_1, user_2 = self._matches(total)
        load_before = _load()
        queue = f"bench-{uuid.uuid4().hex[:8]}"
        app.conf.task_default_queue = queue  # before anything is sent: tasks go to our workers
        backlog = options["backlog"]
        workers: list[subprocess.Popen[bytes]] = []

        def start_workers() -> None:
            workers.extend(self._worker(queue, i, options["pool"], options["prefetch"])
                           for i in range(options["workers"]))
            self._wait_ready(queue, workers)

        bulk: tuple[float, float, dict[str, int]] | None = None
        try:
            if not backlog:
                start_workers()
            cpu_before = _tree_cpu(workers)
            own_before = _own_cpu()
            started, started_at = time.perf_counter(), timezone.now()
            self._submit_all(matches, user_1, texts, options["submitters"])
            submitted = time.perf_counter()
            submit_cpu = _own_cpu() - own_before
            if backlog:  # the pending runs wait for workers: time their verification alone
                start_workers()
                cpu_before = _tree_cpu(workers)
                started, started_at = time.perf_counter(), timezone.now()
            # A cheap poll (an id range, once a second) so that the harness itself does not
            # compete with the workers for the CPU.
            ids = [m.pk for m in matches]
            ours = VerificationRun.objects.filter(
                log__match_id__gte=min(ids), log__match_id__lte=max(ids)
            )
            while ours.exclude(status__in=VerificationRun.FINISHED_STATUSES).exists():
                time.sleep(1)
            finished = started + _seconds_to_last_verdict(ours, started_at)
            single_cpu = _tree_cpu(workers) - cpu_before
            if not options["no_bulk"]:
                bulk = self._bulk(ids, workers, options["chunk_size"])
        finally:
            for worker in workers:
                worker.terminate()
            for worker in workers:
                worker.wait(timeout=30)
        runs = VerificationRun.objects.filter(log__match_id__gte=matches[0].pk,
                                              log__match_id__lte=matches[-1].pk, batch=None)
        statuses = dict(runs.values_list("status").annotate(n=Count("id")).order_by())
        elapsed = finished - started
        n = options["workers"]
        single_rate = total / elapsed
        # each drain task's claim stamps its runs with one started_at: distinct stamps = batches
        batches = runs.values("started_at").distinct().count()
        if backlog:
            self.stdout.write(self.style.SUCCESS(
                f"{total} logs, {n} workers: submitted first in {submit_cpu:.1f} s CPU; the "
                f"backlog of pending runs verified in {elapsed:.1f} s once the workers were "
                f"up -> {single_rate:.0f} logs/s; verdicts {statuses}"
            ))
        else:
            self.stdout.write(self.style.SUCCESS(
                f"{total} logs, {n} workers, {options['submitters']} submitter(s): "
                f"submitted in {submitted - started:.1f} s "
                f"({total / (submitted - started):.0f} logs/s); all verified in {elapsed:.1f} s "
                f"-> single submissions end to end: {single_rate:.0f} logs/s "
                f"(target {TARGET_SINGLE}: "
                f"{'met' if single_rate >= TARGET_SINGLE else 'not met'}); verdicts {statuses}"
            ))
        self.stdout.write(f"  verified in {batches} batches (drain tasks' claims): "
                          f"{total / max(batches, 1):.1f} logs per batch")
        self._cpu_line("single submissions", total, single_cpu, n)
        self.stdout.write(f"  submissions (this process): CPU {submit_cpu:.1f} s = "
                          f"{submit_cpu / total * 1000:.2f} ms per log")
        if not backlog:
            in_all = (submit_cpu + single_cpu) / total * 1000
            self._target_line("a single submission, in all (submission + worker)", in_all,
                              TARGET_SINGLE_CPU_MS)
        if bulk is not None:
            bulk_elapsed, bulk_cpu, bulk_statuses = bulk
            bulk_rate = total / bulk_elapsed
            self.stdout.write(self.style.SUCCESS(
                f"bulk re-verification of the {total} stored logs in chunks of "
                f"{options['chunk_size']}: {bulk_elapsed:.1f} s -> {bulk_rate:.0f} logs/s "
                f"(target {TARGET_BULK}: {'met' if bulk_rate >= TARGET_BULK else 'not met'}); "
                f"verdicts {bulk_statuses}"
            ))
            self._cpu_line("bulk re-verification", total, bulk_cpu, n)
            self._target_line("bulk re-verification, worker", bulk_cpu / total * 1000,
                              TARGET_BULK_CPU_MS)
        judged_by = sorted(set(VerificationRun.objects.filter(
            log__match_id__gte=matches[0].pk, log__match_id__lte=matches[-1].pk,
        ).values_list("engine_version", flat=True)))
        self.stdout.write(f"  engine the workers reported: {', '.join(judged_by)}; this "
                          f"process: {ENGINE_VERSION} ({rules_engine.BUILD.kind})")
        self._per_log_costs((user_1, user_2), texts, options["chunk_size"])
        self.stdout.write(f"load average (1/5/15 min) before {load_before}, after {_load()} "
                          f"on {os.cpu_count()} cores: logs/s are wall-clock figures, the CPU "
                          "and query figures are the ones a busy machine does not distort")
        if not options["keep"]:
            Match.objects.filter(pk__in=[m.pk for m in matches]).delete()
            Player.objects.filter(user__in=[user_1, user_2]).delete()
            get_user_model().objects.filter(pk__in=[user_1.pk, user_2.pk]).delete()

    def _bulk(self, match_ids: list[int], workers: list[subprocess.Popen[bytes]],
              chunk_size: int) -> tuple[float, float, dict[str, int]]:
        cpu_before = _tree_cpu(workers)
        started_at = timezone.now()
        batch = logs_reverify_bulk(
            logs=MatchLog.objects.filter(match_id__in=match_ids).only("pk"),
            label="bench_verification", chunk_size=chunk_size,
        )
        while not batch_progress(batch).is_done:
            time.sleep(0.5)
        elapsed = _seconds_to_last_verdict(batch.runs.all(), started_at)
        statuses = dict(batch.runs.values_list("status").annotate(n=Count("id")).order_by())
        return elapsed, _tree_cpu(workers) - cpu_before, statuses

    @staticmethod
    def _queries() -> CaptureQueriesContext:
        """A query counter that counts: under DEBUG every query of the run is logged, and once
        the log holds its limit (9,000) a capture sees no new entries (0 queries), so empty it
        first."""
        reset_queries()
        return CaptureQueriesContext(connection)

    def _per_log_costs(self, users: tuple[Any, Any], texts: list[str], chunk_size: int) -> None:
        """SQL queries and CPU per log, in this process, on 20 fresh matches: their submission
        (the task is not sent), half verified one task's way (one log), half as one chunk. One
        more match first, submitted and verified uncounted: the first replay in a process
        imports and builds what every later one reuses."""
        n = 21
        matches, user, _ = self._matches(n, users=users)
        try:
            send = submission._verification_enqueue_on_commit
            submission._verification_enqueue_on_commit = lambda run_id: None  # type: ignore[assignment]
            try:
                cpu = time.process_time()
                with self._queries() as queries:
                    runs = [match_log_submit(match=m, submitted_by=user,
                                             log_bytes=texts[i % len(texts)].encode()).run
                            for i, m in enumerate(matches)]
                submit = (len(queries) / n, (time.process_time() - cpu) / n * 1000)
            finally:
                submission._verification_enqueue_on_commit = send  # type: ignore[assignment]
            ids = [run.pk for run in runs if run is not None]
            match_log_verify(run_id=ids.pop(0))  # the warm-up
            half = len(ids) // 2
            cpu = time.process_time()
            with self._queries() as queries:
                for run_id in ids[:half]:
                    match_log_verify(run_id=run_id)
            task = (len(queries) / half, (time.process_time() - cpu) / half * 1000)
            cpu = time.process_time()
            with self._queries() as queries:
                match_runs_verify(run_ids=ids[half:])
            rest = len(ids) - half
            chunk = (len(queries) / rest, (time.process_time() - cpu) / rest * 1000)
            # the same logs judged again by this release, as the bulk run above does: the
            # verdict replayed, the stored analyses kept (services.verification)
            again = [run.pk for run in VerificationRun.objects.bulk_create(
                VerificationRun(log_id=log_id) for log_id in VerificationRun.objects.filter(
                    pk__in=ids[half:]).values_list("log_id", flat=True))]
            cpu = time.process_time()
            with self._queries() as queries:
                match_runs_verify(run_ids=again)
            kept = (len(queries) / rest, (time.process_time() - cpu) / rest * 1000)
            where = self._where_cpu_goes(user, matches[:1], texts)
        finally:
            Match.objects.filter(pk__in=[m.pk for m in matches]).delete()
        self.stdout.write(
            f"  per log, in this process: a submission {submit[0]:.1f} queries, "
            f"{submit[1]:.2f} ms CPU; a verification task {task[0]:.1f} queries, "
            f"{task[1]:.2f} ms CPU; in a chunk of {rest} {chunk[0]:.2f} queries, "
            f"{chunk[1]:.2f} ms CPU (chunks of {chunk_size} in the bulk run); judged again by "
            f"this release in a chunk of {rest} (the bulk run's case: the verdict replayed, "
            f"the stored timeline and board kept) {kept[0]:.2f} queries, {kept[1]:.2f} ms CPU")
        self.stdout.write(where)

    # Where a chunk's CPU goes: each part of a verification timed alone on the same logs, in
    # this process's CPU time (no profiler: its overhead would swamp the interpreted engine).
    def _where_cpu_goes(self, user: Any, match_like: list[Match], texts: list[str],
                        logs: int = 50) -> str:
        from matches import engine

        chosen = [texts[i % len(texts)] for i in range(logs)]

        def per_log(work: Any) -> float:
            cpu = time.process_time()
            for text in chosen:
                work(text)
            return (time.process_time() - cpu) / logs * 1000

        documents = {text: engine._schema_checked(text)[0] for text in chosen}
        timelines = {text: judge(documents[text]).turns for text in chosen}
        schema = per_log(engine._schema_checked)
        # a worker meets most logs once: the schema check's memory of valid events
        # (engine._VALID_EVENTS) is then cold for a part of each log's events
        remembered = {version: set(events) for version, events in engine._VALID_EVENTS.items()}
        engine._VALID_EVENTS.clear()
        try:
            schema_cold = per_log(engine._schema_checked)
        finally:
            engine._VALID_EVENTS.clear()
            engine._VALID_EVENTS.update(remembered)
        replayed = per_log(lambda text: judge(documents[text]))
        verdict_only = per_log(lambda text: replay(documents[text]))
        json_form = per_log(lambda text: [turn.to_dict() for turn in timelines[text] or []])
        judged = per_log(engine.log_judge)
        matches, _, _ = self._matches(logs, users=(user, Player.objects.get(
            pk=match_like[0].sides.get(side=2).player_id).user))
        try:
            send = submission._verification_enqueue_on_commit
            submission._verification_enqueue_on_commit = lambda run_id: None  # type: ignore[assignment]
            try:
                ids = [match_log_submit(match=m, submitted_by=user,
                                        log_bytes=text.encode()).run.pk
                       for m, text in zip(matches, chosen, strict=True)]
            finally:
                submission._verification_enqueue_on_commit = send  # type: ignore[assignment]
            collecting: dict[str, float] = {"since": 0.0, "cpu": 0.0}

            def collection(phase: str, info: dict[str, int]) -> None:
                if phase == "start":
                    collecting["since"] = time.process_time()
                else:
                    collecting["cpu"] += time.process_time() - collecting["since"]

            gc.callbacks.append(collection)
            try:
                cpu = time.process_time()
                match_runs_verify(run_ids=ids)
                chunk = (time.process_time() - cpu) / logs * 1000
            finally:
                gc.callbacks.remove(collection)
            collector = collecting["cpu"] / logs * 1000
        finally:
            Match.objects.filter(pk__in=[m.pk for m in matches]).delete()
        # each part is a separate timing: on a busy machine they need not add up
        return (f"  where a chunk's CPU goes, ms per log ({logs} logs, each part timed alone): "
                f"a chunk's verification {chunk:.2f} (the garbage collector's share "
                f"{collector:.2f}: most of it a full collection, when one falls in the chunk), "
                f"of which the engine's judgement "
                f"{judged:.2f}: reading and schema-checking the log {schema:.2f} (with the "
                f"check's memory of valid events emptied, as a worker meets new logs: "
                f"{schema_cold:.2f}), replay and "
                f"timeline {replayed:.2f} (the replay alone, for the verdict {verdict_only:.2f}), "
                f"the timeline's JSON form {json_form:.2f}, the rest the board and glue; the "
                f"rest of the chunk is storing (ORM, SQL, JSON encoding, timeline chunks)")

    def _target_line(self, label: str, per_log_ms: float, target_ms: float) -> None:
        verdict = "met" if per_log_ms <= target_ms else "NOT met"
        self.stdout.write(self.style.SUCCESS(
            f"  CPU per log, {label}: {per_log_ms:.2f} ms (target <= {target_ms:.1f} ms: "
            f"{verdict}; ratio {per_log_ms / target_ms:.2f})"))

    def _cpu_line(self, label: str, total: int, cpu: float, workers: int) -> None:
        per_log = cpu / total * 1000
        self.stdout.write(
            f"  {label}: workers' CPU {cpu:.1f} s = {per_log:.2f} ms per log -> "
            f"{workers * 1000 / per_log:.0f} logs/s on {workers} idle cores (workers only)"
        )

    def _submit_all(
        self, matches: list[Match], user: Any, texts: list[str], threads: int
    ) -> None:
        def submit(part: list[tuple[int, Match]]) -> None:
            try:
                for i, match in part:
                    match_log_submit(
                        match=match, submitted_by=user, log_bytes=texts[i % len(texts)].encode()
                    )
            finally:
                connection.close()

        numbered = list(enumerate(matches))
        parts = [numbered[k::threads] for k in range(threads)]
        if threads == 1:
            for i, match in numbered:
                match_log_submit(
                    match=match, submitted_by=user, log_bytes=texts[i % len(texts)].encode()
                )
            return
        workers = [threading.Thread(target=submit, args=(part,)) for part in parts]
        for worker in workers:
            worker.start()
        for worker in workers:
            worker.join()

    def _matches(self, total: int, users: tuple[Any, Any] | None = None
                 ) -> tuple[list[Match], Any, Any]:
        if users is not None:  # the benchmark's players again
            players = [Player.objects.get(user=user) for user in users]
        else:
            User = get_user_model()
            tag = uuid.uuid4().hex[:8]
            users = tuple(User.objects.create(username=f"bench-{tag}-{side}") for side in (1, 2))
            players = [
                Player.objects.create(user=user, display_name=user.username) for user in users
            ]
        matches = Match.objects.bulk_create(Match() for _ in range(total))
        MatchSide.objects.bulk_create(
            MatchSide(match=match, side=side, player=players[side - 1])
            for match in matches for side in (1, 2)
        )
        return matches, users[0], users[1]

    def _worker(self, queue: str, index: int, pool: str, prefetch: int | None
                ) -> subprocess.Popen[bytes]:
        env = {**os.environ, "CELERY_TASK_DEFAULT_QUEUE": queue, "DEBUG": "0",
               "SECRET_KEY": os.environ.get("SECRET_KEY", settings.SECRET_KEY)}
        command = [
            sys.executable, "-m", "celery", "-A", "yomi_site", "worker", "-Q", queue,
            "-n", f"{queue}-{index}@{socket.gethostname()}", "--concurrency=1",
            "--without-gossip", "--without-mingle", "-l", "warning", f"--pool={pool}",
            *([f"--prefetch-multiplier={prefetch}"] if prefetch else []),
        ]
        return subprocess.Popen(command, cwd=REPO_ROOT, env=env)

    def _wait_ready(self, queue: str, workers: list[subprocess.Popen[bytes]]) -> None:
        """Wait until every worker answers a ping by name."""
        names = [f"{queue}-{i}@{socket.gethostname()}" for i in range(len(workers))]
        deadline = time.monotonic() + 240  # a loaded machine takes minutes to start them
        while len(app.control.ping(destination=names, timeout=0.5) or []) < len(workers):
            if time.monotonic() > deadline:
                raise CommandError("the benchmark workers did not start")

