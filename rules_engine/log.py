"""The match-log format, versions 1 and 2 (docs/log-format.md; schema/match-log-v1.json,
schema/match-log-v2.json).

Version 1 is a Versus game: two players, one character each. Version 2 is one document for a
match of any mode: the mode, the two sides with their characters (and players), and events
that each name the side's seat (``P1``/``P2``) and the character acting (TT-1). A Versus game
may be written in either; the engine writes version 1 for Versus (so logs stay byte-identical)
and version 2 for the team modes.

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
    Assist,
    BotTie,
    Combo,
    Commit,
    Discard,
    Draw,
    FaceDown,
    Keep,
    NoCard,
    Pass,
    PayAces,
    Pick,
    PowerUp,
    Pump,
    Reveal,
    Search,
    Snapback,
    Stop,
    Swap,
    Tag,
    UseAbility,
    WinInitiative,
)
from rules_engine.cards import CARDS_BY_CODE, Card, MoveType, characters
from rules_engine.errors import LogSyntaxError
from rules_engine.rng import ALGORITHM
from rules_engine.ruleset import Ruleset
from rules_engine.team import Member, Mode, Team
from rules_engine.types import PlayerId, Termination

FORMAT = "yomi-match-log"
VERSION = 1
VERSIONS = (1, 2)
TEAM_SIZE = {Mode.VERSUS: 1, Mode.TRIPLE_THREAT: 3,  # the modes the engine plays (TT-1)
             Mode.TRAINING: 1, Mode.SURVIVAL: 1,  # Survival: side P2 has 1 or more (TR-14)
             Mode.TAG_TEAM: 2, Mode.DRAMATIC_BATTLE: 2}  # TG-1; Dramatic Battle's pair (DB-1)
# a side's size where the two differ: Dramatic Battle's lone side (P1 here and in the CLI;
# a log may name the pair first, DB-1)
SIDE_SIZES = {Mode.DRAMATIC_BATTLE: (1, 2)}


def side_sizes(mode: Mode) -> tuple[int, int]:
    """How many characters each side of ``mode`` declares (side P1's, side P2's)."""
    return SIDE_SIZES.get(mode, (TEAM_SIZE[mode], TEAM_SIZE[mode]))


def seat_names(mode: Mode, sizes: tuple[int, int] | None = None) -> tuple[str, ...]:
    """The seats an event of ``mode`` may name: P1 and P2 (each side's first seat), and in
    modes with a bench the second seats (Tag Team P3 for side P1, P4 for side P2; Dramatic
    Battle P3 for the pair's second), as :meth:`rules_engine.table.Table.for_sizes` seats
    them."""
    a, b = sizes or side_sizes(mode)
    return ("P1", "P2", "P3", "P4")[:max(2, a + b)] if mode in (
        Mode.TAG_TEAM, Mode.DRAMATIC_BATTLE) else ("P1", "P2")
MAX_SURVIVAL_BOTS = 20


@dataclass(frozen=True, slots=True)
class LogEvent:
    """One event: the seat acting (a side's seat, ``P1`` or ``P2``), its action, and in a
    version-2 log the character acting (None for a pick: nobody of the side is in play yet,
    TT-2, or the one in play was just defeated, TT-4)."""

    player: PlayerId
    action: Action
    character: str | None = None

    def to_json(self) -> dict[str, Any]:
        head: dict[str, Any] = {"player": self.player.name}
        if self.character is not None:
            head["character"] = self.character
        return {**head, **self.action.to_json()}


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
            seats = tuple(PlayerId)[:len(self.life)]  # P1, P2 (P3, P4: a bench's seats)
            out["life"] = {seat.name: v for seat, v in zip(seats, self.life, strict=True)}
        return out


@dataclass(frozen=True, slots=True)
class MatchLog:
    """A parsed log. ``seed`` None means draws are recorded card by card.

    ``characters`` are the two sides' first declared characters (in Versus: the two
    characters); ``sides`` each side's declared members (version 2; None for version 1, whose
    sides are the two characters); ``version`` the format version it was read from or is to be
    written in."""

    characters: tuple[str, str]
    events: tuple[LogEvent, ...]
    seed: int | None = None
    ruleset: Ruleset = field(default_factory=Ruleset)
    result: ClaimedResult | None = None
    names: tuple[str | None, str | None] = (None, None)
    mode: Mode = Mode.VERSUS
    sides: tuple[tuple[Member, ...], tuple[Member, ...]] | None = None
    version: int = VERSION

    @property
    def teams(self) -> tuple[Team, Team]:
        """Fresh rosters for a game of this log (a game changes its teams as it goes)."""
        sides = self.sides or ((Member(self.characters[0]),), (Member(self.characters[1]),))
        return Team(sides[0]), Team(sides[1])

    @property
    def all_characters(self) -> tuple[str, ...]:
        """Every character declared, side A's first."""
        if self.sides is None:
            return self.characters
        return tuple(m.character for side in self.sides for m in side)

    def to_json(self) -> dict[str, Any]:
        if self.version >= 2:
            return self._to_json_v2()
        players = {}
        for i, seat in enumerate(("P1", "P2")):
            entry: dict[str, Any] = {"character": self.characters[i]}
            if self.names[i] is not None:
                entry["name"] = self.names[i]
            players[seat] = entry
        draws: dict[str, Any] = (
            {"mode": "recorded"} if self.seed is None
            else {"mode": "seeded", "algorithm": ALGORITHM, "seed": str(self.seed)}
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

    def _to_json_v2(self) -> dict[str, Any]:
        sides: dict[str, Any] = {}
        for seat, team in zip(("P1", "P2"), self.teams, strict=True):
            entry: dict[str, Any] = {"characters": list(team.characters)}
            controllers = [m.controller for m in team.members]
            if any(c is not None for c in controllers):
                entry["players"] = controllers
            elif self.names[PlayerId[seat]] is not None:
                entry["players"] = [self.names[PlayerId[seat]]]
            sides[seat] = entry
        out: dict[str, Any] = {
            "format": FORMAT,
            "version": 2,
            "mode": self.mode.value,
            "ruleset": self.ruleset.to_json(),
            "sides": sides,
            "draws": ({"mode": "recorded"} if self.seed is None
                      else {"mode": "seeded", "algorithm": ALGORITHM,
                            "seed": str(self.seed)}),
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
        found = CARDS_BY_CODE.get(code)
        # the path is written only for an error: most cards read are cards
        return found if found is not None else _card(code, f"{self.path}.{key}")

    def cards(self, key: str, *, required: bool = True) -> tuple[Card, ...]:
        v = self.get(key, required=required)
        if v is None:
            return ()
        if type(v) is list:
            try:  # every item a card's code (a KeyError or TypeError otherwise)
                return tuple(map(_CARD_OF_CODE, v))
            except (KeyError, TypeError):
                pass  # the loop below names the first item that is not
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


_CARD_OF_CODE = CARDS_BY_CODE.__getitem__


def _card(code: str, path: str) -> Card:
    c = CARDS_BY_CODE.get(code)
    if c is None:
        raise LogSyntaxError(
            path, f"{code!r} is not a card: use rank (2-9, T, J, Q, K, A) + suit (C, D, H, S), "
                  "or X1/X2 for the Jokers")
    return c


_SEATS: dict[str, PlayerId] = {p.name: p for p in PlayerId}


def _player(value: Any, where: _Reader, key: str,
            seats: tuple[str, ...] = ("P1", "P2")) -> PlayerId:
    """The seat named at ``key`` of ``where``, one of ``seats``."""
    if value not in seats:
        expected = " or ".join(f"\"{x}\"" for x in seats) if len(seats) == 2 else \
            ", ".join(f"\"{x}\"" for x in seats[:-1]) + f" or \"{seats[-1]}\""
        raise where.fail(f"expected {expected}, found {value!r}", key)
    return _SEATS[value]


def _move_type(r: _Reader, *, required: bool) -> MoveType | None:
    v = r.get("move", required=required)
    if v is None:
        return None
    found = _MOVE_TYPES.get(v) if type(v) is str else None
    if found is None:
        raise r.fail("expected attack, throw, block or dodge", "move")
    return found


_MOVE_TYPES: dict[str, MoveType] = {m.value: m for m in MoveType}


_ALLOWED_KEYS: dict[str, set[str]] = {
    "draw": {"card"}, "initiative": set(), "commit": {"card", "move", "name"},
    "no_card": set(), "keep": set(), "pay_aces": {"cards"}, "face_down": {"card"},
    "pass": set(), "accept": set(), "combo": {"card", "move", "name", "aces"},
    "pump": {"target", "cards"}, "stop": set(),
    "search": {"from_discard", "from_deck"},
    "power_up": {"sets", "from_discard", "from_deck"}, "discard": {"cards"},
    "ability": {"ability", "card", "cards", "option"},
    "reveal": {"card"},
    "pick": {"incoming"},
    "snapback": {"card"},
    "tag": {"tag", "card", "partner_card", "move", "name", "aces", "sets", "from_discard",
            "from_deck"},
    "assist": {"card", "move", "name", "discard"},  # AS-2, AS-4 (version 2)
    "swap": set(),  # AS-6 (version 2)
    "bot_tie": {"choice"},
}

# every key an event of each kind may have, by whether its log is version 2 (which names the
# character acting)
_EVENT_KEYS: dict[bool, dict[str, frozenset[str]]] = {
    v2: {kind: frozenset({"player", "action", *(("character",) if v2 else ()), *keys})
         for kind, keys in _ALLOWED_KEYS.items()}
    for v2 in (False, True)}

# the keys each kind of tag takes besides "tag" (a hard tag, TAG-PU-2, takes none)
_TAG_KEYS: dict[str | None, set[str]] = {
    None: set(),
    "dodge": {"card", "partner_card"},  # TAG-DODGE
    "continue": {"card", "partner_card"},  # TAG-CONT
    "super": {"card", "move", "name", "aces"},  # TAG-SUPER
    "ace": {"sets", "from_discard", "from_deck"},  # TAG-PU-1
}
#: the steps a ``bot_tie`` event may name (TR-8: the bot's next combo step)
_TIE_STEPS = ("combo", "pump", "stop")


# Events read before, by their exact content (see parse_event). Bounded: cleared when full.
_PARSED: dict[tuple[Any, ...], LogEvent] = {}
_PARSED_MAX = 50_000


def parse_event(data: Any, path: str, version: int = 1,
                characters: frozenset[str] = frozenset(),
                seats: tuple[str, ...] = ("P1", "P2")) -> LogEvent:
    # Logs repeat the same few thousand events (a draw of the 7 of hearts, a no-card, a
    # commit of one end, the same Aces searched...): an event whose values are all strings or
    # lists of strings is parsed once and its (immutable) LogEvent reused. Only strings, so
    # that no two different JSON values that compare equal (1, 1.0, true) share an entry (a
    # list is keyed as a tuple, which no JSON value equals); the path appears only in errors,
    # and only successful parses are kept.
    if type(data) is dict:
        key: list[Any] = [version, characters, seats]
        for name, value in data.items():
            if type(value) is list:
                for item in value:
                    if type(item) is not str:
                        return _parse_event(data, path, version, characters, seats)
                value = tuple(value)
            elif type(value) is not str:
                return _parse_event(data, path, version, characters, seats)
            key.append(name)
            key.append(value)
        frozen = tuple(key)
        event = _PARSED.get(frozen)
        if event is None:
            event = _parse_event(data, path, version, characters, seats)
            if len(_PARSED) >= _PARSED_MAX:
                _PARSED.clear()
            _PARSED[frozen] = event
        return event
    return _parse_event(data, path, version, characters, seats)


def _parse_event(data: Any, path: str, version: int,
                 characters: frozenset[str], seats: tuple[str, ...]) -> LogEvent:
    r = _Reader(data, path)
    d = r.obj()
    player = _player(d.get("player"), r, "player", seats)
    kind = r.string("action")
    assert kind is not None
    team_only = ("pick", "snapback", "tag", "assist", "swap", "bot_tie")
    if kind not in ACTION_TYPES or (kind in team_only and version < 2):
        kinds = [k for k in ACTION_TYPES if version >= 2 or k not in team_only]
        raise r.fail(f"unknown action {kind!r} (expected one of {', '.join(kinds)})"
                     + ("; picks belong to team-mode logs, format version 2"
                        if kind == "pick" else "")
                     + ("; snapbacks, tags and assists belong to team-mode logs, format "
                        "version 2" if kind in ("snapback", "tag", "assist", "swap") else "")
                     + ("; a bot tie choice belongs to a Training log, format version 2"
                        if kind == "bot_tie" else ""), "action")
    acting: str | None = None
    if version >= 2:
        acting = r.string("character", required=kind != "pick")
        if acting is not None and acting not in characters:
            raise r.fail(f"{acting!r} is not a character of this match (expected one of "
                         f"{', '.join(sorted(characters))})", "character")
    if not d.keys() <= _EVENT_KEYS[version >= 2][kind]:
        extra = set(d) - _EVENT_KEYS[version >= 2][kind]
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
    elif kind == "reveal":
        action = Reveal(r.card("card"))
    elif kind == "snapback":
        action = Snapback(r.card("card"))
    elif kind == "tag":
        action = _tag(r, d)
    elif kind == "bot_tie":
        inner = r.child("choice")
        step = inner.string("action")
        if "player" in inner.obj():
            raise inner.fail("the step is the bot's: the event's own player is the human's",
                             "player")
        if step not in _TIE_STEPS:
            raise inner.fail(f"a bot tie choice names the bot's next combo step, one of "
                             f"{', '.join(_TIE_STEPS)}, not {step!r}", "action")
        choice = _parse_event({**inner.obj(), "player": d.get("player")}, inner.path, 1,
                              characters, seats).action
        action = BotTie(choice)
    elif kind == "assist":  # AS-2 / AS-4
        assisted = _move_type(r, required=True)
        assert assisted is not None
        action = Assist(r.card("card"), assisted, r.string("name", required=False),
                        r.card("discard"))
    elif kind == "swap":  # AS-6
        action = Swap()
    elif kind == "pick":
        incoming = r.string("incoming")
        assert incoming is not None
        if incoming not in characters:
            raise r.fail(f"{incoming!r} is not a character of this match", "incoming")
        action = Pick(incoming)
    else:
        name = r.string("ability")
        assert name is not None
        used = None if d.get("card") is None else r.card("card")
        action = UseAbility(name, used, r.cards("cards", required=False),
                            r.string("option", required=False))
    return LogEvent(player, action, acting)


def _tag(r: _Reader, d: dict[str, Any]) -> Tag:
    """A ``tag`` event: the hard tag (no ``tag`` key) or a combat / Ace tag (``tag`` names it,
    with the keys that tag takes: docs/log-format.md §6)."""
    which = r.string("tag", required=False)
    if which not in _TAG_KEYS:
        raise r.fail("expected dodge, continue, super or ace", "tag")
    extra = set(d) - {"player", "character", "action", "tag"} - _TAG_KEYS[which]
    if extra:
        raise r.fail(f"unexpected key for a {which or 'hard'} tag", sorted(extra)[0])
    if which in ("dodge", "continue"):
        return Tag(which, card=r.card("card"), partner_card=r.card("partner_card"))
    if which == "super":
        return Tag(which, card=r.card("card"), move=_move_type(r, required=True),
                   name=r.string("name", required=False),
                   aces=r.cards("aces", required=False))
    if which == "ace":
        return Tag(which, sets=r.cards("sets", required=False),
                   from_discard=r.cards("from_discard", required=False),
                   from_deck=r.cards("from_deck", required=False))
    return Tag()


def parse_log(source: str | bytes | dict[str, Any]) -> MatchLog:
    """Read a version-1 or version-2 log from JSON text (or an already decoded object).

    Raises LogSyntaxError with a JSON path for anything unreadable:

    >>> parse_log('{"format": "yomi-match-log", "version": 3}')
    Traceback (most recent call last):
    ...
    rules_engine.errors.LogSyntaxError: $.version: this engine reads version 1 and 2 logs, not 3
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
    version = r.get("version")
    if version not in VERSIONS or isinstance(version, bool):
        raise r.fail(f"this engine reads version 1 and 2 logs, not {version}", "version")
    if version == 2:
        return _parse_v2(r)
    if r.get("mode") != "versus":
        mode = r.get("mode")
        if mode == Mode.TRIPLE_THREAT.value:
            raise r.fail("a Triple Threat log is written in format version 2 (sides of three "
                         "characters)", "mode")
        if mode in (Mode.TAG_TEAM.value, Mode.DRAMATIC_BATTLE.value):
            raise r.fail(f"a {Mode(mode).label} log is written in format version 2 (sides "
                         "with their characters, a seat for each)", "mode")
        raise r.fail("only 'versus' games are supported in a version 1 log", "mode")
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
    seed = _draws(r)
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


def _parse_v2(r: _Reader) -> MatchLog:
    """Version 2: ``mode``, ``sides`` (``P1``/``P2``: ``characters``, optional ``players``:
    one name for the side or one per character), and events naming their character."""
    mode_raw = r.string("mode")
    try:
        mode = Mode(mode_raw)
    except ValueError:
        raise r.fail(f"expected one of {', '.join(m.value for m in Mode)}", "mode") from None
    if mode not in TEAM_SIZE:
        raise r.fail(f"{mode.label} games are not played by this engine version", "mode")
    ruleset = _ruleset(r)
    sides_r = r.child("sides")
    known = characters()
    sides: list[tuple[Member, ...]] = []
    names: list[str | None] = []
    sizes = side_sizes(mode)
    if mode is Mode.DRAMATIC_BATTLE:  # the lone side may be either (DB-1)
        first = sides_r.child("P1").get("characters")
        if isinstance(first, list) and len(first) == 2:
            sizes = (2, 1)
    for seat, size in zip(("P1", "P2"), sizes, strict=True):
        sr = sides_r.child(seat)
        raw = sr.get("characters")
        if mode is Mode.SURVIVAL and seat == "P2":  # TR-14: the bots, in the order they come
            if not isinstance(raw, list) or not 1 <= len(raw) <= MAX_SURVIVAL_BOTS:
                raise sr.fail(f"a Survival run faces 1 to {MAX_SURVIVAL_BOTS} bots (TR-14)",
                              "characters")
            size = len(raw)
        if not isinstance(raw, list) or len(raw) != size:
            cite = {Mode.TRIPLE_THREAT: " (TT-1)", Mode.TAG_TEAM: " (TG-1)",
                    Mode.DRAMATIC_BATTLE: " (DB-1: one side is the lone character, the "
                                          "other the pair)",
                    }.get(mode, "")
            raise sr.fail(f"a {mode.label} side {seat} has {size} "
                          f"character{'s' if size > 1 else ''}{cite}", "characters")
        for i, cid in enumerate(raw):
            if cid not in known:
                raise LogSyntaxError(f"{sr.path}.characters[{i}]",
                                     f"unknown character {cid!r} (expected one of "
                                     f"{', '.join(sorted(known))})")
        if len(set(raw)) != len(raw):
            raise sr.fail("a side's characters are all different (TT-1: three decks)",
                          "characters")
        players = sr.get("players", required=False)
        if players is not None and (
                not isinstance(players, list) or len(players) not in (1, size)
                or not all(isinstance(p, str) for p in players)):
            raise sr.fail(f"expected one player's name for the side, or {size} (one per "
                          "character)", "players")
        controllers: list[str | None] = list(players) if players and len(players) == size \
            else [None] * size
        sides.append(tuple(Member(c, n) for c, n in zip(raw, controllers, strict=True)))
        names.append(players[0] if players else None)
    seed = _draws(r)
    if seed is None and mode in (Mode.TRAINING, Mode.SURVIVAL):
        raise LogSyntaxError("$.draws.mode", f"a {mode.label} log is seeded: the bot's cards "
                                             "and their orientation come from the seed (TR-5)")
    in_match = frozenset(m.character for side in sides for m in side)
    raw_events = r.get("events")
    if not isinstance(raw_events, list):
        raise r.fail(f"expected a list of events, found {_kind(raw_events)}", "events")
    seats = seat_names(mode, (len(sides[0]), len(sides[1])))
    events = tuple(parse_event(e, f"$.events[{i}]", 2, in_match, seats)
                   for i, e in enumerate(raw_events))
    result = None
    if r.get("result", required=False) is not None:
        result = _parse_result(r.child("result"))
    return MatchLog(
        characters=(sides[0][0].character, sides[1][0].character), events=events, seed=seed,
        ruleset=ruleset, result=result, names=(names[0], names[1]), mode=mode,
        sides=(sides[0], sides[1]), version=2)


def _ruleset(r: _Reader) -> Ruleset:
    rules_raw = r.get("ruleset", required=False) or {}
    if not isinstance(rules_raw, dict):
        raise r.fail("expected an object of ruleset options", "ruleset")
    try:
        return Ruleset.from_json(rules_raw)
    except ValueError as exc:
        raise r.fail(str(exc), "ruleset") from None


def _draws(r: _Reader) -> int | None:
    """The log's ``draws``: the seed of a seeded game (shuffled by :data:`ALGORITHM`, an
    unsigned 64-bit seed), or None when the draws are recorded.

    The seed is written as a decimal string: a JSON number above 2**53 is rounded by readers
    that hold numbers as doubles (JavaScript), and the game would not be the one played. A
    number is read too (logs written before, and by hand).

    >>> _draws(_Reader({"draws": {"mode": "seeded", "algorithm": ALGORITHM,
    ...                           "seed": "18446744073709551615"}}, "$"))
    18446744073709551615
    """
    draws = r.child("draws")
    mode = draws.string("mode")
    seed: int | None = None
    if mode == "seeded":
        if draws.get("algorithm") != ALGORITHM:
            raise draws.fail(f"expected the shuffle algorithm {ALGORITHM!r}", "algorithm")
        raw = draws.get("seed")
        if isinstance(raw, str):
            # digits only, no sign, no spaces, no leading zero (one spelling per seed)
            if not (raw.isascii() and raw.isdigit()) or (len(raw) > 1 and raw[0] == "0"):
                raise draws.fail("expected an unsigned 64-bit integer, or one in decimal "
                                 f"digits in a string, found {raw[:40]!r}", "seed")
            seed = int(raw) if len(raw) <= 20 else 2**64
        else:
            seed = draws.integer("seed")
        assert seed is not None
        if not 0 <= seed < 2**64:
            raise draws.fail("expected an unsigned 64-bit integer", "seed")
    elif mode != "recorded":
        raise draws.fail("expected 'seeded' or 'recorded'", "mode")
    return seed


def _parse_result(r: _Reader) -> ClaimedResult:
    d = r.obj()
    winner_raw = d.get("winner")
    winner = None if winner_raw is None else _player(winner_raw, r, "winner")
    how_raw = r.string("how")
    try:
        how = Termination(how_raw)
    except ValueError:
        allowed = ", ".join(t.value for t in Termination)
        raise r.fail(f"expected one of {allowed}", "how") from None
    turns = r.integer("turns", required=False)
    life: tuple[int, ...] | None = None
    if d.get("life") is not None:
        lr = r.child("life")
        a, b = lr.integer("P1"), lr.integer("P2")
        assert a is not None and b is not None
        life = (a, b)
        for extra in ("P3", "P4"):  # a bench's seats (Tag Team, Dramatic Battle)
            if extra not in lr.obj():
                break
            v = lr.integer(extra)
            assert v is not None
            life = (*life, v)
    return ClaimedResult(winner, how, turns, life)
