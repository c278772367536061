"""The event journal: what happened in a game, in order — hits, blocks, throws, knockdowns,
damage, draws, heals, Joker uses and finished combos.

Glossary (RULES.md §1): *hit* (GL-HIT) = a combat card or combo move that connects; *damage*
(GL-DAMAGE) = life lost, by combat, block damage or an ability; a *knockdown* (KD-1) is inflicted
at C13a and applies next turn.

Responsibility: one record that every reader shares. The game appends to it at the step where a
thing happens; character modules react to it through ``CharacterRules.on_event`` (the game
delivers each event to every seat's rules, in initiative order, at that same step); the
verdict's facts (:meth:`Game.facts`) and the timeline (:mod:`rules_engine.timeline`) count it,
so nothing is derived twice. Events are small values stamped with the turn and step; once
recorded they are never changed (they are not declared frozen only because a frozen dataclass
is four times slower to build, and a game records hundreds of them).
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from dataclasses import dataclass
from itertools import compress
from typing import NamedTuple, TypeVar

from rules_engine.cards import Card, Move
from rules_engine.state import ComboRecord
from rules_engine.types import PlayerId

DAMAGE_KINDS = ("combat", "block", "ability")
JOKER_USES = ("gold_burst", "rewind", "power_up_set", "pump")
# the facts' documented order of the Joker counts
JOKER_KEYS = ("gold_burst", "rewind", "rewind_prevented_damage", "power_up_set", "pump")
SEATS = tuple(PlayerId)  # every seat, once (iterating the enum each time is slow)


@dataclass(slots=True)
class Event:
    """Something that happened at ``turn``/``step``."""

    turn: int
    step: str


@dataclass(slots=True)
class Hit(Event):
    """GL-HIT: ``by``'s combat card or combo move hit ``seat`` (``combo``: a C10 move)."""

    seat: PlayerId
    by: PlayerId
    combo: bool = False


@dataclass(slots=True)
class Thrown(Event):
    """AR-THR-2: ``by``'s throw hit ``seat``."""

    seat: PlayerId
    by: PlayerId


@dataclass(slots=True)
class Blocked(Event):
    """C8b: ``blocker``'s block beat ``attacker``'s attack (after the block draw).
    ``innates`` is False when the attacker's card text stops the blocker's innate abilities
    from blocking (Time Stop): reactions to this block that are innates must not act."""

    blocker: PlayerId
    attacker: PlayerId
    innates: bool = True


@dataclass(slots=True)
class Knockdown(Event):
    """KD-1 / KD-6: ``by`` knocked ``seat`` down (it applies next turn). ``combat``: the
    combat's knockdown at C13a (the last move of a combo, KD-1, or a tied attack, OQ-10);
    otherwise card text's (War Stomp, Entangling Vines)."""

    seat: PlayerId
    by: PlayerId
    combat: bool = False


@dataclass(slots=True)
class DamageDealt(Event):
    """GL-DAMAGE: ``target`` lost ``amount`` life to ``source`` (``kind``: combat, block or
    ability; a negative amount is damage undone, CF-06's Rewind of the combat card's damage)."""

    target: PlayerId
    source: PlayerId
    amount: int
    kind: str


@dataclass(slots=True)
class Drew(Event):
    """``seat`` drew one card (S-5, T2, C7, C8b, C11 or card text)."""

    seat: PlayerId


@dataclass(slots=True)
class Healed(Event):
    """GEN-8: ``seat`` gained ``amount`` life (after the cap)."""

    seat: PlayerId
    amount: int


@dataclass(slots=True)
class JokerUsed(Event):
    """``seat`` used a Joker: ``use`` is gold_burst (a hitting Gold Burst), rewind (with the
    damage it ``prevented``, RW-6), power_up_set (PU-2) or pump (PM-1)."""

    seat: PlayerId
    use: str
    prevented: int = 0


@dataclass(slots=True)
class AcesPaid(Event):
    """CB-9 / C3: ``seat`` discarded ``cards``, the extra Aces a move's mandatory cost asks
    for beyond its own card (a super played as the combat card or as a combo move)."""

    seat: PlayerId
    cards: tuple[Card, ...]


@dataclass(slots=True)
class Bluffed(Event):
    """RW-6: ``seat``'s face-down card was revealed as a bluff (not a Joker)."""

    seat: PlayerId


@dataclass(slots=True)
class Voided(Event):
    """M-VOID: ``seat``'s combat ``card`` (revealed as ``kind``) did not lock in: it was
    discarded and ``seat`` plays no-card this combat. ``rule`` and ``reason`` say why: KD-4 (a
    knocked-down player's dodge), KD-5 (a mixed-up block), CF-08 (an Ace cost not paid), or
    card text (AB-2: the combat was cancelled; M-VOID: a Dragon attack against a dodge)."""

    seat: PlayerId
    card: Card | None
    kind: str
    rule: str
    reason: str


@dataclass(slots=True)
class KnockdownAvoided(Event):
    """C13a: ``by`` would have knocked ``seat`` down, and did not: ``rule`` SB-2 (a snapback
    switched ``seat`` out: its partner ``replaced_by`` came in, not knocked down; ``card`` is
    the card ``by`` discarded) or KD-7 (both would be knocked down: neither is)."""

    seat: PlayerId
    by: PlayerId
    rule: str
    replaced_by: PlayerId | None = None
    card: Card | None = None


@dataclass(slots=True)
class CombatResolved(Event):
    """C6: the combat between the active ``seats`` (side A's first) with their locked-in
    ``kinds`` (attack, throw, block, dodge, joker, none) and ``speeds`` (tenths, after ability
    modifiers; None: no speed), decided by the matrix ``cell`` (§4.4, or the cell card text
    put in its place); ``winner`` (None: nobody) and whether both hit (a speed tie, two Gold
    Bursts)."""

    seats: tuple[PlayerId, PlayerId]
    kinds: tuple[str, str]
    speeds: tuple[int | None, int | None]
    cell: str
    winner: PlayerId | None
    both_hit: bool


@dataclass(slots=True)
class TurnEnded(Event):
    """The turn is over for the timeline's purposes: after the end-of-turn window (K1: Power
    Up done), right after combat when card text skipped the rest (Acrobatics), or at a
    knockout that ended the bout (team modes). Every seat's ``life`` and the ``initiative``
    then. (A game that ends mid-turn has none for its last turn.)"""

    life: tuple[int, ...]
    initiative: PlayerId


class Fighter(NamedTuple):
    """One seat's combat area, for showing it: the card revealed at C2, the combat card that
    locked in (None once void, or for no-card), its move as played and its kind (attack,
    throw, block, dodge, joker, none), and whether the seat fought knocked down (KD-3).
    (A named tuple, not a dataclass: the game makes one per seat at every combat, by
    ``tuple.__new__`` without a Python call.)"""

    revealed_card: Card | None
    combat_card: Card | None
    move: Move | None
    kind: str
    knocked_down: bool


class PlayedMove(NamedTuple):
    """One move of the combo in the combat area: its card, the move as played, its pumps
    (PM-1), whether it was played at C10 (False: the combat card or hit-back that began the
    combo) and who played it (None: the comboer; a combat tag or an assist: that seat). (A
    named tuple, made like :class:`Fighter`.)"""

    card: Card
    move: Move
    pumps: tuple[Card, ...]
    played_in_c10: bool
    seat: PlayerId | None = None


@dataclass(slots=True)
class CombatArea(Event):
    """The combat area as the game left it for the end-of-combat window (C13b), or at a
    knockout that ended the bout mid-combat (team modes): every seat's ``fighters`` (by
    seat), the active seats, the matrix ``cell`` (§4.4) with its ``winner`` and ``loser``,
    the ``combo`` with the seat that played each move and the combo ``points`` it spent so far
    (CB-3), whether it was a ``hit_back`` (CB-7), whose combo it was (``comboer``: the
    winner's, or one card text started), and Tag Team's ``assists`` in words (AS-*). What
    views show of a combat; the timeline reads it, never the game's state."""

    fighters: tuple[Fighter, ...]
    actives: tuple[PlayerId, PlayerId]
    cell: str | None
    winner: PlayerId | None
    loser: PlayerId | None
    combo: tuple[PlayedMove, ...]
    points: int
    hit_back: bool
    comboer: PlayerId | None
    assists: tuple[str, ...] = ()


@dataclass(slots=True)
class Tagged(Event):
    """A tag (TAG, TAG-PU): ``seat`` switched out and its partner ``partner`` came in;
    ``tag`` is hard (TAG-PU-2), dodge (TAG-DODGE), continue (TAG-CONT), super (TAG-SUPER)
    or ace (TAG-PU-1)."""

    seat: PlayerId
    partner: PlayerId
    tag: str


@dataclass(slots=True)
class Entered(Event):
    """``character`` (an id) is in ``seat`` from now on: at the start of the game for every
    seat, and when a team mode sends a character in (TT-2, TT-4). The acting character of any
    later event of that seat (:func:`acting_characters`)."""

    seat: PlayerId
    character: str


@dataclass(slots=True)
class ComboEnded(Event):
    """A finished combo (C11 or C12), with what statistics need of it."""

    record: ComboRecord


E = TypeVar("E", bound=Event)


def actor(e: Event) -> PlayerId | None:
    """The seat that acted in ``e``: who hit, threw, blocked, knocked down, dealt damage,
    drew, healed, used a Joker, bluffed, finished a combo, lost a card to a void, snapped back
    (or would have knocked down), won the combat, entered, or tagged out. None: a combat
    nobody won, the end of a turn, a combat's area."""
    kind = type(e)
    if kind in (Hit, Thrown, Knockdown, KnockdownAvoided):
        return e.by  # type: ignore[attr-defined, no-any-return]
    if kind is Blocked:
        return e.blocker  # type: ignore[attr-defined, no-any-return]
    if kind is DamageDealt:
        return e.source  # type: ignore[attr-defined, no-any-return]
    if kind is ComboEnded:
        return e.record.player  # type: ignore[attr-defined, no-any-return]
    if kind is CombatResolved:
        return e.winner  # type: ignore[attr-defined, no-any-return]
    if kind is TurnEnded or kind is CombatArea:
        return None
    return e.seat  # type: ignore[attr-defined, no-any-return]


def acting_characters(events: Iterable[Event]) -> Iterator[tuple[Event, str | None]]:
    """Each event with the character that acted in it (the id of the character in its
    :func:`actor`'s seat then, as the journal's :class:`Entered` events say; None when no seat
    acted)."""
    cast: dict[PlayerId, str] = {}
    for e in events:
        if type(e) is Entered:
            assert isinstance(e, Entered)
            cast[e.seat] = e.character
        seat = actor(e)
        yield e, None if seat is None else cast.get(seat)


class Journal(list[Event]):
    """The game's events in order (a list: readers slice it and count)."""

    record = list.append  # the game's one way to write: events are never changed or removed

    def of(self, kind: type[E], start: int = 0, end: int | None = None) -> Iterator[E]:
        """The events of ``kind`` in ``events[start:end]``."""
        for e in self[start:end]:
            if isinstance(e, kind):
                yield e


_COUNTED = frozenset({Drew, DamageDealt, Knockdown, JokerUsed, Bluffed})  # what Totals counts


@dataclass(frozen=True, slots=True)
class Totals:
    """One seat's counts over a stretch of the journal (facts, and the timeline per turn)."""

    cards_drawn: int
    damage_dealt: dict[str, int]
    knockdowns_inflicted: int
    jokers: dict[str, int]
    bluffs: int

    @staticmethod
    def of(events: Sequence[Event], seat: PlayerId) -> Totals:
        """``seat``'s counts over ``events``."""
        return Totals.by_seat(events, (seat,))[seat]

    @staticmethod
    def by_seat(events: Sequence[Event],
                seats: tuple[PlayerId, ...] = SEATS) -> dict[PlayerId, Totals]:
        """The counts over ``events`` of each of ``seats`` (every seat unless told), in one
        pass."""
        drawn = dict.fromkeys(SEATS, 0)
        knockdowns = dict.fromkeys(SEATS, 0)
        bluffs = dict.fromkeys(SEATS, 0)
        # the counts by kind only for the seats asked about (the timeline asks every turn)
        damage = {s: dict.fromkeys(DAMAGE_KINDS, 0) for s in seats}
        jokers = {s: dict.fromkeys(JOKER_KEYS, 0) for s in seats}
        # only the events counted, picked without a Python step per event (itertools: half
        # the journal is combats, combat areas, hits and turn ends)
        for e in compress(events, map(_COUNTED.__contains__, map(type, events))):
            kind = type(e)
            if kind is Drew:
                drawn[e.seat] += 1  # type: ignore[attr-defined]
            elif kind is DamageDealt:
                assert isinstance(e, DamageDealt)
                if e.target is not e.source and e.source in damage:
                    damage[e.source][e.kind] += e.amount
            elif kind is Knockdown:
                knockdowns[e.by] += 1  # type: ignore[attr-defined]
            elif kind is JokerUsed:
                assert isinstance(e, JokerUsed)
                if e.seat in jokers:
                    jokers[e.seat][e.use] += 1
                    jokers[e.seat]["rewind_prevented_damage"] += e.prevented
            elif kind is Bluffed:
                bluffs[e.seat] += 1  # type: ignore[attr-defined]
        return {s: Totals(drawn[s], damage[s], knockdowns[s], jokers[s], bluffs[s])
                for s in seats}
