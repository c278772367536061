"""Load run under fire: players submit and confirm logs over HTTP while workers are killed and
the broker is stopped and restarted. Prints results lost, doubled and stuck, and HTTP 500s.

    DATABASE_URL=postgres://postgres@127.0.0.1:5432/yomi_load \\
        python manage.py load_reliability --entrants 64 --duration 180

Loopback only (127.0.0.1) and bounded: ``--duration`` seconds of load (at most 480), then at most
``--drain`` seconds (at most 120) for the sweeper to finish what the faults left, then the
checks. Everything it starts is its own and is stopped at the end: a throwaway ``redis-server``
on ``--redis-port`` (6390: never the shared 6379), a gunicorn on a free port, ``--workers``
Celery workers and one Celery beat (the sweeper, every 5 s, for work older than 20 s).

The scenario: one Versus single-elimination event, best of 1, ``--entrants`` players. The driver
opens the match of every ready set; ``--players`` client threads submit side 1's log and, once it
is verified, confirm it as side 2, through the API with token authentication; each confirmed
game finishes its set and the bracket advances through the result callbacks. A chaos thread
SIGKILLs a random worker every ``--kill-every`` seconds (and starts a fresh one) and shuts the
broker down (losing every queued message: it keeps no data) every ``--outage-every`` seconds for
``--outage-for`` seconds. Rate limits stay on, counted in that Redis, with rates high enough for
every player sharing one address.
"""

from __future__ import annotations

import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
import urllib.error
import urllib.request
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand, CommandError
from django.db import connection
from django.db.models import Count
from rest_framework.authtoken.models import Token

from matches.models import AuditEntry, Match, MatchLog, Player, VerificationRun
from rules_engine.selfplay import play_game
from tournaments.errors import TournamentError
from tournaments.models import Entrant, EntrantMember, Event, Game, Set, SetMatch, Stage
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open

REPO_ROOT = Path(__file__).resolve().parents[3]
MAX_DURATION, MAX_DRAIN = 480, 120


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Stats:
    lock: threading.Lock = field(default_factory=threading.Lock)
    statuses: Counter[str] = field(default_factory=Counter)
    confirmed: set[int] = field(default_factory=set)  # matches whose confirmation answered 200
    kills: int = 0
    outages: int = 0

    def count(self, what: str) -> None:
        with self.lock:
            self.statuses[what] += 1


class Processes:
    """The run's own processes: redis-server, gunicorn, workers, beat."""

    def __init__(self, redis_port: int, env: dict[str, str], log_dir: Path) -> None:
        self.redis_port, self.env, self.log_dir = redis_port, env, log_dir
        self.workers: list[subprocess.Popen[bytes]] = []
        self.others: list[subprocess.Popen[bytes]] = []

    def _spawn(self, name: str, command: list[str]) -> subprocess.Popen[bytes]:
        log = (self.log_dir / f"{name}.log").open("ab")
        return subprocess.Popen(command, cwd=REPO_ROOT, env=self.env, stdout=log,
                                stderr=subprocess.STDOUT, start_new_session=True)

    def redis_start(self) -> None:
        subprocess.run(["redis-server", "--port", str(self.redis_port), "--bind", "127.0.0.1",
                        "--save", "", "--appendonly", "no", "--daemonize", "yes",
                        "--logfile", str(self.log_dir / "redis.log")], check=True)
        for _ in range(50):
            if self.redis_answers():
                return
            time.sleep(0.1)
        raise CommandError(f"redis-server on port {self.redis_port} did not start")

    def redis_answers(self) -> bool:
        result = subprocess.run(["redis-cli", "-p", str(self.redis_port), "ping"],
                                capture_output=True, text=True)
        return result.stdout.strip() == "PONG"

    def redis_stop(self) -> None:
        subprocess.run(["redis-cli", "-p", str(self.redis_port), "shutdown", "nosave"],
                       capture_output=True)
        for _ in range(50):
            if not self.redis_answers():
                return
            time.sleep(0.1)

    def worker_start(self) -> None:
        n = len(self.workers)
        self.workers.append(self._spawn(f"worker{n}", [
            sys.executable, "-m", "celery", "-A", "yomi_site", "worker", "-n", f"load{n}@%h",
            "--concurrency=2", "--without-gossip", "--without-mingle", "-l", "warning",
        ]))

    def worker_kill(self, rng: random.Random) -> None:
        alive = [w for w in self.workers if w.poll() is None]
        if alive:
            victim = rng.choice(alive)
            os.killpg(victim.pid, signal.SIGKILL)
            victim.wait(timeout=30)

    def start_web_and_beat(self, port: int) -> None:
        self.others.append(self._spawn("gunicorn", [
            sys.executable, "-m", "gunicorn", "yomi_site.wsgi", "-b", f"127.0.0.1:{port}",
            "--workers", "3", "--timeout", "60", "--log-level", "warning",
        ]))
        self.others.append(self._spawn("beat", [
            sys.executable, "-m", "celery", "-A", "yomi_site", "beat", "-l", "warning",
            "-s", str(self.log_dir / "beat-schedule"),
        ]))

    def stop_all(self) -> None:
        for process in [*self.workers, *self.others]:
            if process.poll() is None:
                os.killpg(process.pid, signal.SIGTERM)
        for process in [*self.workers, *self.others]:
            try:
                process.wait(timeout=30)
            except subprocess.TimeoutExpired:
                os.killpg(process.pid, signal.SIGKILL)
        self.redis_stop()


class Client:
    """One player's HTTP client (token auth); retries a step as a real client would."""

    def __init__(self, base: str, token: str, stats: Stats) -> None:
        self.base, self.token, self.stats = base, token, stats

    def call(self, method: str, path: str, body: dict[str, Any] | None = None) -> tuple[int, Any]:
        data = json.dumps(body).encode() if body is not None else None
        request = urllib.request.Request(
            self.base + path, data=data, method=method,
            headers={"Authorization": f"Token {self.token}", "Content-Type": "application/json"},
        )
        try:
            with urllib.request.urlopen(request, timeout=30) as response:
                status, payload = response.status, response.read()
        except urllib.error.HTTPError as error:
            status, payload = error.code, error.read()
        except OSError:
            self.stats.count("connection error")
            return 0, None
        self.stats.count(str(status))
        try:
            return status, json.loads(payload)
        except ValueError:
            return status, None


class Command(BaseCommand):
    help = "Players submit and confirm logs while workers are killed and the broker restarts."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--entrants", type=int, default=64)
        parser.add_argument("--players", type=int, default=8, help="client threads")
        parser.add_argument("--workers", type=int, default=2)
        parser.add_argument("--duration", type=int, default=180)
        parser.add_argument("--drain", type=int, default=90)
        parser.add_argument("--kill-every", type=float, default=15.0)
        parser.add_argument("--outage-every", type=float, default=40.0)
        parser.add_argument("--outage-for", type=float, default=8.0)
        parser.add_argument("--redis-port", type=int, default=6390)
        parser.add_argument("--seed", type=int, default=11)

    def handle(self, *args: Any, **options: Any) -> None:
        if connection.vendor != "postgresql":
            raise CommandError("set DATABASE_URL to PostgreSQL first")
        if options["redis_port"] == 6379:
            raise CommandError("the load run stops its broker: use a throwaway port, not 6379")
        duration = min(options["duration"], MAX_DURATION)
        drain = min(options["drain"], MAX_DRAIN)
        rng = random.Random(options["seed"])
        log_dir = Path(tempfile.mkdtemp(prefix="yomi-load-"))
        port = _free_port()
        base = f"http://127.0.0.1:{port}"
        db = connection.settings_dict
        auth = db["USER"] + (f":{db['PASSWORD']}" if db["PASSWORD"] else "")
        env = {
            **os.environ,
            "DJANGO_SETTINGS_MODULE": "yomi_site.settings",
            "DATABASE_URL": f"postgres://{auth}@{db['HOST'] or '127.0.0.1'}:{db['PORT'] or 5432}"
                            f"/{db['NAME']}",
            "REDIS_URL": f"redis://127.0.0.1:{options['redis_port']}/0",
            "CELERY_TASK_ALWAYS_EAGER": "0",
            "CELERY_TASK_DEFAULT_QUEUE": "load",
            "CELERY_VISIBILITY_TIMEOUT": "30",
            "YOMI_SWEEP_INTERVAL": "5",
            "YOMI_SWEEP_AFTER": "20",
            # Limits on, counted in the same Redis (so its outages hit them too), but high:
            # every player of the run shares one address.
            "YOMI_RATE_LIMITS_ENABLED": "1",
            "YOMI_RATE_SUBMIT_IP": "100000/m",
            "YOMI_RATE_SUBMIT_USER": "1000/m",
            "SECRET_KEY": "load-run-only-" + os.urandom(8).hex(),
            "DEBUG": "1",
            "ALLOWED_HOSTS": "127.0.0.1",
        }
        self.stdout.write(f"load run: logs and process output in {log_dir}")
        self.events: list[int] = []
        self.tokens: dict[int, str] = {}
        self.entrants, self.seed = options["entrants"], options["seed"]
        logs = self._logs(rng)
        stats = Stats()
        procs = Processes(options["redis_port"], env, log_dir)
        if procs.redis_answers():
            raise CommandError(f"something already answers on port {options['redis_port']}")
        procs.redis_start()
        stop = threading.Event()
        chaos = threading.Thread(target=self._chaos, args=(procs, stats, stop, rng, options))
        try:
            for _ in range(options["workers"]):
                procs.worker_start()
            procs.start_web_and_beat(port)
            self._wait_web(base)
            started = time.monotonic()
            chaos.start()
            self._play(logs, base, stats, stop, duration, options["players"])
            stop.set()
            chaos.join()
            if not procs.redis_answers():
                procs.redis_start()
            while sum(w.poll() is None for w in procs.workers) < options["workers"]:
                procs.worker_start()
            load_seconds = time.monotonic() - started
            drained = self._drain(stats, drain)
        finally:
            stop.set()  # also on an error: the chaos thread must not start anything afterwards
            if chaos.is_alive():
                chaos.join()
            procs.stop_all()
        self._report(stats, load_seconds, drained)

    # --- setup -----------------------------------------------------------------------------

    def _scenario(self, n: int, seed: int) -> tuple[Event, dict[int, str]]:
        """One more bracket: a new event with ``n`` new players (a run plays several in turn)."""
        user_model = get_user_model()
        tag = f"load{seed}-{int(time.time() * 1000)}"
        organizer = user_model.objects.create_user(username=f"{tag}-org", password=None)
        event = Event.objects.create(name=f"Load run {tag}", slug=tag, best_of=1,
                                     status=Event.Status.REGISTRATION)
        event.organizers.add(organizer)
        tokens = {}
        for i in range(1, n + 1):
            user = user_model.objects.create_user(username=f"{tag}-p{i}", password=None)
            player = Player.objects.create(user=user, display_name=f"{tag} P{i}")
            entrant = Entrant.objects.create(event=event, name=player.display_name, seed=i)
            EntrantMember.objects.create(entrant=entrant, event=event, player=player)
            tokens[user.pk] = Token.objects.create(user=user).key
        stage = Stage.objects.create(event=event, name="Bracket", order=1,
                                     kind=Stage.Kind.SINGLE_ELIMINATION)
        stage_generate(stage=stage, actor=organizer)
        return event, tokens

    def _logs(self, rng: random.Random) -> list[str]:
        seeds = rng.sample(range(1, 400), 24)
        return [play_game("grave", "jaina", seed)[1].dumps() for seed in seeds]

    def _wait_web(self, base: str) -> None:
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            try:
                urllib.request.urlopen(base + "/api/events/", timeout=2)
                return
            except OSError:
                time.sleep(0.3)
        raise CommandError("gunicorn did not answer")

    # --- load and chaos --------------------------------------------------------------------

    def _chaos(self, procs: Processes, stats: Stats, stop: threading.Event,
               rng: random.Random, options: dict[str, Any]) -> None:
        next_kill = time.monotonic() + options["kill_every"]
        next_outage = time.monotonic() + options["outage_every"] / 2
        while not stop.wait(0.5):
            now = time.monotonic()
            if now >= next_kill:
                procs.worker_kill(rng)
                procs.worker_start()
                stats.kills += 1
                next_kill = now + options["kill_every"]
            if now >= next_outage:
                procs.redis_stop()
                stats.outages += 1
                stop.wait(options["outage_for"])
                procs.redis_start()
                next_outage = time.monotonic() + options["outage_every"]

    def _play(self, logs: list[str], base: str, stats: Stats, stop: threading.Event,
              duration: int, players: int) -> None:
        deadline = time.monotonic() + duration
        work: list[Match] = []
        claimed: set[int] = set()
        lock = threading.Lock()

        def player_loop(index: int) -> None:
            rng = random.Random(index)
            while time.monotonic() < deadline:
                with lock:
                    match = next((m for m in work if m.pk not in claimed), None)
                    if match is not None:
                        claimed.add(match.pk)
                if match is None:
                    time.sleep(0.2)
                    continue
                self._play_match(match, rng.choice(logs), base, stats, deadline)
            connection.close()

        threads = [threading.Thread(target=player_loop, args=(i,)) for i in range(players)]
        for thread in threads:
            thread.start()
        event = None
        while time.monotonic() < deadline:
            if event is None or not Set.objects.filter(stage__event=event).exclude(
                status__in=(Set.Status.FINISHED, Set.Status.SKIPPED)
            ).exists():
                event, tokens = self._scenario(self.entrants, self.seed)  # the next bracket
                self.events.append(event.pk)
                self.tokens.update(tokens)
            for s in Set.objects.filter(stage__event=event, status=Set.Status.READY):
                if not SetMatch.objects.filter(set=s, is_recorded=False).exists():
                    try:
                        match = set_match_open(set=s, actor=event.organizers.first())
                    except TournamentError:
                        continue  # finished meanwhile (its game was just recorded)
                    with lock:
                        work.append(match)
            time.sleep(0.5)
        for thread in threads:
            thread.join()

    def _play_match(self, match: Match, log: str, base: str, stats: Stats,
                    deadline: float) -> None:
        side_user = dict(match.sides.values_list("side", "player__user_id"))
        one, two = (Client(base, self.tokens[side_user[s]], stats) for s in (1, 2))
        while time.monotonic() < deadline:
            status, _ = one.call("POST", f"/api/matches/{match.pk}/logs/", {"log_text": log})
            if status in (200, 201):
                break
            time.sleep(1)
        while time.monotonic() < deadline:
            status, body = two.call("GET", f"/api/matches/{match.pk}/")
            if status == 200 and body and body.get("status") == "awaiting_confirmation":
                status, _ = two.call("POST", f"/api/matches/{match.pk}/confirm/")
                if status == 200:
                    with stats.lock:
                        stats.confirmed.add(match.pk)
                    return
            time.sleep(1)

    # --- checks ------------------------------------------------------------------------------

    def _stuck(self) -> dict[str, int]:
        matches = Match.objects.filter(set_link__set__stage__event__in=self.events)
        return {
            "runs pending or running": VerificationRun.objects.filter(
                log__match__in=matches, status__in=("pending", "running")).count(),
            "result callbacks owed": matches.filter(
                result_callback_pending_since__isnull=False).count(),
            "confirmed matches without their game": matches.filter(
                status=Match.Status.CONFIRMED, set_game__isnull=True).count(),
        }

    def _drain(self, stats: Stats, drain: int) -> float:
        started = time.monotonic()
        while time.monotonic() - started < drain:
            if not any(self._stuck().values()):
                break
            time.sleep(2)
        return time.monotonic() - started

    def _report(self, stats: Stats, load_seconds: float, drained: float) -> None:
        events = self.events
        matches = Match.objects.filter(set_link__set__stage__event__in=events)
        confirmed = stats.confirmed
        lost = [
            pk for pk in confirmed
            if not Game.objects.filter(match_id=pk).exists()
            or Match.objects.get(pk=pk).status != Match.Status.CONFIRMED
        ]
        doubled = {
            "games per match > 1": Game.objects.filter(set__stage__event__in=events).values(
                "match").annotate(n=Count("id")).filter(n__gt=1, match__isnull=False).count(),
            "games per best-of-1 set > 1": Set.objects.filter(stage__event__in=events).annotate(
                n=Count("games")).filter(n__gt=1).count(),
            "runs per log > 1": MatchLog.objects.filter(match__in=matches).annotate(
                n=Count("runs")).filter(n__gt=1).count(),
            "result confirmations per match > 1": AuditEntry.objects.filter(
                match__in=matches, action=AuditEntry.Action.RESULT_CONFIRMED).values(
                "match").annotate(n=Count("id")).filter(n__gt=1).count(),
        }
        stuck = self._stuck()
        sets = Set.objects.filter(stage__event__in=events)
        summary = {
            "load_seconds": round(load_seconds, 1),
            "drain_seconds": round(drained, 1),
            "worker_kills": stats.kills,
            "broker_outages": stats.outages,
            "matches_opened": matches.count(),
            "confirmations_acknowledged": len(confirmed),
            "brackets": len(events),
            "games_recorded": Game.objects.filter(set__stage__event__in=events).count(),
            "sets_finished": sets.filter(status=Set.Status.FINISHED).count(),
            "sets_total": sets.exclude(status=Set.Status.SKIPPED).count(),
            "results_lost": len(lost),
            "results_doubled": sum(doubled.values()),
            "results_stuck": sum(stuck.values()),
            "http_500": stats.statuses.get("500", 0),
            "http_statuses": dict(sorted(stats.statuses.items())),
            "doubled_detail": doubled,
            "stuck_detail": stuck,
        }
        self.stdout.write(json.dumps(summary, indent=2))
