"""Bal-Bas-Beta (2014 deck): innate Long Range, Robo Headbutt (7), Overdrive (8)
(docs/rules/characters/bbb.md).

Glossary: *at range* = combat is ranged this turn (a two-player state, set for the next
turn); *range-legal* / *range-giving* = the card data's ``range_legal`` / ``range_giving``
icons (bbb.md, "two icons"); *face card* = a J, Q or K.

Responsibility: BBB's ability hooks. Decisions of this module's making:
- Range persists from turn to turn until lost: it is set for the next turn when his
  range-giving move is blocked or wins combat, and lost at the end of a turn in which both
  players blocked or in which he was hit by a move that is not range-legal.
- At range, for both seats (modifiers put in force at T1 for the turn): a throw that is not
  range-legal may not be played (``MOVE_ALLOWED``); a move that is not range-legal plays as an
  Ender without pumps (``COMBO_MOVE``) and deals no damage (``COMBAT_DAMAGE``,
  ``COMBO_DAMAGE``) and no block damage (``BLOCK_DAMAGE``); BBB's normal attacks are speed
  1.0 (``SPEED``); Gyro Spin may not be played (close only). Junk Shot needs range (its card
  data ``requires`` "Long Range", answered by :meth:`BBBRules.has_state`).
- At range, the first face card BBB played this combat returns to his hand at C13b.
- Overdrive (an 8 from hand, Draw Phase window, counterable: countered, the 8 stays
  discarded): for the turn his face cards deal +3 damage; Long Arm is not interrupted by
  attacks that do not knock down (``also_hits``); Junk Shot is unblockable (it beats a block);
  Extensor Grab sets range even when it hits after a dodge.

- Robo Headbutt: offered to counters as it wins combat (C6; countered: no extra combo);
  after his combo, when his combat-revealed Robo Headbutt won combat, he may
  play another full combo (``extra_combo``: a second ``ComboRun`` opened from hand, fresh combo
  points, the opponent's Rewind window first, RW-14).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, Any, ClassVar

from rules_engine import combat as cb
from rules_engine.actions import Action, Pass, UseAbility
from rules_engine.cards import Card, ComboType, Move, MoveType, Rank
from rules_engine.characters import CharacterRules
from rules_engine.combat import CombatResult
from rules_engine.errors import RuleViolation
from rules_engine.journal import Blocked, Hit
from rules_engine.modifiers import (
    BLOCK_DAMAGE,
    COMBAT_DAMAGE,
    COMBO_DAMAGE,
    COMBO_MOVE,
    MOVE_ALLOWED,
    SPEED,
    Expiry,
    Modifier,
)
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.journal import Event
    from rules_engine.state import PlayerState, Step

LONG_RANGE = "Long Range"
ROBO_HEADBUTT = "Robo Headbutt"
OVERDRIVE = "Overdrive"
LONG_ARM = "Long Arm"
GYRO_SPIN = "Gyro Spin"
JUNK_SHOT = "Junk Shot"
EXTENSOR_GRAB = "Extensor Grab"
RANGE_SPEED = 10  # "your normal attacks are speed 1.0" (tenths)
OVERDRIVE_DAMAGE = 3
FACE = (Rank.JACK, Rank.QUEEN, Rank.KING)


def _any_move(m: Move) -> bool:
    return True


def _distinct(cards: list[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def _no_damage(seat: PlayerState, move: Any, n: int) -> int:
    m = move.move if hasattr(move, "move") else move
    return n if isinstance(m, Move) and m.range_legal else 0


def _as_ender(seat: PlayerState, card: object, m: Move) -> Move:
    if m.range_legal or m.combo_type is None:
        return m
    return replace(m, combo_type=ComboType.ENDER, pump=None)


def _no_block_damage(seat: PlayerState, move: object, n: int) -> int:
    return n if isinstance(move, Move) and move.range_legal else 0


def _throws_at_range(seat: PlayerState, subject: object,
                     why: RuleViolation | None) -> RuleViolation | None:
    move = subject[0] if isinstance(subject, tuple) else subject
    if why is None and isinstance(move, Move) and move.type is MoveType.THROW \
            and not move.range_legal:
        return RuleViolation("GEN-1", "combat is ranged this turn (BBB's Long Range): "
                                         "throws may not be played, except range-legal throws")
    return why


def _no_gyro_at_range(seat: PlayerState, subject: object,
                      why: RuleViolation | None) -> RuleViolation | None:
    move = subject[0] if isinstance(subject, tuple) else subject
    if why is None and isinstance(move, Move) and move.name == GYRO_SPIN:
        return RuleViolation("GEN-1", "Gyro Spin is close only: it can't be played at range")
    return why


def _normal_speed(seat: PlayerState, move: Move, speed: int) -> int:
    return RANGE_SPEED if move.is_normal_attack else speed


def _face_bonus(seat: PlayerState, subject: Any, n: int) -> int:
    m = subject.move if hasattr(subject, "move") else subject
    if isinstance(m, Move) and m.rank in FACE and n > 0:
        return n + OVERDRIVE_DAMAGE
    return n


class BBBRules(CharacterRules):
    """BBB with every ability implemented.

    Greedy heuristic (:meth:`bot_choice`): play Overdrive whenever it is playable and he holds
    a face card besides the 8 (its +3 and its Long Arm, Junk Shot and Extensor Grab texts need
    one), else pass; Robo Headbutt's extra combo and Long Range are left to the game's own
    choices (the extra combo is chosen as any other combo).
    """

    abilities_implemented = True
    ability_notes: ClassVar[dict[str, str]] = {
        LONG_RANGE: "When his range-giving move (normal attacks, Extensor Grab) is blocked or "
                    "wins combat, combat is ranged next turn, until a turn in which both "
                    "players blocked or he was hit by a move that is not range-legal. At "
                    "range, for both players: throws can't be played except range-legal "
                    "ones; moves that are not range-legal are Enders, can't be pumped and "
                    "deal no damage or block damage; his normal attacks are speed 1.0; the "
                    "first face card he plays each combat returns to his hand.",
        ROBO_HEADBUTT: "If his combat-revealed Robo Headbutt wins combat, he may play another "
                       "full combo (counterable as it wins combat).",
        OVERDRIVE: "Draw Phase, discard an 8: this turn his face cards deal +3 damage, Long "
                   "Arm can't be interrupted except by knockdowns, Junk Shot is unblockable "
                   "and Extensor Grab sets range even when it hits after a dodge.",
    }

    def __init__(self, character: Any) -> None:
        super().__init__(character)
        self.ranged = False  # combat is ranged this turn
        self.ranged_next = False  # set for next turn
        self.overdrive = False
        self.both_blocked = False
        self.hit_unranged = False
        self.first_face: Card | None = None
        self.robo_countered = 0  # the turn a counter countered Robo Headbutt

    def position_key(self) -> str:
        return ("R" if self.ranged else "") + ("N" if self.ranged_next else "") \
            + ("O" if self.overdrive else "")

    def has_state(self, ctx: AbilityContext, ps: PlayerState, state: str) -> bool:
        return state == LONG_RANGE and self.ranged

    # --- Long Range -----------------------------------------------------------------------
    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        """T1: range for this turn, binding both seats. In the team modes a BBB on the bench
        cancels it (bbb.md: "Cancel range if no BBB is on the battlefield"); checked at T1, so
        a tag in the middle of a turn leaves that turn's range in force."""
        if not ctx.in_combat(ps):
            self.ranged_next = False
        self.ranged, self.ranged_next = self.ranged_next, self.ranged_next
        self.overdrive = False
        self.both_blocked = False
        self.hit_unranged = False
        self.first_face = None
        if not self.ranged:
            return
        for seat in (ps, *ctx.opponents(ps)):
            p = seat.player
            ctx.add_modifier(Modifier(MOVE_ALLOWED, p, _throws_at_range, LONG_RANGE,
                                      Expiry.END_OF_TURN))
            ctx.add_modifier(Modifier(COMBO_MOVE, p, _as_ender, LONG_RANGE,
                                      Expiry.END_OF_TURN))
            ctx.add_modifier(Modifier(COMBAT_DAMAGE, p, _no_damage, LONG_RANGE,
                                      Expiry.END_OF_TURN))
            ctx.add_modifier(Modifier(COMBO_DAMAGE, p, _no_damage, LONG_RANGE,
                                      Expiry.END_OF_TURN))
            ctx.add_modifier(Modifier(BLOCK_DAMAGE, p, _no_block_damage, LONG_RANGE,
                                      Expiry.END_OF_TURN))
        ctx.add_modifier(Modifier(MOVE_ALLOWED, ps.player, _no_gyro_at_range, LONG_RANGE,
                                  Expiry.END_OF_TURN))
        ctx.add_modifier(Modifier(SPEED, ps.player, _normal_speed, LONG_RANGE,
                                  Expiry.END_OF_TURN))

    def after_winner(self, ctx: AbilityContext, ps: PlayerState,
                     winner: PlayerState | None) -> Step:
        """C6: a range-giving move of his that wins combat sets range for next turn; both
        players blocking is noted for the end of the turn."""
        opp = ctx.opponent(ps)
        if ps.kind == cb.BLOCK and opp.kind == cb.BLOCK:
            self.both_blocked = True
        m = ps.combat_move
        if winner is ps and m is not None and m.range_giving \
                and ps.kind in (cb.ATTACK, cb.THROW) \
                and not (yield from ctx.offer_counter(ps, LONG_RANGE)):  # CTR-8
            self.ranged_next = True
        if winner is ps and self._robo_revealed(ps):
            # Robo Headbutt triggers as it wins combat: a counter may answer it now (CTR-2,
            # CTR-4), like his opponents' other During Combat triggers
            self.robo_countered = ctx.turn if (
                yield from ctx.offer_counter(ps, ROBO_HEADBUTT)) else 0

    reacts_to = frozenset({Blocked, Hit})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        if isinstance(event, Blocked) and event.attacker is ps.player:
            m = ps.combat_move
            if m is not None and m.range_giving \
                    and not (yield from ctx.offer_counter(ps, LONG_RANGE)):  # CTR-8
                self.ranged_next = True
        elif isinstance(event, Hit) and event.seat is ps.player:
            by = ctx.opponent(ps)
            combo = ctx.combo
            move = combo[-1].move if event.combo and combo else by.combat_move
            if move is not None and not move.range_legal:
                self.hit_unranged = True
        elif isinstance(event, Hit) and event.by is ps.player and event.combo and self.overdrive:
            combo = ctx.combo
            if combo and combo[-1].move.name == EXTENSOR_GRAB:
                self.ranged_next = True  # Overdrive: even after a dodge
        return
        yield  # pragma: no cover

    def end_of_combat(self, ctx: AbilityContext, ps: PlayerState,
                      winner: PlayerState | None) -> Step:
        """C13b: at range, his first face card played this combat returns to his hand: his
        combat card if it is one, else the first face card of his combo."""
        if not self.ranged:
            return
        c = ps.combat_card
        if c is not None and not c.is_joker and c.rank in FACE:
            ps.keep_combat_card = True
        else:  # his own moves (a tag or an assist adds his partner's, of its deck)
            for e in ctx.combo_of(ps):
                if e.played_in_c10 and not e.returned and not e.card.is_joker \
                        and e.card.rank in FACE:
                    ctx.move(ps, e.card, Zone.COMBO, Zone.HAND)
                    break
        return
        yield  # pragma: no cover

    # --- Robo Headbutt ----------------------------------------------------------------------
    def extra_combo(self, ctx: AbilityContext, ps: PlayerState,
                    loser: PlayerState) -> Callable[[Move], bool] | None:
        """After his combo: a combat-revealed Robo Headbutt that won combat gives another full
        combo (any move that may start a combo opens it; he may stop at once)."""
        if not self._robo_revealed(ps) or self.robo_countered == ctx.turn:
            return None
        return _any_move

    @staticmethod
    def _robo_revealed(ps: PlayerState) -> bool:
        """His combat-revealed card is Robo Headbutt, still his combat card."""
        m, r = ps.combat_move, ps.revealed_card
        return ps.kind == cb.ATTACK and m is not None and m.name == ROBO_HEADBUTT \
            and r is not None and r is ps.combat_card and ps.revealed_kind == cb.ATTACK

    def at_end_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """K1: range is lost after a turn in which both blocked or he was hit by a move that
        is not range-legal."""
        if self.both_blocked or self.hit_unranged:
            self.ranged_next = False
        return
        yield  # pragma: no cover

    # --- Overdrive ------------------------------------------------------------------------
    def combat_override(self, ctx: AbilityContext, ps: PlayerState, a: PlayerState,
                        b: PlayerState, result: CombatResult) -> CombatResult | None:
        if not self.overdrive:
            return None
        opp = ctx.opponent(ps)
        me = 0 if ps is a else 1
        m, o = ps.combat_move, opp.combat_move
        if m is None or result.winner is None or result.winner == me:
            return None
        if m.name == LONG_ARM and ps.kind == cb.ATTACK and opp.kind == cb.ATTACK \
                and o is not None and not o.knockdown:
            return CombatResult(me, False, result.cell, also_hits=True)
        if m.name == JUNK_SHOT and ps.kind == cb.ATTACK and opp.kind == cb.BLOCK:
            return CombatResult(me, False, result.cell)
        return None

    def _overdrive_cards(self, ps: PlayerState) -> list[Card]:
        return [c for c in _distinct(ps.hand) if c.rank is Rank.EIGHT]

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        return window == "draw_phase" and not self.overdrive and ps.holds(Rank.EIGHT)

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if not self.can_act(ctx, ps, window):
            return []
        return [UseAbility(OVERDRIVE, c) for c in self._overdrive_cards(ps)]

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility) or action.ability != OVERDRIVE:
            raise self.not_here(ctx, ps, window, action)
        if window != "draw_phase":
            raise RuleViolation("WIN-DRAW", "Overdrive is played in the draw phase")
        if self.overdrive:
            raise RuleViolation("AB-2", "Overdrive is already in force this turn")
        if action.card is None or action.card.rank is not Rank.EIGHT:
            raise RuleViolation("AB-2", "Overdrive is played with one of BBB's 8s")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        if action.cards or action.option is not None:
            raise RuleViolation("AB-2", "Overdrive costs only the 8")

    # --- the greedy bot -----------------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        uses = [a for a in legal if isinstance(a, UseAbility) and a.ability == OVERDRIVE]
        if not uses:
            return None
        if any(not c.is_joker and c.rank in FACE for c in ps.hand):
            return uses[0]
        return Pass() if Pass() in legal else None

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility) and action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)
        if (yield from ctx.offer_counter(ps, OVERDRIVE, action.card)):
            return
        self.overdrive = True
        for kind in (COMBAT_DAMAGE, COMBO_DAMAGE):
            ctx.add_modifier(Modifier(kind, ps.player, _face_bonus, OVERDRIVE,
                                      Expiry.END_OF_TURN))
