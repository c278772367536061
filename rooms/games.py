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

from rules_engine.actions import Action
from rules_engine.bots import Bot, make_bot
from rules_engine.cards import CARDS_BY_CODE, character, characters
from rules_engine.game import Game
from rules_engine.log import ClaimedResult, LogEvent, MatchLog, parse_event
from rules_engine.types import PlayerId

CACHE_SIZE = 512
_cache: OrderedDict[tuple[int, int, tuple[str, ...]], Game] = OrderedDict()
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


def game_new(seed: int, picks: Sequence[str]) -> Game:
    """A fresh seeded Versus game (team modes plug in here with their own constructor)."""
    return Game(character(picks[0]), character(picks[1]), seed=seed)


def game_for(room_id: int, seed: int, picks: Sequence[str],
             events: Sequence[tuple[str, dict[str, object]]] | int,
             load: object = None) -> Game:
    """The game after the room's events. ``events`` is either the stored events or their count
    (then ``load()`` returns them if the cached game is behind)."""
    key = (room_id, seed, tuple(picks))
    count = events if isinstance(events, int) else len(events)
    with _lock:
        game = _cache.get(key)
        if game is not None and len(game.history) == count:
            _cache.move_to_end(key)
            return game
    stored = events if not isinstance(events, int) else load()  # type: ignore[operator]
    game = game_new(seed, picks)
    for i, (player, action) in enumerate(stored):
        event = parse_event({"player": player, **action}, f"$.events[{i}]")
        game.apply(event.player, event.action)
    with _lock:
        _cache[key] = game
        _cache.move_to_end(key)
        while len(_cache) > CACHE_SIZE:
            _cache.popitem(last=False)
    return game


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


def action_parse(seat: PlayerId, data: object) -> Action:
    """An action the client sent; its ``player`` is always the sender's seat."""
    if not isinstance(data, dict):
        raise ValueError("the choice must be a JSON object")
    body = {k: v for k, v in data.items() if k != "player"}
    return parse_event({"player": seat.name, **body}, "$.action").action


def action_label(action: Action) -> str:
    """What a button says: the engine's own wording, with card names where it helps."""
    return str(action)


def playable_characters() -> dict[str, str]:
    """Character id -> name, as the engine knows them."""
    return {cid: ch.name for cid, ch in sorted(characters().items())}


def card_name(code: str) -> str:
    card = CARDS_BY_CODE.get(code)
    return str(card) if card is not None else code


def match_log(game: Game, seed: int, picks: Sequence[str],
              names: Sequence[str | None]) -> MatchLog:
    """The finished game's log, written as self-play writes it (seeded draws, claimed result)."""
    assert game.outcome is not None
    result = ClaimedResult(game.outcome.winner, game.outcome.termination, game.turn, game.life)
    return MatchLog(
        characters=(picks[0], picks[1]),
        events=tuple(LogEvent(p, a) for p, a in game.history),
        seed=seed,
        result=result,
        names=(names[0], names[1]),
    )
