"""The Versus game: one state machine for setup, turns, combat, Power Up, cleanup and the end.

Glossary (RULES.md §1, §3):
- *turn* (GL-TURN): T1..T7 — draw phase (T2), draw-phase window (T3), combat (C1..C13),
  Power Up (P1..P6), cleanup (K1..K4).
- *combat card* (GL-COMBAT-CARD): the card committed at C1; its *kind* after lock-in is attack,
  throw, block, dodge, joker (Gold Burst) or none (no-card or void).
- *combo* (GL-COMBO): the winner's hitting combat card (or hit-back) plus follow-up moves;
  *combo points* are spent per turn against the character's limit (CB-3).
- *face-down card*: the loser's Rewind Time Joker or bluff (C9, §6).
- *power up* (§7): discard sets and take owed Aces (ACE-SEARCH).
- *initiative* (INI-1..3): who acts first in windows and simultaneous mechanical steps (GEN-4).

Responsibility: the order of steps and every check of a player's choice. The game runs as a
generator that stops at each decision point; :attr:`Game.actor` says who must act,
:meth:`Game.legal_actions` lists the choices and :meth:`Game.apply` validates one and advances,
or raises :class:`IllegalActionError` with the rule ID. A decision with exactly one legal choice
(no-card with an empty hand, nothing to power up, no legal combo move) is taken by the engine
without an event; this rule is part of the log format (docs/log-format.md).

Draws: in a *seeded* game the decks are shuffled by the portable PRNG (:mod:`rules_engine.rng`)
and draws take the top card; in a *recorded* (tabletop) game every draw is a decision of the
drawing player that names the card, checked against the deck's contents.

Character abilities are hooks on :class:`rules_engine.characters.CharacterRules`; characters
without an implementation play with their card stats only.
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Generator, Iterable
from dataclasses import dataclass, field
from itertools import combinations
from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine.actions import (
    Accept,
    Action,
    Combo,
    Commit,
    Discard,
    Draw,
    FaceDown,
    Keep,
    NoCard,
    Pass,
    PayAces,
    PowerUp,
    Pump,
    Search,
    Stop,
    WinInitiative,
)
from rules_engine.cards import Card, Character, ComboType, Move, MoveType, deck_for
from rules_engine.effects import Ongoing, Trigger, fire
from rules_engine.errors import (
    EngineInvariantError,
    IllegalActionError,
    LogPosition,
    RuleViolation,
)
from rules_engine.rng import SplitMix64
from rules_engine.ruleset import (
    DEFAULT_RULESET,
    BlockReturn,
    DoubleKO,
    GoldBurstSearch,
    IllegalAce,
    InitiativeTie,
    Jokers,
    OnOff,
    PumpTiming,
    RewindDraw,
    RewindScope,
    Ruleset,
    ShuffleTrigger,
    Timeout,
    VoidTiming,
)
from rules_engine.types import Actor, PlayerId, Termination

if TYPE_CHECKING:
    from rules_engine.characters import CharacterRules

P1, P2 = PlayerId.P1, PlayerId.P2
OPENING_HAND = 7  # S-5
HAND_LIMIT = 12  # HL-2


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
    # facts for statistics
    cards_drawn: int = 0
    damage_dealt: dict[str, int] = field(
        default_factory=lambda: {"combat": 0, "block": 0, "ability": 0})
    knockdowns: int = 0
    jokers: dict[str, int] = field(default_factory=lambda: {
        "gold_burst": 0, "rewind": 0, "rewind_prevented_damage": 0, "power_up_set": 0,
        "pump": 0})
    bluffs: int = 0


@dataclass(frozen=True, slots=True)
class Decision:
    """A decision point: the step, who may act, the rule that governs it, and its checks."""

    step: str
    players: tuple[PlayerId, ...]
    rule: str
    check: Callable[[PlayerId, Action], None]
    options: Callable[[PlayerId], list[Action]]


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


Step = Generator[Decision, tuple[PlayerId, Action], None]


class GameOver(Exception):
    """Internal: unwinds the generator when an end condition holds (END-2: at once)."""


class Game:
    """A Versus game between two characters (mirrors included).

    >>> from rules_engine.cards import character
    >>> g = Game(character("grave"), character("jaina"), seed=7)
    >>> g.turn, g.step, g.actor
    (1, 'C1', <Actor.SIMULTANEOUS: 'simultaneous'>)
    """

    def __init__(
        self,
        p1: Character,
        p2: Character,
        *,
        ruleset: Ruleset = DEFAULT_RULESET,
        seed: int | None = None,
    ) -> None:
        from rules_engine.characters import rules_for

        self.ruleset = ruleset
        self.seed = seed
        self.recorded = seed is None
        self.rng = SplitMix64(seed) if seed is not None else None
        self.players = (
            PlayerState(P1, p1, p1.life),
            PlayerState(P2, p2, p2.life),
        )
        self.rules: tuple[CharacterRules, CharacterRules] = (rules_for(p1), rules_for(p2))
        self.turn = 0
        self.step = "S-5"
        self.initiative: PlayerId = P1
        self.first_initiative: PlayerId = P1
        self.outcome: Outcome | None = None
        self.events_applied = 0
        self.history: list[tuple[PlayerId, Action]] = []
        self.combos: list[ComboRecord] = []
        self.timeout_triggered = False
        self.combat_cell: str | None = None
        self.winner_of_combat: PlayerId | None = None
        self.combo: list[ComboEntry] = []
        self.combo_closed = False
        self.hit_back = False
        # C8c damage of the winning combat card: refunded by a Rewind under ALL_COMBO_DAMAGE.
        self.combat_card_damage = 0
        self._decision: Decision | None = None
        self._gen = self._play()
        self._advance(None)

    # ------------------------------------------------------------------ public API

    @property
    def actor(self) -> PlayerId | Actor:
        """Who must act: one player, SIMULTANEOUS (both, hidden C1 commits), or TERMINAL."""
        d = self._decision
        if d is None:
            return Actor.TERMINAL
        if len(d.players) == 1:
            return d.players[0]
        return Actor.SIMULTANEOUS

    @property
    def acting_players(self) -> tuple[PlayerId, ...]:
        """The players who may act now (both during a simultaneous commit)."""
        return () if self._decision is None else self._decision.players

    @property
    def is_over(self) -> bool:
        return self.outcome is not None

    def legal_actions(self, player: PlayerId) -> list[Action]:
        """The legal choices of ``player`` now (empty if it is not their decision)."""
        d = self._decision
        if d is None or player not in d.players:
            return []
        return d.options(player)

    def position(self) -> LogPosition:
        return LogPosition(self.events_applied, self.turn, self.step)

    def check(self, player: PlayerId, action: Action) -> None:
        """Raise IllegalActionError if ``action`` by ``player`` is not legal now."""
        d = self._decision
        if d is None:
            raise IllegalActionError(
                self.position(), player, action, "END-2",
                "the game is over; no further event may follow")
        if player not in d.players:
            who = " or ".join(p.name for p in d.players)
            raise IllegalActionError(
                self.position(), player, action, d.rule,
                f"it is {who}'s decision at {d.step}, not {player.name}'s")
        try:
            d.check(player, action)
        except RuleViolation as v:
            raise IllegalActionError(self.position(), player, action, v.rule_id, v.reason) from None

    def apply(self, player: PlayerId, action: Action) -> None:
        """Validate and apply one choice; raises IllegalActionError (state unchanged) if illegal."""
        self.check(player, action)
        self.events_applied += 1
        self.history.append((player, action))
        self._advance((player, action))

    def state(self, player: PlayerId) -> PlayerState:
        return self.players[player]

    @property
    def life(self) -> tuple[int, int]:
        return self.players[0].life, self.players[1].life

    # ------------------------------------------------------------------ driver

    def _advance(self, sent: tuple[PlayerId, Action] | None) -> None:
        try:
            if sent is None:
                self._decision = next(self._gen)
            else:
                self._decision = self._gen.send(sent)
        except StopIteration:
            self._decision = None
            if self.outcome is None:
                raise EngineInvariantError("the game stopped without an outcome") from None
        except (RuleViolation, IllegalActionError) as exc:
            raise EngineInvariantError(f"rule check escaped the decision checks: {exc}") from exc
        except EngineInvariantError:
            raise
        except Exception as exc:  # an engine bug, never blamed on the player
            raise EngineInvariantError(
                f"engine failure at turn {self.turn}, step {self.step}: {exc!r}") from exc

    def _ask(
        self, step: str, players: tuple[PlayerId, ...], rule: str,
        check: Callable[[PlayerId, Action], None], options: Callable[[PlayerId], list[Action]],
    ) -> Generator[Decision, tuple[PlayerId, Action], tuple[PlayerId, Action]]:
        self.step = step
        return (yield Decision(step, players, rule, check, options))

    def order(self) -> tuple[PlayerState, PlayerState]:
        """Both players, initiative first (GEN-4, INI-6)."""
        first = self.players[self.initiative]
        return first, self.players[self.initiative.other]

    # ------------------------------------------------------------------ the game

    def _play(self) -> Step:
        try:
            yield from self._setup()
            while True:
                yield from self._turn()
        except GameOver:
            self.step = "END"
            return

    def _setup(self) -> Step:
        """S-5: life, shuffled decks, opening hands of 7; S-6: turn-1 initiative."""
        self.step = "S-5"
        deck = deck_for(self.ruleset.jokers is Jokers.INCLUDED)
        for ps in self.players:
            ps.deck = list(deck)
            if self.rng is not None:
                self.rng.shuffle(ps.deck)
        for ps in self.players:
            for _ in range(OPENING_HAND):
                yield from self._draw(ps, "S-5")
        a, b = self.players
        if a.life != b.life:
            self.initiative = P1 if a.life < b.life else P2
        elif self.rng is not None:
            self.initiative = PlayerId(self.rng.below(2))  # INI-3: seeded coin flip
        else:
            player, _ = yield from self._ask(
                "S-6", (P1, P2), "INI-3", self._check_initiative,
                lambda p: [WinInitiative()])
            self.initiative = player
        self.first_initiative = self.initiative

    def _check_initiative(self, player: PlayerId, action: Action) -> None:
        if not isinstance(action, WinInitiative):
            raise RuleViolation("INI-3", "the initiative decision (coin flip or RPS) comes first")

    def _draw(self, ps: PlayerState, step: str, n: int = 1) -> Step:
        """Draw ``n`` cards (one at a time); END-4 / END-8 time-out bookkeeping."""
        for _ in range(n):
            if not ps.deck:
                if self.ruleset.timeout is Timeout.RULEBOOK:
                    self.timeout_triggered = True  # END-8: must draw from an empty deck
                return  # CF-04 PLAY_ON: draws from an empty deck are skipped
            if self.recorded:
                self.step = step
                _, action = yield Decision(
                    step, (ps.player,), step, self._check_draw,
                    lambda p: [Draw(c) for c in sorted(set(self.players[p].deck),
                                                       key=lambda c: c.code)])
                assert isinstance(action, Draw)
                ps.deck.remove(action.card)
                c = action.card
            else:
                c = ps.deck.pop(0)
            ps.hand.append(c)
            ps.cards_drawn += 1
            if not ps.deck and self.ruleset.timeout is Timeout.RULEBOOK:
                self.timeout_triggered = True  # END-4: the last card was drawn

    def _check_draw(self, player: PlayerId, action: Action) -> None:
        if not isinstance(action, Draw):
            raise RuleViolation("GEN-4", f"a draw is due here; record the card {player.name} drew")
        if action.card not in self.players[player].deck:
            raise RuleViolation(
                "GEN-6", f"{action.card} cannot be drawn: it is not in {player.name}'s deck")

    def _end(self, termination: Termination, winner: PlayerId | None) -> None:
        self.outcome = Outcome(termination, winner)
        raise GameOver

    def _score_by_life(self, termination: Termination) -> None:
        """END-7: higher life wins, equal life is a draw."""
        a, b = self.life
        self._end(termination, None if a == b else (P1 if a > b else P2))

    def _ko_check(self) -> None:
        """END-2 / END-3: a character at 0 or less is defeated; both at once = double KO."""
        a, b = (ps.life <= 0 for ps in self.players)
        if a and b:
            double_ko = self.ruleset.doubleKO
            if self.ruleset.timeout is Timeout.NO_DRAWS:
                double_ko = DoubleKO.HIGHER_LIFE
            if double_ko is DoubleKO.HIGHER_LIFE:
                self._score_by_life(Termination.DOUBLE_KO)
            self._end(Termination.DOUBLE_KO, None)
        if a or b:
            self._end(Termination.KO, P2 if a else P1)

    def _damage(self, target: PlayerState, amount: int, source: PlayerState, kind: str) -> None:
        """Deal damage (GL-DAMAGE); ``kind`` is combat, block or ability (for facts)."""
        if amount <= 0:
            return
        target.life -= amount
        if source is not target:
            source.damage_dealt[kind] += amount

    def discard(self, ps: PlayerState, c: Card) -> None:
        """GEN-6: a card goes to its owner's discard pile."""
        ps.discard.append(c)

    def _turn(self) -> Step:
        # T1: turn counter, initiative from turn-start life (INI-1, INI-2).
        self.turn += 1
        self.step = "T1"
        a, b = self.players
        if self.turn > 1 and a.life != b.life:
            self.initiative = P1 if a.life < b.life else P2
        elif self.turn > 1 and self.ruleset.initiativeTie is InitiativeTie.RPS_EACH_TIE:
            # CF-02 alternative: every tied turn is decided afresh (seeded draw or logged RPS).
            if self.rng is not None:
                self.initiative = PlayerId(self.rng.below(2))
            else:
                player, _ = yield from self._ask(
                    "T1", (P1, P2), "CF-02", self._check_initiative,
                    lambda p: [WinInitiative()])
                self.initiative = player
        for ps in self.players:
            ps.knocked_down = ps.knockdown_next  # KD-3
            ps.knockdown_next = False
            ps.combo_points_spent = 0
            ps.chains = []
        for r, ps in zip(self.rules, self.players, strict=True):
            r.start_of_turn(self, ps)
        # T2: draw phase, skipped on turn 1.
        if self.turn > 1:
            for ps in self.order():
                yield from self._draw(ps, "T2")
            if self.timeout_triggered:
                self._score_by_life(Termination.TIMEOUT)  # END-6: after every player drew
            # T3: draw-phase window (WIN-DRAW), not on turn 1.
            yield from self.window("T3", "draw_phase")
            if self.timeout_triggered:
                self._score_by_life(Termination.TIMEOUT)
        # T4: combat.
        yield from self._combat()
        # T5: Power Up (P1 opens it: Power Up text, WIN-POWERUP).
        yield from self.window("P1", "power_up")
        for ps in self.order():
            yield from self._power_up(ps)
        # T6: cleanup. K1 end-of-turn window, K2 hand limit, K3 expiry, K4 end check.
        yield from self.window("K1", "end_of_turn")
        self.step = "K1"
        for ps in self.order():  # mandatory "at the end of the turn" text, INI-6
            yield from self.rules[ps.player].at_end_of_turn(self, ps)
        if self.timeout_triggered:
            self._score_by_life(Termination.TIMEOUT)
        for ps in self.order():
            yield from self._hand_limit(ps)
        for ps in self.players:
            ps.knocked_down = False  # K3 / KD-6
        for r, ps in zip(self.rules, self.players, strict=True):
            r.end_of_turn(self, ps)
        self.step = "K4"
        if self.ruleset.timeout is not Timeout.RULEBOOK and all(
            not ps.deck and not ps.hand for ps in self.players
        ):
            self._score_by_life(Termination.EXHAUSTED)  # CF-04 PLAY_ON
        self.step = "T7"
        if self.turn >= self.ruleset.maxTurns:
            self._score_by_life(Termination.MAX_TURNS)  # END-10

    # ------------------------------------------------------------------ ability windows

    def window(self, step: str, window: str) -> Step:
        """INI-4 / INI-5: the initiative player acts first and keeps priority until passing; the
        window closes after two passes in a row. A player with nothing playable passes without
        an event (a decision with one choice)."""
        rules = self.rules
        if not (rules[0].can_act(self, self.players[0], window)
                or rules[1].can_act(self, self.players[1], window)):
            return
        current = self.initiative
        passes = 0
        while passes < 2:
            ps = self.players[current]
            if not rules[current].can_act(self, ps, window):
                passes += 1
                current = current.other
                continue
            player, action = yield from self._ask(
                step, (current,), "INI-4",
                lambda p, a: self._check_window(p, a, window),
                lambda p: [Pass(), *self.rules[p].window_options(self, self.players[p], window)])
            if isinstance(action, Pass):
                passes += 1
                current = current.other
            else:
                passes = 0
                yield from rules[player].play(self, self.players[player], window, action)
                if self.timeout_triggered and window in ("draw_phase", "end_of_turn"):
                    self._score_by_life(Termination.TIMEOUT)  # END-6: after the effect

    def _check_window(self, player: PlayerId, action: Action, window: str) -> None:
        if isinstance(action, Pass):
            return
        self.rules[player].check(self, self.players[player], window, action)

    # ------------------------------------------------------------------ combat

    def _combat(self) -> Step:
        for ps in self.players:
            ps.combat_card, ps.combat_move, ps.kind = None, None, cb.NONE
            ps.face_down, ps.returns_block = None, False
            ps.revealed_card, ps.hit_this_combat, ps.keep_combat_card = None, False, False
            ps.paid_this_combat = []
        self.combo = []
        self.combo_closed = False
        self.hit_back = False
        self.combat_card_damage = 0
        self.winner_of_combat = None
        self.combat_cell = None
        # C1: hidden simultaneous commits (GEN-5); an empty hand must declare no-card.
        pending = [ps.player for ps in self.players if ps.hand]
        while pending:
            player, action = yield from self._ask(
                "C1", tuple(pending), "C1", self._check_commit, self._commit_options)
            pending.remove(player)
            self._place(self.players[player], action)
        # C2: reveal. CF-16 AFTER_REVEAL voids happen here, before C3/C4.
        self.step = "C2"
        for ps in self.players:
            ps.revealed_kind = ps.kind
            ps.revealed_card = ps.combat_card
        if self.ruleset.voidTiming is VoidTiming.AFTER_REVEAL:
            self._apply_voids()
        # C3: mandatory Ace costs, in initiative order (OQ-30).
        yield from self._ace_costs()
        for r, ps in zip(self.rules, self.players, strict=True):
            yield from r.after_reveal(self, ps)
        # C4: combat-reveal window.
        yield from self.window("C4", "combat_reveal")
        # C5: lock-in, then voids (KD-4, KD-5, M-VOID).
        self.step = "C5"
        if self.ruleset.voidTiming is VoidTiming.LOCK_IN:
            self._apply_voids()
        for r, ps in zip(self.rules, self.players, strict=True):
            yield from r.on_lock_in(self, ps)
        self._ko_check()
        # C6: the matrix.
        self.step = "C6"
        a, b = self.players
        result = cb.resolve(a.kind, self._speed(a), b.kind, self._speed(b), self.ruleset)
        self.combat_cell = result.cell
        winner = None if result.winner is None else self.players[result.winner]
        self.winner_of_combat = None if winner is None else winner.player
        loser = None if winner is None else self.players[winner.player.other]
        self._mark_hits(winner, result)
        self._hit_triggers(winner, loser, result)
        for r, ps in zip(self.rules, self.players, strict=True):
            yield from r.after_winner(self, ps, winner)
        # C7: normal-draw rule.
        self.step = "C7"
        for ps in self.order():
            if ps.kind == cb.ATTACK and ps.combat_move is not None \
                    and ps.combat_move.is_normal_attack:
                won = winner is ps
                blocked = loser is ps and winner is not None and winner.kind == cb.BLOCK
                if won or blocked:
                    yield from self._draw(ps, "C7")
        # C8: (a) Gold Burst searches, (b) block draws, (c) damage, (d) KO check.
        self.step = "C8"
        for ps in self.order():
            if ps.kind == cb.JOKER and ps.hit_this_combat:
                ps.jokers["gold_burst"] += 1
                yield from self._ace_search(ps, 2, "C8", gold_burst=True)
        if winner is not None and winner.kind == cb.BLOCK and loser is not None \
                and loser.kind in (cb.ATTACK, cb.JOKER, cb.NONE):
            prevented = yield from self.rules[loser.player].block_draw_prevented(
                self, loser, winner)
            if not prevented:
                yield from self._draw(winner, "C8")  # AR-BLK-1
            if loser.kind == cb.ATTACK:
                yield from self.rules[winner.player].after_block(self, winner, loser)
            if self.ruleset.blockReturn is BlockReturn.IMMEDIATE and winner.combat_card:
                winner.hand.append(winner.combat_card)  # CF-15 IMMEDIATE
                winner.combat_card = None
        self._combat_damage(winner, loser, result)
        self._ko_check()
        if winner is not None and loser is not None and winner.kind in (cb.ATTACK, cb.THROW,
                                                                        cb.DODGE):
            yield from self._rewind_and_combo(winner, loser)
        yield from self._end_of_combat(winner, loser, result)

    def _speed(self, ps: PlayerState) -> int | None:
        """AR-SPD-1: the locked-in speed, after ability modifiers, never below 0.0."""
        if ps.combat_move is None or ps.combat_move.speed is None:
            return None
        speed = self.rules[ps.player].speed(self, ps, ps.combat_move, ps.combat_move.speed)
        return max(speed, 0)

    def _commit_options(self, player: PlayerId) -> list[Action]:
        ps = self.players[player]
        out: list[Action] = [NoCard()]
        seen: set[Card] = set()
        for c in ps.hand:
            if c in seen:
                continue
            seen.add(c)
            if c.is_joker:
                out.append(Commit(c))
                continue
            moves = ps.character.moves_of(c)
            for m in moves:
                name = m.name if sum(1 for o in moves if o.type is m.type) > 1 else None
                action = Commit(c, m.type, name)
                try:
                    self._check_commit(player, action)
                except RuleViolation:
                    continue
                out.append(action)
        return out

    def resolve_move(
        self, ps: PlayerState, c: Card, move_type: MoveType | None, name: str | None, rule: str,
    ) -> Move:
        """The move a log names on card ``c`` (type, plus name where two ends share a type)."""
        if move_type is None:
            raise RuleViolation(rule, f"{c} needs a move: name the end that faces the opponent")
        moves = ps.character.moves_of(c)
        same_type = [m for m in moves if m.type is move_type]
        if name is not None:
            for m in same_type:
                if m.name == name:
                    return m
            raise RuleViolation(
                "GL-MOVE", f"{ps.character.name}'s {c} has no {move_type.value} named {name!r}")
        if len(same_type) == 1:
            return same_type[0]
        if len(same_type) > 1:
            raise RuleViolation("GL-MOVE", f"{c} has two {move_type.value} moves: name one")
        printed = " / ".join(m.label for m in moves)
        raise RuleViolation("GL-ORIENT", f"{c} shows {printed}; it has no {move_type.value} end")

    def _check_commit(self, player: PlayerId, action: Action, also: Card | None = None) -> None:
        """C1: a card from hand (or ``also``, a card being taken back) with one of its ends."""
        ps = self.players[player]
        if isinstance(action, NoCard):
            return
        if not isinstance(action, Commit):
            raise RuleViolation("C1", "combat begins: commit a card face down or declare no-card")
        if action.card not in ps.hand and action.card is not also:
            raise RuleViolation("C1", f"{action.card} is not in {player.name}'s hand")
        if action.card.is_joker:
            if action.move is not None:
                raise RuleViolation("GL-JOKER", "a Joker has no move ends; commit it without one")
            return
        m = self.resolve_move(ps, action.card, action.move, action.name, "C1")
        self.rules[player].check_move_allowed(self, ps, m, "C1")
        if self.ruleset.illegalAce is IllegalAce.PREVENT and m.extra_aces:
            aces = sum(1 for c in (*ps.hand, *([also] if also else [])) if c.is_ace
                       and c is not action.card)
            if aces < m.extra_aces:
                raise RuleViolation(
                    "CF-08", f"{m.label} costs {m.ace_cost} Aces and only {aces + 1} are in hand")

    def _place(self, ps: PlayerState, action: Action) -> None:
        if isinstance(action, Commit):
            ps.hand.remove(action.card)
            ps.combat_card = action.card
            if action.card.is_joker:
                ps.combat_move, ps.kind = None, cb.JOKER
            else:
                m = self.resolve_move(ps, action.card, action.move, action.name, "C1")
                ps.combat_move, ps.kind = m, cb.KIND_OF_MOVE[m.type]
        else:
            ps.combat_card, ps.combat_move, ps.kind = None, None, cb.NONE

    def _ace_costs(self) -> Step:
        """C3 / CF-08: pay mandatory Ace costs at once; the penalty for an unpayable Ace."""
        self.step = "C3"
        queue = list(self.order())
        while queue:
            ps = queue.pop(0)
            m = ps.combat_move
            if m is None or not m.extra_aces or ps.kind == cb.NONE:
                continue
            aces = [c for c in ps.hand if c.is_ace]
            if len(aces) >= m.extra_aces:
                paid = yield from self.pay_aces(ps, m, "C3")
                del paid
                continue
            # Cannot pay (only reachable under FAQ_PENALTY and DE_VOID).
            assert ps.combat_card is not None
            self.discard(ps, ps.combat_card)
            ps.combat_card, ps.combat_move, ps.kind = None, None, cb.NONE
            if self.ruleset.illegalAce is not IllegalAce.FAQ_PENALTY:
                continue
            opp = self.players[ps.player.other]
            if opp.kind == cb.NONE and opp.combat_card is None and not opp.hand:
                continue
            # NC-2 / CF-08: the opponent may take its card back and choose again.
            _, action = yield from self._ask(
                "C3", (opp.player,), "CF-08", self._check_rechoose, self._rechoose_options)
            if not isinstance(action, Keep):
                if opp.combat_card is not None:
                    opp.hand.append(opp.combat_card)
                self._place(opp, action)
                opp.revealed_kind, opp.revealed_card = opp.kind, opp.combat_card
                if opp not in queue:
                    queue.append(opp)

    def _check_rechoose(self, player: PlayerId, action: Action) -> None:
        if isinstance(action, Keep):
            return
        # The committed card is taken back first, so it may be chosen again (maybe turned).
        self._check_commit(player, action, also=self.players[player].combat_card)

    def _rechoose_options(self, player: PlayerId) -> list[Action]:
        ps = self.players[player]
        if ps.combat_card is not None:
            ps.hand.append(ps.combat_card)
            try:
                opts = self._commit_options(player)
            finally:
                ps.hand.remove(ps.combat_card)
        else:
            opts = self._commit_options(player)
        return [Keep(), *opts]

    def pay_aces(self, ps: PlayerState, m: Move, step: str) -> Generator[
            Decision, tuple[PlayerId, Action], tuple[Card, ...]]:
        """DP-4: the Ace player chooses which Aces pay (automatic when there is no choice)."""
        aces = [c for c in ps.hand if c.is_ace]
        if len(aces) == m.extra_aces:
            paid = tuple(aces)
        else:
            def check(player: PlayerId, action: Action) -> None:
                if not isinstance(action, PayAces):
                    raise RuleViolation("C3", f"{m.label} was revealed: pay its Ace cost first")
                self._check_aces(ps, action.cards, m, None)

            _, action = yield from self._ask(
                step, (ps.player,), "C3", check,
                lambda p: [PayAces(t) for t in combinations(aces, m.extra_aces)])
            assert isinstance(action, PayAces)
            paid = action.cards
        for c in paid:
            ps.hand.remove(c)
            self.discard(ps, c)
        ps.paid_this_combat.extend(paid)
        return paid

    def _check_aces(self, ps: PlayerState, cards: tuple[Card, ...], m: Move,
                    played: Card | None) -> None:
        rule = "C3" if played is None else "CB-9"
        if len(cards) != m.extra_aces:
            raise RuleViolation(rule, f"{m.label} costs {m.extra_aces} more Ace(s), "
                                      f"not {len(cards)} (GL-MANDATORY)")
        if len(set(cards)) != len(cards):
            raise RuleViolation(rule, "the same Ace is named twice")
        for c in cards:
            if not c.is_ace:
                raise RuleViolation(rule, f"{c} is not an Ace")
            if c not in ps.hand or c is played:
                raise RuleViolation(rule, f"{c} is not in {ps.player.name}'s hand")

    def _apply_voids(self) -> None:
        """KD-4 / KD-5 / M-VOID: a knocked-down player's dodge, a mixed-up block."""
        for ps in self.players:
            opp = self.players[ps.player.other]
            if not ps.knocked_down or ps.combat_card is None:
                continue
            void = False
            if ps.kind == cb.DODGE:
                void = True
            elif ps.kind == cb.BLOCK and opp.kind == cb.ATTACK and opp.combat_move is not None:
                assert ps.combat_card.rank is not None
                void = cb.is_mixup(ps.combat_card.rank, opp.combat_move, self.ruleset)
            if void:
                self.discard(ps, ps.combat_card)
                ps.combat_card, ps.combat_move, ps.kind = None, None, cb.NONE

    def _mark_hits(self, winner: PlayerState | None, result: cb.CombatResult) -> None:
        """GL-HIT: which combat cards hit (winning attacks, throws and Gold Bursts; both
        attacks in a speed tie; both Gold Bursts in a mirror)."""
        if winner is not None:
            winner.hit_this_combat = winner.kind in (cb.ATTACK, cb.THROW, cb.JOKER)
        elif result.both_hit:
            for ps in self.players:
                ps.hit_this_combat = True

    def _hit_triggers(self, winner: PlayerState | None, loser: PlayerState | None,
                      result: cb.CombatResult) -> None:
        """C6: ongoing effects that end when their owner is hit or thrown (AR-THR-2), in
        initiative order (INI-6). Hit-backs fire at C10 (:meth:`_play_combo_action`)."""
        if not (self.players[0].ongoing or self.players[1].ongoing):
            return
        if winner is not None and loser is not None:
            if winner.kind in (cb.ATTACK, cb.THROW):
                fire(self, loser, Trigger.HIT)
                if winner.kind == cb.THROW:
                    fire(self, loser, Trigger.THROWN)
        elif result.both_hit:
            for ps in self.order():
                if self.players[ps.player.other].kind == cb.ATTACK:
                    fire(self, ps, Trigger.HIT)

    def damage(self, target: PlayerState, amount: int, source: PlayerState) -> None:
        """Ability damage or life loss (GL-DAMAGE), with its KO check (END-2)."""
        self._damage(target, amount, source, "ability")
        self._ko_check()

    def heal(self, ps: PlayerState, amount: int) -> None:
        """GEN-8: no heal raises life above the character's starting life."""
        ps.life = min(ps.life + amount, ps.character.life)

    def draw(self, ps: PlayerState, step: str, n: int = 1) -> Step:
        """Card draws caused by abilities (END-6 time-out is checked by the caller's step)."""
        yield from self._draw(ps, step, n)

    def search(self, ps: PlayerState, owed: int, step: str) -> Step:
        """ACE-SEARCH(owed) caused by card text (PU-5)."""
        yield from self._ace_search(ps, owed, step, gold_burst=False)

    def shuffle_deck(self, ps: PlayerState) -> None:
        if self.rng is not None:
            self.rng.shuffle(ps.deck)

    def ask(
        self, players: tuple[PlayerId, ...], rule: str,
        check: Callable[[PlayerId, Action], None], options: Callable[[PlayerId], list[Action]],
    ) -> Generator[Decision, tuple[PlayerId, Action], tuple[PlayerId, Action]]:
        """A decision at the current step, for ability code."""
        return (yield from self._ask(self.step, players, rule, check, options))

    def offer_counter(self, owner: PlayerState, ability: str) -> Generator[
            Decision, tuple[PlayerId, Action], bool]:
        """WIN-REACTION / CTR-2: after ``owner`` paid an ability's costs and before it resolves,
        the opponent may counter it. Counters can be countered in turn (OQ-13): the last one
        played resolves first, and undoing a counter undoes what it did. Returns True if the
        ability is countered (the caller then undoes it, CTR-3)."""
        opp = self.players[owner.player.other]
        rules = self.rules[opp.player]
        if not rules.can_counter(self, opp, ability):
            return False
        _, action = yield from self._ask(
            self.step, (opp.player,), "CTR-2",
            lambda p, a: rules.check_counter(self, opp, ability, a),
            lambda p: [Pass(), *rules.counter_options(self, opp, ability)])
        if isinstance(action, Pass):
            return False
        refund = rules.pay_counter(self, opp, action)
        countered_back = yield from self.offer_counter(opp, rules.counter_name(action))
        if countered_back:
            refund()  # CTR-3: the counter is undone, costs back to hand
            return False
        return True

    def _combat_damage(self, winner: PlayerState | None, loser: PlayerState | None,
                       result: cb.CombatResult) -> None:
        """C8c: base damage of hitting combat cards and block damage, all at the same moment."""
        a, b = self.players
        if winner is None:
            if result.both_hit and a.kind == cb.ATTACK:  # M-ATTACK-ATTACK-TIE
                assert a.combat_move is not None and b.combat_move is not None
                da = self.rules[a.player].combat_card_damage(self, a, a.combat_move)
                db = self.rules[b.player].combat_card_damage(self, b, b.combat_move)
                self._damage(b, da, a, "combat")
                self._damage(a, db, b, "combat")
            return
        assert loser is not None
        if winner.kind in (cb.ATTACK, cb.THROW):
            assert winner.combat_move is not None
            dmg = self.rules[winner.player].combat_card_damage(self, winner, winner.combat_move)
            self._damage(loser, dmg, winner, "combat")
            self.combat_card_damage = max(dmg, 0)
        elif winner.kind == cb.BLOCK and loser.kind == cb.ATTACK:
            assert loser.combat_move is not None and loser.combat_card is not None
            dmg = loser.combat_move.block_damage_for(loser.combat_card)  # AR-BLK-3
            self._damage(winner, dmg, loser, "block")
            self.rules[loser.player].after_block_damage(self, loser, winner, dmg)

    def _rewind_and_combo(self, winner: PlayerState, loser: PlayerState) -> Step:
        # C9: the loser's Rewind/bluff window (RW-1..RW-4).
        allowed, _rule = cb.rewind_allowed(winner.kind, winner.combat_move)
        allowed = allowed and self.rules[winner.player].rewind_allowed(self, winner, loser)
        if allowed and loser.hand:
            _, action = yield from self._ask(
                "C9", (loser.player,), "RW-1", self._check_face_down,
                lambda p: [Pass(), *(FaceDown(c) for c in dict.fromkeys(self.players[p].hand))])
            if isinstance(action, FaceDown):
                loser.hand.remove(action.card)
                loser.face_down = action.card
        # C10: the winner's combo or hit-back.
        self.step = "C10"
        if winner.kind == cb.DODGE:
            self.hit_back = True
        else:
            assert winner.combat_card is not None and winner.combat_move is not None
            m = winner.combat_move
            self.combo.append(ComboEntry(winner.combat_card, m, played_in_c10=False))
            winner.combo_points_spent += m.combo_points or 0
            if m.follow_type in (ComboType.ENDER, ComboType.CANT_COMBO):
                self.combo_closed = True
            yield from self._full_combo_window(winner, m)
        while True:
            if not self._combo_has_options(winner):
                break  # CB-11: no legal, affordable move or pump is left
            _, action = yield from self._ask(
                "C10", (winner.player,), "C10", self._check_combo, self._combo_options)
            if isinstance(action, Stop):
                break
            yield from self._play_combo_action(winner, action)
        moves = [e.move for e in self.combo]
        chains = [] if self.hit_back else cb.chain_lengths(
            moves, self.rules[winner.player].chains_any_order)
        winner.chains.extend(chains)
        # C11: reveal the face-down card.
        prevented = 0
        if loser.face_down is not None:
            self.step = "C11"
            card = loser.face_down
            loser.face_down = None
            self.discard(loser, card)
            if card.is_joker:
                loser.jokers["rewind"] += 1
                prevented = sum(self._entry_damage(winner, e) for e in self.combo)
                prevented = self.rules[winner.player].rewind_preventable(self, self.combo,
                                                                         prevented)
                if self.ruleset.rewindScope is RewindScope.ALL_COMBO_DAMAGE:
                    # CF-06 alternative ([CL]): the combat card's base damage, dealt at C8c
                    # before the Joker went down, is undone as well.
                    refund = self.combat_card_damage
                    loser.life += refund
                    winner.damage_dealt["combat"] -= refund
                    prevented += refund
                loser.jokers["rewind_prevented_damage"] += prevented
                draw = self.ruleset.rewindDraw
                if draw is RewindDraw.ALWAYS or (draw is RewindDraw.IF_PREVENTED_MUST
                                                 and prevented > 0):
                    yield from self._draw(loser, "C11", 2)
                elif draw is RewindDraw.IF_PREVENTED_MAY and prevented > 0:
                    _, action = yield from self._ask(
                        "C11", (loser.player,), "RW-8", self._check_accept,
                        lambda p: [Accept(), Pass()])
                    if isinstance(action, Accept):
                        yield from self._draw(loser, "C11", 2)
                self._record_combo(winner, chains, prevented)
                return  # RW-10: skip C12
            loser.bluffs += 1
        # C12: combo damage one card at a time, KO check after each (END-2).
        self.step = "C12"
        self._record_combo(winner, chains, 0)
        for e in self.combo:
            dmg = self._entry_damage(winner, e)
            if dmg:
                self._damage(loser, dmg, winner, "combat")
                self._ko_check()

    def _entry_damage(self, ps: PlayerState, e: ComboEntry) -> int:
        """C12 damage of one combo entry, after card text that changes damage."""
        return self.rules[ps.player].combo_damage(self, ps, e, e.damage_at_c12())

    def _check_accept(self, player: PlayerId, action: Action) -> None:
        if not isinstance(action, Accept | Pass):
            raise RuleViolation("RW-8", "accept or pass the Rewind Time draw")

    def _record_combo(self, winner: PlayerState, chains: list[int], prevented: int) -> None:
        if not self.combo:
            return
        total = sum(self._entry_damage(winner, e) for e in self.combo)
        first = self.combo[0]
        if not first.played_in_c10:
            total += first.move.damage
        self.combos.append(ComboRecord(
            turn=self.turn, player=winner.player, cards=[e.card.code for e in self.combo],
            moves=len(self.combo), points=winner.combo_points_spent,
            pumps=sum(len(e.pumps) for e in self.combo),
            damage=total - prevented, prevented=prevented, chains=chains,
            hit_back=self.hit_back))

    def _check_face_down(self, player: PlayerId, action: Action) -> None:
        if isinstance(action, Pass):
            return
        if not isinstance(action, FaceDown):
            raise RuleViolation("C9", "the loser may place one card face down or pass")
        if action.card not in self.players[player].hand:
            raise RuleViolation("RW-3", f"{action.card} is not in {player.name}'s hand")

    # ------------------------------------------------------------------ combos and pumps

    def _combo_moves(self, ps: PlayerState) -> Iterable[Combo]:
        """Legal combo moves from hand (CB-2..CB-9), one per way to pay the Ace cost."""
        if self.combo_closed:
            return
        seen: set[Card] = set()
        for c in ps.hand:
            if c in seen or c.is_joker:
                continue
            seen.add(c)
            moves = ps.character.moves_of(c)
            for m in moves:
                if not m.is_attack_or_throw or self._combo_move_violation(ps, c, m) is not None:
                    continue
                name = m.name if sum(1 for o in moves if o.type is m.type) > 1 else None
                aces = [a for a in dict.fromkeys(ps.hand) if a.is_ace and a is not c]
                for paid in combinations(aces, m.extra_aces):
                    yield Combo(c, m.type, name, paid)

    def _pumps(self, ps: PlayerState) -> Iterable[Pump]:
        """Legal pumps (PM-1): 1 up to the remaining room of qualifying cards from hand."""
        for i, e in enumerate(self.combo):
            if not self._pump_target_ok(ps, i):
                continue
            assert e.move.pump is not None
            room = e.move.pump.max_cards - len(e.pumps)
            fits = [c for c in dict.fromkeys(ps.hand) if e.move.pump.kind.accepts(c)]
            for k in range(1, min(room, len(fits)) + 1):
                for cards in combinations(fits, k):
                    yield Pump(i, cards)

    def _combo_has_options(self, ps: PlayerState) -> bool:
        return next(iter(self._combo_moves(ps)), None) is not None \
            or next(iter(self._pumps(ps)), None) is not None

    def _combo_options(self, player: PlayerId) -> list[Action]:
        """The legal C10 actions: combo moves, pumps, and stop."""
        ps = self.players[player]
        return [*self._combo_moves(ps), *self._pumps(ps), Stop()]

    def _pump_target_ok(self, ps: PlayerState, i: int) -> bool:
        e = self.combo[i]
        if e.move.pump is None or len(e.pumps) >= e.move.pump.max_cards:
            return False
        if self.ruleset.pumpTiming is PumpTiming.IMMEDIATE and i != len(self.combo) - 1:
            return False
        return self.rules[ps.player].pump_allowed(self, ps, e)

    def _combo_move_violation(self, ps: PlayerState, c: Card, m: Move) -> RuleViolation | None:
        if self.combo_closed:
            if self.hit_back and self.combo:
                return RuleViolation("CB-7", "nothing may follow a hit-back: it is an Ender")
            last = self.combo[-1].move if self.combo else None
            if last is not None and last.follow_type is ComboType.CANT_COMBO:
                return RuleViolation("CB-6", f"{last.label} is Can't Combo: nothing may follow")
            return RuleViolation("CB-5", "the combo ended with an Ender (CT-ENDER)")
        if not m.is_attack_or_throw:
            return RuleViolation("CB-2", f"{m.label} is not an attack or throw")
        try:
            self.rules[ps.player].check_move_allowed(self, ps, m, "C10")
        except RuleViolation as violation:
            return violation
        if self.hit_back:
            if self.ruleset.dodgeVsNoCardAttackOnly and m.type is not MoveType.ATTACK:
                opp = self.players[ps.player.other]
                if opp.kind == cb.NONE:
                    return RuleViolation("OQ-06", "after dodging no-card only an attack may hit")
        elif self.combo:
            v = self.rules[ps.player].follow_violation(self, ps, self.combo[-1].move, m)
            if v is not None:
                return v
        cost = m.combo_points or 0
        limit = ps.character.combo_limit
        if cost and ps.combo_points_spent + cost > limit:
            return RuleViolation(
                "CB-3", f"{m.label} costs {cost} combo points; {ps.combo_points_spent} of "
                        f"{limit} are spent")
        return None

    def _check_combo(self, player: PlayerId, action: Action) -> None:
        ps = self.players[player]
        if isinstance(action, Stop):
            return
        if isinstance(action, Combo):
            if action.card not in ps.hand:
                raise RuleViolation("CB-2", f"{action.card} is not in {player.name}'s hand")
            if action.card.is_joker:
                raise RuleViolation("CB-2", "a Joker is never a combo move")
            m = self.resolve_move(ps, action.card, action.move, action.name, "CB-2")
            v = self._combo_move_violation(ps, action.card, m)
            if v is not None:
                raise v
            self._check_aces(ps, action.aces, m, action.card)
            return
        if isinstance(action, Pump):
            self._check_pump(ps, action)
            return
        raise RuleViolation("C10", "the winner may add a combo move, pump, or stop")

    def _check_pump(self, ps: PlayerState, action: Pump) -> None:
        if not 0 <= action.target < len(self.combo):
            raise RuleViolation("PM-1", f"there is no combo move {action.target} to pump")
        e = self.combo[action.target]
        if e.move.pump is None:
            raise RuleViolation("PM-1", f"{e.move.label} cannot be pumped")
        if self.ruleset.pumpTiming is PumpTiming.IMMEDIATE and action.target != len(self.combo) - 1:
            raise RuleViolation("PM-5", "opt.pumpTiming=IMMEDIATE: pump only the last move")
        if not self.rules[ps.player].pump_allowed(self, ps, e):
            raise RuleViolation("PM-1", f"{e.move.label} cannot be pumped this turn (card text)")
        if not action.cards:
            raise RuleViolation("PM-1", "a pump discards at least one card")
        if len(set(action.cards)) != len(action.cards):
            raise RuleViolation("PM-1", "the same card is named twice")
        room = e.move.pump.max_cards - len(e.pumps)
        if len(action.cards) > room:
            raise RuleViolation(
                "PM-1", f"{e.move.label} takes at most {e.move.pump.max_cards} pump card(s); "
                        f"{len(e.pumps)} already paid")
        for c in action.cards:
            if c not in ps.hand:
                raise RuleViolation("PM-1", f"{c} is not in {ps.player.name}'s hand")
            if not e.move.pump.kind.accepts(c):
                raise RuleViolation(
                    "PM-1", f"{c} cannot pump {e.move.label} (needs {e.move.pump.kind.value})")

    def _play_combo_action(self, ps: PlayerState, action: Action) -> Step:
        if isinstance(action, Pump):
            e = self.combo[action.target]
            for c in action.cards:
                ps.hand.remove(c)
                self.discard(ps, c)  # PM-4: discarded as soon as paid
                if c.is_joker:
                    ps.jokers["pump"] += 1
            e.pumps.extend(action.cards)
            return
        assert isinstance(action, Combo)
        m = self.resolve_move(ps, action.card, action.move, action.name, "CB-2")
        ps.hand.remove(action.card)
        for c in action.aces:  # CB-9: the mandatory cost is paid when the move is played
            ps.hand.remove(c)
            self.discard(ps, c)
        ps.paid_this_combat.extend(action.aces)
        ps.hit_this_combat = True  # GL-HIT: every combo move hits at once
        self.combo.append(ComboEntry(action.card, m))
        ps.combo_points_spent += m.combo_points or 0
        if self.hit_back or m.follow_type in (ComboType.ENDER, ComboType.CANT_COMBO):
            self.combo_closed = True  # CB-5, CB-6, CB-7
        if self.hit_back:  # the dodged player is hit now (and thrown by a throw, AR-THR-2)
            opp = self.players[ps.player.other]
            fire(self, opp, Trigger.HIT)
            if m.type is MoveType.THROW:
                fire(self, opp, Trigger.THROWN)
        yield from self.rules[ps.player].after_combo_move(self, ps, m)
        yield from self._full_combo_window(ps, m)

    def _full_combo_window(self, ps: PlayerState, m: Move) -> Step:
        """WIN-FULLCOMBO: opens when a move brings the spent points to exactly the limit."""
        if m.combo_points and ps.combo_points_spent == ps.character.combo_limit:
            yield from self.window("C10", "full_combo")

    # ------------------------------------------------------------------ end of combat

    def _end_of_combat(self, winner: PlayerState | None, loser: PlayerState | None,
                       result: cb.CombatResult) -> Step:
        self.step = "C13"
        kd = self.ruleset.knockdowns is OnOff.ON
        # (a) knockdowns: the last move of the finished combo decides (KD-1, CB-14).
        hits: list[PlayerState] = []
        if kd:
            if winner is not None and loser is not None and self.combo:
                if self.combo[-1].move.knockdown:
                    hits.append(loser)
            elif result.both_hit and winner is None:
                for ps in self.players:  # OQ-10: each tied attack is a one-card combo
                    if ps.kind == cb.ATTACK and ps.combat_move is not None \
                            and ps.combat_move.knockdown:
                        hits.append(self.players[ps.player.other])
            if len(hits) == 1:  # KD-7: both knocked down = neither
                hits[0].knockdown_next = True
                self.players[hits[0].player.other].knockdowns += 1
        # (b) end-of-combat window.
        yield from self.window("C13", "end_of_combat")
        for r, ps in zip(self.rules, self.players, strict=True):
            yield from r.end_of_combat(self, ps, winner)
        # (c) discard the combat areas; a block returns unless thrown or voided (AR-BLK-2).
        for ps in self.order():
            c = ps.combat_card
            if c is not None:
                thrown = winner is not None and winner is not ps and winner.kind == cb.THROW
                if (ps.kind == cb.BLOCK and not thrown) or ps.keep_combat_card:
                    ps.hand.append(c)
                else:
                    self.discard(ps, c)
            if winner is ps:
                for e in self.combo:
                    if e.played_in_c10 and not e.returned:
                        self.discard(ps, e.card)
            ps.combat_card = None
        self.combo = []  # the combat area is empty now; the record is in self.combos
        # (d) time-out during combat ends the game now (END-5).
        if self.timeout_triggered:
            self._score_by_life(Termination.TIMEOUT)

    # ------------------------------------------------------------------ searches, power up

    def _ace_search(self, ps: PlayerState, owed: int, step: str, *, gold_burst: bool) -> Step:
        """ACE-SEARCH(N) (PU-5) then the shuffle (PU-6, CF-19)."""
        d_aces = [c for c in ps.discard if c.is_ace]
        k_aces = [c for c in ps.deck if c.is_ace]
        if not d_aces and not k_aces:
            return
        free = gold_burst and self.ruleset.goldBurstSearch is GoldBurstSearch.FREE_UP_TO_2

        def check(player: PlayerId, action: Action) -> None:
            if not isinstance(action, Search):
                raise RuleViolation("PU-5", "Aces are owed: choose the Aces to take (search)")
            self._check_search(ps, action.from_discard, action.from_deck, owed, free)

        choices = self._search_choices(ps, owed, free)
        if len(choices) == 1:  # one legal choice: no event (docs/log-format.md §2)
            self._take_aces(ps, choices[0][0], choices[0][1], owed)
            return
        _, action = yield from self._ask(
            step, (ps.player,), "PU-5", check, lambda p: [Search(d, k) for d, k in choices])
        assert isinstance(action, Search)
        self._take_aces(ps, action.from_discard, action.from_deck, owed)

    def _search_choices(self, ps: PlayerState, owed: int, free: bool,
                        ) -> list[tuple[tuple[Card, ...], tuple[Card, ...]]]:
        d_aces = sorted({c for c in ps.discard if c.is_ace}, key=lambda c: c.code)
        k_aces = sorted({c for c in ps.deck if c.is_ace}, key=lambda c: c.code)
        out = []
        for nd in range(min(owed, len(d_aces)) + 1):
            for nk in range(min(owed - nd, len(k_aces)) + 1):
                if cb.search_violation(owed, nd, nk, len(d_aces), self.ruleset, free):
                    continue
                for dd in combinations(d_aces, nd):
                    for kk in combinations(k_aces, nk):
                        out.append((dd, kk))
        return out

    def _check_search(self, ps: PlayerState, from_discard: tuple[Card, ...],
                      from_deck: tuple[Card, ...], owed: int, free: bool = False,
                      discard: list[Card] | None = None) -> None:
        """PU-5: the named Aces are in their zones, and the owed count is respected.

        ``discard`` is the discard pile as the search sees it (Power Up adds its sets, PU-7).
        """
        discard = ps.discard if discard is None else discard
        for zone, cards, name in ((discard, from_discard, "discard pile"),
                                  (ps.deck, from_deck, "deck")):
            if len(set(cards)) != len(cards):
                raise RuleViolation("PU-5", "the same Ace is named twice")
            for c in cards:
                if not c.is_ace:
                    raise RuleViolation("PU-5", f"{c} is not an Ace")
                if c not in zone:
                    raise RuleViolation("PU-5", f"{c} is not in {ps.player.name}'s {name}")
        d_aces = sum(1 for c in discard if c.is_ace)
        v = cb.search_violation(owed, len(from_discard), len(from_deck), d_aces, self.ruleset,
                                free)
        if v is not None:
            raise v

    def _take_aces(self, ps: PlayerState, from_discard: tuple[Card, ...],
                   from_deck: tuple[Card, ...], owed: int) -> None:
        for c in from_discard:
            ps.discard.remove(c)
            ps.hand.append(c)
        for c in from_deck:
            ps.deck.remove(c)
            ps.hand.append(c)
        looked = bool(from_deck)
        if self.ruleset.shuffleTrigger is ShuffleTrigger.SEARCHED_DECK:
            looked = looked or len(from_discard) < owed
        if looked and self.rng is not None:
            self.rng.shuffle(ps.deck)  # PU-6

    def chain_entitlement(self, ps: PlayerState) -> int:
        return cb.chain_reward(ps.chains, self.ruleset)

    def _power_up(self, ps: PlayerState) -> Step:
        """P2-P6: sets, entitlement, search, shuffle. A player with no choice is skipped."""
        self.step = "P2"
        chain = self.chain_entitlement(ps)
        counts: dict[object, int] = {}
        for c in ps.hand:
            if self.rules[ps.player].can_power_up_with(self, ps, c):
                k = cb.set_key(c)
                counts[k] = counts.get(k, 0) + 1
        has_set = any(n >= 2 for n in counts.values())
        aces = any(c.is_ace for c in ps.discard) or any(c.is_ace for c in ps.deck)
        if not has_set and not (chain and aces):
            return
        _, action = yield from self._ask(
            "P2", (ps.player,), "PU-1", lambda p, a: self._check_power_up(ps, a, chain),
            lambda p: self._power_up_options(ps, chain))
        assert isinstance(action, PowerUp)
        for c in action.sets:
            ps.hand.remove(c)
            self.discard(ps, c)
            if c.is_joker:
                ps.jokers["power_up_set"] += 1
        owed = chain + (cb.set_entitlement(action.sets) if action.sets else 0)
        self.step = "P5"
        self._take_aces(ps, action.from_discard, action.from_deck, owed)

    def _check_power_up(self, ps: PlayerState, action: Action, chain: int) -> None:
        if not isinstance(action, PowerUp):
            raise RuleViolation("PU-1", "Power Up: discard sets and take Aces, or take nothing")
        if len(set(action.sets)) != len(action.sets):
            raise RuleViolation("PU-2", "the same card is named twice")
        for c in action.sets:
            if c not in ps.hand:
                raise RuleViolation("PU-2", f"{c} is not in {ps.player.name}'s hand")
            if not self.rules[ps.player].can_power_up_with(self, ps, c):
                raise RuleViolation("PU-2", f"{c} cannot be used to power up (card text)")
        owed = chain + (cb.set_entitlement(action.sets) if action.sets else 0)
        if not action.sets and not action.from_discard and not action.from_deck:
            return  # PU-1: powering up is optional
        # PU-7: the sets are discarded before the search, so their Aces can be found again.
        self._check_search(ps, action.from_discard, action.from_deck, owed,
                           discard=ps.discard + list(action.sets))

    def _power_up_options(self, ps: PlayerState, chain: int) -> list[Action]:
        """Representative choices: per rank, none or the first 2..n cards of it in hand."""
        groups: dict[object, list[Card]] = {}
        for c in ps.hand:
            if self.rules[ps.player].can_power_up_with(self, ps, c):
                groups.setdefault(cb.set_key(c), []).append(c)
        per_rank = [[(), *[tuple(cs[:k]) for k in range(2, len(cs) + 1)]]
                    for cs in groups.values() if len(cs) >= 2]
        set_choices: list[tuple[Card, ...]] = [()]
        for choices in per_rank:
            set_choices = [s + c for s in set_choices for c in choices]
        out: list[Action] = [PowerUp()]
        for sets in set_choices:
            owed = chain + (cb.set_entitlement(sets) if sets else 0)
            if owed == 0:
                continue
            saved = ps.discard
            ps.discard = ps.discard + list(sets)
            try:
                for d, k in self._search_choices(ps, owed, False):
                    if sets or d or k:
                        out.append(PowerUp(sets, d, k))
            finally:
                ps.discard = saved
        return out

    def _hand_limit(self, ps: PlayerState) -> Step:
        """K2 / HL-1: discard down to the hand limit, choosing the cards."""
        limit = self.rules[ps.player].hand_limit
        excess = len(ps.hand) - limit
        if excess <= 0:
            return

        def check(player: PlayerId, action: Action) -> None:
            if not isinstance(action, Discard):
                raise RuleViolation("HL-1", f"{player.name} holds {len(ps.hand)} cards: "
                                            f"discard {excess} down to {limit}")
            if len(action.cards) != excess or len(set(action.cards)) != excess:
                raise RuleViolation("HL-1", f"discard exactly {excess} different card(s), "
                                            f"not {len(action.cards)}")
            for c in action.cards:
                if c not in ps.hand:
                    raise RuleViolation("HL-1", f"{c} is not in {player.name}'s hand")

        _, action = yield from self._ask(
            "K2", (ps.player,), "HL-1", check,
            lambda p: [Discard(t) for t in combinations(ps.hand, excess)])
        assert isinstance(action, Discard)
        for c in action.cards:
            ps.hand.remove(c)
            self.discard(ps, c)

    # ------------------------------------------------------------------ views

    def public_view(self, viewer: PlayerId | None = None) -> dict[str, object]:
        """GEN-9: what a player may know now: life, hand and deck sizes, discard piles,
        knockdowns, revealed combat cards, that a face-down card exists (not which), combo
        points spent, cards in play (``ongoing``: name, card, attached; ``attached``: cards on
        the character card; keys present only when not empty). ``viewer`` also sees their own
        hand (GEN-6)."""
        players: dict[str, object] = {}
        for ps in self.players:
            entry: dict[str, object] = {
                "character": ps.character.id,
                "life": ps.life,
                "hand_size": len(ps.hand),
                "deck_size": len(ps.deck),
                "discard": [c.code for c in ps.discard],
                "knocked_down": ps.knocked_down,
                "face_down": ps.face_down is not None,
                "combo_points_spent": ps.combo_points_spent,
            }
            if self.step not in ("C1", "S-5", "S-6") and ps.combat_card is not None:
                entry["combat_card"] = ps.combat_card.code  # revealed at C2
            if ps.ongoing:
                entry["ongoing"] = [e.to_json() for e in ps.ongoing]
            if ps.attached:
                entry["attached"] = [c.code for c in ps.attached]
            if viewer is ps.player:
                entry["hand"] = [c.code for c in ps.hand]
            players[ps.player.name] = entry
        return {"turn": self.turn, "step": self.step, "initiative": self.initiative.name,
                "players": players}

    # ------------------------------------------------------------------ facts

    def fingerprint(self) -> str:
        """A short hash of the whole position (life, zones in order, statuses, turn, step).

        Two replays that end in the same fingerprint reached the same position.
        """
        parts = [str(self.turn), self.step]
        for ps in self.players:
            parts += [str(ps.life), ",".join(c.code for c in ps.hand),
                      ",".join(c.code for c in ps.deck), ",".join(c.code for c in ps.discard),
                      f"{ps.knocked_down}{ps.knockdown_next}"]
            if ps.ongoing or ps.attached:  # only then: older positions keep their hashes
                parts.append(";".join(
                    [",".join(c.code for c in ps.attached),
                     *(f"{e.name}:{e.card.code}:{','.join(c.code for c in e.attached)}"
                       for e in ps.ongoing)]))
        return hashlib.sha256("|".join(parts).encode()).hexdigest()[:16]

    def facts(self) -> dict[str, object]:
        """The per-game facts statistics need (characters, damage, combos, knockdowns, ...)."""
        return {
            "characters": {ps.player.name: ps.character.id for ps in self.players},
            "turns": self.turn,
            "initiative_turn_1": self.first_initiative.name,
            "players": {
                ps.player.name: {
                    "character": ps.character.id,
                    "life": ps.life,
                    "damage_dealt": dict(ps.damage_dealt),
                    "cards_drawn": ps.cards_drawn,
                    "knockdowns_inflicted": ps.knockdowns,
                    "jokers": dict(ps.jokers),
                    "combos": sum(1 for c in self.combos if c.player is ps.player),
                    "bluffs": ps.bluffs,
                }
                for ps in self.players
            },
            "combos": [
                {"turn": c.turn, "player": c.player.name, "cards": c.cards, "moves": c.moves,
                 "points": c.points,
                 "pumps": c.pumps, "damage": c.damage, "prevented": c.prevented,
                 "chains": c.chains, "hit_back": c.hit_back}
                for c in self.combos
            ],
        }
