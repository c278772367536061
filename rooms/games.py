"""The room's game: the engine's replay of the room's events, kept in memory per process.

Choice: one Game per room is kept in this process (a small LRU) and checked against the number
of events in the database at every use; when another process (or a restart) recorded events
this one has not seen, the game is rebuilt by replaying the stored events from the seed. The
database stays the source of truth; the cache only saves a replay per choice (a long game's
replay costs milliseconds, paid at every choice of 50 concurrent games it would be the largest
cost of a round trip).
"""

from __future__ import annotations

import re
import threading
import weakref
from collections import OrderedDict
from collections.abc import Sequence
from typing import Any

from rules_engine.actions import (
    Action,
    Assist,
    BotTie,
    Combo,
    Commit,
    Pick,
    Pump,
    Snapback,
    Swap,
    Tag,
)
from rules_engine.bots import Bot, make_bot
from rules_engine.cards import CARDS_BY_CODE, Card, Character, MoveType, character, characters
from rules_engine.game import Game
from rules_engine.log import ClaimedResult, LogEvent, MatchLog, parse_event, seat_names
from rules_engine.table import Table
from rules_engine.team import Mode, Team
from rules_engine.training import survival_game, survival_score, training_game
from rules_engine.types import PlayerId

CACHE_SIZE = 512
_cache: OrderedDict[tuple[int, int, tuple[str, ...], str], Game] = OrderedDict()
# The character acting at each event of a cached game (a version-2 log names it); kept beside
# the game, which does not record it.
_acting: weakref.WeakKeyDictionary[Game, list[str | None]] = weakref.WeakKeyDictionary()

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
    """A fresh game of the room's mode: seeded (None: a tabletop game, recorded draws)."""
    if mode == VERSUS:
        return Game(character(picks[0]), character(picks[1]), seed=seed)
    if mode == Mode.TRAINING.value:
        assert seed is not None
        return training_game(picks[0], picks[1], seed=seed)
    if mode == Mode.SURVIVAL.value:
        assert seed is not None
        return survival_game(picks[0], lineup(picks[1]), seed=seed)
    return Game.for_teams(Mode(mode), (Team.of(lineup(picks[0])), Team.of(lineup(picks[1]))),
                          seed=seed)


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
    """``game.apply``, remembering the character that acted (for a version-2 log)."""
    acting = acting_character(game, player)
    game.apply(player, action)
    _acting.setdefault(game, []).append(acting)


def acting_characters(game: Game) -> list[str | None]:
    """The character acting at each event of ``game`` (as applied through :func:`apply`)."""
    return list(_acting.get(game, ()))


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
        apply(game, event.player, event.action)
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


_CODE = re.compile(r"\b(?:[2-9TJQKA][CDHS]|X[12])\b")
_SUITS = {"C": "\u2663", "D": "\u2666", "H": "\u2665", "S": "\u2660"}
_RANKS = {"T": "10", "J": "Jack", "Q": "Queen", "K": "King", "A": "Ace"}


def card_label(card: Card | None) -> str:
    """A card as players name it: "4\u2663", "Jack\u2665", "Joker"."""
    if card is None:
        return "?"
    if card.is_joker:
        return "Joker"
    return f"{_RANKS.get(card.code[0], card.code[0])}{_SUITS.get(card.code[1], card.code[1])}"


def _cards_label(cards: Sequence[Card]) -> str:
    return ", ".join(card_label(c) for c in cards) or "none"


def _move_label(owner: Character | None, card: Card, move: MoveType | None,
                name: str | None) -> str:
    """ "Jack\u2663 (Fireball, attack)": the card, and the move its owner plays with it."""
    if move is None:
        return card_label(card)
    named = name
    if named is None and owner is not None and not card.is_joker:
        ends = owner.moves_of_type(card, move)
        named = ends[0].name if len(ends) == 1 else None
    return f"{card_label(card)} ({named + ', ' if named else ''}{move.value})"


def action_label(action: Action, game: Game | None = None,
                 player: PlayerId | None = None) -> str:
    """What a button says, in the game's words: card names with suits, the character a pick or
    a tag brings in and the move a card plays (when the game and the deciding seat are given);
    the engine's own wording for the kinds that need nothing more."""
    state = game.state(player) if game is not None and player is not None else None
    own = state.character if state is not None else None
    partner = game.partner(state) if game is not None and state is not None else None
    if isinstance(action, Assist):
        played = _move_label(own, action.card, action.move, action.name)
        return f"Assist with {played}, discard {card_label(action.cost)}"
    if isinstance(action, Swap):
        return "Swap the assist in"
    if isinstance(action, Tag):
        incoming = partner.character.name if partner is not None else "your partner"
        if action.tag is None:
            return f"Hard tag: {incoming} comes in (plays no card next combat)"
        if action.tag == "super" and action.card is not None:
            mover = partner.character if partner is not None else None
            return (f"Tag in {incoming} (super tag), playing "
                    f"{_move_label(mover, action.card, action.move, action.name)}")
        if action.tag == "ace":
            return (f"Tag in {incoming} (Ace tag): discard {_cards_label(action.sets)}; "
                    f"{incoming} takes Aces from discard: {_cards_label(action.from_discard)}, "
                    f"deck: {_cards_label(action.from_deck)}")
        return (f"Tag in {incoming} ({action.tag} tag), discard {card_label(action.card)} "
                f"and {incoming}'s {card_label(action.partner_card)}")
    if isinstance(action, Snapback):
        return f"Snapback (discard {card_label(action.card)}): the opponent switches out"
    if isinstance(action, Pick):
        known = characters().get(action.incoming)
        return f"Send in {known.name if known is not None else action.incoming}"
    if isinstance(action, BotTie):
        return f"The bot's tied combos: it goes on with {action_label(action.choice)}"
    if isinstance(action, Commit):
        return f"Commit {_move_label(own, action.card, action.move, action.name)}"
    if isinstance(action, Combo):
        text = f"Combo {_move_label(own, action.card, action.move, action.name)}"
        return f"{text}, paying Aces {_cards_label(action.aces)}" if action.aces else text
    if isinstance(action, Pump):
        return f"Pump move {action.target + 1} with {_cards_label(action.cards)}"
    # the other kinds: the engine's wording, its card codes ("KC") named as players name them
    text = _CODE.sub(lambda m: card_label(CARDS_BY_CODE.get(m.group(0))), str(action))
    return text[:1].upper() + text[1:]


def playable_characters() -> dict[str, str]:
    """Character id -> name, as the engine knows them."""
    return {cid: ch.name for cid, ch in sorted(characters().items())}


def card_name(code: str) -> str:
    card = CARDS_BY_CODE.get(code)
    return str(card) if card is not None else code


def match_log(game: Game, seed: int | None, picks: Sequence[str],
              names: Sequence[str | None], mode: str = VERSUS,
              controllers: Sequence[tuple[str | None, ...] | None] = (None, None)) -> MatchLog:
    """The finished game's log, written as self-play writes it (seeded or recorded draws,
    claimed result): version 1 for Versus, version 2 (each event naming the character acting)
    for the other modes."""
    assert game.outcome is not None
    result = ClaimedResult(game.outcome.winner, game.outcome.termination, game.turn, game.life)
    if mode == VERSUS:
        return MatchLog(
            characters=(picks[0], picks[1]),
            events=tuple(LogEvent(p, a) for p, a in game.history),
            seed=seed,
            result=result,
            names=(names[0], names[1]),
        )
    sides = (lineup(picks[0]), lineup(picks[1]))
    acting = acting_characters(game)
    assert len(acting) == len(game.history)
    return MatchLog(
        characters=(sides[0][0], sides[1][0]),
        events=tuple(LogEvent(p, a, c) for (p, a), c in zip(game.history, acting, strict=True)),
        seed=seed, result=result, names=(names[0], names[1]), mode=Mode(mode),
        sides=(Team.of(sides[0], controllers[0]).members,
               Team.of(sides[1], controllers[1]).members), version=2,
    )


def survival_result(game: Game) -> dict[str, object]:
    """A Survival run's score (TR-14: the bots beaten) and the bots it beat."""
    return {"score": survival_score(game), "beaten": list(game.teams[1].defeated)}
