"""Turn-by-turn timeline of a Versus game, derived by replaying its log (the match page's view).

Glossary (RULES.md §1, §3): a *turn* (GL-TURN) is T1..T7: draw phase, combat (C1..C13), Power
Up (P1..P6), cleanup (K1..K4). The *combat card* (GL-COMBAT-CARD) is what each player committed
at C1: a card on one end (a *move*), no-card (NC-1), a Joker as Gold Burst (GL-GOLDBURST), or a
card made *void* at lock-in (M-VOID: a knocked-down dodge KD-4, a mixed-up block KD-5, an unpaid
Ace CF-08). The *combat result* is the §4.4 matrix cell (``M-*``) that decided it. The *combo*
(GL-COMBO) is the winner's hitting combat card or hit-back (CB-7) plus follow-up moves, with
*pumps* (PM-1), *combo points* (CB-3) and *chains* (CH-1). The loser's *face-down card* is a
Rewind Time Joker or a bluff (C9, C11, RW-6).

Responsibility: explain a log turn by turn. Nothing here decides a rule, or works out again
what the game decided: the log is replayed once, by the verifier (:func:`replay_observed`,
the replay :func:`rules_engine.judge.judge` gives the verdict from), and what the game decided
is read from its journal (:mod:`rules_engine.journal`): each turn is the stretch between two
``TurnEnded`` records (after K1's window; after combat when Acrobatics skips the rest; at the
knockout that ends a bout), whose draws, damage, Jokers, bluffs and knockdowns are counted
(:class:`rules_engine.journal.Totals`); its ``CombatResolved`` (cell, winner, locked-in kinds
and speeds), ``Voided``, C13a ``Knockdown`` and ``KnockdownAvoided`` (a snapback) records
explain the combat; a combo's Rewind prevention, points and chain reward are its
``ComboRecord``'s. The cards in the combat area are the game's ``CombatArea`` record (journalled
at the end-of-combat window, C13b, or at a knockout that ends the bout mid-combat); a turn
where the game or the log stopped during a combat (past its combat-reveal window, C4) shows
the area as the game gives it (``Game.combat_area``). Each tag's seats are its ``Tagged`` record.
Choices the state no longer holds (which card went face down, which Aces a Power Up took,
recorded draws, abilities) are read from the log's events of that turn. The replay is the
verifier's own game (``new_game_for``): nothing observes it but the journal.

API: ``timeline(log) -> list[TurnSummary]``; ``log`` is a :class:`MatchLog` or what
:func:`rules_engine.replay.replay` accepts (text, bytes, a dict). Unreadable input raises
:class:`LogSyntaxError`. An illegal log gives the turns up to the illegal event; the last one has
``stopped`` set (the illegal event's index, step, rule and reason, as in a verdict's
``first_error``); a log that stops before the game ends is marked with END-1, an event after
the end with END-2. An illegal event before turn 1 (a recorded opening hand) gives ``[]``.

``TurnSummary.to_dict()`` (JSON-ready; players are ``"P1"``/``"P2"``)::

    {
      "turn": 3,
      "initiative": "P2",                       # INI-1..INI-3
      "events": [41, 58],                       # indices of this turn's log events [from, to)
      "players": {
        "P1": {
          "combat_card": {"played": "card",     # card | no_card | gold_burst | void
                          "card": "7H", "move": "throw", "name": null, "speed": 1.2,
                          "void": null},        # void: {"rule_id": "KD-5", "reason": "mixup"}
          "draws": {"count": 2, "cards": ["4C", "JD"]},   # cards: recorded logs only, else null
          "power_up": {"sets": ["9C", "9S"], "from_discard": ["AH"], "from_deck": []} | null,
          "searches": [{"from_discard": [], "from_deck": ["AS", "AD"]}],  # Gold Burst searches
          "face_down": {"card": "X1", "kind": "rewind", "revealed": true,
                        "prevented": 7} | null,   # kind: rewind | bluff (C9, C11, RW-6)
          "jokers": {"gold_burst": 0, "rewind": 1, "rewind_prevented_damage": 7,
                     "power_up_set": 0, "pump": 0, "bluff": 0},
          "abilities": [{"ability": "Martial Mastery", "card": "QH", "cards": [],
                         "option": null}],
          "damage_taken": {"combat": 9, "block": 0, "ability": 0, "total": 9},
          "life_lost": 9,                       # includes life paid as a cost (GL-DAMAGE)
          "life": 76,                           # after the turn (signed, END-9)
          "knocked_down": false,                # during this turn's combat (KD-3)
          "knocked_down_next": true             # this combat knocked them down (KD-1, KD-6)
        },
        "P2": {...}
      },
      "combat": {"winner": "P1", "loser": "P2", "cell": "M-THROW-BLOCK", "both_hit": false,
                 "explanation": "P1's throw beats P2's block (M-THROW-BLOCK)"} | null,
      "combo": {"player": "P1", "hit_back": false,
                "moves": [{"card": "7H", "move": "throw", "name": null, "combat_card": true,
                           "damage": 8, "pumps": [], "pump_damage": 0, "knockdown": false,
                           "prevented": false}, ...],
                "combo_points": 4, "pumps": 1,
                "chains": [3],        # each run of back-to-back ascending normals (CH-1)
                "chain_length": 3,    # the longest run; 3+ earns Aces (CH-3)
                "chain_reward": 1,    # Aces it earns at P3 (CH-4, CH-7)
                "knockdown": true,    # the game knocked the opponent down at C13a (KD-1)
                "damage": 17, "prevented": 0,
                # only when a snapback replaced the knockdown (SB-2; knockdown is false):
                "snapback": {"rule_id": "SB-2", "out": "P2", "in": "P4", "card": "3C"}
                } | null,
      "damage": {"P1": 0, "P2": 9},             # damage dealt TO each player this turn
      "tags": [{"tag": "dodge", "rule_id": "TAG-DODGE", "event": 52, "step": "C10",
                "out": "P1", "in": "P3", "cards": ["9C", "TD"]}],  # team modes, when any
      "stopped": null    # or {"index", "turn", "step", "player", "action", "rule_id", "reason"}
    }

``combat`` is null when the turn had no resolved combat (the game ended in the draw phase, or the
log stopped before C6); ``combo`` is null when nobody hit with a combo (ties, blocks, Gold
Bursts, no-card against no-card). A combo's ``damage`` is what it dealt after Rewind Time,
the combat card's base damage included (as in ``facts()["combos"]``).

``tags`` (Tag Team and Dramatic Battle; the key is absent in a turn without tags) lists the
turn's tags in order: ``tag`` is ``hard`` (TAG-PU-2), ``dodge`` (TAG-DODGE), ``continue``
(TAG-CONT), ``super`` (TAG-SUPER) or ``ace`` (TAG-PU-1); ``out`` the seat that switched out,
``in`` its partner; ``cards`` the two cards a dodge or combo-continue tag paid (the active
player's, then the partner's), the incoming super (and the Aces it paid), or the Ace tag's
sets and the Aces the partner took. A combo with a combat tag is listed under the seat that
began it; each move's ``seat`` says who played it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from itertools import compress
from typing import Any

from rules_engine import combat as cb
from rules_engine.actions import (
    Action,
    Commit,
    Draw,
    FaceDown,
    NoCard,
    PowerUp,
    Search,
    Tag,
    UseAbility,
)
from rules_engine.cards import Card, Character, Move, MoveType
from rules_engine.game import Game
from rules_engine.journal import (
    DAMAGE_KINDS,
    AcesPaid,
    CombatArea,
    CombatResolved,
    ComboEnded,
    DamageDealt,
    Event,
    Fighter,
    Knockdown,
    KnockdownAvoided,
    Tagged,
    Totals,
    TurnEnded,
    Voided,
)
from rules_engine.log import LogEvent, MatchLog, parse_log
from rules_engine.replay import Verdict, new_game_for, replay
from rules_engine.state import ComboRecord
from rules_engine.types import PlayerId

__all__ = [
    "CombatCard",
    "CombatResult",
    "ComboMove",
    "ComboSummary",
    "FaceDownCard",
    "PlayerTurn",
    "TurnSummary",
    "timeline",
]

P1, P2 = PlayerId.P1, PlayerId.P2


_ALL_SEATS = tuple(PlayerId)  # iterating an enum is slow: the timeline asks many times a turn
# the seats' names in seat order: ``PlayerId.name`` is a descriptor call per read, and
# ``to_dict`` names every seat twice a turn
_SEAT_NAMES = tuple(p.name for p in _ALL_SEATS)


def _seats(n: int) -> tuple[PlayerId, ...]:
    """The first ``n`` seats (P1, P2; P3 and P4 in modes with a bench)."""
    return _ALL_SEATS[:n]
_KIND_WORDS = {cb.ATTACK: "attack", cb.THROW: "throw", cb.BLOCK: "block", cb.DODGE: "dodge",
               cb.JOKER: "Gold Burst", cb.NONE: "no-card"}


def _codes(cards: tuple[Card, ...] | list[Card]) -> list[str]:
    return [c.code for c in cards]


def _speed(tenths: int | None) -> float | None:
    """GEN-7: speeds are decimals; the engine keeps tenths."""
    return None if tenths is None else tenths / 10


# ---------------------------------------------------------------------------- the summary


@dataclass(frozen=True, slots=True)
class CombatCard:
    """How a player's combat card was played (C1, C2, C5): ``played`` is ``card``, ``no_card``
    (NC-1), ``gold_burst`` (AR-JKR-1) or ``void`` (M-VOID, with ``void_rule`` and why)."""

    played: str
    card: str | None = None
    move: str | None = None
    name: str | None = None
    speed: float | None = None
    void_rule: str | None = None
    void_reason: str | None = None

    def to_dict(self) -> dict[str, Any]:
        void = None if self.void_rule is None else {"rule_id": self.void_rule,
                                                    "reason": self.void_reason}
        return {"played": self.played, "card": self.card, "move": self.move, "name": self.name,
                "speed": self.speed, "void": void}


@dataclass(frozen=True, slots=True)
class FaceDownCard:
    """The loser's C9 card: a Joker is Rewind Time, anything else a bluff (RW-3); revealed at
    C11, where a Joker prevents the damage of moves and pumps played meanwhile (RW-6)."""

    card: str
    kind: str  # rewind | bluff
    revealed: bool
    prevented: int

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "kind": self.kind, "revealed": self.revealed,
                "prevented": self.prevented}


@dataclass(frozen=True, slots=True)
class PlayerTurn:
    """One player's turn: combat card, draws, Power Up, Jokers, abilities, damage, life."""

    combat_card: CombatCard | None
    draws: int
    drawn: tuple[str, ...] | None  # recorded logs only: seeded draws are not in the log
    power_up: dict[str, list[str]] | None
    searches: tuple[dict[str, list[str]], ...]
    face_down: FaceDownCard | None
    jokers: dict[str, int]
    abilities: tuple[dict[str, Any], ...]
    damage_taken: dict[str, int]
    life_lost: int
    life: int
    knocked_down: bool
    knocked_down_next: bool
    # how many times this seat was knocked down this turn (two in one turn happen); for the
    # per-bout statistics, not in ``to_dict`` (``knocked_down_next`` says whether any)
    knockdowns_taken: int = 0
    # the extra Aces this seat paid this turn for supers' mandatory costs (C3, CB-9), as the
    # game journalled them; for the statistics, not in ``to_dict``
    aces_paid: int = 0

    def to_dict(self) -> dict[str, Any]:
        return {
            "combat_card": None if self.combat_card is None else self.combat_card.to_dict(),
            "draws": {"count": self.draws,
                      "cards": None if self.drawn is None else list(self.drawn)},
            "power_up": None if self.power_up is None else {k: list(v) for k, v in
                                                            self.power_up.items()},
            "searches": [dict(s) for s in self.searches],
            "face_down": None if self.face_down is None else self.face_down.to_dict(),
            "jokers": dict(self.jokers),
            "abilities": [dict(a) for a in self.abilities],
            "damage_taken": dict(self.damage_taken),
            "life_lost": self.life_lost,
            "life": self.life,
            "knocked_down": self.knocked_down,
            "knocked_down_next": self.knocked_down_next,
        }


@dataclass(frozen=True, slots=True)
class CombatResult:
    """C6: who won combat and why, in words that cite the matrix cell (§4.4)."""

    winner: PlayerId | None
    loser: PlayerId | None
    cell: str | None
    both_hit: bool
    explanation: str

    def to_dict(self) -> dict[str, Any]:
        return {"winner": None if self.winner is None else self.winner.name,
                "loser": None if self.loser is None else self.loser.name,
                "cell": self.cell, "both_hit": self.both_hit, "explanation": self.explanation}


@dataclass(frozen=True, slots=True)
class ComboMove:
    """One move of a combo (CB-1, CB-2) with its printed base damage and pumps (PM-1).
    ``prevented``: a Rewind Joker stopped its C12 damage (RW-6); a combat card's base damage
    (C8) is never prevented, only its pumps."""

    card: str
    move: str
    name: str | None
    combat_card: bool
    damage: int
    pumps: tuple[str, ...]
    pump_damage: int
    knockdown: bool
    prevented: bool
    seat: PlayerId | None = None  # who played it, when a combat tag made it a team's combo

    def to_dict(self) -> dict[str, Any]:
        return {"card": self.card, "move": self.move, "name": self.name,
                "combat_card": self.combat_card, "damage": self.damage,
                "pumps": list(self.pumps), "pump_damage": self.pump_damage,
                "knockdown": self.knockdown, "prevented": self.prevented,
                **({} if self.seat is None else {"seat": self.seat.name})}


@dataclass(frozen=True, slots=True)
class ComboSummary:
    """The winner's combo (GL-COMBO): moves in order, combo points (CB-3), pumps (PM-1),
    chains (CH-1; CH-4 rewards the longest), and whether it ended in a knockdown (KD-1)."""

    player: PlayerId
    hit_back: bool
    moves: tuple[ComboMove, ...]
    combo_points: int
    pumps: int
    chains: tuple[int, ...]
    chain_reward: int
    knockdown: bool
    damage: int | None  # None while the combo is unfinished (a log that stopped in C10)
    prevented: int
    # SB-2: the knockdown this combo would have inflicted, replaced by a snapback
    snapback: KnockdownAvoided | None = None

    @property
    def chain_length(self) -> int:
        """The longest run of back-to-back ascending normal attacks (CH-1); it earns Aces
        from 3 on (CH-3, CH-4: ``chain_reward``)."""
        return max(self.chains, default=0)

    def to_dict(self) -> dict[str, Any]:
        return {"player": self.player.name, "hit_back": self.hit_back,
                "moves": [m.to_dict() for m in self.moves], "combo_points": self.combo_points,
                "pumps": self.pumps, "chains": list(self.chains),
                "chain_length": self.chain_length, "chain_reward": self.chain_reward,
                "knockdown": self.knockdown,
                "damage": self.damage, "prevented": self.prevented,
                **({} if self.snapback is None else {"snapback": {
                    "rule_id": self.snapback.rule, "out": self.snapback.seat.name,
                    "in": None if self.snapback.replaced_by is None
                    else self.snapback.replaced_by.name,
                    "card": None if self.snapback.card is None else self.snapback.card.code}})}


@dataclass(frozen=True, slots=True)
class TurnSummary:
    """One turn of the timeline (GL-TURN); ``to_dict()`` is documented in the module."""

    turn: int
    initiative: PlayerId
    events: tuple[int, int]
    players: tuple[PlayerTurn, ...]  # by seat
    combat: CombatResult | None
    combo: ComboSummary | None
    stopped: dict[str, Any] | None = None
    # team modes: the bout this turn belongs to and its two characters (side A's first)
    bout: int | None = None
    characters: tuple[str, str] | None = None
    tags: tuple[dict[str, Any], ...] = ()  # team modes: this turn's tags (TAG, TAG-PU)

    @property
    def damage(self) -> tuple[int, ...]:
        """Damage dealt to each seat this turn (GL-DAMAGE; life paid is not damage)."""
        return tuple(p.damage_taken["total"] for p in self.players)

    def summary(self) -> str:
        """One line for humans (the CLI prints it)."""
        def card(p: PlayerId) -> str:
            c = self.players[p].combat_card
            if c is None:
                return f"{p.name} -"
            if c.played in ("no_card", "gold_burst"):
                return f"{p.name} {c.played.replace('_', '-')}" + (
                    f" {c.card}" if c.card else "")
            move = c.move if c.name is None else f"{c.move} '{c.name}'"
            return f"{p.name} {c.card} {move}" + (" (void)" if c.played == "void" else "")

        bout = "" if self.bout is None or self.characters is None else (
            f"bout {self.bout} ({self.characters[0]} vs {self.characters[1]}), ")
        parts = [f"{bout}turn {self.turn} (initiative {self.initiative.name}): "
                 f"{card(P1)}, {card(P2)}"]
        if self.combat is not None:
            parts.append(self.combat.explanation)
        if self.combo is not None:
            moves = " > ".join(f"{m.card} {m.move}" + (f"+{len(m.pumps)}" if m.pumps else "")
                               for m in self.combo.moves)
            ko = ", knockdown" if self.combo.knockdown else (
                ", snapback (SB-2)" if self.combo.snapback is not None else "")
            dealt = "?" if self.combo.damage is None else str(self.combo.damage)
            what = "hit back" if self.combo.hit_back else "combo"
            parts.append(f"{self.combo.player.name} {what} {moves} = {dealt}{ko}")
        seats = _seats(len(self.players))
        parts.append("damage " + ", ".join(f"{p.name} {self.damage[p]}" for p in seats)
                     + "; life " + ", ".join(f"{p.name} {self.players[p].life}"
                                            for p in seats))
        for t in self.tags:
            parts.append(f"{t['out']} tags out for {t['in']} ({t['tag']} tag, {t['rule_id']})")
        if self.stopped is not None:
            parts.append(f"stopped: {self.stopped['reason']} [{self.stopped['rule_id']}]")
        return "; ".join(parts)

    def to_dict(self) -> dict[str, Any]:
        bout: dict[str, Any] = {} if self.bout is None or self.characters is None else {
            "bout": self.bout, "characters": list(self.characters)}
        # the players are in seat order: zip them with the seats' names (a prefix of them)
        named = tuple(zip(_SEAT_NAMES, self.players, strict=False))
        return {
            **bout,
            "turn": self.turn,
            "initiative": _SEAT_NAMES[self.initiative],
            "events": list(self.events),
            "players": {name: p.to_dict() for name, p in named},
            "combat": None if self.combat is None else self.combat.to_dict(),
            "combo": None if self.combo is None else self.combo.to_dict(),
            "damage": {name: p.damage_taken["total"] for name, p in named},
            **({"tags": [dict(t) for t in self.tags]} if self.tags else {}),
            "stopped": None if self.stopped is None else dict(self.stopped),
        }


# ---------------------------------------------------------------------------- moments

# The moments below are made at every turn and never changed afterwards, but they are private,
# so they are not frozen: a frozen dataclass's __init__ sets every field through
# object.__setattr__, which was 4% of a replay with the timeline (issue 17, fifth round).


@dataclass(slots=True)
class _Moment:
    """A point in the game: how far the journal had got, every seat's life, the initiative
    (the journal between two moments gives a turn's draws, damage, Jokers and knockdowns)."""

    mark: int
    life: tuple[int, ...]
    initiative: PlayerId

    @staticmethod
    def of(game: Game) -> _Moment:
        return _Moment(len(game.journal), game.life, game.initiative)


# ---------------------------------------------------------------------------- explaining


_DECIDED = frozenset({DamageDealt, CombatResolved, Voided, Knockdown, KnockdownAvoided,
                      AcesPaid})  # the events _Decided reads


class _Decided:
    """What the game's journal says of one turn, in one pass: the C6 resolution, each seat's
    void, the knockdowns inflicted at C13a and those a snapback replaced or KD-7 cancelled,
    the damage each seat took and its knockdowns (read, never worked out again here)."""

    __slots__ = ("aces_paid", "avoided", "knockdowns", "knocked_by", "resolved", "taken_by",
                 "voids")

    def __init__(self, events: list[Event], seats: tuple[PlayerId, ...]) -> None:
        self.resolved: CombatResolved | None = None
        self.voids: dict[PlayerId, Voided] = {}
        self.knockdowns: list[Knockdown] = []  # C13a's (card text's are not the combo's)
        self.avoided: list[KnockdownAvoided] = []
        # what hit each seat (with a bench, only the opposing active seat's damage that
        # reached it: never the bench's share of another seat's) and its knockdowns
        self.taken_by = {p: dict.fromkeys(DAMAGE_KINDS, 0) for p in seats}
        self.knocked_by = dict.fromkeys(seats, 0)
        self.aces_paid = dict.fromkeys(seats, 0)
        taken_by, knocked_by = self.taken_by, self.knocked_by
        # only the events read, picked without a Python step per event (most of a turn's
        # events are draws, hits, the combat area and its end)
        for e in compress(events, map(_DECIDED.__contains__, map(type, events))):
            kind = type(e)
            if kind is DamageDealt:
                assert isinstance(e, DamageDealt)
                if e.target is not e.source and e.target in taken_by:
                    taken_by[e.target][e.kind] += e.amount
            elif kind is CombatResolved:
                assert isinstance(e, CombatResolved)
                self.resolved = e
            elif kind is Voided:
                assert isinstance(e, Voided)
                self.voids[e.seat] = e
            elif kind is Knockdown:
                assert isinstance(e, Knockdown)
                if e.seat in knocked_by:
                    knocked_by[e.seat] += 1
                if e.combat:
                    self.knockdowns.append(e)
            elif kind is KnockdownAvoided:
                assert isinstance(e, KnockdownAvoided)
                self.avoided.append(e)
            elif kind is AcesPaid:
                assert isinstance(e, AcesPaid)
                if e.seat in self.aces_paid:
                    self.aces_paid[e.seat] += len(e.cards)

    def keep_final_voids(self, seens: dict[PlayerId, _SeatActions]) -> None:
        """Only the voids of the seats' final combat cards: under CF-08's penalty a seat whose
        unpaid Ace was void may choose again when the opponent's Ace is void in turn (NC-2),
        and that later choice (its last commit or no-card) is its combat card."""
        for seat, v in list(self.voids.items()):
            commit = seens[seat].commit if seat in seens else None
            if v.rule == "CF-08" and isinstance(commit, Commit | NoCard) and not (
                    isinstance(commit, Commit) and commit.card == v.card):
                del self.voids[seat]

    def speed(self, seat: PlayerId) -> int | None:
        """AR-SPD-1: ``seat``'s locked-in speed at C6 (None: no speed, or not in combat)."""
        r = self.resolved
        if r is None or seat not in r.seats:
            return None
        return r.speeds[r.seats.index(seat)]


def _explain(combat: CombatArea, decided: _Decided) -> str:
    """C6 in words, citing the matrix cell; voids first (KD-4, KD-5, M-VOID)."""
    if combat.cell == cb.CANCELLED:
        return ("card text cancelled the combat at the combat reveal (Acrobatics): every combat "
                "card is discarded, nobody wins, no damage is dealt")
    parts: list[str] = []
    for p in _seats(len(combat.fighters)):
        v = decided.voids.get(p)
        if v is not None:
            parts.append(f"{p.name}'s {_KIND_WORDS[v.kind]} is void: {v.reason} ({v.rule})")
    r = decided.resolved
    if r is None:
        parts.append("the game ended before the winner was determined")
    else:
        cell = r.cell
        (sa, sb), (ka, kb) = r.seats, r.kinds
        if r.winner is not None:
            w = r.winner
            lo = sb if w is sa else sa
            iw = r.seats.index(w)
            kw, kl = r.kinds[iw], r.kinds[1 - iw]
            if kw == kl and kw in (cb.ATTACK, cb.THROW):
                # AR-ATK-1 / AR-THR-1: the lower speed wins (GL-SPEED).
                parts.append(f"{w.name}'s {_KIND_WORDS[kw]} (speed {_speed(r.speeds[iw])}) "
                             f"beats {lo.name}'s slower {_KIND_WORDS[kl]} "
                             f"(speed {_speed(r.speeds[1 - iw])}) ({cell})")
            else:
                parts.append(f"{w.name}'s {_KIND_WORDS[kw]} beats {lo.name}'s "
                             f"{_KIND_WORDS[kl]} ({cell})")
        elif cell == "M-ATTACK-ATTACK-TIE":
            parts.append(f"speed tie: both attacks hit ({cell})")
        elif cell == "M-THROW-THROW-TIE":
            parts.append(f"speed tie: neither throw hits ({cell})")
        elif cell == "M-JOKER-JOKER":
            parts.append(f"both Gold Bursts hit ({cell})" if r.both_hit
                         else f"Gold Burst against Gold Burst: no winner ({cell})")
        elif cell == "M-NOCARD-NOCARD":
            parts.append(f"both no-card: nothing happens ({cell})")
        else:  # neutral pairs: block/block, block/dodge, dodge/dodge (CF-11)
            parts.append(f"{sa.name}'s {_KIND_WORDS[ka]} and {sb.name}'s {_KIND_WORDS[kb]}: "
                         f"no winner ({cell})")
    parts.extend(combat.assists)  # Tag Team's assists (AS-*): nothing in other modes
    return "; ".join(parts)


# ---------------------------------------------------------------------------- assembling


def _move_named(ch: Character, c: Card, move: MoveType | None, name: str | None) -> Move | None:
    if move is None:
        return None
    same = [m for m in ch.moves_of(c) if m.type is move and (name is None or m.name == name)]
    return same[0] if same else None


def _combat_card(ch: Character, f: Fighter | None, commit: Action | None,
                 void: Voided | None, speed: int | None) -> CombatCard:
    """From the locked-in state (C5: after rotations and voids), else from the C1 event;
    ``void`` and ``speed`` (at C6) as the journal recorded them.

    The state is preferred because card text may change the move after C1 (C4); the event
    fills in what the state no longer shows (a block already back in hand, CF-15).
    """
    if void is not None:  # M-VOID: the card as revealed, discarded before it locked in
        card = void.card
        if card is None or card.is_joker:
            return CombatCard("void", None if card is None else card.code,
                              void_rule=void.rule, void_reason=void.reason)
        # the end committed at C1 (the state holds no move once the card is void)
        move = _move_named(ch, commit.card, commit.move, commit.name) \
            if isinstance(commit, Commit) else None
        return CombatCard("void", card.code, None if move is None else move.type.value,
                          None if move is None else move.name,
                          None if move is None else _speed(move.speed), void.rule, void.reason)
    if f is not None and f.kind == cb.NONE:
        # No-card: declared, forced by an empty hand (C1), or re-chosen under CF-08.
        return CombatCard("no_card")
    card = None if f is None else (f.combat_card or f.revealed_card)
    move = None if f is None else f.move
    if isinstance(commit, Commit):
        card = card or commit.card
        if move is None:
            move = _move_named(ch, commit.card, commit.move, commit.name)
    if card is None:
        return CombatCard("no_card")
    if card.is_joker:
        return CombatCard("gold_burst", card.code)
    if speed is None or f is None or f.move is None:
        speed = None if move is None else move.speed  # as printed: no C6 (or not in combat)
    return CombatCard("card", card.code, None if move is None else move.type.value,
                      None if move is None else move.name, _speed(speed))


def _combo(combat: CombatArea, decided: _Decided,
           turn_combos: list[ComboRecord]) -> ComboSummary | None:
    """The combo of ``combat``; ``turn_combos``: the combos the game finished this turn (an
    unfinished one, in a game or log that stopped, is shown with the points spent so far)."""
    if not combat.combo or combat.comboer is None:
        return None
    winner = combat.comboer
    records = [r for r in turn_combos if r.player is winner]
    record = records[-1] if records else None
    rewound = () if record is None else record.rewound  # RW-6, as the game prevented it
    moves = []
    for i, e in enumerate(combat.combo):
        pump = e.move.pump.damage * len(e.pumps) if e.move.pump else 0
        moves.append(ComboMove(
            e.card.code, e.move.type.value, e.move.name, not e.played_in_c10, e.move.damage,
            tuple(_codes(e.pumps)), pump, e.move.knockdown, i in rewound, e.seat))
    # KD-1: the knockdown the game inflicted at C13a after this combo (none when a snapback
    # replaced it, SB-2, or card text ended the combat first)
    knockdown = bool(decided.knockdowns)
    return ComboSummary(
        winner, combat.hit_back, tuple(moves),
        record.points if record is not None else combat.points,
        sum(len(e.pumps) for e in combat.combo),
        tuple(record.chains) if record is not None else (),
        record.chain_reward if record is not None else 0,
        knockdown, None if record is None else record.damage,
        0 if record is None else record.prevented,
        next((a for a in decided.avoided if a.rule == "SB-2"), None))


class _SeatActions:
    """What one seat's actions of a turn say, read in one pass: its last combat card choice
    (C1: a commit or no-card, re-chosen under CF-08), its first face-down card (C9), the
    cards of its last Power Up (None when it powered up nothing), its searches and abilities,
    and for a recorded log (no seed) the cards it drew."""

    __slots__ = ("abilities", "commit", "drawn", "face_down", "power_up", "searches")

    def __init__(self, actions: list[Action], *, recorded: bool) -> None:
        self.commit: Action | None = None
        self.face_down: FaceDown | None = None
        self.power_up: dict[str, list[str]] | None = None
        self.searches: list[dict[str, list[str]]] = []
        self.abilities: list[dict[str, Any]] = []
        drawn: list[str] | None = [] if recorded else None
        for a in actions:
            kind = type(a)  # action types have no subclasses: one look-up, not isinstance
            if kind is Commit or kind is NoCard:
                self.commit = a
            elif kind is Draw:
                if drawn is not None:
                    assert isinstance(a, Draw)
                    drawn.append(a.card.code)
            elif kind is PowerUp:
                assert isinstance(a, PowerUp)
                self.power_up = {"sets": _codes(a.sets), "from_discard": _codes(a.from_discard),
                                 "from_deck": _codes(a.from_deck)} if (
                    a.sets or a.from_discard or a.from_deck) else None
            elif kind is FaceDown:
                if self.face_down is None:
                    assert isinstance(a, FaceDown)
                    self.face_down = a
            elif kind is Search:
                assert isinstance(a, Search)
                self.searches.append({"from_discard": _codes(a.from_discard),
                                      "from_deck": _codes(a.from_deck)})
            elif kind is UseAbility:
                assert isinstance(a, UseAbility)
                self.abilities.append({"ability": a.ability,
                                       "card": None if a.card is None else a.card.code,
                                       "cards": _codes(a.cards), "option": a.option})
        self.drawn = None if drawn is None else tuple(drawn)


def _summarise(game: Game, log: MatchLog, turn: int, start: _Moment, end: _Moment,
               events: list[tuple[int, LogEvent]], span: tuple[int, int],
               stopped: dict[str, Any] | None, journalled: _Journalled) -> TurnSummary:
    combat = journalled.areas.get(turn)
    if combat is None and turn == game.turn:
        # the game (or the log) stopped during this combat: its area as the game shows it
        # (None when the turn's combat had not reached its combat-reveal window)
        combat = game.combat_area()
    turn_tags = iter(journalled.tags.get(turn, ()))
    players: list[PlayerTurn] = []
    # this turn's stretch of the journal, counted for every seat (once a turn)
    turn_events = game.journal[start.mark:end.mark]
    seats = _seats(len(game.players))
    by_seat = Totals.by_seat(turn_events, seats)
    decided = _Decided(turn_events, seats)
    taken_by, knocked_by = decided.taken_by, decided.knocked_by
    # each seat's actions this turn, in order; the turn's tags
    actions: dict[PlayerId, list[Action]] = {p: [] for p in seats}
    tags: list[dict[str, Any]] = []
    for i, e in events:
        if e.player in actions:
            actions[e.player].append(e.action)
        if type(e.action) is Tag:
            tags.append(_tag(i, e.player, e.action, next(turn_tags, None)))
    seens = {p: _SeatActions(actions[p], recorded=log.seed is None) for p in seats}
    decided.keep_final_voids(seens)
    for p in seats:
        fighter = None if combat is None else combat.fighters[p]
        seen = seens[p]
        taken = taken_by[p]
        knocked = knocked_by[p]
        taken["total"] = sum(taken.values())
        counts = by_seat[p]
        jokers = dict(counts.jokers)
        jokers["bluff"] = counts.bluffs
        face_down = None
        if seen.face_down is not None:
            card = seen.face_down.card
            face_down = FaceDownCard(card.code, "rewind" if card.is_joker else "bluff",
                                     jokers["rewind"] > 0 or jokers["bluff"] > 0,
                                     jokers["rewind_prevented_damage"])
        players.append(PlayerTurn(
            combat_card=_combat_card(game.players[p].character, fighter, seen.commit,
                                     decided.voids.get(p), decided.speed(p))
            if combat is not None or seen.commit is not None else None,
            draws=counts.cards_drawn,
            drawn=seen.drawn,
            power_up=seen.power_up,
            searches=tuple(seen.searches),
            face_down=face_down,
            jokers=jokers,
            abilities=tuple(seen.abilities),
            damage_taken=taken,
            life_lost=start.life[p] - end.life[p],
            life=end.life[p],
            knocked_down=fighter.knocked_down if fighter is not None
            else game.players[p].knocked_down if turn == game.turn else False,
            knocked_down_next=knocked > 0,
            knockdowns_taken=knocked,
            aces_paid=decided.aces_paid[p],
        ))
    result = None
    if combat is not None:
        both = decided.resolved is not None and decided.resolved.winner is None \
            and decided.resolved.both_hit
        result = CombatResult(combat.winner, combat.loser, combat.cell, both,
                              _explain(combat, decided))
    bout = next((b for b in reversed(game.bouts) if b.first_turn <= turn), None)
    return TurnSummary(
        turn, end.initiative, span, tuple(players), result,
        None if combat is None else _combo(combat, decided, journalled.combos.get(turn, [])),
        stopped,
        None if bout is None else bout.number, None if bout is None else bout.characters,
        tuple(tags))


_TAG_RULES = {"hard": "TAG-PU-2", "dodge": "TAG-DODGE", "continue": "TAG-CONT",
              "super": "TAG-SUPER", "ace": "TAG-PU-1"}


def _tag(index: int, seat: PlayerId, tag: Tag, tagged: Tagged | None) -> dict[str, Any]:
    """One tag of the turn (the log's event ``index``, and the game's record of it), for the
    timeline (see the module docstring)."""
    which = tag.tag or "hard"
    partner = None if tagged is None else tagged.partner
    if which in ("dodge", "continue"):
        cards = [c.code for c in (tag.card, tag.partner_card) if c is not None]
    elif which == "super":
        cards = [c.code for c in (tag.card, *tag.aces) if c is not None]
    else:
        cards = _codes(tag.sets + tag.from_discard + tag.from_deck)
    return {"tag": which, "rule_id": _TAG_RULES[which], "event": index,
            "step": "P2" if which in ("hard", "ace") else "C10",
            "out": seat.name, "in": None if partner is None else partner.name, "cards": cards}


_JOURNALLED = frozenset({TurnEnded, ComboEnded, CombatArea, Tagged})  # what _Journalled reads


class _Journalled:
    """What the timeline reads of the whole journal, by turn, in one pass: where each turn
    ended, the finished combos, each combat's area (C13b, or a knockout that ended the bout
    mid-combat; a turn's last) and the tags."""

    __slots__ = ("areas", "combos", "ends", "tags")

    def __init__(self, journal: list[Event]) -> None:
        self.ends: dict[int, _Moment] = {}
        self.combos: dict[int, list[ComboRecord]] = {}
        self.areas: dict[int, CombatArea] = {}
        self.tags: dict[int, list[Tagged]] = {}
        # only the events read, picked without a Python step per event (three in four are
        # draws, damage, hits and combats)
        for i, e in compress(enumerate(journal), map(_JOURNALLED.__contains__,
                                                     map(type, journal))):
            kind = type(e)
            if kind is TurnEnded:
                assert isinstance(e, TurnEnded)
                self.ends[e.turn] = _Moment(i + 1, e.life, e.initiative)
            elif kind is ComboEnded:
                assert isinstance(e, ComboEnded)
                self.combos.setdefault(e.record.turn, []).append(e.record)
            elif kind is CombatArea:
                assert isinstance(e, CombatArea)
                self.areas[e.turn] = e
            elif kind is Tagged:
                assert isinstance(e, Tagged)
                self.tags.setdefault(e.turn, []).append(e)


class _Recorder:
    """What the timeline keeps while the log is replayed: where each turn's events begin, the
    events of each turn, and the moment turn 1 began."""

    def __init__(self, game: Game) -> None:
        self.game = game
        self.baseline: _Moment | None = _Moment.of(game) if game.turn >= 1 else None
        # starts[t]: index of the first event of turn t (the one after the event that began it)
        self.starts: dict[int, int] = {game.turn: 0} if self.baseline is not None else {}
        self.applied = 0
        self.by_turn: dict[int, list[tuple[int, LogEvent]]] = {}

    def applied_event(self, game: Game, i: int, event: LogEvent, turn: int) -> None:
        """``event`` (index ``i``) was applied; ``turn`` is the turn it was played in."""
        self.applied = i + 1
        if turn >= 1:
            self.by_turn.setdefault(turn, []).append((i, event))
        for t in range(max(turn, 0) + 1, game.turn + 1):
            self.starts[t] = self.applied
        if self.baseline is None and game.turn >= 1:
            # Recorded logs: turn 1 begins after the opening hands and the coin flip (S-5,
            # S-6); those draws belong to no turn.
            self.baseline = _Moment.of(game)

    def turns(self, log: MatchLog, stopped: dict[str, Any] | None) -> list[TurnSummary]:
        game = self.game
        if stopped is None and not game.is_over:
            pos = game.position()
            stopped = {"index": len(log.events), "turn": pos.turn, "step": pos.step,
                       "player": game.acting_players[0].name if game.acting_players else None,
                       "action": None, "rule_id": "END-1",
                       "reason": "the log ends before the game does"}
        if self.baseline is None:
            return []
        turns: list[TurnSummary] = []
        start = self.baseline
        final = _Moment.of(game)
        journalled = _Journalled(game.journal)
        for turn in range(1, game.turn + 1):
            end = journalled.ends.get(turn, final)
            last = turn == game.turn
            span = (self.starts[turn], self.applied if last else self.starts[turn + 1])
            turns.append(_summarise(game, log, turn, start, end, self.by_turn.get(turn, []),
                                    span, stopped if last else None, journalled))
            start = end
        return turns


# Told of the game before the first event (None) and after each event applied (the event).
Watcher = Callable[[Game, LogEvent | None], None]


def replay_observed(log: MatchLog, watch: Watcher | None = None) -> tuple[
        Verdict, Game, list[TurnSummary]]:
    """The one replay of ``log`` that the verdict, the timeline and the board come from
    (:func:`rules_engine.judge.judge`): the verdict (exactly ``replay``'s), the game as the
    replay left it (just before the first illegal event, if any), and the turns up to there.
    ``watch`` sees the game before the first event and after each one applied."""
    recorders: list[_Recorder] = []

    def observed(parsed: MatchLog) -> Game:
        # the verifier's own game (no subclass, no hook): read through its journal afterwards
        recorders.append(_Recorder(new_game_for(parsed)))
        if watch is not None:
            watch(recorders[0].game, None)
        return recorders[0].game

    def observe(game: Game, i: int, event: LogEvent, turn: int) -> None:
        recorders[0].applied_event(game, i, event, turn)
        if watch is not None:
            watch(game, event)

    verdict = replay(log, game_for=observed, observe=observe, in_place=True)
    recorder = recorders[0]
    error = verdict.first_error
    stopped: dict[str, Any] | None = None
    if verdict.status == "engine_error" and error is not None:
        pos = recorder.game.position()
        event = log.events[recorder.applied] if recorder.applied < len(log.events) else None
        stopped = {"index": recorder.applied, "turn": pos.turn, "step": pos.step,
                   "player": None if event is None else event.player.name,
                   "action": None if event is None else str(event.action),
                   "rule_id": None, "reason": f"engine error: {error['reason']}"}
    elif error is not None and error.get("rule_id") != "END-1" and "index" in error:
        # the verdict's account of the event (rules_engine.diagnosis), where the turns stop
        stopped = {k: v for k, v in error.items()
                   if k not in ("json_path", "bout", "character")}
    try:
        turns = recorder.turns(log, stopped)
    except Exception:
        if verdict.status != "engine_error":
            raise
        turns = []  # the engine broke: the game may not be summarised (the verdict says so)
    return verdict, recorder.game, turns


def timeline(log: MatchLog | str | bytes | dict[str, Any]) -> list[TurnSummary]:
    """Replay ``log`` and summarise each turn (see the module docstring for the shape).

    Raises LogSyntaxError for unreadable input; an illegal log ends at the turn where it stopped,
    marked in ``stopped``.
    """
    if not isinstance(log, MatchLog):
        log = parse_log(log)  # raises LogSyntaxError
    return replay_observed(log)[2]
