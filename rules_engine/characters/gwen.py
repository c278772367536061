"""Gwen Grayson (2014 deck): innates Shadow Plague and Relentless Strikes, Gloria's Remedy (10's
block), Chillbane (J: Chains of Ice) (docs/rules/characters/gwen.md).

Glossary: *normal block* = a block on a 2..10 card whose rank prints no During Combat ability
(not a special block like Gloria's Remedy, Stone Wall or Bubble Shield); *normal attack* card =
a card with a normal attack end (Gwen's 2..6); *red* = hearts and diamonds, *black* = clubs and
spades; *freeze* = the opponent skips every decision for the rest of the turn.

Responsibility: Gwen's ability hooks. Decisions of this module's making
(docs/rules/characters/gwen.md, "Engine rulings"):
- Shadow Plague: one more card in the draw phase (T2, a ``DRAW_COUNT`` modifier), then 2 damage
  to herself once her draws are done (none on turn 1: there is no draw phase).
- Relentless Strikes is asked at C6 (``contest``) when the opponent's normal block beats her
  locked-in attack that plays as a non-Ender: she may discard a red and a black normal attack
  from hand. Then she wins the combat, the black card's attack damage is the damage her hit
  deals at C8c (a hit: C7's normal draw, hit triggers), the block is discarded, the opponent
  draws a card instead of the block draw, and the combat ends after C8 (no Rewind, no combo).
- Gloria's Remedy: when Gwen's 10 blocks an attack or a Joker (C6) — counterable as it acts;
  countered, the card is an ordinary block (AB-11) — she gains 6 life, takes no block damage,
  draws nothing for blocking, and the 10 is discarded.
- Chillbane: when Chains of Ice hits (the combat card at C6, a speed tie, or a hit-back), the
  opponent is frozen (counterable as it triggers): for the rest of the turn the engine makes
  each of their decisions by passing, stopping or taking nothing, else the first legal choice
  (so a frozen player places no Rewind card). Next turn their attacks and throws are 2.0 slower.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from itertools import product
from typing import TYPE_CHECKING, Any, ClassVar

from rules_engine import combat as cb
from rules_engine.actions import Action, Pass, UseAbility
from rules_engine.cards import Card, Character, ComboType, Move, Rank
from rules_engine.characters import CharacterRules
from rules_engine.combat import CombatResult
from rules_engine.errors import RuleViolation
from rules_engine.journal import Drew, Hit
from rules_engine.modifiers import (
    BLOCK_DAMAGE,
    BLOCK_DRAW,
    COMBAT_DAMAGE,
    DRAW_COUNT,
    SPEED,
    Expiry,
    Modifier,
)
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.journal import Event
    from rules_engine.state import Decision, PlayerState, Step
    from rules_engine.types import PlayerId

SHADOW_PLAGUE = "Shadow Plague"
RELENTLESS_STRIKES = "Relentless Strikes"
GLORIAS_REMEDY = "Gloria's Remedy"
CHILLBANE = "Chillbane"
CHAINS_OF_ICE = "Chains of Ice"
PLAGUE_DAMAGE = 2
REMEDY_LIFE = 6
CHILL_SLOWER = 20  # tenths: 2.0 slower


def _distinct(cards: list[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def _one_more(ps: PlayerState, step: object, n: int) -> int:
    """Shadow Plague: draw an extra card in the draw phase."""
    return n + 1


def _none(ps: PlayerState, subject: object, n: int) -> int:
    return 0


def normal_attack(char: Character, c: Card) -> Move | None:
    """The normal attack end of card ``c`` for ``char``, if it has one (GL-NORMAL)."""
    return next((m for m in char.moves_of(c) if m.is_normal_attack), None)


def is_normal_block(ps: PlayerState) -> bool:
    """``ps`` locked in a block on a 2..10 card whose rank prints no During Combat ability."""
    c = ps.combat_card
    if ps.kind != cb.BLOCK or c is None or c.rank is None or not c.rank.is_normal:
        return False
    return not any(a.rank is c.rank and a.timing == "during_combat"
                   for a in ps.character.abilities)


class GwenRules(CharacterRules):
    """Gwen with every ability implemented.

    Greedy bot heuristic (:meth:`bot_choice`): Relentless Strikes whenever it is offered, with
    the black normal attack that deals the most damage and the red one worth least. Gloria's
    Remedy, Chillbane and Shadow Plague need no choice.
    """

    abilities_implemented = True
    ability_notes: ClassVar[dict[str, str]] = {
        SHADOW_PLAGUE: "Draw phase (T2, not turn 1): she draws 2 cards instead of 1, then loses "
                       "2 life.",
        RELENTLESS_STRIKES: "When the opponent's normal block (2-10, not a special block) beats "
                            "her non-Ender attack (C6): she may discard a red and a black normal "
                            "attack from hand; then she wins, the black card's damage is dealt, "
                            "the block is discarded, the opponent draws 1, and combat ends "
                            "(no Rewind, no combo).",
        GLORIAS_REMEDY: "When her 10's block beats an attack or a Joker: gain 6 life (never "
                        "above 85), no block damage, no block draw, the 10 is discarded. "
                        "Counterable: countered, it is an ordinary block.",
        CHILLBANE: "When Chains of Ice hits: the opponent is frozen for the rest of the turn "
                   "(every decision of theirs is skipped: they pass, stop or take nothing) and "
                   "next turn their attacks and throws are 2.0 slower. Counterable.",
    }

    def __init__(self, character: Character) -> None:
        super().__init__(character)
        self.plagued = False  # Shadow Plague's damage taken this turn
        self.slow_next = 0  # Chillbanes that slow the opponent next turn
        self.striking = False  # Relentless Strikes used this combat: the black card hits

    def position_key(self) -> str:
        """Chillbanes pending for next turn; Relentless Strikes used this combat."""
        return (f"chill:{self.slow_next}" if self.slow_next else "") + (
            ";strikes" if self.striking else "")

    def modifiers(self, seat: PlayerId) -> list[Modifier[Any]]:
        """Shadow Plague: one more card in the draw phase (T2)."""
        return [Modifier(DRAW_COUNT, seat, _one_more, SHADOW_PLAGUE)]

    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        self.plagued = False
        self.striking = False
        if self.slow_next:
            slower = CHILL_SLOWER * self.slow_next

            def slowed(opp: PlayerState, move: Move, speed: int) -> int:
                return speed + slower if move.is_attack_or_throw else speed

            ctx.add_modifier(Modifier(SPEED, ctx.opponent(ps).player, slowed, CHILLBANE,
                                      Expiry.END_OF_TURN))
            self.slow_next = 0

    # --- reactions: Shadow Plague's damage, Chillbane ------------------------------------------
    reacts_to = frozenset({Drew, Hit})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        if isinstance(event, Drew):
            if event.seat is ps.player and event.step == "T2" and not self.plagued:
                self.plagued = True
                ctx.damage(ps, PLAGUE_DAMAGE, ps)
            return
        if not isinstance(event, Hit) or event.by is not ps.player or self.striking:
            return
        # the move that hit: the combat card at C6, the last combo move (a hit-back) at C10
        move = (ctx.combo[-1].move if ctx.combo else None) if event.combo else ps.combat_move
        if move is None or move.name != CHAINS_OF_ICE:
            return
        if (yield from ctx.offer_counter(ps, CHILLBANE)):
            return
        ctx.freeze(ctx.opponent(ps))
        self.slow_next += 1

    # --- Relentless Strikes (innate) -----------------------------------------------------------
    def _strike_cards(self, ps: PlayerState) -> tuple[list[Card], list[Card]]:
        cards = [c for c in _distinct(ps.hand) if c.suit is not None
                 and normal_attack(ps.character, c) is not None]
        return [c for c in cards if c.suit is not None and c.suit.is_red], \
            [c for c in cards if c.suit is not None and not c.suit.is_red]

    def _may_strike(self, ctx: AbilityContext, ps: PlayerState) -> bool:
        m = ps.combat_move
        if ps.kind != cb.ATTACK or m is None or not is_normal_block(ctx.opponent(ps)):
            return False
        return ctx.as_played(ps, m).follow_type is not ComboType.ENDER

    def contest(self, ctx: AbilityContext, ps: PlayerState, a: PlayerState, b: PlayerState,
                result: CombatResult) -> Generator[Decision, tuple[PlayerId, Action],
                                                   CombatResult | None]:
        """C6: her non-Ender attack was normal-blocked; she may discard a red and a black
        normal attack to win with the black one."""
        opp = ctx.opponent(ps)
        if result.winner is None or (a, b)[result.winner] is not opp \
                or not self._may_strike(ctx, ps):
            return None
        reds, blacks = self._strike_cards(ps)
        if not reds or not blacks:
            return None

        def check(player: PlayerId, action: Action) -> None:
            if isinstance(action, Pass):
                return
            if not isinstance(action, UseAbility) or action.ability != RELENTLESS_STRIKES:
                raise RuleViolation("AB-1", "Relentless Strikes: discard a red and a black "
                                            "normal attack, or pass")
            if len(action.cards) != 2 or action.card is not None or action.option:
                raise RuleViolation("AB-1", "Relentless Strikes discards exactly two cards")
            red, black = action.cards
            if red not in ps.hand or black not in ps.hand:
                raise RuleViolation("AB-1", "both cards must come from Gwen's hand")
            if red not in reds or black not in blacks:
                raise RuleViolation("AB-1", "name a red normal attack, then a black normal "
                                            "attack (2-6)")

        def options(player: PlayerId) -> list[Action]:
            return [Pass(), *(UseAbility(RELENTLESS_STRIKES, cards=(r, k))
                              for r, k in product(reds, blacks))]

        _, action = yield from ctx.ask((ps.player,), "AB-1", check, options)
        if not isinstance(action, UseAbility):
            return None
        red, black = action.cards
        for c in (red, black):
            ctx.move(ps, c, Zone.HAND, Zone.DISCARD)
        if (yield from ctx.offer_counter(ps, RELENTLESS_STRIKES)):  # CTR-8: after its cost
            for c in (red, black):  # CTR-3: the two attacks back to hand
                ctx.move(ps, c, Zone.DISCARD, Zone.HAND)
            return None
        move = normal_attack(ps.character, black)
        assert move is not None
        damage = move.damage

        def black_hits(seat: PlayerState, m: Move, _v: int) -> int:
            return damage

        ctx.add_modifier(Modifier(COMBAT_DAMAGE, ps.player, black_hits, RELENTLESS_STRIKES,
                                  Expiry.END_OF_COMBAT))
        self.striking = True
        if opp.combat_card is not None:
            ctx.move(opp, opp.combat_card, Zone.COMBAT, Zone.DISCARD)  # the block is discarded
        yield from ctx.draw(opp, ctx.step)  # ... and they draw a card
        ctx.end_combat(after_damage=True)
        return CombatResult(0 if ps is a else 1, False, result.cell)

    # --- Gloria's Remedy (10, block end) -------------------------------------------------------
    def after_winner(self, ctx: AbilityContext,
                     ps: PlayerState, winner: PlayerState | None) -> Step:
        c = ps.combat_card
        if winner is not ps or ps.kind != cb.BLOCK or c is None or c.rank is not Rank.TEN:
            return
        if ctx.opponent(ps).kind not in (cb.ATTACK, cb.JOKER):
            return
        if (yield from ctx.offer_counter(ps, GLORIAS_REMEDY)):
            return  # AB-11: an ordinary block (draws, takes block damage, returns)
        ctx.heal(ps, REMEDY_LIFE)
        ctx.add_modifier(Modifier(BLOCK_DRAW, ps.player, _none, GLORIAS_REMEDY,
                                  Expiry.END_OF_COMBAT))
        ctx.add_modifier(Modifier(BLOCK_DAMAGE, ps.player, _none, GLORIAS_REMEDY,
                                  Expiry.END_OF_COMBAT))
        ctx.move(ps, c, Zone.COMBAT, Zone.DISCARD)

    def end_of_combat(self, ctx: AbilityContext, ps: PlayerState,
                      winner: PlayerState | None) -> Step:
        self.striking = False
        return
        yield  # pragma: no cover

    # --- bots -----------------------------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        strikes = [a for a in legal if isinstance(a, UseAbility)
                   and a.ability == RELENTLESS_STRIKES]
        if not strikes:
            return None

        def value(a: UseAbility) -> tuple[int, int]:
            red, black = a.cards
            hit = normal_attack(ps.character, black)
            return (hit.damage if hit else 0, -int(red.rank or 0))

        return max(strikes, key=value)
