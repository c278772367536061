"""The room's game: the engine's replay of the room's events, kept in memory per process.

Choice: one Game per room is kept in this process (a small LRU) and checked against the number
of events in the database at every use; when another process (or a restart) recorded events
this one has not seen, the game is rebuilt by replaying the stored events from the seed. The
database stays the source of truth; the cache only saves a replay per choice (a long game's
replay costs milliseconds, paid at every choice of 50 concurrent games it would be the largest
cost of a round trip).
"""

from __future__ import annotations

import threading
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from rules_engine.actions import (
    Action,
)
from rules_engine.bots import Bot, make_bot
from rules_engine.cards import CARDS_BY_CODE, characters
from rules_engine.game import Game
from rules_engine.log import LogEvent, MatchLog, parse_event, seat_names
from rules_engine.table import Table
from rules_engine.team import Mode
from rules_engine.training import survival_score
from rules_engine.types import PlayerId

CACHE_SIZE = 512
_cache: OrderedDict[tuple[int, int, tuple[str, ...], str], Game] = OrderedDict()

VERSUS = Mode.VERSUS.value
# The modes a room plays: how many characters each seat picks (Survival's bot seat: its run).
TEAM_SIZES = {Mode.VERSUS.value: 1, Mode.TRIPLE_THREAT.value: 3, Mode.TRAINING.value: 1,
              Mode.SURVIVAL.value: 1, Mode.TAG_TEAM.value: 1,  # a bench's modes: one a seat
              Mode.DRAMATIC_BATTLE.value: 1}
# Modes with a bench (TG-2, DB-1): every member seated from the start, a seat each.
BENCH_MODES = frozenset({Mode.TAG_TEAM.value, Mode.DRAMATIC_BATTLE.value})
# Modes whose seat P2 is the rulebook's bot: the engine derives its choices (never logged).
RULEBOOK_BOT_MODES = frozenset({Mode.TRAINING.value, Mode.SURVIVAL.value})
RULEBOOK_BOT = "rulebook"
# Team-mode steps whose choice is a pick: nobody of the side is in play (TT-2, TT-4).
PICK_STEPS = ("TT-2", "TT-4")
_lock = threading.Lock()
_room_locks: dict[int, threading.Lock] = {}


def room_lock(room_id: int) -> threading.Lock:
    """This process's lock for one room: choices run in several threads, and a cached Game must
    never be changed by two at once. (Across processes the database row lock serialises them;
    SQLite, under `make run`, has no row locks: this one does the job there.)"""
    with _lock:
        lock = _room_locks.get(room_id)
        if lock is None:
            if len(_room_locks) > 4 * CACHE_SIZE:
                _room_locks.clear()  # held locks stay referenced by their holders
            lock = _room_locks[room_id] = threading.Lock()
        return lock


def seat_id(seat: str) -> PlayerId:
    return PlayerId[seat]


def lineup(pick: str) -> tuple[str, ...]:
    """A seat's picked characters (a team mode's lineup is comma-separated)."""
    return tuple(c for c in pick.split(",") if c)


def game_new(seed: int | None, picks: Sequence[str], mode: str = VERSUS) -> Game:
    """A fresh game of the room's mode, by the engine's front door: seeded (None: a tabletop
    game, recorded draws)."""
    return Game.new(Mode(mode), (lineup(picks[0]), lineup(picks[1])), seed=seed)


def bench_seating(sizes: tuple[int, int]) -> list[tuple[str, int, int]]:
    """A bench mode's seats: (seat, match side 1 or 2, member of the side), as the engine's
    table seats a side of ``sizes[0]`` and one of ``sizes[1]`` characters."""
    return [(seat.name, side + 1, member)
            for side, seats in enumerate(Table.for_sizes(*sizes).sides)
            for member, seat in enumerate(seats)]


def acting_character(game: Game, player: PlayerId) -> str | None:
    """The character making ``player``'s next choice (None at a pick: nobody is in play)."""
    if game.mode.mode is not Mode.VERSUS and game.step in PICK_STEPS:
        return None
    return game.state(player).character.id


def apply(game: Game, player: PlayerId, action: Action) -> None:
    """``game.apply`` (the game records the character that acted, for a version-2 log)."""
    game.apply(player, action)


def acting_characters(game: Game) -> list[str | None]:
    """The character acting at each event of ``game`` (None for a team mode's pick)."""
    return list(game.acting)


def _event_of(mode: str, game: Game, player: str, action: dict[str, object],
              acting: str | None, path: str) -> LogEvent:
    if mode == VERSUS:
        return parse_event({"player": player, **action}, path)
    head: dict[str, object] = {"player": player}
    if acting:
        head["character"] = acting
    names = frozenset(c for team in game.teams for c in team.characters)
    return parse_event({**head, **action}, path, 2, names, seat_names(Mode(mode)))


def game_for(room_id: int, seed: int | None, picks: Sequence[str],
             events: Sequence[tuple[str, dict[str, object], str]] | int,
             load: object = None, mode: str = VERSUS) -> Game:
    """The game after the room's events (player, action, acting character). ``events`` is
    either the stored events or their count (then ``load()`` returns them if the cached game
    is behind)."""
    key = (room_id, seed or 0, tuple(picks), mode)
    count = events if isinstance(events, int) else len(events)
    with _lock:
        game = _cache.get(key)
        if game is not None and len(game.history) == count:
            _cache.move_to_end(key)
            return game
    stored = events if not isinstance(events, int) else load()  # type: ignore[operator]
    game = game_new(seed, picks, mode)
    for i, (player, action, acting) in enumerate(stored):
        event = _event_of(mode, game, player, action, acting or None, f"$.events[{i}]")
        game.apply(event.player, event.action)
    with _lock:
        _cache[key] = game
        _cache.move_to_end(key)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return game


_seats: OrderedDict[int, list[Any]] = OrderedDict()


def seats_cached(room_id: int) -> list[Any] | None:
    """The room's seats as this process keeps them (only once picked: they no longer change)."""
    with _lock:
        return _seats.get(room_id)


def seats_keep(room_id: int, seats: list[Any]) -> list[Any]:
    with _lock:
        _seats[room_id] = seats
        while len(_seats) > CACHE_SIZE:
            _seats.popitem(last=False)
    return seats


def game_forget(room_id: int) -> None:
    """Drop the room's cached game (after a failed write: the database did not take it)."""
    with _lock:
        for key in [k for k in _cache if k[0] == room_id]:
            del _cache[key]


def bot_for(kind: str, seed: int, index: int, seat: PlayerId) -> Bot:
    """The bot for one decision, seeded from the room's seed and the decision's place: a
    rebuilt game makes the same choices, and no bot state has to be stored."""
    return make_bot(kind, (seed * 1_000_003 + index * 4 + int(seat)) % (1 << 63))


def bot_known(kind: str) -> bool:
    try:
        make_bot(kind, 0)
    except ValueError:
        return False
    return True


# The bots the practice page offers, strongest first, when the engine has them
# (``make_bot`` decides: the strong bot appears here once the engine ships it).
BOT_CANDIDATES = ("strong", "greedy", "random")


def bots_available() -> list[str]:
    return [kind for kind in BOT_CANDIDATES if bot_known(kind)]


def action_parse(seat: PlayerId, data: object, game: Game, mode: str = VERSUS) -> Action:
    """An action the client sent; its ``player`` is always the sender's seat (and in a team
    mode its character the one the server knows is acting)."""
    if not isinstance(data, dict):
        raise ValueError("the choice must be a JSON object")
    body = {k: v for k, v in data.items() if k not in ("player", "character")}
    return _event_of(mode, game, seat.name, body, acting_character(game, seat),
                     "$.action").action


def playable_characters() -> dict[str, str]:
    """Character id -> name, as the engine knows them."""
    return {cid: ch.name for cid, ch in sorted(characters().items())}


def card_name(code: str) -> str:
    card = CARDS_BY_CODE.get(code)
    return str(card) if card is not None else code


def match_log(game: Game, seed: int | None, picks: Sequence[str],
              names: Sequence[str | None], mode: str = VERSUS,
              controllers: Sequence[tuple[str | None, ...] | None] = (None, None)) -> MatchLog:
    """The finished game's log, as the engine writes any game's (:meth:`Game.to_log`)."""
    assert game.outcome is not None
    return game.to_log(names=(names[0], names[1]), controllers=(controllers[0], controllers[1]))


def survival_result(game: Game) -> dict[str, object]:
    """A Survival run's score (TR-14: the bots beaten) and the bots it beat."""
    return {"score": survival_score(game), "beaten": list(game.teams[1].defeated)}
