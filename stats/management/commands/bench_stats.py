"""Benchmark for issue 20 (not a test): statistics pages over many games; writes rolled back.

    python manage.py bench_stats [--games 100000] [--small 1000] [--repeat 15]

Fills the database in bulk with ``--small`` games' facts, rebuilds the aggregates, measures the
character page, the matchup chart and a player page (server time through the Django test client,
and the number of queries), then grows the data to ``--games`` and measures again: the times
should stay under the target and the query counts equal. The facts are random but shaped like
real ones (20 characters, four modes, events, two years of months, combos); the measured player
also has 500 rating points. Everything runs in one transaction that is rolled back.
"""

from __future__ import annotations

import datetime as dt
import random
import statistics
import time
from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import connection, transaction
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from django.utils import timezone

from matches.models import Match, Player
from rules_engine.cards import characters
from stats.models import OPTIONS, ComboRecord, GameRecord, GameSide
from stats.services import month_of, stats_rebuild
from tournaments.models import Event, Game, RatingHistory, Set, Stage

TARGET_MS = 150.0
MODES = [Match.Mode.VERSUS] * 7 + [Match.Mode.TRIPLE_THREAT, Match.Mode.TAG_TEAM,
                                   Match.Mode.DRAMATIC_BATTLE]


class _Rollback(Exception):
    pass


class Command(BaseCommand):
    help = "Fill many games' facts, time the statistics pages and count their queries."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--games", type=int, default=100_000)
        parser.add_argument("--small", type=int, default=1_000)
        parser.add_argument("--players", type=int, default=300)
        parser.add_argument("--events", type=int, default=40)
        parser.add_argument("--repeat", type=int, default=15)
        parser.add_argument("--seed", type=int, default=20)

    def handle(self, *args: Any, **options: Any) -> None:
        self.rng = random.Random(options["seed"])
        self.repeat = options["repeat"]
        try:
            with transaction.atomic():
                self.setup(options["players"], options["events"])
                results = []
                filled = 0
                for size in (options["small"], options["games"]):
                    start = time.perf_counter()
                    self.fill(size - filled)
                    filled = size
                    fill_s = time.perf_counter() - start
                    start = time.perf_counter()
                    summary = stats_rebuild()
                    rebuild_s = time.perf_counter() - start
                    self.stdout.write(
                        f"{summary['games']:,} games' facts ({GameSide.objects.count():,} sides, "
                        f"{ComboRecord.objects.count():,} combos): filled in {fill_s:.1f} s, "
                        f"aggregates rebuilt in {rebuild_s:.1f} s ({summary['character']:,} "
                        f"character rows, {summary['player']:,} player rows)"
                    )
                    results.append((size, self.measure()))
                self.summarise(results)
                raise _Rollback
        except _Rollback:
            self.stdout.write("(every write was rolled back)")

    # ------------------------------------------------------------------ data

    def setup(self, n_players: int, n_events: int) -> None:
        User = get_user_model()
        tag = f"bench-stats-{time.time_ns()}"
        users = User.objects.bulk_create(
            [User(username=f"{tag}-{i}") for i in range(n_players)])
        self.players = Player.objects.bulk_create(
            [Player(user=u, display_name=f"Bench {tag[-6:]} {i}") for i, u in enumerate(users)])
        self.events = Event.objects.bulk_create(
            [Event(name=f"Bench event {i}", slug=f"{tag}-event-{i}") for i in range(n_events)])
        self.characters = sorted(characters())
        self.now = timezone.now()
        # the measured player: the first one, with a rating history of 500 rated games
        stage = Stage.objects.create(event=self.events[0], name="Bench", kind="single_elimination")
        bench_set = Set.objects.create(stage=stage, key="B1", bracket="winners", round=1,
                                       position=1)
        games = Game.objects.bulk_create(
            Game(set=bench_set, number=i + 1, winner_side="a", played_at=self.now)
            for i in range(500))
        RatingHistory.objects.bulk_create(
            RatingHistory(player=self.players[0], game=g, mu=25 + i / 50, sigma=8 - i / 100,
                          ordinal=i / 20, recorded_at=self.now - dt.timedelta(hours=500 - i))
            for i, g in enumerate(games))

    def fill(self, n: int) -> None:
        rng = self.rng
        matches = Match.objects.bulk_create(
            [Match(status=Match.Status.CONFIRMED, result_source=Match.ResultSource.LOG,
                   winner_side=1) for _ in range(n)], batch_size=5000)
        records, sides, combos = [], [], []
        weights = [1 + (i % 7) for i in range(len(self.characters))]  # uneven popularity
        for match in matches:
            played_at = self.now - dt.timedelta(days=rng.random() * 730)
            month = month_of(played_at)
            mode = rng.choice(MODES)
            event = rng.choice(self.events) if rng.random() < 0.3 else None
            c1, c2 = rng.choices(self.characters, weights=weights, k=2)
            # the measured player plays a lot: 1 game in 50
            p1 = self.players[0] if rng.random() < 0.02 else rng.choice(self.players)
            p2 = rng.choice([p for p in self.players[1:6] if p is not p1])
            if rng.random() < 0.5:
                p2 = rng.choice(self.players[1:])
            if p2 is p1:
                p2 = self.players[-1]
            winner = rng.choice((1, 2))
            turns = rng.randint(8, 40)
            records.append(GameRecord(
                match=match, mode=mode, event=event, played_at=played_at, month=month,
                turns=turns, how="ko", winner_seat=winner, fingerprint="bench"))
            for seat, (me, other, ch, och) in enumerate(((p1, p2, c1, c2), (p2, p1, c2, c1)), 1):
                won = seat == winner
                deficit = rng.randint(0, 40)
                options = {f"option_{o}": rng.randint(0, turns // 3) for o in OPTIONS}
                n_combos = rng.randint(1, 4)
                combo_damage = [rng.randint(3, 45) for _ in range(n_combos)]
                sides.append(GameSide(
                    game=match and records[-1], seat=seat, player=me, opponent=other,
                    character=ch, opponent_character=och, result="win" if won else "loss",
                    largest_deficit=deficit, mode=mode,
                    event_key=event.pk if event else 0, month=month, played_at=played_at,
                    turns=turns, damage_dealt=sum(combo_damage), combos=n_combos,
                    combo_damage=sum(combo_damage), knockdowns=rng.randint(0, 3),
                    gold_bursts=rng.randint(0, 2), rewinds=rng.randint(0, 1),
                    power_up_jokers=rng.randint(0, 1), pump_jokers=rng.randint(0, 1),
                    bluffs=rng.randint(0, 3), aces_spent=rng.randint(0, 3),
                    comebacks=int(won and deficit > 0), deficit_overcome=deficit if won else 0,
                    **options,
                ))
                if seat == 1:  # one side's combos: enough rows for the top-combo index
                    combos.extend(
                        ComboRecord(game=records[-1], seat=seat, turn=rng.randint(1, turns),
                                    character=ch, opponent_character=och, cards=["7H", "8H"],
                                    damage=d, mode=mode, event_key=event.pk if event else 0,
                                    month=month)
                        for d in combo_damage)
        GameRecord.objects.bulk_create(records, batch_size=5000)
        GameSide.objects.bulk_create(sides, batch_size=5000)
        ComboRecord.objects.bulk_create(combos, batch_size=5000)
        if connection.vendor == "postgresql":
            with connection.cursor() as cursor:
                cursor.execute("ANALYZE stats_gameside; ANALYZE stats_comborecord; "
                               "ANALYZE stats_characterstat; ANALYZE stats_playerstat")

    # ------------------------------------------------------------------ measuring

    def pages(self) -> list[tuple[str, str, dict[str, str]]]:
        month = month_of(self.now).strftime("%Y-%m")
        year_ago = month_of(self.now - dt.timedelta(days=365)).strftime("%Y-%m")
        setsuki = reverse("stats:character", args=["setsuki"])
        player = reverse("stats:player", args=[self.players[0].pk])
        return [
            ("character page", setsuki, {}),
            ("character page, Versus, last 12 months", setsuki,
             {"mode": "versus", "since": year_ago, "until": month}),
            ("matchup chart", reverse("stats:matchups"), {}),
            ("matchup chart, Versus, last 12 months", reverse("stats:matchups"),
             {"mode": "versus", "since": year_ago, "until": month}),
            ("player page", player, {}),
            ("player page, one event", player, {"event": self.events[0].slug}),
            ("leaderboard, Versus", reverse("stats:leaderboards"), {"mode": "versus"}),
        ]

    def measure(self) -> dict[str, tuple[float, float, int]]:
        client = Client(HTTP_HOST="localhost")
        out = {}
        for name, url, params in self.pages():
            client.get(url, params)  # warm caches (templates, plans)
            times, queries = [], set()
            for _ in range(self.repeat):
                with CaptureQueriesContext(connection) as ctx:
                    start = time.perf_counter()
                    response = client.get(url, params)
                    times.append((time.perf_counter() - start) * 1000)
                assert response.status_code == 200, (url, response.status_code)
                queries.add(len(ctx.captured_queries))
            out[name] = (statistics.median(times), max(times), max(queries))
        return out

    def summarise(self, results: list[tuple[int, dict[str, tuple[float, float, int]]]]) -> None:
        (small, before), (large, after) = results
        self.stdout.write(
            f"\n{'page':42} {'median ms':>10} {'max ms':>8} {'queries':>8}"
            f" {'queries at ' + format(small, ','):>18}  target {TARGET_MS:.0f} ms")
        for name, (median, worst, queries) in after.items():
            ok = "ok" if median <= TARGET_MS and queries == before[name][2] else "MISSED"
            self.stdout.write(f"{name:42} {median:10.1f} {worst:8.1f} {queries:8d}"
                              f" {before[name][2]:18d}  {ok}")
        self.stdout.write(f"(times over {self.repeat} requests each, at {large:,} games)")
