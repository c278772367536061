"""Cards, moves and characters: small immutable typed values, loaded once from the data file.

Glossary (RULES.md §1):
- *card* (GL-CARD): rank + suit, or one of the two Jokers ("X1", "X2"). 54 per play deck (S-2).
- *rank* (GL-RANK): 2..10, J, Q, K, A, ordered 2 < ... < A; *normal* = 2..10 (GL-NORMAL),
  *face* = J, Q, K (GL-FACE), *Ace* = super (GL-ACE). Jokers have no rank.
- *move* (GL-MOVE): one end of a card: attack, throw, block or dodge with its printed stats.
  Speeds are kept in tenths (2.4 -> 24) so comparisons are exact (GEN-7).
- *character*: life, combo limit, innates, card abilities and the moves on each rank (S-3, S-4).

Responsibility: this module owns the card vocabulary and the check of the data file on load
(every rank 2..A present, every move well formed). It knows nothing about game state.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from enum import Enum, IntEnum
from functools import cache
from importlib import resources
from typing import Any


class Rank(IntEnum):
    """GL-RANK: poker value. J=11, Q=12, K=13, A=14 for ordering only (parity: OQ-07)."""

    TWO = 2
    THREE = 3
    FOUR = 4
    FIVE = 5
    SIX = 6
    SEVEN = 7
    EIGHT = 8
    NINE = 9
    TEN = 10
    JACK = 11
    QUEEN = 12
    KING = 13
    ACE = 14

    @property
    def code(self) -> str:
        return RANK_CODES[self]

    @property
    def is_normal(self) -> bool:
        """GL-NORMAL: ranks 2..10."""
        return self <= Rank.TEN

    @property
    def is_face(self) -> bool:
        """GL-FACE: J, Q, K."""
        return Rank.JACK <= self <= Rank.KING


RANK_CODES = {
    Rank.TWO: "2", Rank.THREE: "3", Rank.FOUR: "4", Rank.FIVE: "5", Rank.SIX: "6",
    Rank.SEVEN: "7", Rank.EIGHT: "8", Rank.NINE: "9", Rank.TEN: "T", Rank.JACK: "J",
    Rank.QUEEN: "Q", Rank.KING: "K", Rank.ACE: "A",
}
RANK_BY_CODE = {code: rank for rank, code in RANK_CODES.items()}


class Suit(Enum):
    """GL-SUIT. Red = hearts and diamonds."""

    __hash__ = object.__hash__  # by identity, as MoveType (a suit is counted in sets)

    CLUBS = "C"
    DIAMONDS = "D"
    HEARTS = "H"
    SPADES = "S"

    @property
    def is_red(self) -> bool:
        return self in (Suit.HEARTS, Suit.DIAMONDS)


@dataclass(frozen=True, slots=True, eq=False)
class Card:
    """A play-deck card. ``rank``/``suit`` are None for a Joker, which has ``joker`` 1 or 2.

    Named in logs as rank code + suit code ("TH", "AS") or "X1"/"X2" for the Jokers.
    Cards are interned (one object per card): use :func:`card` or :meth:`parse`. Equality and
    hashing are by identity, which is what makes hand and deck look-ups cheap.
    """

    code: str
    rank: Rank | None
    suit: Suit | None
    joker: int = 0
    # Plain attributes worked out once per (interned) card: validation and the bots ask them
    # about every card in a hand, deck or discard pile at almost every step, and a slot read
    # costs a fraction of a property call.
    is_joker: bool = field(init=False)
    is_ace: bool = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_joker", self.joker != 0)
        object.__setattr__(self, "is_ace", self.rank is Rank.ACE)

    def __repr__(self) -> str:
        return f"Card({self.code!r})"

    def __str__(self) -> str:
        return self.code

    @staticmethod
    def parse(code: str) -> Card:
        """``Card.parse("TH")`` -> the ten of hearts; raises KeyError for an unknown code."""
        return CARDS_BY_CODE[code]


def _all_cards() -> tuple[Card, ...]:
    cards = [
        Card(rank.code + suit.value, rank, suit)
        for rank in Rank
        for suit in Suit
    ]
    cards += [Card("X1", None, None, 1), Card("X2", None, None, 2)]
    return tuple(cards)


# S-2: the play deck in its documented unshuffled order: ranks 2..A, suits C, D, H, S, then X1, X2.
FULL_DECK: tuple[Card, ...] = _all_cards()
CARDS_BY_CODE: dict[str, Card] = {c.code: c for c in FULL_DECK}
JOKERS: tuple[Card, Card] = (CARDS_BY_CODE["X1"], CARDS_BY_CODE["X2"])


def card(code: str) -> Card:
    """The interned card for a code ("7H", "X2")."""
    return CARDS_BY_CODE[code]


def deck_for(jokers: bool) -> tuple[Card, ...]:
    """S-2 / S-7: the 54-card play deck, or 52 cards with ``opt.jokers=REMOVED``."""
    return FULL_DECK if jokers else FULL_DECK[:52]


class MoveType(Enum):
    """The four move types (GL-MOVE)."""

    # Members are singletons compared by identity: hash them by identity too (C speed) rather
    # than by Enum.__hash__, a Python-level hash of the name, paid at every move look-up.
    __hash__ = object.__hash__

    ATTACK = "attack"
    THROW = "throw"
    BLOCK = "block"
    DODGE = "dodge"


class ComboType(Enum):
    """GL-COMBO-TYPE. NORMAL marks a normal attack (it has no printed type: CT table)."""

    NORMAL = "normal"
    STARTER = "starter"
    LINKER = "linker"
    ENDER = "ender"
    CANT_COMBO = "cant_combo"


class PumpKind(Enum):
    """Which cards a pump accepts (PM-1): any card, or one rank, or face cards."""

    ANY = "any"
    KING = "king"
    ACE = "ace"
    FACE = "face"
    JACK = "jack"
    QUEEN = "queen"

    def accepts(self, c: Card) -> bool:
        if self is PumpKind.ANY:
            return True
        if c.rank is None:
            return False
        if self is PumpKind.FACE:
            return c.rank.is_face
        return c.rank is _PUMP_RANK[self]


_PUMP_RANK = {
    PumpKind.KING: Rank.KING, PumpKind.ACE: Rank.ACE,
    PumpKind.JACK: Rank.JACK, PumpKind.QUEEN: Rank.QUEEN,
}


@dataclass(frozen=True, slots=True)
class Pump:
    """A pump spec (PM-1): up to ``max_cards`` cards of ``kind``, ``damage`` each."""

    kind: PumpKind
    max_cards: int
    damage: int


@dataclass(frozen=True, slots=True)
class Move:
    """One end of a card (GL-MOVE), as printed for one rank of one character.

    ``speed`` is in tenths (None for blocks and dodges). ``combo_points`` and ``combo_type`` are
    None for blocks and dodges. ``ace_cost`` counts the card itself (GL-MANDATORY): 0 or 1 means
    no extra Ace. ``block_damage_suits`` limits block damage to cards of those suits (Jaina's red
    normals); None means every suit.
    """

    type: MoveType
    name: str | None
    rank: Rank
    speed: int | None
    damage: int
    block_damage: int
    block_damage_suits: frozenset[Suit] | None
    combo_points: int | None
    combo_type: ComboType | None
    knockdown: bool
    pump: Pump | None
    ace_cost: int
    requires: str | None
    range_legal: bool
    range_giving: bool
    # Derived once per move (plain attributes, not properties: commit options, combo checks
    # and the greedy bot read them for every end of every card in hand at each decision).
    # ``is_attack_or_throw``; ``follow_type``: the combo type for follow rules, an untyped
    # non-normal attack/throw being a Starter (OQ-11); ``extra_aces``: the Aces to discard
    # besides the card itself (C3, CB-9).
    is_attack_or_throw: bool = field(init=False, compare=False, repr=False)
    follow_type: ComboType = field(init=False, compare=False, repr=False)
    extra_aces: int = field(init=False, compare=False, repr=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "is_attack_or_throw",
                           self.type is MoveType.ATTACK or self.type is MoveType.THROW)
        object.__setattr__(self, "follow_type", self.combo_type if self.combo_type is not None
                           else ComboType.STARTER)
        object.__setattr__(self, "extra_aces", max(self.ace_cost - 1, 0))

    @property
    def is_normal_attack(self) -> bool:
        """GL-NORMAL: an attack move on a 2..10 card."""
        return self.type is MoveType.ATTACK and self.rank.is_normal

    def block_damage_for(self, c: Card) -> int:
        if self.block_damage_suits is not None and c.suit not in self.block_damage_suits:
            return 0
        return self.block_damage

    @property
    def label(self) -> str:
        """How a log names the move: its type, plus its name when it has one."""
        return self.type.value if self.name is None else f"{self.type.value} '{self.name}'"

    def __str__(self) -> str:
        return self.label


@dataclass(frozen=True, slots=True)
class Ability:
    """A card ability (GL-ABILITY) printed on every card of ``rank``, with its timing window."""

    rank: Rank
    name: str
    timing: str
    text: str


@dataclass(frozen=True, slots=True)
class Innate:
    name: str
    text: str


@dataclass(frozen=True, slots=True)
class Character:
    """S-4: a character's life, combo limit, innates, abilities and per-rank moves.

    ``moves[rank]`` holds the distinct moves of that rank's cards (one or two; a single move is
    printed on both ends, GL-END).
    """

    id: str
    name: str
    life: int
    combo_limit: int
    innates: tuple[Innate, ...]
    abilities: tuple[Ability, ...]
    moves: dict[Rank, tuple[Move, ...]]
    # (rank, move type) -> the moves of that type on the rank's cards, indexed once: resolving
    # a logged or offered move (C1, C10, the bots) looks it up instead of filtering the ends.
    _by_type: dict[tuple[Rank, MoveType], tuple[Move, ...]] = field(
        init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "_by_type", {
            (rank, t): tuple(m for m in ms if m.type is t)
            for rank, ms in self.moves.items() for t in MoveType})

    def moves_of(self, c: Card) -> tuple[Move, ...]:
        """The moves on a card's ends (none for a Joker)."""
        if c.rank is None:
            return ()
        return self.moves[c.rank]

    def other_end(self, c: Card, showing: Move) -> Move | None:
        """The printed move on the other end of ``c`` from the end ``showing`` (matched by type
        and name, so a move changed by modifiers still finds its end): what rotating the card
        180 degrees turns to; None when ``c`` has no other end."""
        return next((o for o in self.moves_of(c)
                     if (o.type, o.name) != (showing.type, showing.name)), None)

    def moves_of_type(self, c: Card, move_type: MoveType) -> tuple[Move, ...]:
        """The moves of ``c`` with that type (none for a Joker)."""
        if c.rank is None:
            return ()
        return self._by_type[c.rank, move_type]

    def find_move(self, c: Card, move_type: MoveType, name: str | None) -> Move | None:
        """The move of ``c`` with that type (and name, needed only when two ends share a type)."""
        found = None
        for m in self.moves_of(c):
            if m.type is move_type and (name is None or m.name == name):
                if found is not None:
                    return None  # ambiguous without a name
                found = m
        return found

    def __hash__(self) -> int:
        return hash(self.id)


class CardDataError(ValueError):
    """The engine's card data file is malformed (an engine packaging bug, never a player's)."""


def _load_move(cid: str, rank: Rank, raw: dict[str, Any]) -> Move:
    where = f"{cid} rank {rank.code} {raw.get('type')} {raw.get('name') or ''}".strip()
    try:
        mtype = MoveType(raw["type"])
        attacking = mtype in (MoveType.ATTACK, MoveType.THROW)
        pump = None
        if raw["pump"] is not None:
            pump = Pump(PumpKind(raw["pump"]["kind"]), int(raw["pump"]["max"]),
                        int(raw["pump"]["damage"]))
        suits = raw["block_damage_suits"]
        move = Move(
            type=mtype,
            name=raw["name"],
            rank=rank,
            speed=raw["speed"],
            damage=int(raw["damage"]),
            block_damage=int(raw["block_damage"]),
            block_damage_suits=None if suits is None else frozenset(Suit(s) for s in suits),
            combo_points=raw["combo_points"],
            combo_type=None if raw["combo_type"] is None else ComboType(raw["combo_type"]),
            knockdown=bool(raw["knockdown"]),
            pump=pump,
            ace_cost=int(raw["ace_cost"]),
            requires=raw["requires"],
            range_legal=bool(raw["range_legal"]),
            range_giving=bool(raw["range_giving"]),
        )
    except (KeyError, ValueError, TypeError) as exc:
        raise CardDataError(f"{where}: malformed move ({exc!r})") from exc
    if attacking:
        if not isinstance(move.speed, int) or move.speed < 0:
            raise CardDataError(f"{where}: attacks and throws need a speed >= 0")
        if not isinstance(move.combo_points, int) or move.combo_points < 0:
            raise CardDataError(f"{where}: attacks and throws need combo points >= 0")
        if move.combo_type is None:
            raise CardDataError(f"{where}: attacks and throws need a combo type")
        if move.combo_type is ComboType.NORMAL and not move.is_normal_attack:
            raise CardDataError(f"{where}: only attacks on 2..10 are normal (GL-NORMAL)")
    elif move.speed is not None or move.combo_type is not None or move.damage:
        raise CardDataError(f"{where}: blocks and dodges have no speed, combo type or damage")
    if move.ace_cost and rank is not Rank.ACE:
        raise CardDataError(f"{where}: only Aces have a mandatory Ace cost")
    return move


def _load_character(raw: dict[str, Any]) -> Character:
    cid = raw["id"]
    moves: dict[Rank, tuple[Move, ...]] = {}
    for rank in Rank:
        raw_moves = raw["ranks"].get(rank.code)
        if not raw_moves:
            raise CardDataError(f"{cid}: rank {rank.code} is missing")
        ms = tuple(_load_move(cid, rank, m) for m in raw_moves)
        if len(ms) not in (1, 2):
            raise CardDataError(f"{cid} rank {rank.code}: one or two moves, not {len(ms)}")
        if len(ms) == 2 and (ms[0].type, ms[0].name) == (ms[1].type, ms[1].name):
            raise CardDataError(f"{cid} rank {rank.code}: the same move twice; list it once")
        moves[rank] = ms
    if set(raw["ranks"]) - set(RANK_BY_CODE):
        raise CardDataError(f"{cid}: unknown rank in {sorted(raw['ranks'])}")
    life, limit = raw["life"], raw["combo_limit"]
    if not (isinstance(life, int) and life > 0 and isinstance(limit, int) and limit > 0):
        raise CardDataError(f"{cid}: life and combo limit must be positive integers")
    return Character(
        id=cid,
        name=raw["name"],
        life=life,
        combo_limit=limit,
        innates=tuple(Innate(i["name"], i["text"]) for i in raw["innates"]),
        abilities=tuple(
            Ability(RANK_BY_CODE[a["rank"]], a["name"], a["timing"], a["text"])
            for a in raw["abilities"]
        ),
        moves=moves,
    )


def parse_card_data(data: dict[str, Any]) -> dict[str, Character]:
    """Check and load a card data document (see ``tools/build_card_data.py``)."""
    if data.get("format") != "yomi-card-data" or data.get("version") != 1:
        raise CardDataError("not a version-1 yomi-card-data document")
    chars = {}
    for raw in data["characters"]:
        c = _load_character(raw)
        if c.id in chars:
            raise CardDataError(f"duplicate character {c.id}")
        chars[c.id] = c
    return chars


@cache
def characters() -> dict[str, Character]:
    """All characters of the engine's data file, loaded and checked once per process."""
    text = resources.files("rules_engine").joinpath("data/characters.json").read_text("utf-8")
    return parse_card_data(json.loads(text))


def character(character_id: str) -> Character:
    """The character with that id ("grave"); KeyError if there is none."""
    return characters()[character_id]
