"""The table's shape: two sides, their seats, and who opposes whom.

Glossary (RULES.md §2, §11): a *side* is one team (every rulebook mode has exactly two); a *seat*
is one character's place on a side (in Versus each side has one seat, P1 and P2); the *active*
seat of a side is the one in combat (Tag Team benches the other, Triple Threat keeps reserves).
Combat is always side against side, active seat against active seat.

Responsibility: the one place that knows the shape. The game, views, timeline and character
modules ask it for "the opponent" instead of assuming two players, so the team modes change
this object, not the code that asks.

Two shapes are kept: the *seating* (every seat on the side it was dealt, for the whole game) and
the seats *in play* (:attr:`Table.sides`: a defeated Tag Team character's seat leaves, TG-KO;
a tag swaps the active seat). Who belongs to which side (:meth:`Table.side_of`,
:meth:`Table.partner`, :meth:`Table.opponents`) is the seating's answer, so a defeated seat keeps
its side and its teammate; who is in combat and who acts when is the in-play answer.

>>> t = Table.versus()
>>> t.opponent(PlayerId.P1), t.partner(PlayerId.P1)
(<PlayerId.P2: 1>, None)
>>> t.in_initiative_order(PlayerId.P2)
(<PlayerId.P2: 1>, <PlayerId.P1: 0>)
"""

from __future__ import annotations

from dataclasses import dataclass, field

from rules_engine.types import PlayerId


@dataclass(frozen=True, slots=True)
class Table:
    """Two sides of seats in play, each side's active seat first, and the seating they were
    dealt (None: the same as ``sides``)."""

    sides: tuple[tuple[PlayerId, ...], tuple[PlayerId, ...]]
    seating: tuple[tuple[PlayerId, ...], tuple[PlayerId, ...]] | None = None
    # initiative orders by first seat, worked out once (the game asks for them at every step)
    _orders: dict[PlayerId, tuple[PlayerId, ...]] = field(
        init=False, repr=False, compare=False, hash=False)
    # seat -> its side at the seating (a defeated seat keeps it)
    _side: dict[PlayerId, int] = field(init=False, repr=False, compare=False, hash=False)

    def __post_init__(self) -> None:
        if self.seating is None:
            object.__setattr__(self, "seating", self.sides)
        dealt = self.dealt
        object.__setattr__(self, "_side", {s: i for i in (0, 1) for s in dealt[i]})
        object.__setattr__(self, "_orders", {s: self._order_from(s) for s in self.seats})

    @property
    def dealt(self) -> tuple[tuple[PlayerId, ...], tuple[PlayerId, ...]]:
        """The seating: every seat on its side as dealt, in play or not."""
        assert self.seating is not None  # set by __post_init__
        return self.seating

    @staticmethod
    def versus() -> Table:
        """One seat per side: P1 against P2."""
        return Table(((PlayerId.P1,), (PlayerId.P2,)))

    @staticmethod
    def for_sizes(a: int, b: int) -> Table:
        """Team modes with a bench (TG-2, DB-1): side A's first seat is P1, side B's P2, and
        the second seats follow in order (Tag Team ``((P1, P3), (P2, P4))``; a Dramatic Battle
        with the lone side first ``((P1,), (P2, P3))``).

        >>> Table.for_sizes(2, 2).sides
        ((<PlayerId.P1: 0>, <PlayerId.P3: 2>), (<PlayerId.P2: 1>, <PlayerId.P4: 3>))
        >>> Table.for_sizes(1, 2).sides
        ((<PlayerId.P1: 0>,), (<PlayerId.P2: 1>, <PlayerId.P3: 2>))
        """
        rest = iter((PlayerId.P3, PlayerId.P4))
        side_a = (PlayerId.P1, *(next(rest) for _ in range(a - 1)))
        side_b = (PlayerId.P2, *(next(rest) for _ in range(b - 1)))
        return Table((side_a, side_b))

    def without(self, seat: PlayerId) -> Table:
        """The table once ``seat``'s character has left play (TG-KO): its partner, if any, is
        the side's active seat."""
        a, b = self.sides
        return Table((tuple(s for s in a if s is not seat), tuple(s for s in b if s is not seat)),
                     self.seating)

    def swapped(self, side: int) -> Table:
        """The table once ``side``'s benched seat has come in and its active seat gone to the
        bench (a snapback, SB-2; a tag)."""
        seats = self.sides[side]
        turned = (seats[1], seats[0], *seats[2:])
        a, b = self.sides
        return Table((turned, b) if side == 0 else (a, turned), self.seating)

    def bench(self, side: int) -> tuple[PlayerId, ...]:
        """The seats of ``side`` in play but not in combat (TG-2)."""
        return self.sides[side][1:]

    @property
    def seats(self) -> tuple[PlayerId, ...]:
        """Every seat, side A's first."""
        return self.sides[0] + self.sides[1]

    def side_of(self, seat: PlayerId) -> int:
        """0 for side A, 1 for side B (a defeated seat keeps its side)."""
        return self._side[seat]

    def active(self, side: int) -> PlayerId:
        """The seat of ``side`` that is in combat."""
        return self.sides[side][0]

    @property
    def actives(self) -> tuple[PlayerId, PlayerId]:
        """The two seats in combat, side A's first (C6 resolves them in this order)."""
        return self.active(0), self.active(1)

    def opponent(self, seat: PlayerId) -> PlayerId:
        """The opposing active seat: who ``seat`` fights, hits and is hit by."""
        return self.active(1 - self.side_of(seat))

    def opponents(self, seat: PlayerId) -> tuple[PlayerId, ...]:
        """Every seat of the other side as dealt, defeated or not (abilities that reach the
        whole team ask the game, which keeps the ones in play)."""
        return self.dealt[1 - self._side[seat]]

    def partner(self, seat: PlayerId) -> PlayerId | None:
        """``seat``'s teammate as dealt, if it has one (never in Versus), defeated or not.

        >>> t = Table.for_sizes(2, 2).without(PlayerId.P1)
        >>> t.partner(PlayerId.P1), t.side_of(PlayerId.P1), t.partner(PlayerId.P3)
        (<PlayerId.P3: 2>, 0, <PlayerId.P1: 0>)
        """
        mates = [s for s in self.dealt[self._side[seat]] if s is not seat]
        return mates[0] if mates else None

    def in_initiative_order(self, first: PlayerId) -> tuple[PlayerId, ...]:
        """INI-6 / GEN-4: ``first`` (the initiative seat), then the seats after it in turn,
        alternating sides (Versus: the initiative player, then the other)."""
        return self._orders[first]

    def _order_from(self, first: PlayerId) -> tuple[PlayerId, ...]:
        side = self._side[first]
        mine, theirs = self.sides[side], self.sides[1 - side]
        ordered: list[PlayerId] = [first]
        rest_mine = [s for s in mine if s is not first]
        for i in range(max(len(rest_mine), len(theirs))):
            if i < len(theirs):
                ordered.append(theirs[i])
            if i < len(rest_mine):
                ordered.append(rest_mine[i])
        return tuple(ordered)

    def next_in_priority(self, seat: PlayerId, first: PlayerId) -> PlayerId:
        """INI-4: after ``seat`` passes, priority goes to the next seat in initiative order."""
        order = self.in_initiative_order(first)
        return order[(order.index(seat) + 1) % len(order)]
