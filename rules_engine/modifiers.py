"""Modifiers: every change card text makes to a number or a permission, in one pipeline.

Glossary (RULES.md §10): a *modifier* is the part of an ability that changes how the rules
apply rather than doing something once — "+2 damage", "the opponent's attacks are 2 slower next
turn", "you can't play Aces this turn", "you can't power up with this card". It applies to one
seat (``seat``: whose number it changes, which need not be its source's seat) and lasts until it
expires (``until``): for good (an innate or a card in play), to the end of this combat, or to
the end of this turn.

Responsibility: the registry and the fold. The game asks :meth:`Modifiers.fold` for each number
at the step that uses it (speed at C6, combat-card damage at C8c, combo damage at C12, follow
rules and pumps at C10, moves at C1/C10 (allowed, and their stats), Rewind immunity at C11,
cards for Power Up at P2, draws, the hand limit at K2)
over the modifiers of every seat that apply to the seat asked about, in the order they were
added; a character module adds them through its ability context (``add_modifier``), or returns
its always-on ones from ``CharacterRules.modifiers``.

>>> from rules_engine.types import PlayerId
>>> mods = Modifiers()
>>> mods.add(Modifier(SPEED, PlayerId.P2, lambda ps, move, v: v + 20, "Slow Field",
...                   Expiry.END_OF_TURN))
>>> mods.expire(Expiry.END_OF_TURN)
>>> len(mods)
0
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from dataclasses import dataclass
from enum import Enum
from typing import Any, Generic, TypeVar

from rules_engine.cards import Move
from rules_engine.errors import RuleViolation
from rules_engine.state import PlayerState
from rules_engine.types import PlayerId

T = TypeVar("T")
S = TypeVar("S")


class Expiry(Enum):
    """When a modifier stops applying (K3 / CLN-2: one-turn effects end at cleanup)."""

    NEVER = "never"  # innates, and effects whose card is in play (they end with the card)
    END_OF_COMBAT = "end_of_combat"  # after C13
    END_OF_TURN = "end_of_turn"  # at K3


class Kind(Generic[T]):
    """A number or permission the game asks for; ``T`` is its value's type. Each kind is one
    object (compared by identity: the registry looks it up at every step)."""

    __slots__ = ("name", "subject")

    def __init__(self, name: str, subject: str) -> None:
        self.name = name
        self.subject = subject  # what the fold is about: a Move, a ComboEntry, a Card, ...

    def __repr__(self) -> str:
        return f"Kind({self.name!r})"


SPEED: Kind[int] = Kind("speed", "the locked-in Move (AR-SPD-1); value in tenths")
COMBAT_DAMAGE: Kind[int] = Kind("combat_damage", "the hitting combat card's Move (C8c)")
COMBO_DAMAGE: Kind[int] = Kind("combo_damage", "a ComboEntry at C12 (base + pumps)")
FOLLOW: Kind[RuleViolation | None] = Kind(
    "follow", "(previous Move, next Move): why the next may not follow, or None (CB-4)")
PUMP_ALLOWED: Kind[bool] = Kind("pump_allowed", "a ComboEntry that could be pumped (PM-1)")
COMBO_MOVE: Kind[Move] = Kind(
    "combo_move", "a Move as it plays in a combo (C10) and for Rewind eligibility (C9): card "
                  "text that changes its combo type or pump (Protective Ward: Enders, no pumps)")
MOVE_ALLOWED: Kind[RuleViolation | None] = Kind(
    "move_allowed", "(Move, step): why it may not be played now, or None (GEN-1)")
POWER_UP_WITH: Kind[bool] = Kind("power_up_with", "a Card in hand at P2 (PU-2)")
POWER_UP_FOR: Kind[bool] = Kind(
    "power_up_for", "a Card in the deck or discard pile at P5: whether a Power Up search may "
                    "take it as one of the owed Aces (default False for non-Aces; Menelker's "
                    "black face cards)")
HAND_LIMIT: Kind[int] = Kind("hand_limit", "None; the K2 hand limit (HL-2)")
BLOCK_DRAW: Kind[int] = Kind(
    "block_draw", "the beaten Move (None: a Joker or no-card); cards the blocker draws (C8b)")
BLOCK_DAMAGE: Kind[int] = Kind(
    "block_damage", "the blocked attack's Move; the block damage the blocker takes (C8c)")
DRAW_COUNT: Kind[int] = Kind("draw_count", "the step (T2); cards drawn in the draw phase")
MOVE: Kind[Move] = Kind(
    "move", "the Card; the Move a seat plays from it, as card text changes its printed stats "
            "(combo points, combo type, damage): C1, C10")
REWIND_IMMUNE: Kind[bool] = Kind(
    "rewind_immune", "a ComboEntry at C11: its damage is dealt although a Rewind Time Joker "
                     "was revealed (RW-6 overridden by card text)")


@dataclass(frozen=True, slots=True)
class Modifier(Generic[T]):
    """``fn(seat_state, subject, value) -> value`` changes ``kind`` for ``seat``."""

    kind: Kind[T]
    seat: PlayerId
    fn: Callable[[PlayerState, Any, T], T]
    source: str  # the ability's name as printed (for explanations and tests)
    until: Expiry = Expiry.NEVER


class Modifiers:
    """Every modifier in force, by kind, in the order added."""

    def __init__(self) -> None:
        self._by_kind: dict[Kind[Any], list[Modifier[Any]]] = {}
        # how many of them expire (``until`` not NEVER): the game asks to expire modifiers
        # twice a turn, and most turns have none to expire, only always-on ones
        self._expiring = 0

    def add(self, modifier: Modifier[Any]) -> None:
        self._by_kind.setdefault(modifier.kind, []).append(modifier)
        if modifier.until is not Expiry.NEVER:
            self._expiring += 1

    def fold(self, kind: Kind[T], ps: PlayerState, subject: object, value: T) -> T:
        """``value`` after every modifier of ``kind`` that applies to ``ps``'s seat."""
        mods = self._by_kind.get(kind)
        if mods is not None:  # most kinds have no modifier in most games: one look-up
            seat = ps.player
            for m in mods:
                if m.seat is seat:
                    value = m.fn(ps, subject, value)
        return value

    def any_for(self, kind: Kind[Any], seat: PlayerId) -> bool:
        """Whether some modifier of ``kind`` applies to ``seat`` (lets a caller that would fold
        every card of a zone skip the folds when none does)."""
        mods = self._by_kind.get(kind)
        if mods is not None:  # (a loop: no generator made and run per question)
            for m in mods:
                if m.seat is seat:
                    return True
        return False

    def allowed(self, kind: Kind[bool], ps: PlayerState, subjects: Iterable[S]) -> list[S]:
        """The ``subjects`` a permission (``kind`` of bool) allows ``ps``: the fold of each,
        with one look-up for all of them (Power Up asks it of every card in hand)."""
        found = self._by_kind.get(kind)
        # most kinds have no modifier in most games: no comprehension made for none
        mods = [] if found is None else [m for m in found if m.seat is ps.player]
        if not mods:
            return list(subjects)
        out = []
        for subject in subjects:
            ok = True
            for m in mods:
                ok = m.fn(ps, subject, ok)
            if ok:
                out.append(subject)
        return out

    def expire(self, until: Expiry) -> None:
        """Drop the modifiers that end now (``END_OF_COMBAT`` after C13, ``END_OF_TURN`` at
        K3)."""
        if not self._expiring:
            return
        for kind, mods in list(self._by_kind.items()):
            kept = []  # (a loop: no comprehension made per kind and expiry)
            for m in mods:
                if m.until is not until:
                    kept.append(m)
            if kept:
                self._by_kind[kind] = kept
            else:
                del self._by_kind[kind]
        self._count_expiring()

    def remove(self, which: Callable[[Modifier[Any]], bool]) -> None:
        """Drop the modifiers ``which`` selects (a character leaving play takes its card
        text with it: team modes)."""
        for kind, mods in list(self._by_kind.items()):
            kept = [m for m in mods if not which(m)]
            if kept:
                self._by_kind[kind] = kept
            else:
                del self._by_kind[kind]
        self._count_expiring()

    def _count_expiring(self) -> None:
        never = Expiry.NEVER  # (a loop: no generator made per count)
        expiring = 0
        for mods in self._by_kind.values():
            for m in mods:
                if m.until is not never:
                    expiring += 1
        self._expiring = expiring

    def __len__(self) -> int:
        return sum(len(v) for v in self._by_kind.values())
