"""The game's value types: what a seat holds, cards in play, a decision point, an outcome.

Glossary (RULES.md §1, §3, §10): a *seat* is one character's place at the table and everything it
owns (life, zones, statuses, this combat's cards); in Versus a seat is a player (P1, P2). A
*decision* is a point where the game waits for a choice (step, who, rule, checks, options). An
*ongoing* card stays in play after it is played (rules_engine.effects).

Responsibility: plain data shared by the game, the ability context, character modules and views;
no rules here.
"""

from __future__ import annotations

from collections.abc import Callable, Generator, Sequence
from dataclasses import dataclass, field
from enum import Enum

from rules_engine import combat as cb
from rules_engine.actions import Action
from rules_engine.cards import Card, Character, Move, Rank
from rules_engine.errors import RuleViolation
from rules_engine.types import PlayerId, Termination


class Trigger(Enum):
    """Game events that can end an ongoing effect (fired by the game, in initiative order)."""

    THROWN = "thrown"  # AB-8 / AR-THR-2: an opponent's throw hit this player (C6 or a hit-back)
    HIT = "hit"  # an opponent's attack or throw hit this player (GL-HIT; C6 or a hit-back)


class Zone(Enum):
    """Where a card is (GEN-6): a seat's hand, deck, discard pile, combat area (its combat
    card), or its combo this combat (a combo move's card)."""

    # hashed by identity (C speed), as MoveType: Enum.__hash__ is a Python-level hash of the
    # name, paid at every move between zones (GameCore.move looks zones up in a dict)
    __hash__ = object.__hash__

    HAND = "hand"
    DECK = "deck"
    DISCARD = "discard"
    COMBAT = "combat"
    COMBO = "combo"
    BANISHED = "banished"  # removed from the game (Into Oblivion): public, never comes back
    FACE_UP = "face_up"  # cards of the seat's deck put face up on the table (Bare Your Soul)


@dataclass(slots=True, eq=False)
class Ongoing:
    """One ability card in play: its ability (as printed), the card, what ends it, and the cards
    attached to it (at most ``limit`` when its text sets one)."""

    name: str
    card: Card
    ends_on: frozenset[Trigger] = frozenset()
    limit: int | None = None
    attached: list[Card] = field(default_factory=list)
    since_turn: int = 0
    resolved: bool = False  # False while it can still be countered (CTR-2): not active yet

    def to_json(self) -> dict[str, object]:
        return {"name": self.name, "card": self.card.code,
                "attached": [c.code for c in self.attached]}



@dataclass(slots=True)
class ComboEntry:
    """One move of a combo: its card, move, pump cards, and whether it was played in C10."""

    card: Card
    move: Move
    pumps: list[Card] = field(default_factory=list)
    played_in_c10: bool = True
    returned: bool = False  # taken back to hand by card text before C13c (Burning Vigor)

    def damage_at_c12(self) -> int:
        """C12 / PM-6: a C10 move deals base + pump damage; the combat card only its pumps."""
        pump = self.move.pump.damage * len(self.pumps) if self.move.pump else 0
        return (self.move.damage if self.played_in_c10 else 0) + pump


@dataclass(slots=True)
class Segment:
    """A stretch of a combo played by one seat (a tag or an assist starts another: TG-11,
    AS-11), with the combo points it spent."""

    seat: PlayerId
    entries: list[ComboEntry] = field(default_factory=list)
    points: int = 0


@dataclass(slots=True)
class ComboRun:
    """One combo (GL-COMBO): its segments in order; ``closed`` once an Ender, a Can't Combo
    move or a hit-back ends it (CB-5..CB-7); ``hit_back`` when it began with a dodge (CB-7);
    ``full_combo`` when card text lets that hit-back be a full combo instead of one Ender
    (CB-13: the normal follow rules and combo points apply; DeGrey's Ghost Riposte).
    A second combo in the same combat (card text) is a second run."""

    segments: list[Segment] = field(default_factory=list)
    closed: bool = False
    hit_back: bool = False
    full_combo: bool = False
    # every move of the combo in order, across segments (read it; add moves with add())
    entries: list[ComboEntry] = field(default_factory=list)

    def add(self, seat: PlayerId, entry: ComboEntry, points: int) -> None:
        if not self.segments or self.segments[-1].seat is not seat:
            self.segments.append(Segment(seat))
        self.segments[-1].entries.append(entry)
        self.segments[-1].points += points
        self.entries.append(entry)


@dataclass(slots=True)
class Combat:
    """One combat's shared state (C1..C13): the matrix cell and winner (C6), the damage the
    winning combat card dealt at C8c (a Rewind under CF-06 ALL_COMBO_DAMAGE refunds it), and
    the winner's combo (or the combo card text started, Time Stop), and who was thrown."""

    cell: str | None = None
    winner: PlayerId | None = None
    combat_card_damage: int = 0
    run: ComboRun = field(default_factory=ComboRun)
    thrown: list[PlayerId] = field(default_factory=list)  # seats thrown this combat
    ended: bool = False  # card text ended the combat before C13 (Bubble Shield)
    no_combo: bool = False  # card text ended it after C8's damage (Relentless Strikes)
    # card text: a seat's second face-down combat card, as committed (Patriot Mirror)
    second_commits: dict[PlayerId, Action] = field(default_factory=dict)
    # the journal's CombatBegan (C4) and CombatArea records of this combat are written
    began: bool = False
    shown: bool = False


@dataclass(slots=True)
class PlayerState:
    """Everything one player owns: life, zones, statuses and this combat's cards."""

    player: PlayerId
    character: Character
    life: int
    hand: list[Card] = field(default_factory=list)
    deck: list[Card] = field(default_factory=list)  # deck[0] is the top card
    discard: list[Card] = field(default_factory=list)  # discard[-1] is the top card
    # cards in play (rules_engine.effects): ongoing ability cards, with the cards attached to
    # them, and cards attached to the character card; face up and public (GEN-9)
    ongoing: list[Ongoing] = field(default_factory=list)
    attached: list[Card] = field(default_factory=list)
    banished: list[Card] = field(default_factory=list)  # removed from the game, public
    # cards of this seat's deck card text put face up on the table (Bare Your Soul): public
    # (GEN-9); every shuffle of this deck shuffles them back into it
    face_up: list[Card] = field(default_factory=list)
    knocked_down: bool = False  # KD-3: applies to this turn's combat
    knockdown_next: bool = False  # KD-6: inflicted this combat, applies next turn
    combo_points_spent: int = 0  # CB-3, cleared at K3
    chains: list[int] = field(default_factory=list)  # CH-4: chains made this turn
    # this combat
    combat_card: Card | None = None
    combat_move: Move | None = None
    kind: str = cb.NONE
    revealed_kind: str = cb.NONE
    face_down: Card | None = None
    returns_block: bool = False
    revealed_card: Card | None = None  # the card combat-revealed at C2 (before voids)
    hit_this_combat: bool = False  # GL-HIT: a combat card or combo move of this player hit
    keep_combat_card: bool = False  # card text returns the combat card to hand at C13c
    paid_this_combat: list[Card] = field(default_factory=list)  # mandatory-cost Aces paid

    def holds(self, *ranks: Rank) -> bool:
        """Whether a card of one of ``ranks`` is in hand (the cost of most card abilities:
        characters ask it at every window). Asked with the members once, not per card: in
        CPython 3.11 reading ``Rank.SEVEN`` goes through ``EnumType.__getattr__``'s hook,
        about as costly as a small function call."""
        for c in self.hand:  # noqa: SIM110 (a loop: any() would make a generator per call)
            if c.rank in ranks:
                return True
        return False


class Decision:
    """A decision point: the step, who may act, the rule that governs it, and its checks.

    Never changed once made (treat it as frozen). A plain ``__slots__`` class rather than a
    frozen dataclass: the game makes one at every decision point, and a frozen dataclass's
    ``__init__`` sets each field through ``object.__setattr__`` (about four times the cost).

    ``listed``: the seat :meth:`GameCore.legal_actions` last listed this decision's options for,
    and a copy of that list (None until then, and for options made on demand rather than as a
    list, whose values are new each time). An action that *is* one of those options was
    listed by this very decision, whose options are all legal (GEN-2), so
    :meth:`GameCore.apply` need not check it again; a new decision starts with None, so it
    never trusts a list made for another."""

    __slots__ = ("check", "listed", "options", "players", "rule", "step")

    def __init__(self, step: str, players: tuple[PlayerId, ...], rule: str,
                 check: Callable[[PlayerId, Action], None],
                 options: Callable[[PlayerId], Sequence[Action]]) -> None:
        self.step = step
        self.players = players
        self.rule = rule
        self.check = check
        self.options = options
        self.listed: tuple[PlayerId, tuple[Action, ...]] | None = None

    def __repr__(self) -> str:
        return f"Decision(step={self.step!r}, players={self.players!r}, rule={self.rule!r})"


@dataclass(slots=True)
class Probe:
    """The illegal event a diagnosis is explaining (rules_engine.diagnosis). At every decision
    the engine settles without an event (nothing to choose, or not due: a combo with no legal
    move left, a Rewind window that cannot open), the game offers the event to that decision's
    check, right then, in that state: ``found`` keeps (turn, step, why) for each decision that
    takes the event's kind of action from its player and refuses it."""

    player: PlayerId
    action: Action
    found: list[tuple[int, str, RuleViolation]] = field(default_factory=list)

    def consider(self, turn: int, step: str, players: tuple[PlayerId, ...],
                 kinds: tuple[type[Action], ...], check: Callable[[PlayerId, Action], None],
                 ) -> None:
        if self.player not in players or not isinstance(self.action, kinds):
            return
        try:
            check(self.player, self.action)
        except RuleViolation as why:
            self.found.append((turn, step, why))


@dataclass(frozen=True, slots=True)
class Outcome:
    """The end of a game: how it ended and who won (None = draw)."""

    termination: Termination
    winner: PlayerId | None


@dataclass(slots=True)
class ComboRecord:
    """A finished combo, for statistics (facts)."""

    turn: int
    player: PlayerId
    cards: list[str]
    moves: int
    points: int
    pumps: int
    damage: int
    prevented: int
    chains: list[int]
    hit_back: bool
    # the moves (indices, in play order) whose C12 damage a Rewind Time Joker prevented (RW-6:
    # the combat card's base damage came at C8, so only its pumps can be); card text may make
    # a move immune (C11)
    rewound: tuple[int, ...] = ()
    # the Aces these chains earn at P3 (CH-4, CH-7), as the game's rule works them out when
    # the combo ends (the views show it; the Power Up pays the turn's chains by the same rule)
    chain_reward: int = 0


Step = Generator[Decision, tuple[PlayerId, Action], None]
