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

from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import TypeVar

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
    """KD-1 / KD-6: ``by`` knocked ``seat`` down (it applies next turn)."""

    seat: PlayerId
    by: PlayerId


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
class Bluffed(Event):
    """RW-6: ``seat``'s face-down card was revealed as a bluff (not a Joker)."""

    seat: PlayerId


@dataclass(slots=True)
class ComboEnded(Event):
    """A finished combo (C11 or C12), with what statistics need of it."""

    record: ComboRecord


E = TypeVar("E", bound=Event)


class Journal(list[Event]):
    """The game's events in order (a list: readers slice it and count)."""

    record = list.append  # the game's one way to write: events are never changed or removed

    def of(self, kind: type[E], start: int = 0, end: int | None = None) -> Iterator[E]:
        """The events of ``kind`` in ``events[start:end]``."""
        for e in self[start:end]:
            if isinstance(e, kind):
                yield e


@dataclass(frozen=True, slots=True)
class Totals:
    """One seat's counts over a stretch of the journal (facts, and the timeline per turn)."""

    cards_drawn: int
    damage_dealt: dict[str, int]
    knockdowns_inflicted: int
    jokers: dict[str, int]
    bluffs: int

    @staticmethod
    def of(events: Iterable[Event], seat: PlayerId) -> Totals:
        """``seat``'s counts over ``events``."""
        return Totals.by_seat(events, (seat,))[seat]

    @staticmethod
    def by_seat(events: Iterable[Event],
                seats: tuple[PlayerId, ...] = SEATS) -> dict[PlayerId, Totals]:
        """The counts over ``events`` of each of ``seats`` (every seat unless told), in one
        pass."""
        drawn = dict.fromkeys(SEATS, 0)
        knockdowns = dict.fromkeys(SEATS, 0)
        bluffs = dict.fromkeys(SEATS, 0)
        # the counts by kind only for the seats asked about (the timeline asks every turn)
        damage = {s: dict.fromkeys(DAMAGE_KINDS, 0) for s in seats}
        jokers = {s: dict.fromkeys(JOKER_KEYS, 0) for s in seats}
        for e in events:
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
