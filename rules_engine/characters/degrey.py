"""Jefferson DeGrey (2014 deck): innate Moral High Ground, Troublesome Rhetoric (4), Point,
Counterpoint (7), Ghost Riposte (A's dodge) (docs/rules/characters/degrey.md; FR-DEGREY-1/2).

Glossary: *special and super attacks* = attack moves on J, Q, K (special) and A (super);
*combat-reveals* = the combat action shown at C2 (before rotations and voids); *rotate* = turn
the combat card 180 degrees so its other end is the combat action.

Responsibility: DeGrey's ability hooks. Decisions of this module's making
(docs/rules/characters/degrey.md, "Engine rulings"):
- Moral High Ground adds, to each special and super attack of DeGrey's finished combo (the
  combat card included), the number of cards the opponent holds beyond DeGrey's, counted at C12
  (after the combo, CB-12), as part of that move's combo damage (so a Rewind prevents it). A
  speed tie's attack is a one-card combo (OQ-10): the bonus is counted at C8c. Block damage is
  not a combo and gets no bonus. ``opt.moralHighGround=DIFFERENCE_PLUS_ONE`` adds one more
  (the wiki's 2015 reading; the default is the yomibase 2nd-edition text).
- Troublesome Rhetoric pays off at C5 (lock-in), reading the action the opponent combat-revealed
  at C2; each resolved copy pays 12 on its own (FR-DEGREY-2; GEN-8 caps life).
- Point, Counterpoint is played in the Combat Reveal window (C4), with the 7 as DeGrey's combat
  card, once per combat (FR-DEGREY-1, AB-6) — a countered one included: the counter undoes its
  cost (CTR-3), not the trigger.
- Ghost Riposte: after a winning Ace dodge against an attack or a Joker, the hit-back is a full
  combo (CB-13). "May" needs no decision: a full combo allows every hit-back CB-7 allows and
  DeGrey may stop after any move (CB-11). At C13b the Ace returns to hand unless DeGrey was
  thrown this combat. An Ace ability is never countered (CTR-1).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, ClassVar

from rules_engine import combat as cb
from rules_engine.actions import Action, Pass, UseAbility
from rules_engine.cards import Card, Character, Move, MoveType, Rank
from rules_engine.characters import CharacterRules
from rules_engine.errors import RuleViolation
from rules_engine.modifiers import COMBAT_DAMAGE, COMBO_DAMAGE, Modifier
from rules_engine.ruleset import MoralHighGround
from rules_engine.state import ComboEntry, Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.state import PlayerState, Step

MORAL_HIGH_GROUND = "Moral High Ground"
TROUBLESOME_RHETORIC = "Troublesome Rhetoric"
POINT_COUNTERPOINT = "Point, Counterpoint"
GHOST_RIPOSTE = "Ghost Riposte"
RHETORIC_OPTIONS = (cb.ATTACK, cb.BLOCK, cb.THROW, cb.DODGE)
RHETORIC_LIFE = 12


def _distinct(cards: list[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def is_special_or_super_attack(m: Move) -> bool:
    """degrey.md: special attacks are Jacks, Queens and Kings; super attacks are Aces."""
    return m.type is MoveType.ATTACK and m.rank >= Rank.JACK


def _card_value(c: Card) -> int:
    return 100 if c.rank is None else int(c.rank)


class DeGreyRules(CharacterRules):
    """DeGrey with every ability implemented.

    Greedy bot heuristic (:meth:`bot_choice`): Troublesome Rhetoric once a turn when DeGrey has
    lost at least 12 life, naming the action the opponent combat-revealed last turn (attack
    before any); Point, Counterpoint only when the other end beats the opponent's revealed
    action and the current end does not (BOT-DEGREY), paying with the least valuable card.
    """

    abilities_implemented = True
    ability_notes: ClassVar[dict[str, str]] = {
        MORAL_HIGH_GROUND: "Counted once the combo is finished (C12): each J, Q, K or A attack "
                           "of the combo, the combat card included, deals 1 more per card the "
                           "opponent holds beyond DeGrey's (a speed tie's attack at C8c; not "
                           "block damage). A Rewind Time Joker prevents it with the combo.",
        TROUBLESOME_RHETORIC: "Draw Phase (T3), not on turn 1: play a 4 and name attack, block, "
                              "throw or dodge; at lock-in (C5) each one naming the action the "
                              "opponent revealed gains 12 life (never above 90). Counterable.",
        POINT_COUNTERPOINT: "Combat Reveal (C4), with the 7 as the combat card: discard any card "
                            "to turn it to its other end (attack or throw); once per combat. "
                            "Counterable (the discarded card comes back).",
        GHOST_RIPOSTE: "When the Ace's dodge beats an attack or a Joker (C6), the hit-back is a "
                       "full combo (follow rules and the 4-point limit apply); the Ace returns "
                       "to hand at end of combat unless DeGrey was thrown.",
    }

    def __init__(self, character: Character) -> None:
        super().__init__(character)
        self.rhetoric: list[str] = []  # options named by resolved Rhetorics this turn
        self.counterpoint_used = False  # FR-DEGREY-1: once per combat
        self.ctx: AbilityContext | None = None
        self.last_revealed = cb.ATTACK  # the opponent's last combat-revealed action (bots)

    def position_key(self) -> str:
        """The options named by this turn's Rhetorics; Point, Counterpoint spent."""
        return ",".join(self.rhetoric) + (";counterpoint" if self.counterpoint_used else "")

    # --- Moral High Ground (innate) -----------------------------------------------------
    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        self.rhetoric = []
        self.counterpoint_used = False
        if self.ctx is None:  # the innate's modifiers need the table: put them in force now
            self.ctx = ctx
            ctx.add_modifier(Modifier(COMBO_DAMAGE, ps.player, self._combo_bonus,
                                      MORAL_HIGH_GROUND))
            ctx.add_modifier(Modifier(COMBAT_DAMAGE, ps.player, self._tie_bonus,
                                      MORAL_HIGH_GROUND))

    def bonus(self, ps: PlayerState) -> int:
        """Extra damage per special or super attack now: the opponent's extra cards in hand
        (plus one under ``opt.moralHighGround=DIFFERENCE_PLUS_ONE``), 0 if none."""
        assert self.ctx is not None
        diff = len(self.ctx.opponent(ps).hand) - len(ps.hand)
        if diff <= 0:
            return 0
        return diff + (self.ctx.ruleset.moralHighGround is MoralHighGround.DIFFERENCE_PLUS_ONE)

    def _combo_bonus(self, ps: PlayerState, entry: ComboEntry, damage: int) -> int:
        """C12: each special or super attack of the finished combo deals the bonus."""
        if is_special_or_super_attack(entry.move):
            return damage + self.bonus(ps)
        return damage

    def _tie_bonus(self, ps: PlayerState, move: Move, damage: int) -> int:
        """C8c of a speed tie (OQ-10: each tied attack is a one-card combo, finished at once);
        a winning combat card gets its bonus with the combo at C12 instead."""
        assert self.ctx is not None
        opp = self.ctx.opponent(ps)
        tie = ps.kind == cb.ATTACK and opp.kind == cb.ATTACK and opp.hit_this_combat \
            and ps.hit_this_combat
        if tie and is_special_or_super_attack(move):
            return damage + self.bonus(ps)
        return damage

    # --- windows ----------------------------------------------------------------------
    def _can_counterpoint(self, ps: PlayerState) -> bool:
        c = ps.combat_card
        return (not self.counterpoint_used and c is not None and c.rank is Rank.SEVEN
                and ps.combat_move is not None and bool(ps.hand))

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        if window == "draw_phase":
            return ps.holds(Rank.FOUR)
        if window == "combat_reveal":
            return self._can_counterpoint(ps)
        return False

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window == "draw_phase":
            return [UseAbility(TROUBLESOME_RHETORIC, c, option=o)
                    for c in _distinct(ps.hand) if c.rank is Rank.FOUR for o in RHETORIC_OPTIONS]
        if window == "combat_reveal" and self._can_counterpoint(ps):
            return [UseAbility(POINT_COUNTERPOINT, ps.combat_card, (c,))
                    for c in _distinct(ps.hand)]
        return []

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility) or action.ability not in (
                TROUBLESOME_RHETORIC, POINT_COUNTERPOINT):
            raise self.not_here(ctx, ps, window, action)
        if action.ability == TROUBLESOME_RHETORIC:
            self._check_rhetoric(ps, window, action)
        else:
            self._check_counterpoint(ps, window, action)

    def _check_rhetoric(self, ps: PlayerState, window: str, action: UseAbility) -> None:
        if window != "draw_phase":
            raise RuleViolation("WIN-DRAW", "Troublesome Rhetoric is played after the draw "
                                            "phase")
        if action.card is None or action.card.rank is not Rank.FOUR:
            raise RuleViolation("AB-2", "Troublesome Rhetoric is played with one of DeGrey's 4s")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        if action.option not in RHETORIC_OPTIONS or action.cards:
            raise RuleViolation("AB-2", "Troublesome Rhetoric names one option: attack, block, "
                                        "throw or dodge")

    def _check_counterpoint(self, ps: PlayerState, window: str, action: UseAbility) -> None:
        if window != "combat_reveal":
            raise RuleViolation("WIN-DURING", "Point, Counterpoint is played during combat, "
                                              "once the combat cards are revealed (C4)")
        c = ps.combat_card
        if c is None or c.rank is not Rank.SEVEN or ps.combat_move is None \
                or action.card is not c:
            raise RuleViolation("AB-3", "Point, Counterpoint works only with DeGrey's 7 as his "
                                        "combat card")
        if self.counterpoint_used:
            raise RuleViolation("FR-DEGREY-1", "Point, Counterpoint was already played this "
                                               "combat (at most once per combat)")
        if len(action.cards) != 1 or action.option is not None:
            raise RuleViolation("AB-2", "Point, Counterpoint costs exactly one card from hand")
        if action.cards[0] not in ps.hand:
            raise RuleViolation("AB-2", f"{action.cards[0]} is not in {ps.player.name}'s hand")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility)
        if action.ability == TROUBLESOME_RHETORIC:
            assert action.card is not None and action.option is not None
            ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2
            if (yield from ctx.offer_counter(ps, TROUBLESOME_RHETORIC, action.card)):
                return
            self.rhetoric.append(action.option)
            return
        # Point, Counterpoint: discard a card (the cost), then the 7 turns round.
        self.counterpoint_used = True
        paid = action.cards[0]
        ctx.move(ps, paid, Zone.HAND, Zone.DISCARD)
        if (yield from ctx.offer_counter(ps, POINT_COUNTERPOINT)):
            ctx.move(ps, paid, Zone.DISCARD, Zone.HAND)  # CTR-3: the cost is undone
            return
        ctx.rotate(ps)

    # --- Troublesome Rhetoric's payoff ---------------------------------------------------
    def on_lock_in(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """C5: gain 12 life for each Rhetoric naming the opponent's combat-revealed action."""
        revealed = ctx.opponent(ps).revealed_kind
        if revealed in RHETORIC_OPTIONS:
            self.last_revealed = revealed
        for option in self.rhetoric:
            if option == revealed:
                ctx.heal(ps, RHETORIC_LIFE)
        return
        yield  # pragma: no cover

    # --- Ghost Riposte (A, dodge end) ------------------------------------------------------
    @staticmethod
    def _riposting(ps: PlayerState) -> bool:
        c = ps.combat_card
        return c is not None and c.is_ace and ps.kind == cb.DODGE

    def after_winner(self, ctx: AbilityContext,
                     ps: PlayerState, winner: PlayerState | None) -> Step:
        """C6: a winning Ghost Riposte against an attack or a Joker: a full-combo hit-back."""
        if winner is ps and self._riposting(ps) and ctx.opponent(ps).kind in (cb.ATTACK,
                                                                              cb.JOKER):
            ctx.grant_full_combo(ps)
        return
        yield  # pragma: no cover

    def end_of_combat(self, ctx: AbilityContext, ps: PlayerState,
                      winner: PlayerState | None) -> Step:
        """C13b: the Ghost Riposte Ace returns to hand unless DeGrey was thrown (AR-THR-2)."""
        self.counterpoint_used = False
        opp = ctx.opponent(ps)
        if self._riposting(ps) and not (winner is opp and opp.kind == cb.THROW):
            ps.keep_combat_card = True
        return
        yield  # pragma: no cover

    # --- bots ---------------------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        uses = [a for a in legal if isinstance(a, UseAbility)]
        rhetoric = [a for a in uses if a.ability == TROUBLESOME_RHETORIC]
        if rhetoric:
            if self.rhetoric or ps.life > ps.character.life - RHETORIC_LIFE:
                return Pass()
            return next((a for a in rhetoric if a.option == self.last_revealed), rhetoric[0])
        points = [a for a in uses if a.ability == POINT_COUNTERPOINT]
        if points:
            if not self._rotation_wins(ctx, ps):
                return Pass()
            return min(points, key=lambda a: _card_value(a.cards[0]))
        return None

    @staticmethod
    def _rotation_wins(ctx: AbilityContext, ps: PlayerState) -> bool:
        """BOT-DEGREY: whether the 7's other end beats the opponent's revealed action and the
        current end does not (printed speeds)."""
        opp = ctx.opponent(ps)
        c, m = ps.combat_card, ps.combat_move
        if c is None or m is None:
            return False
        other = next((o for o in ps.character.moves_of(c) if o != m), None)
        if other is None:
            return False
        speed = opp.combat_move.speed if opp.combat_move is not None else None

        def wins(move: Move) -> bool:
            r = cb.resolve(cb.KIND_OF_MOVE[move.type], move.speed, opp.kind, speed, ctx.ruleset)
            return r.winner == 0

        return wins(other) and not wins(m)
