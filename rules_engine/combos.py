"""A combo reference: for each attack and throw of a character, the highest-damage legal combo
that starts with it (``python -m rules_engine combos CHARACTER [--json]``).

Glossary (RULES.md §5): a *combo* starts with the combat card (CB-1) and adds attacks and throws
from hand (CB-2), each a legal successor of the one before (CB-4, the CT table), paying its combo
points within the character's limit (CB-3), ending at an Ender or a Can't Combo move (CB-5,
CB-6); Ace moves pay their mandatory Ace cost (CB-9); a pumpable move takes 1 up to its printed
number of pump cards of its printed kind, each adding its pump damage and costing no points
(PM-1, PM-2). *Damage* is the combat card's damage (C8c) plus every combo move's damage and
every pump's (C12).

Responsibility: the search, with the engine's own rules: the follow table
(:func:`rules_engine.combat.follow_violation`), the damage of an entry
(:meth:`rules_engine.state.ComboEntry.damage_at_c12`), and the character's always-on modifiers
(:meth:`rules_engine.characters.CharacterRules.modifiers`: ``FOLLOW``, ``PUMP_ALLOWED``,
``MOVE_ALLOWED``, ``COMBO_MOVE``, ``COMBAT_DAMAGE``, ``COMBO_DAMAGE``) folded over a fresh seat,
so an implemented ability that changes which combos are legal or what they deal changes the table.
Decisions of this module's making (docs/rules-engine.md, "The combo reference"):

- the only limit on cards is the deck's four copies of each rank (S-2): the combat card, every
  combo move, every extra Ace paid for a mandatory cost and every pump card of a named rank or
  of face cards counts against it; a pump of "any" card is listed as ``any`` (the 54-card deck
  always has one to spare);
- a move that needs a state (``requires``: Dragon Form) is in the table only as a start, and the
  combo it starts assumes that state; combos from other starts assume no state;
- card text that depends on the game (cards in play, timed effects) is not assumed: the table is
  a seat with nothing in play at the start of a turn (its rules' ``start_of_turn`` runs against
  :class:`ReferenceContext`, a stand-in with no game); the one number of the game it takes is
  ``hand_difference`` (``--hand-difference N``): how many more cards the opponent holds than
  the character once the combo is finished (DeGrey's Moral High Ground), 0 by default;
- ties: the higher damage wins, then the fewer cards, then the earlier in rank order.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from itertools import combinations_with_replacement
from typing import Any

from rules_engine import combat as cb
from rules_engine.cards import (
    RANK_BY_CODE,
    Card,
    Character,
    ComboType,
    Move,
    PumpKind,
    Rank,
    card,
    character,
)
from rules_engine.characters import rules_for
from rules_engine.errors import EngineInvariantError
from rules_engine.journal import Journal
from rules_engine.modifiers import (
    COMBAT_DAMAGE,
    COMBO_DAMAGE,
    COMBO_MOVE,
    FOLLOW,
    MOVE_ALLOWED,
    PUMP_ALLOWED,
    Modifier,
    Modifiers,
)
from rules_engine.ruleset import Ruleset
from rules_engine.state import ComboEntry, PlayerState
from rules_engine.types import PlayerId

COPIES = 4  # S-2: four cards of each rank
_FACES = (Rank.JACK, Rank.QUEEN, Rank.KING)
_PUMP_RANK = {PumpKind.KING: Rank.KING, PumpKind.ACE: Rank.ACE, PumpKind.JACK: Rank.JACK,
              PumpKind.QUEEN: Rank.QUEEN}


@dataclass(frozen=True, slots=True)
class Step:
    """One card of a combo line: a move (``role`` "move"), an Ace paid for a move's mandatory
    cost ("ace_cost", CB-9), or a pump card ("pump", PM-1) on move number ``target``."""

    role: str
    rank: str  # a rank code, or "any" for a pump of any card
    move: Move | None = None
    target: int | None = None
    damage: int = 0

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"role": self.role, "rank": self.rank}
        if self.move is not None:
            out.update(kind=self.move.type.value, name=self.move.name,
                       combo_points=self.move.combo_points or 0,
                       combo_type=self.move.follow_type.value)
        if self.target is not None:
            out["target"] = self.target
        if self.role != "ace_cost":
            out["damage"] = self.damage
        return out

    def label(self) -> str:
        if self.role == "move":
            assert self.move is not None
            name = f" '{self.move.name}'" if self.move.name else ""
            return f"{self.rank} {self.move.type.value}{name}"
        if self.role == "ace_cost":
            return "(A paid)"
        return f"+{self.rank} pump"


@dataclass(frozen=True, slots=True)
class ComboLine:
    """The best combo found for one start: its cards in order and its total damage."""

    start: Move
    steps: tuple[Step, ...]
    damage: int
    combo_points: int

    def to_json(self) -> dict[str, Any]:
        return {"start": _move_json(self.start), "cards": [s.to_json() for s in self.steps],
                "damage": self.damage, "combo_points": self.combo_points}

    def summary(self) -> str:
        return (f"{_move_label(self.start):32} {self.damage:3} damage, "
                f"{self.combo_points} CP: " + " -> ".join(s.label() for s in self.steps))


def _move_json(m: Move) -> dict[str, Any]:
    return {"rank": m.rank.code, "kind": m.type.value, "name": m.name}


def _move_label(m: Move) -> str:
    return f"{m.rank.code} {m.label}"


def _card_of(rank: Rank) -> Card:
    return card(rank.code + "C")


class ReferenceContext:
    """A stand-in :class:`rules_engine.abilities.AbilityContext` with no game: the seat, an
    opponent holding ``hand_difference`` cards more than it (the seat's own hand is empty),
    turn 1 at C10, and a modifier registry. Reading is allowed; acting (drawing, dealing
    damage, asking a decision) is an engine error, because a reference plays no game."""

    def __init__(self, char: Character, ruleset: Ruleset, hand_difference: int) -> None:
        self.ruleset = ruleset
        self.turn = 1
        self.step = "C10"
        self.seat = PlayerState(PlayerId.P1, char, char.life)
        self.other = PlayerState(PlayerId.P2, char, char.life,
                                 hand=[card("2D")] * max(hand_difference, 0))
        self.modifiers = Modifiers()
        self.recorded = False

    @property
    def combo(self) -> Sequence[ComboEntry]:
        return ()

    @property
    def combo_seat(self) -> PlayerId | None:
        return self.seat.player

    def combo_of(self, ps: PlayerState) -> Sequence[ComboEntry]:
        return ()

    def deck_top_known(self, ps: PlayerState) -> list[Card]:
        return []

    def opponent(self, ps: PlayerState) -> PlayerState:
        return self.other if ps is self.seat else self.seat

    def opponents(self, ps: PlayerState) -> list[PlayerState]:
        return [self.opponent(ps)]

    def partner(self, ps: PlayerState) -> PlayerState | None:
        return None

    def in_combat(self, ps: PlayerState) -> bool:
        return True  # two seats, both in combat

    def add_modifier(self, modifier: Modifier[Any]) -> None:
        self.modifiers.add(modifier)

    def _no_game(self, *_: object, **__: object) -> Any:
        raise EngineInvariantError("the combo reference plays no game: card text may only "
                                   "read the seat and add modifiers here")

    ask: Callable[..., Any] = _no_game
    draw: Callable[..., Any] = _no_game
    discard: Callable[..., None] = _no_game
    move: Callable[..., None] = _no_game
    damage: Callable[..., None] = _no_game
    heal: Callable[..., None] = _no_game
    search: Callable[..., Any] = _no_game
    shuffle_deck: Callable[..., None] = _no_game
    offer_counter: Callable[..., Any] = _no_game
    rotate: Callable[..., None] = _no_game
    grant_full_combo: Callable[..., None] = _no_game
    end_combat: Callable[..., None] = _no_game
    freeze: Callable[..., None] = _no_game
    control: Callable[..., None] = _no_game
    skip_to_next_combat: Callable[..., None] = _no_game
    reveal_top: Callable[..., Any] = _no_game
    hand_to_deck_bottom: Callable[..., int] = _no_game
    combo_choices: Callable[..., Any] = _no_game
    play_combo: Callable[..., Any] = _no_game
    take_top: Callable[..., Any] = _no_game
    draw_bottom: Callable[..., Any] = _no_game
    random_hand_card: Callable[..., Any] = _no_game
    peek_bottom: Callable[..., None] = _no_game

    @property
    def journal(self) -> Journal:
        return Journal()  # no game: nothing happened
    commit_second: Callable[..., Any] = _no_game
    use_second: Callable[..., None] = _no_game

    def as_played(self, ps: PlayerState, m: Move) -> Move:
        return self.modifiers.fold(COMBO_MOVE, ps, m, m)

    def controller(self, seat: PlayerId) -> PlayerId:
        return seat
    stand_up: Callable[..., None] = _no_game
    void: Callable[..., None] = _no_game
    knock_down: Callable[..., None] = _no_game
    speed: Callable[..., Any] = _no_game
    block_damage: Callable[..., int] = _no_game


def _reference(character_id: str, ruleset: Ruleset | None,
               hand_difference: int) -> tuple[Character, ReferenceContext, Ruleset]:
    """The character's seat at the start of a turn, its always-on modifiers in force and its
    start-of-turn text run (so modifiers it puts in force there count too)."""
    char = character(character_id)
    ruleset = ruleset or Ruleset()
    rules = rules_for(char)
    ctx = ReferenceContext(char, ruleset, hand_difference)
    for mod in rules.modifiers(PlayerId.P1):
        ctx.add_modifier(mod)
    rules.start_of_turn(ctx, ctx.seat)
    return char, ctx, ruleset


@dataclass(slots=True)
class _Search:
    """One character's search state: its moves, rules folded over a fresh seat, and a memo."""

    char: Character
    ps: PlayerState
    mods: Modifiers
    ruleset: Ruleset
    moves: tuple[Move, ...]
    state: str | None = None

    def allowed(self, m: Move, step: str) -> bool:
        if m.requires is not None and m.requires != self.state:
            return False
        return self.mods.fold(MOVE_ALLOWED, self.ps, (m, step), None) is None

    def follows(self, prev: Move, nxt: Move) -> bool:
        v = cb.follow_violation(prev, nxt, self.ruleset)
        return self.mods.fold(FOLLOW, self.ps, (prev, nxt), v) is None

    def pump_options(self, entry: ComboEntry, used: dict[Rank, int]) -> Iterator[
            tuple[tuple[Rank | None, ...], dict[Rank, int]]]:
        """Every way to pump ``entry`` now (PM-1), cheapest first: no pump, then 1 up to the
        printed maximum of cards of the printed kind (None = any card)."""
        yield (), used
        pump = entry.move.pump
        if pump is None or not self.mods.fold(PUMP_ALLOWED, self.ps, entry, True):
            return
        for k in range(1, pump.max_cards + 1):
            if pump.kind is PumpKind.ANY:
                yield (None,) * k, used
                continue
            pools = _FACES if pump.kind is PumpKind.FACE else (_PUMP_RANK[pump.kind],)
            for ranks in combinations_with_replacement(pools, k):
                after = dict(used)
                for r in ranks:
                    after[r] = after.get(r, 0) + 1
                if all(after[r] <= COPIES for r in ranks):
                    yield ranks, after

    def entry_damage(self, entry: ComboEntry) -> int:
        return self.mods.fold(COMBO_DAMAGE, self.ps, entry, entry.damage_at_c12())

    def best(self, entries: list[ComboEntry], points: int, closed: bool,
             used: dict[Rank, int]) -> tuple[int, int, list[tuple[Move, tuple[Rank | None, ...]]]]:
        """The best continuation after ``entries`` (the last of which is not pumped yet):
        (damage added, cards added, [(move, pump ranks), ...]) including the last entry's pumps."""
        last = entries[-1]
        best: tuple[int, int, list[tuple[Move, tuple[Rank | None, ...]]]] | None = None
        for pumps, after_pump in self.pump_options(last, used):
            last.pumps[:] = [_card_of(r) if r is not None else card("X1") for r in pumps]
            pump_dmg = self.entry_damage(last)
            last.pumps.clear()
            base: tuple[int, int, list[tuple[Move, tuple[Rank | None, ...]]]] = (
                pump_dmg, len(pumps), [(last.move, pumps)])
            cand = base
            if not closed:
                for m in self.moves:
                    if not self.allowed(m, "C10") or not self.follows(last.move, m):
                        continue
                    cost = m.combo_points or 0
                    if cost and points + cost > self.char.combo_limit:
                        continue  # CB-3
                    n_cards = 1 + m.extra_aces
                    after = dict(after_pump)
                    after[m.rank] = after.get(m.rank, 0) + 1
                    if m.extra_aces:
                        after[Rank.ACE] = after.get(Rank.ACE, 0) + m.extra_aces
                    if any(v > COPIES for v in after.values()):
                        continue  # S-2: four copies of each rank
                    entry = ComboEntry(_card_of(m.rank), m)
                    shut = m.follow_type in (ComboType.ENDER, ComboType.CANT_COMBO)
                    dmg, cards, rest = self.best([*entries, entry], points + cost, shut, after)
                    total = (pump_dmg + dmg, len(pumps) + n_cards + cards,
                             [(last.move, pumps), *rest])
                    if _better(total, cand):
                        cand = total
            if best is None or _better(cand, best):
                best = cand
        assert best is not None
        return best


def _better(a: tuple[int, int, Any], b: tuple[int, int, Any]) -> bool:
    """Higher damage, then fewer cards (the first found wins a full tie: rank order)."""
    return (a[0], -a[1]) > (b[0], -b[1])


def attacks_and_throws(char: Character) -> list[Move]:
    """The character's attack and throw moves, in rank order (each end once)."""
    return [m for r in Rank for m in char.moves[r] if m.is_attack_or_throw]


def combos(character_id: str, ruleset: Ruleset | None = None, *,
           hand_difference: int = 0) -> list[ComboLine]:
    """For each attack and throw of ``character_id``, the highest-damage legal combo that
    starts with it as the combat card (CB-1), by the rules the verifier uses."""
    char, ctx, ruleset = _reference(character_id, ruleset, hand_difference)
    mods, ps = ctx.modifiers, ctx.seat
    printed = attacks_and_throws(char)
    moves = tuple(mods.fold(COMBO_MOVE, ps, m, m) for m in printed)  # as they play (C10)
    out = []
    for start, played in zip(printed, moves, strict=True):
        search = _Search(char, ps, mods, ruleset, moves, state=start.requires)
        if not search.allowed(start, "C1"):
            continue
        used = {start.rank: 1 + start.extra_aces}  # the combat card and its Ace cost (C3)
        if any(v > COPIES for v in used.values()):
            continue
        points = start.combo_points or 0
        first = ComboEntry(_card_of(start.rank), played, played_in_c10=False)
        shut = played.follow_type in (ComboType.ENDER, ComboType.CANT_COMBO)
        dmg, _cards, line = search.best([first], points, shut, used)
        base = mods.fold(COMBAT_DAMAGE, ps, start, start.damage)  # C8c
        steps: list[Step] = []
        cp = 0
        for i, (m, pumps) in enumerate(line):
            entry_base = base if i == 0 else search.entry_damage(ComboEntry(_card_of(m.rank), m))
            steps.append(Step("move", m.rank.code, m, damage=entry_base))
            steps += [Step("ace_cost", "A")] * m.extra_aces
            cp += m.combo_points or 0
            for r in pumps:
                assert m.pump is not None
                steps.append(Step("pump", r.code if r is not None else "any", target=i,
                                  damage=m.pump.damage))
        out.append(ComboLine(start, tuple(steps), base + dmg, cp))
    return out


def damage_of(character_id: str, line: ComboLine, ruleset: Ruleset | None = None, *,
              hand_difference: int = 0) -> int:
    """The damage ``line`` deals with the opponent holding ``hand_difference`` more cards
    (the same folds as :func:`combos`)."""
    _char, ctx, _ = _reference(character_id, ruleset, hand_difference)
    mods, ps = ctx.modifiers, ctx.seat
    entries: list[ComboEntry] = []
    for s in line.steps:
        if s.role == "move":
            assert s.move is not None
            entries.append(ComboEntry(_card_of(s.move.rank), s.move,
                                      played_in_c10=bool(entries)))
        elif s.role == "pump":
            entries[-1].pumps.append(_card_of(RANK_BY_CODE[s.rank]) if s.rank != "any"
                                     else card("X1"))
    total = mods.fold(COMBAT_DAMAGE, ps, line.start, line.start.damage)
    return total + sum(mods.fold(COMBO_DAMAGE, ps, e, e.damage_at_c12()) for e in entries)


def to_json(lines: list[ComboLine]) -> str:
    """``--json``: ``[{"start": {"rank", "kind", "name"}, "cards": [...], "damage": N}, ...]``."""
    return json.dumps([line.to_json() for line in lines], indent=1)


def to_text(character_id: str, lines: list[ComboLine]) -> str:
    char = character(character_id)
    head = f"{char.name}: life {char.life}, combo limit {char.combo_limit}"
    return "\n".join([head, *(line.summary() for line in lines)])
