"""Actions: the choices a player makes at a decision point (DP table, RULES.md §3.5).

Glossary: *commit* = put a combat card face down with an orientation (C1, DP-2); *no-card* =
decline to commit (NC-1); *face down* = the loser's Rewind/bluff card (C9, DP-6); *combo* = add a
move from hand to the winner's combo (C10, DP-7); *pump* = discard cards to add damage to a move
already in the combo (PM-1); *search* = take owed Aces from discard pile and/or deck (PU-5,
DP-11); *power up* = discard sets and search (P2-P5, DP-9).

Responsibility: the action values and their JSON event form (``to_json``). Whether an action is
legal is the game's business (:mod:`rules_engine.game`), not this module's.

A move is named by its type, plus its name where a card has two moves of that type.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, ClassVar

from rules_engine.cards import Card, MoveType


def _codes(cards: tuple[Card, ...]) -> list[str]:
    return [c.code for c in cards]


@dataclass(frozen=True, slots=True)
class Action:
    """Base class; ``kind`` is the event's ``"action"`` value in the log."""

    kind: ClassVar[str] = ""

    def to_json(self) -> dict[str, Any]:
        return {"action": self.kind}

    def __str__(self) -> str:
        return self.kind.replace("_", " ")


@dataclass(frozen=True, slots=True)
class Draw(Action):
    """Tabletop logs: the card a draw produced (a chance outcome, recorded card by card)."""

    kind: ClassVar[str] = "draw"
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"action": self.kind, "card": self.card.code}

    def __str__(self) -> str:
        return f"draw {self.card}"


@dataclass(frozen=True, slots=True)
class WinInitiative(Action):
    """Tabletop logs: the turn-1 coin flip (S-6, INI-3) was won by the event's player."""

    kind: ClassVar[str] = "initiative"


def _move_json(out: dict[str, Any], move_type: MoveType | None, name: str | None) -> None:
    if move_type is not None:
        out["move"] = move_type.value
    if name is not None:
        out["name"] = name


def _move_str(card: Card, move_type: MoveType | None, name: str | None) -> str:
    if move_type is None:
        return card.code
    text = f"{card.code} {move_type.value}"
    return f"{text} '{name}'" if name else text


@dataclass(frozen=True, slots=True)
class Commit(Action):
    """C1: a combat card face down with the chosen move toward the opponent (None for a Joker)."""

    kind: ClassVar[str] = "commit"
    card: Card
    move: MoveType | None = None
    name: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.kind, "card": self.card.code}
        _move_json(out, self.move, self.name)
        return out

    def __str__(self) -> str:
        return f"commit {_move_str(self.card, self.move, self.name)}"


@dataclass(frozen=True, slots=True)
class NoCard(Action):
    """C1: declare no-card (NC-1)."""

    kind: ClassVar[str] = "no_card"


@dataclass(frozen=True, slots=True)
class Keep(Action):
    """CF-08 FAQ_PENALTY: the opponent keeps its committed card instead of choosing again."""

    kind: ClassVar[str] = "keep"


@dataclass(frozen=True, slots=True)
class PayAces(Action):
    """C3 (DP-4): the Aces from hand that pay a revealed Ace's mandatory cost."""

    kind: ClassVar[str] = "pay_aces"
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"action": self.kind, "cards": _codes(self.cards)}

    def __str__(self) -> str:
        return f"pay Aces {' '.join(_codes(self.cards))}"


@dataclass(frozen=True, slots=True)
class FaceDown(Action):
    """C9 (DP-6): the loser puts a card face down (a Joker = Rewind Time, else a bluff)."""

    kind: ClassVar[str] = "face_down"
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"action": self.kind, "card": self.card.code}

    def __str__(self) -> str:
        return f"face down {self.card}"


@dataclass(frozen=True, slots=True)
class Pass(Action):
    """Decline: no Rewind/bluff card (C9), no ability (INI-4), no optional draw."""

    kind: ClassVar[str] = "pass"


@dataclass(frozen=True, slots=True)
class Accept(Action):
    """Take an optional benefit (``opt.rewindDraw=IF_PREVENTED_MAY``: draw the 2 cards)."""

    kind: ClassVar[str] = "accept"


@dataclass(frozen=True, slots=True)
class Combo(Action):
    """C10 (DP-7): play a move from hand as the next combo move or as the hit-back.

    ``aces`` pays the move's mandatory Ace cost when it is played (CB-9).
    """

    kind: ClassVar[str] = "combo"
    card: Card
    move: MoveType
    name: str | None = None
    aces: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.kind, "card": self.card.code}
        _move_json(out, self.move, self.name)
        if self.aces:
            out["aces"] = _codes(self.aces)
        return out

    def __str__(self) -> str:
        return f"combo {_move_str(self.card, self.move, self.name)}"


@dataclass(frozen=True, slots=True)
class Pump(Action):
    """C10 (PM-1): discard ``cards`` to pump the combo move at index ``target`` (0 = first)."""

    kind: ClassVar[str] = "pump"
    target: int
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"action": self.kind, "target": self.target, "cards": _codes(self.cards)}

    def __str__(self) -> str:
        return f"pump move {self.target} with {' '.join(_codes(self.cards))}"


@dataclass(frozen=True, slots=True)
class Stop(Action):
    """C10 (CB-11): end the combo."""

    kind: ClassVar[str] = "stop"


@dataclass(frozen=True, slots=True)
class Search(Action):
    """ACE-SEARCH (PU-5, DP-11) after a Gold Burst: which Aces from which zone."""

    kind: ClassVar[str] = "search"
    from_discard: tuple[Card, ...] = ()
    from_deck: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"action": self.kind, "from_discard": _codes(self.from_discard),
                "from_deck": _codes(self.from_deck)}

    def __str__(self) -> str:
        return (f"search (discard: {' '.join(_codes(self.from_discard)) or '-'}, "
                f"deck: {' '.join(_codes(self.from_deck)) or '-'})")


@dataclass(frozen=True, slots=True)
class PowerUp(Action):
    """P2-P5 (DP-9): discard same-rank sets, then take the owed Aces."""

    kind: ClassVar[str] = "power_up"
    sets: tuple[Card, ...] = ()
    from_discard: tuple[Card, ...] = ()
    from_deck: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        return {"action": self.kind, "sets": _codes(self.sets),
                "from_discard": _codes(self.from_discard), "from_deck": _codes(self.from_deck)}

    def __str__(self) -> str:
        return (f"power up (sets: {' '.join(_codes(self.sets)) or '-'}, "
                f"discard: {' '.join(_codes(self.from_discard)) or '-'}, "
                f"deck: {' '.join(_codes(self.from_deck)) or '-'})")


@dataclass(frozen=True, slots=True)
class Discard(Action):
    """K2 (HL-1, DP-10): the cards discarded down to the hand limit."""

    kind: ClassVar[str] = "discard"
    cards: tuple[Card, ...]

    def to_json(self) -> dict[str, Any]:
        return {"action": self.kind, "cards": _codes(self.cards)}

    def __str__(self) -> str:
        return f"discard {' '.join(_codes(self.cards))}"


@dataclass(frozen=True, slots=True)
class UseAbility(Action):
    """DP-1: play an ability (named as printed) with its choices.

    ``card`` is the card played from hand (None for an innate); ``cards`` are cards chosen for
    its cost or effect (what they mean is the ability's business); ``option`` is a named choice.
    """

    kind: ClassVar[str] = "ability"
    ability: str
    card: Card | None = None
    cards: tuple[Card, ...] = ()
    option: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.kind, "ability": self.ability}
        if self.card is not None:
            out["card"] = self.card.code
        if self.cards:
            out["cards"] = _codes(self.cards)
        if self.option is not None:
            out["option"] = self.option
        return out

    def __str__(self) -> str:
        extra = f" with {self.card}" if self.card is not None else ""
        return f"ability '{self.ability}'{extra}"


@dataclass(frozen=True, slots=True)
class Reveal(Action):
    """Tabletop logs: the card card text made the event's player reveal at random from their
    hand (a chance outcome, like ``Draw``; Lum's Jackpot). Seeded games take it from the seed."""

    kind: ClassVar[str] = "reveal"
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"action": self.kind, "card": self.card.code}

    def __str__(self) -> str:
        return f"reveal {self.card}"


@dataclass(frozen=True, slots=True)
class Pick(Action):
    """Team modes: the character a side sends in (TT-2 first pick, hidden and simultaneous;
    TT-4 the losing side's next character; OQ-18 both sides after a double KO), by character
    id. (The event's own ``character`` key names who acts, so the pick is ``incoming``.)"""

    kind: ClassVar[str] = "pick"
    incoming: str

    def to_json(self) -> dict[str, Any]:
        return {"action": self.kind, "incoming": self.incoming}

    def __str__(self) -> str:
        return f"send in {self.incoming}"


@dataclass(frozen=True, slots=True)
class Snapback(Action):
    """Tag Team (SB-1): when the opposing active character would be knocked down (C13a), the
    knocking side's active player discards ``card`` so that it switches out instead (SB-2).
    Team-mode logs only (format version 2)."""

    kind: ClassVar[str] = "snapback"
    card: Card

    def to_json(self) -> dict[str, Any]:
        return {"action": self.kind, "card": self.card.code}

    def __str__(self) -> str:
        return f"snapback, discarding {self.card}"


@dataclass(frozen=True, slots=True)
class Tag(Action):
    """Tag Team: a side's active player switches with its benched partner. Team-mode logs only.

    ``tag`` says which tag: None is the hard tag in Power Up (TAG-PU-2: the incoming character
    must play no-card next combat); the combat tags (C10, :mod:`rules_engine.tags`) are
    ``dodge`` (TAG-DODGE) and ``continue`` (TAG-CONT), each paid by ``card`` from the active
    player's hand and ``partner_card`` from the partner's, and ``super`` (TAG-SUPER), where the
    partner comes in playing its own super ``card`` on its ``move`` end (``name`` where two
    ends share a type) paying ``aces`` (CB-9); ``ace`` is the Ace tag in Power Up (TAG-PU-1):
    the active player discards ``sets`` and, instead of searching, switches out, and the
    partner takes the owed Aces ``from_discard`` and ``from_deck`` of its own piles."""

    kind: ClassVar[str] = "tag"
    tag: str | None = None
    card: Card | None = None
    partner_card: Card | None = None
    move: MoveType | None = None
    name: str | None = None
    aces: tuple[Card, ...] = ()
    sets: tuple[Card, ...] = ()
    from_discard: tuple[Card, ...] = ()
    from_deck: tuple[Card, ...] = ()

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.kind}
        if self.tag is None:
            return out
        out["tag"] = self.tag
        if self.card is not None:
            out["card"] = self.card.code
        if self.partner_card is not None:
            out["partner_card"] = self.partner_card.code
        if self.move is not None:
            _move_json(out, self.move, self.name)
        if self.aces:
            out["aces"] = _codes(self.aces)
        if self.tag == "ace":
            out["sets"] = _codes(self.sets)
            out["from_discard"] = _codes(self.from_discard)
            out["from_deck"] = _codes(self.from_deck)
        return out

    def __str__(self) -> str:
        if self.tag is None:
            return "hard tag"
        if self.tag == "super" and self.card is not None:
            played = _move_str(self.card, self.move, self.name)
            return f"super cancel tag: the partner plays {played}"
        if self.tag == "ace":
            return (f"Ace tag (sets: {' '.join(_codes(self.sets)) or '-'}; the partner takes "
                    f"discard: {' '.join(_codes(self.from_discard)) or '-'}, "
                    f"deck: {' '.join(_codes(self.from_deck)) or '-'})")
        return (f"{self.tag} tag, discarding {self.card} and the partner's {self.partner_card}")


@dataclass(frozen=True, slots=True)
class BotTie(Action):
    """Training (TR-8, ``opt.botTieChoice=HUMAN``): the human breaks a tie between the bot's
    equally damaging combos by naming its next step, ``choice`` (a ``combo`` move, a ``pump``
    or ``stop``), one of the first steps of the tied combos the engine lists. Version-2 logs
    only."""

    kind: ClassVar[str] = "bot_tie"
    choice: Action

    def to_json(self) -> dict[str, Any]:
        return {"action": self.kind, "choice": self.choice.to_json()}

    def __str__(self) -> str:
        return f"the bot's tied combos: {self.choice}"


@dataclass(frozen=True, slots=True)
class Assist(Action):
    """Tag Team (AS-1..AS-4, DP-3): at C1 a benched player puts ``card`` face down as an assist
    with its attack or throw end ``move`` (a Jack, Queen or King), and discards ``cost`` from
    hand once the assists are locked (AS-4). Declining is a ``pass``. Team-mode logs only."""

    kind: ClassVar[str] = "assist"
    card: Card
    move: MoveType
    name: str | None
    cost: Card

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"action": self.kind, "card": self.card.code}
        _move_json(out, self.move, self.name)
        out["discard"] = self.cost.code
        return out

    def __str__(self) -> str:
        return (f"assist with {_move_str(self.card, self.move, self.name)}, discarding "
                f"{self.cost}")


@dataclass(frozen=True, slots=True)
class Swap(Action):
    """Tag Team (AS-6, DP-5): after C3 the team that assisted swaps its assist in as its main
    combat card (declining is a ``pass``). Team-mode logs only."""

    kind: ClassVar[str] = "swap"

    def __str__(self) -> str:
        return "swap the assist in"


ACTION_TYPES: dict[str, type[Action]] = {
    cls.kind: cls
    for cls in (Draw, WinInitiative, Commit, NoCard, Keep, PayAces, FaceDown, Pass, Accept,
                Combo, Pump, Stop, Search, PowerUp, Discard, UseAbility, Reveal, Pick, Snapback,
                Tag, BotTie, Assist, Swap)
}
