"""The match-log format, version 1 (docs/log-format.md; schema/match-log-v1.json).

Glossary: a *log* is a header (format, version, mode, ruleset, players and their characters,
how draws happen), a list of *events* (each names its player and one action) and the *claimed
result*. *Seeded* draws come from the portable shuffle (:mod:`rules_engine.rng`); *recorded*
draws are events naming each card drawn (tabletop play).

Responsibility: reading JSON text into a :class:`MatchLog` (every problem is a
:class:`LogSyntaxError` naming the JSON path, e.g. ``$.events[12].card``) and writing one back.
Whether the events are legal is the replay's business (:mod:`rules_engine.replay`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from rules_engine.actions import (
    ACTION_TYPES,
    Accept,
    Action,
    Combo,
    Commit,
    Discard,
    Draw,
    FaceDown,
    Keep,
    NoCard,
    Pass,
    PayAces,
    PowerUp,
    Pump,
    Search,
    Stop,
    UseAbility,
    WinInitiative,
)
from rules_engine.cards import CARDS_BY_CODE, Card, MoveType, characters
from rules_engine.errors import LogSyntaxError
from rules_engine.rng import ALGORITHM
from rules_engine.ruleset import Ruleset
from rules_engine.types import PlayerId, Termination

FORMAT = "yomi-match-log"
VERSION = 1


@dataclass(frozen=True, slots=True)
class LogEvent:
    player: PlayerId
    action: Action

    def to_json(self) -> dict[str, Any]:
        return {"player": self.player.name, **self.action.to_json()}


@dataclass(frozen=True, slots=True)
class ClaimedResult:
    """The result the log claims: winner (None = draw), how, and optionally turns and life."""

    winner: PlayerId | None
    how: Termination
    turns: int | None = None
    life: tuple[int, ...] | None = None  # by seat (P1, P2)

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {
            "winner": None if self.winner is None else self.winner.name,
            "how": self.how.value,
        }
        if self.turns is not None:
            out["turns"] = self.turns
        if self.life is not None:
            out["life"] = {seat.name: v for seat, v in zip(PlayerId, self.life, strict=True)}
        return out


@dataclass(frozen=True, slots=True)
class MatchLog:
    """A parsed version-1 Versus log. ``seed`` None means draws are recorded card by card."""

    characters: tuple[str, str]
    events: tuple[LogEvent, ...]
    seed: int | None = None
    ruleset: Ruleset = field(default_factory=Ruleset)
    result: ClaimedResult | None = None
    names: tuple[str | None, str | None] = (None, None)

    def to_json(self) -> dict[str, Any]:
        players = {}
        for i, seat in enumerate(("P1", "P2")):
            entry: dict[str, Any] = {"character": self.characters[i]}
            if self.names[i] is not None:
                entry["name"] = self.names[i]
            players[seat] = entry
        draws: dict[str, Any] = (
            {"mode": "recorded"} if self.seed is None
            else {"mode": "seeded", "algorithm": ALGORITHM, "seed": self.seed}
        )
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": VERSION,
            "mode": "versus",
            "ruleset": self.ruleset.to_json(),
            "players": players,
            "draws": draws,
            "events": [e.to_json() for e in self.events],
        }
        if self.result is not None:
            out["result"] = self.result.to_json()
        return out

    def dumps(self, indent: int | None = None) -> str:
        if indent is None:
            # One event per line: readable, diff-friendly, still compact.
            doc = self.to_json()
            events = doc.pop("events")
            head = json.dumps(doc, separators=(",", ":"))[:-1]
            lines = ",\n".join("  " + json.dumps(e, separators=(",", ":")) for e in events)
            return f'{head},"events":[\n{lines}\n]}}\n'
        return json.dumps(self.to_json(), indent=indent) + "\n"


# ---------------------------------------------------------------------------- parsing


class _Reader:
    """Typed access to a JSON object that reports the path of whatever is wrong."""

    def __init__(self, data: Any, path: str) -> None:
        self.data = data
        self.path = path

    def fail(self, reason: str, key: str | None = None) -> LogSyntaxError:
        return LogSyntaxError(self.path if key is None else f"{self.path}.{key}", reason)

    def obj(self) -> dict[str, Any]:
        if not isinstance(self.data, dict):
            raise self.fail(f"expected an object, found {_kind(self.data)}")
        return self.data

    def get(self, key: str, *, required: bool = True) -> Any:
        d = self.obj()
        if key not in d:
            if required:
                raise self.fail(f"missing required key {key!r}")
            return None
        return d[key]

    def child(self, key: str) -> _Reader:
        return _Reader(self.get(key), f"{self.path}.{key}")

    def string(self, key: str, *, required: bool = True) -> str | None:
        v = self.get(key, required=required)
        if v is None and not required:
            return None
        if not isinstance(v, str):
            raise self.fail(f"expected a string, found {_kind(v)}", key)
        return v

    def integer(self, key: str, *, required: bool = True) -> int | None:
        v = self.get(key, required=required)
        if v is None and not required:
            return None
        if not isinstance(v, int) or isinstance(v, bool):
            raise self.fail(f"expected an integer, found {_kind(v)}", key)
        return v

    def card(self, key: str) -> Card:
        code = self.string(key)
        assert code is not None
        return _card(code, f"{self.path}.{key}")

    def cards(self, key: str, *, required: bool = True) -> tuple[Card, ...]:
        v = self.get(key, required=required)
        if v is None:
            return ()
        if not isinstance(v, list):
            raise self.fail(f"expected a list of card codes, found {_kind(v)}", key)
        out = []
        for i, code in enumerate(v):
            where = f"{self.path}.{key}[{i}]"
            if not isinstance(code, str):
                raise LogSyntaxError(where, f"expected a card code, found {_kind(code)}")
            out.append(_card(code, where))
        return tuple(out)


def _kind(v: Any) -> str:
    if v is None:
        return "null"
    if isinstance(v, bool):
        return "a boolean"
    if isinstance(v, int | float):
        return "a number"
    if isinstance(v, str):
        return "a string"
    if isinstance(v, list):
        return "a list"
    return "an object"


def _card(code: str, path: str) -> Card:
    c = CARDS_BY_CODE.get(code)
    if c is None:
        raise LogSyntaxError(
            path, f"{code!r} is not a card: use rank (2-9, T, J, Q, K, A) + suit (C, D, H, S), "
                  "or X1/X2 for the Jokers")
    return c


def _player(value: Any, path: str) -> PlayerId:
    if value not in ("P1", "P2"):
        raise LogSyntaxError(path, f"expected \"P1\" or \"P2\", found {value!r}")
    return PlayerId[value]


def _move_type(r: _Reader, *, required: bool) -> MoveType | None:
    v = r.get("move", required=required)
    if v is None:
        return None
    try:
        return MoveType(v)
    except ValueError:
        raise r.fail("expected attack, throw, block or dodge", "move") from None


_ALLOWED_KEYS: dict[str, set[str]] = {
    "draw": {"card"}, "initiative": set(), "commit": {"card", "move", "name"},
    "no_card": set(), "keep": set(), "pay_aces": {"cards"}, "face_down": {"card"},
    "pass": set(), "accept": set(), "combo": {"card", "move", "name", "aces"},
    "pump": {"target", "cards"}, "stop": set(),
    "search": {"from_discard", "from_deck"},
    "power_up": {"sets", "from_discard", "from_deck"}, "discard": {"cards"},
    "ability": {"ability", "card", "cards", "option"},
}


def parse_event(data: Any, path: str) -> LogEvent:
    r = _Reader(data, path)
    d = r.obj()
    player = _player(d.get("player"), f"{path}.player")
    kind = r.string("action")
    assert kind is not None
    if kind not in ACTION_TYPES:
        raise r.fail(f"unknown action {kind!r} (expected one of {', '.join(ACTION_TYPES)})",
                     "action")
    extra = set(d) - {"player", "action"} - _ALLOWED_KEYS[kind]
    if extra:
        key = sorted(extra)[0]
        raise r.fail(f"unexpected key for a {kind!r} event", key)
    action: Action
    if kind == "draw":
        action = Draw(r.card("card"))
    elif kind == "initiative":
        action = WinInitiative()
    elif kind == "commit":
        c = r.card("card")
        action = Commit(c, _move_type(r, required=not c.is_joker), r.string("name", required=False))
    elif kind == "no_card":
        action = NoCard()
    elif kind == "keep":
        action = Keep()
    elif kind == "pay_aces":
        action = PayAces(r.cards("cards"))
    elif kind == "face_down":
        action = FaceDown(r.card("card"))
    elif kind == "pass":
        action = Pass()
    elif kind == "accept":
        action = Accept()
    elif kind == "combo":
        mt = _move_type(r, required=True)
        assert mt is not None
        action = Combo(r.card("card"), mt, r.string("name", required=False),
                       r.cards("aces", required=False))
    elif kind == "pump":
        target = r.integer("target")
        assert target is not None
        if target < 0:
            raise r.fail("expected a combo move index >= 0", "target")
        action = Pump(target, r.cards("cards"))
    elif kind == "stop":
        action = Stop()
    elif kind == "search":
        action = Search(r.cards("from_discard", required=False),
                        r.cards("from_deck", required=False))
    elif kind == "power_up":
        action = PowerUp(r.cards("sets", required=False), r.cards("from_discard", required=False),
                         r.cards("from_deck", required=False))
    elif kind == "discard":
        action = Discard(r.cards("cards"))
    else:
        name = r.string("ability")
        assert name is not None
        used = None if d.get("card") is None else r.card("card")
        action = UseAbility(name, used, r.cards("cards", required=False),
                            r.string("option", required=False))
    return LogEvent(player, action)


def parse_log(source: str | bytes | dict[str, Any]) -> MatchLog:
    """Read a version-1 log from JSON text (or an already decoded object).

    Raises LogSyntaxError with a JSON path for anything unreadable:

    >>> parse_log('{"format": "yomi-match-log", "version": 2}')
    Traceback (most recent call last):
    ...
    rules_engine.errors.LogSyntaxError: $.version: this engine reads version 1 logs, not 2
    """
    if isinstance(source, str | bytes):
        try:
            data = json.loads(source)
        except json.JSONDecodeError as exc:
            raise LogSyntaxError(
                "$", f"not JSON: {exc.msg} at line {exc.lineno}, column {exc.colno}") from None
        except UnicodeDecodeError:
            raise LogSyntaxError("$", "not UTF-8 text") from None
        except RecursionError:
            raise LogSyntaxError("$", "the document is nested too deeply") from None
        except ValueError as exc:  # e.g. an integer literal of thousands of digits
            raise LogSyntaxError("$", f"not valid JSON: {exc}") from None
    else:
        data = source
    r = _Reader(data, "$")
    r.obj()
    if r.get("format") != FORMAT:
        raise r.fail(f"expected {FORMAT!r}", "format")
    if r.get("version") != VERSION:
        raise r.fail(f"this engine reads version 1 logs, not {r.get('version')}", "version")
    if r.get("mode") != "versus":
        raise r.fail("only 'versus' games are supported by this engine version", "mode")
    rules_raw = r.get("ruleset", required=False) or {}
    if not isinstance(rules_raw, dict):
        raise r.fail("expected an object of ruleset options", "ruleset")
    try:
        ruleset = Ruleset.from_json(rules_raw)
    except ValueError as exc:
        raise r.fail(str(exc), "ruleset") from None
    players = r.child("players")
    chars: list[str] = []
    names: list[str | None] = []
    known = characters()
    for seat in ("P1", "P2"):
        pr = players.child(seat)
        cid = pr.string("character")
        assert cid is not None
        if cid not in known:
            raise pr.fail(f"unknown character {cid!r} (expected one of {', '.join(sorted(known))})",
                          "character")
        chars.append(cid)
        names.append(pr.string("name", required=False))
    draws = r.child("draws")
    mode = draws.string("mode")
    seed: int | None = None
    if mode == "seeded":
        if draws.get("algorithm") != ALGORITHM:
            raise draws.fail(f"expected the shuffle algorithm {ALGORITHM!r}", "algorithm")
        seed = draws.integer("seed")
        assert seed is not None
        if not 0 <= seed < 2**64:
            raise draws.fail("expected an unsigned 64-bit integer", "seed")
    elif mode != "recorded":
        raise draws.fail("expected 'seeded' or 'recorded'", "mode")
    raw_events = r.get("events")
    if not isinstance(raw_events, list):
        raise r.fail(f"expected a list of events, found {_kind(raw_events)}", "events")
    events = tuple(parse_event(e, f"$.events[{i}]") for i, e in enumerate(raw_events))
    result = None
    if r.get("result", required=False) is not None:
        result = _parse_result(r.child("result"))
    return MatchLog(
        characters=(chars[0], chars[1]), events=events, seed=seed, ruleset=ruleset,
        result=result, names=(names[0], names[1]),
    )


def _parse_result(r: _Reader) -> ClaimedResult:
    d = r.obj()
    winner_raw = d.get("winner")
    winner = None if winner_raw is None else _player(winner_raw, f"{r.path}.winner")
    how_raw = r.string("how")
    try:
        how = Termination(how_raw)
    except ValueError:
        allowed = ", ".join(t.value for t in Termination)
        raise r.fail(f"expected one of {allowed}", "how") from None
    turns = r.integer("turns", required=False)
    life = None
    if d.get("life") is not None:
        lr = r.child("life")
        a, b = lr.integer("P1"), lr.integer("P2")
        assert a is not None and b is not None
        life = (a, b)
    return ClaimedResult(winner, how, turns, life)
