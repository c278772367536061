"""Troq Bashar (2014 deck): innates Giant Growth and Defense Mastery, War Stomp (10), Troq Armor
(J), Lockhorn Skewer (K), Beast Unleashed (A, AAA end) (docs/rules/characters/troq.md).

Glossary: *attached blocks* = block cards Giant Growth put on Troq's character card (at most
two, public, GEN-9); *normal attack* / *normal throw* = a move on a 2..10 card (Troq's 4..8
attacks, his 2..5, 9 and 10 throws); a move "is interrupted" when it loses combat.

Responsibility: Troq's ability hooks. Decisions of this module's making
(docs/rules/characters/troq.md, "Engine rulings"):
- Giant Growth acts when Troq's block beats an attack (C8b, with the ``Blocked`` event, after
  the block draw; not when the attacker's card text stops innates from blocking, Time Stop) or
  a Joker (C6, once the winner is known): the block card is attached to his character card, or
  discarded when two are attached already. It never returns to hand from combat.
  Its +1 per attached card is read when the damage is dealt: a normal attack or throw as the
  combat card (C8c) or as a combo move (C12); pumps and the combat card's C12 entry get none.
- Defense Mastery stops the C7 draw of an opponent whose normal attack his block beat.
- War Stomp: Draw Phase, a 10 from hand, only while Troq is not knocked down; counterable.
  Resolved: the opponent is knocked down for the rest of this turn (this turn's combat sees
  it: KD-4, KD-5), Troq draws a card, then the opponent discards a card of their choice (a
  ``discard`` event naming one card; no decision when their hand holds one distinct card or
  none).
- Troq Armor: Troq's Jack attack (either end) that would lose combat to a *faster* normal
  attack wins it instead; the normal attack still hits him (its damage at C8c; no combo,
  no C7 draw for its owner: it did not win). A speed tie stays a tie (nothing is interrupted).
- Lockhorn Skewer: against a normal attack of speed 5.0 or faster (the locked-in speed after
  modifiers, at most 5.0) his King throw wins; the normal attack still hits him.
- Beast Unleashed needs two attached blocks when committed (C1, its ``requires``). When it is
  attempted (C5, locked in as the combat action), every attached block goes back to his hand.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any, ClassVar

from rules_engine import combat as cb
from rules_engine import effects
from rules_engine.actions import Action, UseAbility
from rules_engine.cards import Card, Move, MoveType, Rank
from rules_engine.characters import CharacterRules, discards_a_card_of_their_choice
from rules_engine.characters.midori import defense_mastery, defense_mastery_broken
from rules_engine.combat import CombatResult
from rules_engine.errors import RuleViolation
from rules_engine.journal import Blocked
from rules_engine.modifiers import COMBAT_DAMAGE, COMBO_DAMAGE, Modifier
from rules_engine.state import ComboEntry, Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.journal import Event
    from rules_engine.state import PlayerState, Step
    from rules_engine.types import PlayerId

GIANT_GROWTH = "Giant Growth"
DEFENSE_MASTERY = "Defense Mastery"
WAR_STOMP = "War Stomp"
TROQ_ARMOR = "Troq Armor"
LOCKHORN_SKEWER = "Lockhorn Skewer"
BEAST_UNLEASHED = "Beast Unleashed"
ATTACHED_LIMIT = 2  # Giant Growth: "or discard it if two cards are already attached"
SKEWER_SPEED = 50  # Lockhorn Skewer: "normal attacks with speed 5.0 or faster" (tenths)


def _distinct(cards: Sequence[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def is_normal_strike(move: Move) -> bool:
    """A normal attack or normal throw (a move on a 2..10 card): Giant Growth's bonus."""
    return move.type in (MoveType.ATTACK, MoveType.THROW) and move.rank.is_normal


def _growth_combat(ps: PlayerState, move: Move, dmg: int) -> int:
    """C8c: +1 per attached card for Troq's normal attack or throw as the combat card."""
    return dmg + len(ps.attached) if is_normal_strike(move) else dmg


def _growth_combo(ps: PlayerState, entry: ComboEntry, dmg: int) -> int:
    """C12: +1 per attached card for a normal attack or throw played in the combo (the combat
    card's entry deals only its pumps at C12: no bonus there, it had it at C8c)."""
    if entry.played_in_c10 and is_normal_strike(entry.move):
        return dmg + len(ps.attached)
    return dmg


def _normal_attack(ps: PlayerState) -> bool:
    m = ps.combat_move
    return ps.kind == cb.ATTACK and m is not None and m.is_normal_attack


def throw_beats_fast_normals(ctx: AbilityContext, ps: PlayerState, a: PlayerState,
                             result: CombatResult) -> CombatResult | None:
    """C6, Lockhorn Skewer (Troq K) and Windmill Crusher (Rook K): ``ps``'s King throw beats a
    normal attack of speed 5.0 or faster (its locked-in speed after modifiers), but ``ps``
    still takes that attack's damage (``also_hits``); None when the text does not apply."""
    opp = ctx.opponent(ps)
    me = 0 if ps is a else 1
    m = ps.combat_move
    if m is None or ps.kind != cb.THROW or m.rank is not Rank.KING \
            or result.winner is None or result.winner == me or not _normal_attack(opp):
        return None
    speed = ctx.speed(opp)
    if speed is None or speed > SKEWER_SPEED:
        return None
    return CombatResult(me, False, result.cell, also_hits=True)


class TroqRules(CharacterRules):
    """Troq with every ability implemented.

    Greedy heuristic (:meth:`bot_choice`, BOT-TROQ: no changes to the game's own choices):
    play War Stomp whenever it is playable (a knockdown, a card drawn and a card discarded by
    the opponent, for one 10). Giant Growth, Defense Mastery, Troq Armor,
    Lockhorn Skewer and Beast Unleashed's return involve no decision.
    """

    abilities_implemented = True
    ability_notes: ClassVar[dict[str, str]] = {
        GIANT_GROWTH: "When his block beats an attack or a Joker: the block card is attached to "
                      "Troq (discarded if two are attached already; it does not return to "
                      "hand), after the usual block draw. His normal attacks and throws deal "
                      "+1 damage per attached card, as the combat card and as combo moves. "
                      "Not when Time Stop stops his innates from blocking.",
        DEFENSE_MASTERY: "The opponent does not make the normal draw when his block beats "
                         "their normal attack.",
        WAR_STOMP: "Draw Phase, with a 10 from hand, only if Troq is not knocked down: the "
                   "opponent is knocked down for this turn, Troq draws a card, then the opponent "
                   "discards a card of their choice. Counterable.",
        TROQ_ARMOR: "His Jack attack (either end) that a faster normal attack would beat wins "
                    "combat instead; the normal attack still hits him for its damage, and its "
                    "owner gets no combo. A speed tie stays a tie.",
        LOCKHORN_SKEWER: "His King throw beats a normal attack of speed 5.0 or faster (after "
                         "speed changes); the normal attack still hits him for its damage.",
        BEAST_UNLEASHED: "Needs two attached blocks to be played; when it is locked in as his "
                         "combat action, both attached blocks return to his hand.",
    }

    # --- always on: Giant Growth's damage ------------------------------------------------
    def modifiers(self, seat: PlayerId) -> list[Modifier[Any]]:
        return [Modifier(COMBAT_DAMAGE, seat, _growth_combat, GIANT_GROWTH),
                Modifier(COMBO_DAMAGE, seat, _growth_combo, GIANT_GROWTH)]

    def has_state(self, ctx: AbilityContext, ps: PlayerState, state: str) -> bool:
        """Beast Unleashed's ``requires``: two blocks attached by Giant Growth."""
        if state == "2 attached blocks":
            return len(ps.attached) >= ATTACHED_LIMIT
        return super().has_state(ctx, ps, state)

    # --- Giant Growth: attach the block --------------------------------------------------
    def _grow(self, ctx: AbilityContext, ps: PlayerState) -> None:
        """Attach Troq's winning block card, or discard it with two attached already."""
        card = ps.combat_card
        if card is None or ps.kind != cb.BLOCK:
            return  # voided, or already back in hand (nothing to attach)
        if len(ps.attached) >= ATTACHED_LIMIT:
            ps.combat_card = None
            ctx.discard(ps, card)
            return
        effects.attach(ctx, ps, card, None, source=Zone.COMBAT, limit=ATTACHED_LIMIT)

    def after_winner(self, ctx: AbilityContext, ps: PlayerState,
                     winner: PlayerState | None) -> Step:
        """C6: Troq's block beat a Joker (no ``Blocked`` event for a Joker)."""
        if winner is ps and ps.kind == cb.BLOCK and ctx.opponent(ps).kind == cb.JOKER:
            self._grow(ctx, ps)
        return
        yield  # pragma: no cover

    reacts_to = frozenset({Blocked})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        """C8b: Troq's block beat an attack (after the block draw)."""
        if isinstance(event, Blocked) and event.blocker is ps.player and event.innates \
                and not (yield from ctx.offer_counter(ps, GIANT_GROWTH)):  # CTR-8
            self._grow(ctx, ps)

    # --- Defense Mastery (C7) ------------------------------------------------------------
    def rule_broken(self, ctx: AbilityContext, ps: PlayerState, player: PlayerId,
                    action: Action) -> RuleViolation | None:
        """Defense Mastery took the attacker's draw away (a diagnosis' question)."""
        return defense_mastery_broken(ctx, ps, player, action) \
            or super().rule_broken(ctx, ps, player, action)

    def normal_draw_prevented(self, ctx: AbilityContext, blocker: PlayerState,
                              attacker: PlayerState) -> bool:
        """Opponents don't draw when Troq blocks their normal attacks."""
        return defense_mastery(attacker)

    # --- Troq Armor and Lockhorn Skewer (C6) ---------------------------------------------
    def combat_override(self, ctx: AbilityContext, ps: PlayerState, a: PlayerState,
                        b: PlayerState, result: CombatResult) -> CombatResult | None:
        opp = ctx.opponent(ps)
        me = 0 if ps is a else 1
        m = ps.combat_move
        if m is None or result.winner is None or result.winner == me or not _normal_attack(opp):
            return None
        if ps.kind == cb.ATTACK and m.rank is Rank.JACK:
            return CombatResult(me, False, result.cell, also_hits=True)  # Troq Armor
        return throw_beats_fast_normals(ctx, ps, a, result)  # Lockhorn Skewer

    # --- Beast Unleashed (C5) ------------------------------------------------------------
    def on_lock_in(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """Attempting Beast Unleashed returns the attached blocks to Troq's hand."""
        m = ps.combat_move
        if m is not None and m.rank is Rank.ACE and m.type is MoveType.THROW:
            for card in list(ps.attached):
                effects.detach(ctx, ps, card, None, to_hand=True)
        return
        yield  # pragma: no cover

    # --- War Stomp (10, Draw Phase) --------------------------------------------------------
    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window != "draw_phase" or ps.knocked_down:
            return []
        return [UseAbility(WAR_STOMP, c) for c in _distinct(ps.hand) if c.rank is Rank.TEN]

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        return window == "draw_phase" and not ps.knocked_down \
            and ps.holds(Rank.TEN)

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility):
            raise RuleViolation("INI-4", "play an ability or pass")
        if action in self.window_options(ctx, ps, window):
            return
        if action.ability != WAR_STOMP:
            raise RuleViolation("AB-2", f"Troq has no ability {action.ability!r} to play here")
        if window != "draw_phase":
            raise RuleViolation("WIN-DRAW", "War Stomp is played right after the draw phase "
                                            "(Draw Phase)")
        if action.card is None or action.card.rank is not Rank.TEN:
            raise RuleViolation("AB-2", "War Stomp is played with one of Troq's 10s")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        if action.cards or action.option:
            raise RuleViolation("AB-2", "War Stomp takes no other choice")
        raise RuleViolation("AB-2", "War Stomp: only if Troq is not knocked down")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility) and action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2: paid, discarded
        if (yield from ctx.offer_counter(ps, WAR_STOMP, action.card)):
            return
        opp = ctx.opponent(ps)
        ctx.knock_down(opp, ps)
        yield from ctx.draw(ps, ctx.step)
        yield from discards_a_card_of_their_choice(ctx, opp, WAR_STOMP, "AB-2")

    # --- the greedy bot ---------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        stomps = [a for a in legal if isinstance(a, UseAbility) and a.ability == WAR_STOMP]
        if stomps:
            return stomps[0]
        return None
