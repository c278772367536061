"""Argagarg Garg (2014 deck): innate Hex of Murkwood, Protective Ward (7), Crash and Flow (10),
Bubble Shield (A's block) (docs/rules/characters/argagarg.md).

Glossary: *Hex* = the innate's end-of-turn damage (ability damage, not a hit); *ward* = the
one-turn state Protective Ward puts the opponent in (their attacks and throws are unpumpable
Enders); *shield* = a Bubble Shield in Argagarg's ongoing area.

Responsibility: Argagarg's ability hooks. Decisions of this module's making
(docs/rules/characters/argagarg.md, "Engine rulings"):
- Hex of Murkwood acts at K1 (after the end-of-turn window, in initiative order, OQ-24) unless
  Argagarg was knocked down at some point of the turn: knocked down when it began (KD-3, even if
  card text stood him up) or knocked down by this turn's combat (C13a). It deals 2, plus 2 for
  each Bubble Shield in play.
- Protective Ward is played at Combat Reveal (``opt.protectiveWard=COMBAT_REVEAL``, yomibase) or
  in the draw phase (``DRAW_PHASE``, wiki 2015). It draws at once; for the rest of the turn
  every attack and throw of the opponent plays as an Ender without a pump (a ``COMBO_MOVE``
  modifier on the opponent's seat), which also settles Rewind eligibility at C9 (RW-4).
- Crash and Flow counters any ability offered to a counter (CTR-1: never Aces, Jokers or
  innates; its only cost is the 10). That player draws a card, then the countered card, if it
  was played from hand, goes to the bottom of their deck instead of the discard pile. Countered
  itself, it is undone: the 10 stays discarded (CTR-3), nobody draws.
- Bubble Shield: when the Ace's block beats an attack or a Joker (C6), Argagarg draws a card
  (besides the block's own draw, AR-BLK-1: the Ace stays in play instead of returning) and the
  Ace goes to his ongoing area. When he is hit by an attack or a throw (C6, or a hit-back), every
  Bubble Shield in play is discarded and the combat ends at once: no damage, no combo, no
  knockdown (a speed tie's attacks included). Block damage is not a hit (AB-13).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from typing import TYPE_CHECKING, ClassVar

from rules_engine import combat as cb
from rules_engine import effects
from rules_engine.actions import Action, Pass, UseAbility
from rules_engine.cards import Card, Character, ComboType, Move, Rank
from rules_engine.characters import OneCardCounterRules
from rules_engine.errors import RuleViolation
from rules_engine.journal import Hit
from rules_engine.modifiers import COMBO_MOVE, Expiry, Modifier
from rules_engine.ruleset import ProtectiveWard
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.journal import Event
    from rules_engine.state import Ongoing, PlayerState, Step

HEX = "Hex of Murkwood"
PROTECTIVE_WARD = "Protective Ward"
CRASH_AND_FLOW = "Crash and Flow"
BUBBLE_SHIELD = "Bubble Shield"
HEX_DAMAGE = 2
SHIELD_HEX = 2


def _distinct(cards: list[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def _warded(ps: PlayerState, move: Move, played: Move) -> Move:
    """Protective Ward: the opponent's attacks and throws are Enders that can't be pumped."""
    if played.is_attack_or_throw and (played.combo_type is not ComboType.ENDER
                                      or played.pump is not None):
        return replace(played, combo_type=ComboType.ENDER, pump=None)
    return played


def shields(ps: PlayerState) -> list[Ongoing]:
    """Argagarg's Bubble Shields in play."""
    return [e for e in ps.ongoing if e.name == BUBBLE_SHIELD and e.resolved]


class ArgagargRules(OneCardCounterRules):
    """Argagarg with every ability implemented.

    Greedy bot heuristic (:meth:`bot_choice`): Protective Ward whenever the opponent revealed
    an attack or a throw (under ``DRAW_PHASE``: whenever he holds one, since it replaces
    itself); Crash and Flow against every ability it can counter (it costs only the 10, and
    the opponent loses the card to the bottom of the deck).
    """

    abilities_implemented = True
    COUNTER = CRASH_AND_FLOW
    COUNTER_RANK = Rank.TEN
    ability_notes: ClassVar[dict[str, str]] = {
        HEX: "End of turn (K1, after the End of Turn window): the opponent loses 2 life, 2 more "
             "for each Bubble Shield in play, unless Argagarg was knocked down at any time this "
             "turn.",
        PROTECTIVE_WARD: "Combat Reveal (C4; a ruleset option moves it to the Draw Phase): play "
                         "a 7 and draw a card; for the rest of the turn the opponent's attacks "
                         "and throws are Enders that can't be pumped (so no Rewind card may "
                         "be placed against them). Counterable.",
        CRASH_AND_FLOW: "Reaction: play a 10 to counter an ability as it is played; that "
                        "player draws a card and the countered card, if played from hand, goes "
                        "to the bottom of their deck.",
        BUBBLE_SHIELD: "When the Ace's block beats an attack or a Joker: draw a card (besides "
                       "the block draw) and the Ace stays in play. When Argagarg is hit by an "
                       "attack or throw: no damage, combat ends at once, the Shield is "
                       "discarded.",
    }

    def __init__(self, character: Character) -> None:
        super().__init__(character)
        self.down_at_start = False  # KD-3: knocked down for this turn

    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        self.down_at_start = ps.knocked_down

    def position_key(self) -> str:
        """Knocked down when this turn began (no Hex at its end)."""
        return "down" if self.down_at_start else ""

    # --- Hex of Murkwood (innate) ------------------------------------------------------------
    def at_end_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """K1: the opponent takes 2 (+2 per Bubble Shield) unless he was knocked down."""
        if not self.down_at_start and not ps.knockdown_next \
                and not (yield from ctx.offer_counter(ps, HEX)):  # CTR-8: as it triggers
            ctx.damage(ctx.opponent(ps), HEX_DAMAGE + SHIELD_HEX * len(shields(ps)), ps)

    # --- Protective Ward (7) -------------------------------------------------------------
    @staticmethod
    def ward_window(ctx: AbilityContext) -> str:
        if ctx.ruleset.protectiveWard is ProtectiveWard.DRAW_PHASE:
            return "draw_phase"
        return "combat_reveal"

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        return window == self.ward_window(ctx) and ps.holds(Rank.SEVEN)

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window != self.ward_window(ctx):
            return []
        return [UseAbility(PROTECTIVE_WARD, c) for c in _distinct(ps.hand) if c.rank is Rank.SEVEN]

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility) or action.ability != PROTECTIVE_WARD:
            raise self.not_here(ctx, ps, window, action)
        if window != self.ward_window(ctx):
            if self.ward_window(ctx) == "draw_phase":
                raise RuleViolation("WIN-DRAW", "Protective Ward is played after the draw phase "
                                                "(opt.protectiveWard=DRAW_PHASE)")
            raise RuleViolation("WIN-REVEAL", "Protective Ward is played at Combat Reveal, once "
                                              "the combat cards are revealed")
        if action.card is None or action.card.rank is not Rank.SEVEN:
            raise RuleViolation("AB-2", "Protective Ward is played with one of Argagarg's 7s")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        if action.cards or action.option:
            raise RuleViolation("AB-2", "Protective Ward takes no other choice")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility) and action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2
        if (yield from ctx.offer_counter(ps, PROTECTIVE_WARD, action.card)):
            return
        yield from ctx.draw(ps, ctx.step)
        ctx.add_modifier(Modifier(COMBO_MOVE, ctx.opponent(ps).player, _warded,
                                  PROTECTIVE_WARD, Expiry.END_OF_TURN))

    # --- Crash and Flow (10, Reaction) ---------------------------------------------------------
    def after_counter(self, ctx: AbilityContext, ps: PlayerState, owner: PlayerState,
                      action: Action) -> Step:
        """"...and that player draws a card"."""
        yield from ctx.draw(owner, ctx.step)

    def counter_sends_card(self, action: Action) -> Zone:
        """"If it was played from hand, put it on the bottom of their deck"."""
        return Zone.DECK

    # --- Bubble Shield (A, block end) ---------------------------------------------------------
    def after_winner(self, ctx: AbilityContext,
                     ps: PlayerState, winner: PlayerState | None) -> Step:
        """C6: the Ace's block beat an attack or a Joker: draw, and it stays in play."""
        c = ps.combat_card
        if winner is not ps or ps.kind != cb.BLOCK or c is None or not c.is_ace:
            return
        if ctx.opponent(ps).kind not in (cb.ATTACK, cb.JOKER):
            return
        yield from ctx.draw(ps, ctx.step)
        effects.enter_play(ctx, ps, c, BUBBLE_SHIELD)

    reacts_to = frozenset({Hit})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        """Hit by an attack or throw with Shields in play: they are discarded, combat ends."""
        if isinstance(event, Hit) and event.seat is ps.player:
            active = shields(ps)
            if active:
                for effect in active:
                    effects.end(ctx, ps, effect)
                ctx.end_combat()
        return
        yield  # pragma: no cover

    # --- bots -------------------------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        uses = [a for a in legal if isinstance(a, UseAbility)]
        ward = [a for a in uses if a.ability == PROTECTIVE_WARD]
        if ward:
            if self.ward_window(ctx) == "draw_phase" or ctx.opponent(ps).kind in (cb.ATTACK,
                                                                                  cb.THROW):
                return ward[0]
            return Pass()
        counters = [a for a in uses if a.ability == CRASH_AND_FLOW]
        if counters:
            return counters[0]
        return None
