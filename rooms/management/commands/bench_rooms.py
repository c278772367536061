"""Load test of the match rooms: N concurrent Versus games played by scripted websocket clients.

Runs against an ASGI server already serving this database (``make bench-rooms`` starts one
daphne process on loopback). Each match's two players are scripted clients that click one of the
listed choices after a short think time; the figure is the choice round trip: from sending a
choice to receiving the update it caused. Bounded: ``--matches`` games, at most ``--seconds``.

``--flood N``: N anonymous spectators in another process (from 127.0.0.2, another address)
send frames as fast as they can (clock asks, junk, binary, deep and long frames) and connect
again whenever they are cut off (issue 31). ``--server-pid``: the server's resident memory is
read from /proc at the start, every second and at the end; ``/healthz`` is timed once a second.
"""

from __future__ import annotations

import asyncio
import json
import multiprocessing
import random
import statistics
import time
import uuid
from typing import Any

from django.contrib.auth import BACKEND_SESSION_KEY, HASH_SESSION_KEY, SESSION_KEY, get_user_model
from django.contrib.sessions.backends.db import SessionStore
from django.core.management.base import BaseCommand, CommandError

from matches.models import Player
from matches.services import match_create
from rooms import services
from rooms.models import Room


def _session_for(user: Any) -> str:
    session = SessionStore()
    session[SESSION_KEY] = str(user.pk)
    session[BACKEND_SESSION_KEY] = "django.contrib.auth.backends.ModelBackend"
    session[HASH_SESSION_KEY] = user.get_session_auth_hash()
    session.create()
    return str(session.session_key)


def _pick(legal: list[dict[str, Any]], rng: random.Random) -> dict[str, Any]:
    kinds: dict[str, list[dict[str, Any]]] = {}
    for choice in legal:
        kinds.setdefault(choice["action"]["action"], []).append(choice)
    return rng.choice(kinds[rng.choice(sorted(kinds))])


class Stats:
    def __init__(self) -> None:
        self.round_trips: list[float] = []
        self.errors: list[str] = []
        self.finished = 0
        self.reconnects = 0  # handshakes tried again


async def _player(url: str, origin: str, cookie: str, seat: str, rng: random.Random,
                  think: tuple[float, float], deadline: float, stats: Stats,
                  address: str = "127.0.0.1") -> None:
    import websockets

    # players arrive over a couple of seconds, not in one millisecond (a burst of 100
    # handshakes overflows the listen backlog on a loaded machine); a failed handshake is
    # tried again, and counted
    await asyncio.sleep(rng.uniform(0, 3))
    for attempt in range(4):
        try:
            ws = await websockets.connect(url, origin=origin, local_addr=(address, 0),
                                          additional_headers={"Cookie": cookie})
            break
        except (OSError, websockets.InvalidHandshake, TimeoutError) as exc:
            stats.reconnects += 1
            if attempt == 3:
                stats.errors.append(f"{seat}: could not connect: {exc}")
                return
            await asyncio.sleep(1 + rng.random())
    try:
        async with ws:
            sent_at: float | None = None
            mine_at_send = 0
            while time.monotonic() < deadline:
                try:
                    raw = await asyncio.wait_for(ws.recv(), timeout=max(0.1, deadline -
                                                                         time.monotonic()))
                except TimeoutError:
                    return
                message = json.loads(raw)
                if message.get("type") == "refused":
                    stats.errors.append(f"{seat}: refused: {message.get('reason')}")
                    sent_at = None
                    continue
                if message.get("you") != seat:
                    stats.errors.append(f"{seat}: received a message for {message.get('you')}")
                    return
                moves = message.get("moves", {}).get(seat, 0)
                if sent_at is not None and moves > mine_at_send:
                    stats.round_trips.append(time.monotonic() - sent_at)
                    sent_at = None
                if message["status"] == "finished":
                    if seat == "P1":
                        stats.finished += 1
                    return
                if sent_at is None and message.get("legal"):
                    await asyncio.sleep(rng.uniform(*think))
                    choice = _pick(message["legal"], rng)
                    mine_at_send = moves
                    sent_at = time.monotonic()
                    await ws.send(json.dumps({"type": "choose", "action": choice["action"],
                                              "decision": message["decision"]}))
    except Exception as exc:  # any failure of a client is an error of the run
        stats.errors.append(f"{seat}: {exc.__class__.__name__}: {exc}")


FLOOD_FRAMES: list[str | bytes] = [
    json.dumps({"type": "clock"}), json.dumps({"type": "choose", "action": {"action": "pass"}}),
    "{not json", b"\x00" * 64, "[" * 3000 + "]" * 3000, '{"n": ' + "9" * 5000 + "}",
    json.dumps({"type": "choose", "x": "a" * 100_000}),
]


def _flood_process(url: str, origin: str, seconds: float, out: Any) -> None:
    """One flooding spectator per call, in its own process (so its loop does not slow the
    players' clients): frames as fast as the socket takes them, reconnecting when cut off."""
    import websockets

    counts = {"sent": 0, "replies": 0, "connections": 0, "cut_off": 0}
    deadline = time.monotonic() + seconds

    async def flood() -> None:
        while time.monotonic() < deadline:
            try:
                async with websockets.connect(url, origin=origin, max_size=None,
                                              local_addr=("127.0.0.2", 0)) as ws:
                    counts["connections"] += 1

                    async def drain() -> None:
                        async for _ in ws:
                            counts["replies"] += 1

                    reader = asyncio.create_task(drain())
                    i = 0
                    while time.monotonic() < deadline and not reader.done():
                        # a server that stopped reading must not hold the flooder past the end
                        await asyncio.wait_for(ws.send(FLOOD_FRAMES[i % len(FLOOD_FRAMES)]),
                                               timeout=max(0.1, deadline - time.monotonic()))
                        counts["sent"] += 1
                        i += 1
                        if i % 50 == 0:
                            await asyncio.sleep(0)
                    reader.cancel()
                    await asyncio.gather(reader, return_exceptions=True)
            except Exception:  # closed, refused, timed out: an attacker connects again
                counts["cut_off"] += 1
                await asyncio.sleep(0.05)

    asyncio.run(flood())
    out.put(counts)


def _rss_mb(pid: int) -> float:
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1]) / 1024
    return 0.0


def _p95(values: list[float]) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(0.95 * len(ordered)))] if ordered else 0.0


class Command(BaseCommand):
    help = "Play N concurrent room games over websockets against a running ASGI server."

    def add_arguments(self, parser: Any) -> None:
        parser.add_argument("--url", required=True, help="the ASGI server, http://127.0.0.1:PORT")
        parser.add_argument("--matches", type=int, default=50)
        parser.add_argument("--seconds", type=float, default=120.0)
        parser.add_argument("--think-min", type=float, default=1.0)
        parser.add_argument("--think-max", type=float, default=3.0)
        parser.add_argument("--seed", type=int, default=22)
        parser.add_argument("--flood", type=int, default=0,
                            help="flooding anonymous spectators (in another process)")
        parser.add_argument("--server-pid", type=int, default=0,
                            help="the server's process id: its memory is reported")

    def handle(self, *args: Any, **options: Any) -> None:
        base = options["url"].rstrip("/")
        tag = uuid.uuid4().hex[:6]
        User = get_user_model()
        plans = []
        for i in range(options["matches"]):
            players = []
            for side in (1, 2):
                user = User.objects.create_user(username=f"bench-room-{tag}-{i}-{side}")
                players.append(Player.objects.create(user=user,
                                                     display_name=f"bench {tag} {i}.{side}"))
            match = match_create(side_1=[players[0]], side_2=[players[1]])
            room = services.room_open_for_match(match=match, user=players[0].user)
            for player, character in zip(players, ("grave", "jaina"), strict=True):
                services.room_pick(room_id=room.pk, user=player.user, character=character)
            plans.append((room.pk, [_session_for(p.user) for p in players]))
        self.stdout.write(f"{len(plans)} rooms ready; playing for at most "
                          f"{options['seconds']:.0f} s")
        stats = Stats()
        ws_base = base.replace("http://", "ws://").replace("https://", "wss://")
        rng = random.Random(options["seed"])
        think = (options["think_min"], options["think_max"])

        pid = options["server_pid"]
        memory: list[float] = [_rss_mb(pid)] if pid else []
        health: list[float] = []

        async def watch(deadline: float) -> None:
            import urllib.request

            while time.monotonic() < deadline:
                start = time.monotonic()
                try:
                    await asyncio.to_thread(
                        lambda: urllib.request.urlopen(f"{base}/healthz", timeout=10).read())
                    health.append(time.monotonic() - start)
                except Exception as exc:
                    stats.errors.append(f"healthz: {exc}")
                if pid:
                    memory.append(_rss_mb(pid))
                await asyncio.sleep(max(0.0, 1 - (time.monotonic() - start)))

        async def run() -> None:
            deadline = time.monotonic() + options["seconds"]
            # each player from an address of its own on loopback (127.0.1.x), as players on
            # the internet are: the per-address limits apply to each, not to all at once
            players = asyncio.gather(*(
                _player(f"{ws_base}/ws/rooms/{room_id}/", base, f"sessionid={cookie}", seat,
                        random.Random(rng.random()), think, deadline, stats,
                        f"127.0.{1 + n // 250}.{1 + n % 250}")
                for n, (room_id, seat, cookie) in enumerate(
                    (room_id, seat, cookie) for room_id, cookies in plans
                    for seat, cookie in zip(("P1", "P2"), cookies, strict=True))
            ))
            watcher = asyncio.create_task(watch(deadline))
            await players
            watcher.cancel()

        flooders, results = [], multiprocessing.get_context("fork").Queue()
        for _ in range(options["flood"]):
            flooder = multiprocessing.get_context("fork").Process(
                target=_flood_process, args=(f"{ws_base}/ws/rooms/{plans[0][0]}/", base,
                                             options["seconds"], results), daemon=True)
            flooder.start()
            flooders.append(flooder)
        started = time.monotonic()
        asyncio.run(run())
        duration = time.monotonic() - started
        flooded = []
        for flooder in flooders:
            try:
                flooded.append(results.get(timeout=30))
            except Exception:  # queue.Empty: it hung; the figures above stand
                stats.errors.append("a flooder did not report")
            flooder.join(timeout=5)
            if flooder.is_alive():
                flooder.terminate()
        if pid:
            memory.append(_rss_mb(pid))
        rts = sorted(stats.round_trips)
        if not rts:
            raise CommandError(f"no choice was made; errors: {stats.errors[:5]}")
        p50 = statistics.median(rts) * 1000
        p95 = rts[min(len(rts) - 1, int(0.95 * len(rts)))] * 1000
        p99 = rts[min(len(rts) - 1, int(0.99 * len(rts)))] * 1000
        finished_rooms = Room.objects.filter(pk__in=[p[0] for p in plans],
                                             status=Room.Status.FINISHED).count()
        self.stdout.write(
            f"matches {len(plans)}, clients {2 * len(plans)}, duration {duration:.1f} s, "
            f"choices {len(rts)} ({len(rts) / duration:.0f}/s), games finished {finished_rooms}, "
            f"round trip p50 {p50:.1f} ms, p95 {p95:.1f} ms, p99 {p99:.1f} ms, "
            f"max {rts[-1] * 1000:.1f} ms, errors {len(stats.errors)}, handshakes retried "
            f"{stats.reconnects}"
        )
        if health:
            self.stdout.write(f"/healthz p95 {_p95(health) * 1000:.1f} ms, "
                              f"max {max(health) * 1000:.1f} ms ({len(health)} asks)")
        if memory:
            self.stdout.write(f"server memory (RSS): start {memory[0]:.0f} MB, "
                              f"max {max(memory):.0f} MB, end {memory[-1]:.0f} MB")
        for counts in flooded:
            self.stdout.write(f"flooder: {counts['sent']:,} frames sent, {counts['replies']:,} "
                              f"replies, {counts['connections']} connections, cut off "
                              f"{counts['cut_off']} times")
        for error in stats.errors[:10]:
            self.stdout.write(f"  error: {error}")
        if stats.errors:
            raise CommandError(f"{len(stats.errors)} errors")
