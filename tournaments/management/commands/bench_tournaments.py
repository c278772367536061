"""Benchmarks for issue 4 (not tests): prints timings; every write is rolled back.

    python manage.py bench_tournaments [--repeat 3]

1. Generating a 4,096-entrant double elimination: the pure bracket (tournaments.formats) and the
   whole service (entrants, stage entries, 8,191 sets written, byes resolved). Target: <= 2 s.
2. Pairing a Swiss round for 1,000 entrants after three played rounds: the pure pairer and the
   service that reads the stage and writes the round. Target: <= 1 s.
3. Rendering the 256-entrant double-elimination bracket page (half played), server time through
   the Django test client. Target: <= 300 ms.
4. Issue 17 (pages): the 4,096-entrant double-elimination page (target <= 300 ms, anchor 1.09 s
   and 3.6 MiB), one 512-entrant round-robin group (anchor 15.4 s to generate and a 19.5 s page:
   now refused above the cap, so the largest allowed group is timed instead) and the public match
   page of a legal 2 MB log (target <= 100 ms, anchor 2.1 s and 2.9 MiB). ``--only`` picks some.
"""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction
from django.test import Client

from matches.models import Player
from tournaments.formats import elimination, swiss
from tournaments.formats.types import SwissEntrant
from tournaments.models import Entrant, EntrantMember, Event, Set, Stage
from tournaments.services.advancement import GameInput, SetResult, set_result_report
from tournaments.services.generation import stage_generate
from tournaments.services.swiss import swiss_pair_next_round


class _Rollback(Exception):
    pass


def _timed(fn: Callable[[], Any]) -> float:
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


class Command(BaseCommand):
    help = "Time bracket generation, Swiss pairing and the bracket page (writes are rolled back)."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--repeat", type=int, default=3)
        parser.add_argument("--only", nargs="*", default=None,
                            choices=["generate", "swiss", "page256", "page4096",
                                     "round_robin", "match_page"])

    def handle(self, *args: Any, **options: Any) -> None:
        repeat = options["repeat"]
        only = set(options["only"] or ())
        if only:
            for name in ("page4096", "round_robin", "match_page"):
                if name in only:
                    getattr(self, f"bench_{name}")(repeat)
            return
        self.report("4,096 double elimination, formats only", 2.0,
                    [_timed(lambda: elimination.double_elimination(4096)) for _ in range(repeat)])
        self.report("4,096 double elimination, stage_generate (DB)", 2.0,
                    [self.in_rollback(self.generate_4096) for _ in range(repeat)])
        self.report("Swiss round, 1,000 entrants, formats only", 1.0,
                    [self.swiss_pure() for _ in range(repeat)])
        self.report("Swiss round, 1,000 entrants, service (DB)", 1.0,
                    [self.in_rollback(self.swiss_service) for _ in range(repeat)])
        self.report("256-entrant double-elimination page", 0.3,
                    self.in_rollback(lambda: self.bracket_page(repeat), many=True))

        self.bench_page4096(repeat)
        self.bench_round_robin(repeat)
        self.bench_match_page(repeat)

    def report(self, label: str, target: float, times: list[float], anchor: str = "",
               extra: str = "") -> None:
        best, worst = min(times), max(times)
        verdict = "ok" if best <= target else "SLOW"
        self.stdout.write(
            f"{label:<50} best {best * 1000:8.1f} ms  worst {worst * 1000:8.1f} ms  "
            f"(target {target * 1000:.0f} ms: {verdict})"
            + (f"  [anchor {anchor}]" if anchor else "") + (f"  {extra}" if extra else "")
        )

    def _page(self, url: str, repeat: int) -> tuple[list[float], int, int]:
        """Server time of ``repeat`` anonymous GETs (after one to warm the template cache), the
        page's size in bytes and the queries of one request."""
        from django.db import connection
        from django.test.utils import CaptureQueriesContext

        client = Client(HTTP_HOST="localhost")
        client.get(url, secure=True)
        times = []
        size = 0
        for _ in range(repeat):
            start = time.perf_counter()
            response = client.get(url, secure=True)
            times.append(time.perf_counter() - start)
            assert response.status_code == 200, response.status_code
            size = len(response.content)
        with CaptureQueriesContext(connection) as queries:
            client.get(url, secure=True)
        return times, size, len(queries)

    def bench_page4096(self, repeat: int) -> None:
        def run() -> tuple[list[float], int, int]:
            event, organizer = self._event(4096, name="page4096")
            stage = Stage.objects.create(event=event, name="Bracket",
                                         kind=Stage.Kind.DOUBLE_ELIMINATION)
            stage_generate(stage=stage, actor=organizer)
            return self._page(f"/events/{event.slug}/stages/{stage.pk}/", repeat)

        times, size, queries = self.in_rollback(run)
        self.report("4,096-entrant double-elimination page", 0.3, times,
                    anchor="1.09 s, 3.6 MiB",
                    extra=f"{size / 1024 / 1024:.2f} MiB, {queries} queries")

    def bench_round_robin(self, repeat: int) -> None:
        from tournaments.errors import TournamentError

        def run(n: int) -> tuple[float, str, list[float], int, int]:
            event, organizer = self._event(n, name=f"rr{n}")
            stage = Stage.objects.create(event=event, name="Groups", kind=Stage.Kind.ROUND_ROBIN)
            start = time.perf_counter()
            refused = ""
            try:
                stage_generate(stage=stage, actor=organizer)
            except TournamentError as exc:
                refused = exc.message
            generated = time.perf_counter() - start
            if refused:
                return generated, refused, [], 0, 0
            times, size, queries = self._page(f"/events/{event.slug}/stages/{stage.pk}/",
                                              repeat)
            return generated, refused, times, size, queries

        generated, refused, times, size, queries = self.in_rollback(lambda: run(512))
        if refused:
            self.report("512-entrant round-robin group: refused", 1.0, [generated],
                        anchor="15.4 s to generate", extra=f"'{refused}'")
            from tournaments.services.generation import MAX_ROUND_ROBIN_GROUP

            cap = MAX_ROUND_ROBIN_GROUP
            generated, _, times, size, queries = self.in_rollback(lambda: run(cap))
            label = f"{cap}-entrant round-robin group (the cap)"
        else:
            label = "512-entrant round-robin group"
        self.report(f"{label}: generate", 2.0, [generated], anchor="512: 15.4 s")
        self.report(f"{label}: stage page", 0.3, times, anchor="512: 19.5 s",
                    extra=f"{size / 1024 / 1024:.2f} MiB, {queries} queries")

    def bench_match_page(self, repeat: int) -> None:
        """A legal log just under 2 MB: two passive players who never commit a card, played
        until the turn limit (the longest legal Versus log that fits the size limit)."""
        from matches.models import Match, MatchLog, VerificationRun
        from matches.services import match_create
        from matches.services.verification import match_log_verify
        from rules_engine import ruleset
        from rules_engine.bots import RandomBot
        from rules_engine.selfplay import play_game

        class Passive(RandomBot):
            name = "passive"

            def choose(self, game: Any, player: Any, legal: Any) -> Any:
                kinds = {a.kind: a for a in legal}
                for kind in ("no_card", "pass", "stop", "keep", "accept"):
                    if kind in kinds:
                        return kinds[kind]
                return super().choose(game, player, legal)

        rules = ruleset.Ruleset(timeout=ruleset.Timeout.PLAY_ON, maxTurns=17_500)
        text = play_game("grave", "jaina", 1, bots=(Passive(1), Passive(2)),
                         ruleset=rules)[1].dumps()
        assert len(text.encode()) <= 2 * 1024 * 1024, len(text)

        def run() -> tuple[list[float], int, int, float]:
            User = get_user_model()
            users = [User.objects.create(username=f"bench-mp-{i}") for i in (1, 2)]
            players = [Player.objects.create(user=u, display_name=u.username) for u in users]
            match = match_create(side_1=[players[0]], side_2=[players[1]])
            import hashlib

            log = MatchLog.objects.create(
                match=match, text=text, sha256=hashlib.sha256(text.encode()).hexdigest(),
                size_bytes=len(text.encode()), submitted_by=users[0])
            run_ = VerificationRun.objects.create(log=log)
            Match.objects.filter(pk=match.pk).update(status=Match.Status.VERIFYING)
            start = time.perf_counter()
            assert match_log_verify(run_id=run_.pk).status == "legal"
            verified = time.perf_counter() - start
            times, size, queries = self._page(f"/matches/{match.pk}/", repeat)
            return times, size, queries, verified

        times, size, queries, verified = self.in_rollback(run)
        self.report("match page, legal 2 MB log (anonymous)", 0.1, times,
                    anchor="2.1 s, 2.9 MiB",
                    extra=f"{size / 1024 / 1024:.2f} MiB, {queries} queries; "
                          f"{len(text.encode()):,} bytes verified in {verified:.1f} s")

    def in_rollback(self, fn: Callable[[], Any], *, many: bool = False) -> Any:
        result: Any = None
        try:
            with transaction.atomic():
                result = fn()
                raise _Rollback
        except _Rollback:
            pass
        return result

    # --- fixtures ----------------------------------------------------------------------------

    def _event(self, n: int, *, name: str) -> tuple[Event, Any]:
        User = get_user_model()
        organizer = User.objects.create(username=f"bench-org-{name}")
        event = Event.objects.create(name=name, slug=f"bench-{name}",
                                     status=Event.Status.REGISTRATION, best_of=1)
        event.organizers.add(organizer)
        users = User.objects.bulk_create(
            [User(username=f"bench-{name}-{i}") for i in range(n)], batch_size=1000
        )
        players = Player.objects.bulk_create(
            [Player(user=u, display_name=f"{name} player {i:04d}") for i, u in enumerate(users)],
            batch_size=1000,
        )
        entrants = Entrant.objects.bulk_create(
            [Entrant(event=event, name=p.display_name, seed=i + 1) for i, p in enumerate(players)],
            batch_size=1000,
        )
        EntrantMember.objects.bulk_create(
            [EntrantMember(entrant=e, event=event, player=p)
             for e, p in zip(entrants, players, strict=True)],
            batch_size=1000,
        )
        return event, organizer

    # --- benchmarks --------------------------------------------------------------------------

    def generate_4096(self) -> float:
        event, organizer = self._event(4096, name="de4096")
        stage = Stage.objects.create(event=event, name="Bracket",
                                     kind=Stage.Kind.DOUBLE_ELIMINATION)
        elapsed = _timed(lambda: stage_generate(stage=stage, actor=organizer))
        assert Set.objects.filter(stage=stage).count() >= 8190
        return elapsed

    def swiss_pure(self) -> float:
        ids = list(range(1, 1001))
        previous: set[frozenset[int]] = set()
        score = dict.fromkeys(ids, 0.0)
        for round_ in range(3):
            entrants = [SwissEntrant(id=i, score=score[i], seed=i) for i in ids]
            pairing = swiss.swiss_pair(entrants, previous, [])
            for a, b in pairing.pairs:
                previous.add(frozenset((a, b)))
                score[a if (a + b + round_) % 3 else b] += 1
        entrants = [SwissEntrant(id=i, score=score[i], seed=i) for i in ids]
        return _timed(lambda: swiss.swiss_pair(entrants, previous, []))

    def swiss_service(self) -> float:
        event, organizer = self._event(1000, name="swiss1000")
        stage = Stage.objects.create(event=event, name="Swiss", kind=Stage.Kind.SWISS,
                                     swiss_rounds=10)
        stage_generate(stage=stage, actor=organizer)
        for _ in range(2):  # rounds 1 and 2 played: finish them quickly in bulk
            ready = list(Set.objects.filter(stage=stage, status=Set.Status.READY))
            for i, s in enumerate(ready):
                s.status, s.outcome = Set.Status.FINISHED, Set.Outcome.PLAYED
                s.score_a, s.score_b = (1, 0) if i % 3 else (0, 1)
                s.winner_id = s.entrant_a_id if i % 3 else s.entrant_b_id
            Set.objects.bulk_update(ready, ["status", "outcome", "score_a", "score_b", "winner"])
            stage.refresh_from_db()
            swiss_pair_next_round(Stage.objects.select_related("event").get(pk=stage.pk))
        ready = list(Set.objects.filter(stage=stage, status=Set.Status.READY))
        for s in ready:
            s.status, s.outcome, s.score_a, s.winner_id = (
                Set.Status.FINISHED, Set.Outcome.PLAYED, 1, s.entrant_a_id
            )
        Set.objects.bulk_update(ready, ["status", "outcome", "score_a", "winner"])
        stage = Stage.objects.select_related("event").get(pk=stage.pk)
        return _timed(lambda: swiss_pair_next_round(stage))

    def bracket_page(self, repeat: int) -> list[float]:
        event, organizer = self._event(256, name="page256")
        stage = Stage.objects.create(event=event, name="Bracket",
                                     kind=Stage.Kind.DOUBLE_ELIMINATION)
        stage_generate(stage=stage, actor=organizer)
        win = SetResult(games=[GameInput("a")])
        for _ in range(3):  # three waves of results: winners rounds 1-3 and early losers rounds
            for s in list(Set.objects.filter(stage=stage, status=Set.Status.READY)
                          .select_related("stage__event")):
                set_result_report(set=s, actor=organizer, result=win)
        client = Client(HTTP_HOST="localhost")
        url = f"/events/{event.slug}/stages/{stage.pk}/"
        client.get(url, secure=True)  # warm the template cache
        times = []
        for _ in range(repeat):
            start = time.perf_counter()
            response = client.get(url, secure=True)
            times.append(time.perf_counter() - start)
            assert response.status_code == 200, response.status_code
        return times
