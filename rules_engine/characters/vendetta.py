"""Vendetta (2014 deck): the innate Carrion Reach, Acrobatics and Wall Dive Loop
(docs/rules/characters/vendetta.md; BOT-VENDETTA).

Glossary: a *normal attack* is GL-NORMAL's: the attack end of a 2..10 card — Pincer Poke (2),
Pincer Stab (3), his 5 and 6, and Claw Trip (7) although it is an Ender. A *dodge* (Acrobatics'
cost) is a card in hand with a dodge end (his 2, 3, 4 and 10). *Skip forward to next turn's
combat* is :meth:`AbilityContext.skip_to_next_combat`.

Responsibility: Vendetta's ability hooks; each docstring names the step the game calls it at.
Decisions of this module's making (docs/rules/characters/vendetta.md, "Engine rulings"):

- Carrion Reach: his normal attack as the combat card returns to his hand at the end of combat
  (C13c, instead of the discard pile) when it won the combat or a block beat it. A speed tie
  (both hit, nobody wins), a loss to anything but a block, a void, or a normal attack played
  as a combo move do not return it.
- Acrobatics (8, Combat Reveal): only while he is the active character ("You can't play this
  from the bench or while assisting": a benched or assisting Vendetta is offered none, TG-8 c's
  exception); costs the 8 and one card with a dodge end from his hand; once
  it resolves, both combat cards are discarded at once (M-VOID), the combat ends with no
  winner (no draw, no damage, no combo, no knockdown), and the players skip this turn's Power
  Up and end-of-turn window and text, and next turn's draw phase and draw-phase window; the
  hand limit, the end of one-turn effects and next turn's T1 happen as usual. Countered
  (CTR-3): the dodge returns to his hand, nothing else happens (the 8 is discarded, and the
  next-turn penalty does not apply). Next turn his attacks and throws are 2.0 slower and he
  cannot play Acrobatics.
- Wall Dive Loop (K): when the opponent is knocked down at lock-in (C5), the K he
  combat-revealed is speed 1.0 for this combat, on either end; this holds over his own
  slow-down from Acrobatics (the card says "are speed 1.0"). Each hit with the K (the combat
  card at C6, or a hit-back at C10) returns it to his hand at the end of the combat; the return
  is offered to counters as the hit happens (countered: the K is discarded as usual).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine.actions import Action, Pass, UseAbility
from rules_engine.cards import Card, Character, Move, MoveType, Rank
from rules_engine.characters import CharacterRules
from rules_engine.errors import RuleViolation
from rules_engine.journal import Hit
from rules_engine.modifiers import SPEED, Expiry, Modifier
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.journal import Event
    from rules_engine.state import PlayerState, Step

CARRION_REACH = "Carrion Reach"
ACROBATICS = "Acrobatics"
WALL_DIVE_LOOP = "Wall Dive Loop"

ACROBATICS_SLOWER = 20  # tenths: "2 speed slower"
LOOP_SPEED = 10  # tenths: "speed 1.0"


def _distinct(cards: Sequence[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def has_dodge(ps: PlayerState, c: Card) -> bool:
    """``c`` is a dodge for Acrobatics' cost: one of its ends is a dodge."""
    dodge = MoveType.DODGE
    for m in ps.character.moves_of(c):  # noqa: SIM110 (a loop: any() makes a generator)
        if m.type is dodge:
            return True
    return False


def carrion_returns(ps: PlayerState, opp: PlayerState, winner: PlayerState | None) -> bool:
    """Carrion Reach: ``ps``'s normal attack won the combat or was blocked."""
    m = ps.combat_move
    if ps.kind != cb.ATTACK or m is None or not m.is_normal_attack:
        return False
    return winner is ps or (winner is opp and opp.kind == cb.BLOCK)


class VendettaRules(CharacterRules):
    """Vendetta with every ability implemented.

    Greedy heuristic (:meth:`bot_choice`, RULES.md BOT-VENDETTA): play Acrobatics at the
    combat reveal when he would lose this combat (by the printed speeds and the combat matrix)
    to an Ace, to a move of 10 or more damage, or to a move whose damage would KO him; else
    pass. Carrion Reach and Wall Dive Loop need no choice.
    """

    abilities_implemented = True
    ability_notes = {
        CARRION_REACH: "Automatic: when his normal attack (2-7 attack end, Claw Trip included) "
                       "is his combat card and wins the combat or is blocked, it returns to his "
                       "hand at the end of the combat instead of the discard pile.",
        ACROBATICS: "Combat Reveal, from hand, only while he is the active character (not "
                    "from the bench or while assisting) (an 8 and a card with a dodge end, both "
                    "discarded), not the turn after another Acrobatics: both combat cards are "
                    "discarded, nobody wins, no damage; this turn's Power Up and end-of-turn "
                    "window and next turn's draw phase are skipped. Next turn his attacks and "
                    "throws are 2.0 slower. The opponent may counter it (the dodge then returns "
                    "to his hand).",
        WALL_DIVE_LOOP: "Automatic: when the opponent is knocked down, his combat K is speed "
                        "1.0 on either end; each time it hits it returns to his hand at the end "
                        "of the combat (the return may be countered as it hits).",
    }

    def __init__(self, character: Character) -> None:
        super().__init__(character)
        self.slow_next = False  # an Acrobatics resolved this turn: next turn's penalty
        self.acrobatics_banned = False  # this turn follows an Acrobatics
        self.loop_cards: list[Card] = []  # Ks that hit as a hit-back this combat

    def position_key(self) -> str:
        """A pending Acrobatics penalty; the ban this turn; Ks to return."""
        return ("acro-next;" if self.slow_next else "") + (
            "acro-ban;" if self.acrobatics_banned else "") + (
            "loop:" + ",".join(c.code for c in self.loop_cards) if self.loop_cards else "")

    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        """T1: Acrobatics' next turn: attacks and throws 2.0 slower, no Acrobatics. Wall Dive
        Loop's Ks of last turn's combat are forgotten: a combat whose knockout ended the bout
        (END-2, at once: Triple Threat, Dramatic Battle) has no C13b, and its combo cards went
        to the discard pile with the combat area (``end_bout``), so none is left to return."""
        self.loop_cards = []
        self.acrobatics_banned = self.slow_next
        if self.slow_next:
            def slower(seat: PlayerState, move: Move, speed: int) -> int:
                return speed + ACROBATICS_SLOWER if move.is_attack_or_throw else speed

            ctx.add_modifier(Modifier(SPEED, ps.player, slower, ACROBATICS, Expiry.END_OF_TURN))
        self.slow_next = False

    # --- Acrobatics (8, Combat Reveal) ------------------------------------------------------
    def _dodges(self, ps: PlayerState) -> list[Card]:
        return [c for c in _distinct(ps.hand) if not c.is_joker and has_dodge(ps, c)]

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window != "combat_reveal" or self.acrobatics_banned or self.slow_next \
                or not ctx.in_combat(ps):
            return []
        dodges = self._dodges(ps)
        return [UseAbility(ACROBATICS, c, (d,)) for c in _distinct(ps.hand)
                if c.rank is Rank.EIGHT for d in dodges if d is not c]

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        if window != "combat_reveal" or self.acrobatics_banned or self.slow_next \
                or not ctx.in_combat(ps):
            return False
        return ps.holds(Rank.EIGHT) and bool(self._dodges(ps))

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility):
            raise RuleViolation("INI-4", "play an ability or pass")
        if action in self.window_options(ctx, ps, window):
            return
        if action.ability != ACROBATICS:
            raise RuleViolation("AB-2", f"Vendetta has no ability {action.ability!r} to play "
                                        "here")
        if window != "combat_reveal":
            raise RuleViolation("WIN-REVEAL", "Acrobatics is played after the combat cards are "
                                              "revealed (Combat Reveal)")
        if not ctx.in_combat(ps):
            raise RuleViolation("TG-8", "Acrobatics can't be played from the bench or while "
                                        "assisting (its card says so; TG-8 c lets other "
                                        "abilities from hand work from the bench)")
        if self.acrobatics_banned:
            raise RuleViolation("AB-2", "Acrobatics: he can't play it the turn after an "
                                        "Acrobatics")
        if self.slow_next:
            raise RuleViolation("AB-2", "Acrobatics: this combat is already cancelled")
        if action.card is None or action.card.rank is not Rank.EIGHT:
            raise RuleViolation("AB-2", "Acrobatics is played with one of Vendetta's 8s")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        if action.option or len(action.cards) != 1:
            raise RuleViolation("AB-2", "Acrobatics: name the one dodge card discarded with it")
        d = action.cards[0]
        if d not in ps.hand:
            raise RuleViolation("AB-2", f"{d} is not in {ps.player.name}'s hand")
        raise RuleViolation("AB-2", f"Acrobatics costs a dodge: {d} has no dodge end")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility) and action.card is not None
        dodge = action.cards[0]
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)
        ctx.move(ps, dodge, Zone.HAND, Zone.DISCARD)  # the cost, paid
        if (yield from ctx.offer_counter(ps, ACROBATICS, action.card)):
            ctx.move(ps, dodge, Zone.DISCARD, Zone.HAND)  # CTR-3: the cost is refunded
            return
        for seat in (ps, ctx.opponent(ps)):
            ctx.void(seat, "AB-2", "discarded: card text cancelled the combat (Acrobatics)")
        ctx.end_combat()  # no winner, no damage
        ctx.skip_to_next_combat()
        self.slow_next = True

    # --- Carrion Reach, Wall Dive Loop ----------------------------------------------------
    def after_winner(self, ctx: AbilityContext, ps: PlayerState,
                     winner: PlayerState | None) -> Step:
        """C6: Carrion Reach — his normal attack won or was blocked: it returns at C13c."""
        if carrion_returns(ps, ctx.opponent(ps), winner) \
                and not (yield from ctx.offer_counter(ps, CARRION_REACH)):  # CTR-8
            ps.keep_combat_card = True

    def on_lock_in(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """C5: Wall Dive Loop — the opponent is knocked down: his combat K is speed 1.0."""
        c = ps.combat_card
        if c is not None and c.rank is Rank.KING and ps.combat_move is not None \
                and ctx.opponent(ps).knocked_down:
            def loop(seat: PlayerState, move: Move, speed: int) -> int:
                return LOOP_SPEED if move.rank is Rank.KING else speed

            ctx.add_modifier(Modifier(SPEED, ps.player, loop, WALL_DIVE_LOOP,
                                      Expiry.END_OF_COMBAT))
        return
        yield  # pragma: no cover

    reacts_to = frozenset({Hit})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        """Wall Dive Loop: a hit with his K returns it to his hand at the end of combat."""
        if not isinstance(event, Hit) or event.by is not ps.player:
            return
        if not event.combo:
            c = ps.combat_card
            if c is not None and c.rank is Rank.KING \
                    and not (yield from ctx.offer_counter(ps, WALL_DIVE_LOOP)):
                ps.keep_combat_card = True
        elif ctx.combo_of(ps) and ctx.combo_of(ps)[-1] is ctx.combo[-1]:  # his own move (a
            e = ctx.combo[-1]  # tag or an assist puts a partner's moves in the same combo)
            if e.card.rank is Rank.KING and e.played_in_c10 \
                    and not (yield from ctx.offer_counter(ps, WALL_DIVE_LOOP)):
                self.loop_cards.append(e.card)

    def end_of_combat(self, ctx: AbilityContext, ps: PlayerState,
                      winner: PlayerState | None) -> Step:
        """C13b: the Ks that hit as combo moves leave the combo area for his hand."""
        cards, self.loop_cards = self.loop_cards, []
        for c in cards:
            ctx.move(ps, c, Zone.COMBO, Zone.HAND)
        return
        yield  # pragma: no cover

    # --- the greedy bot ------------------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        mine = [a for a in legal if isinstance(a, UseAbility) and a.ability == ACROBATICS]
        if not mine:
            return None
        opp = ctx.opponent(ps)
        m = opp.combat_move
        if opp.kind not in (cb.ATTACK, cb.THROW) or m is None:
            return Pass()
        mine_speed = None if ps.combat_move is None else ps.combat_move.speed
        result = cb.resolve(ps.kind, mine_speed, opp.kind, m.speed, ctx.ruleset)
        loses = result.winner == 1
        c = opp.combat_card
        if loses and ((c is not None and c.is_ace) or m.damage >= 10 or m.damage >= ps.life):
            return mine[0]
        return Pass()
