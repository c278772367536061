"""Master Midori (2014 deck): innates Aspect of the Dragon and Defense Mastery, Dragon Form,
Glimpse of the Dragon (docs/rules/characters/midori.md; FR-MIDORI-1..3, M-DRAGON).

Glossary: *Dragon Form* = Midori's ongoing card (a 2 played at the draw phase) that lets him
play his *Dragon moves* (the moves whose ``requires`` is "Dragon Form": Toxic Breath, Dragon
Mountain, Talon Swoop, Final Dragon Buster); *in Dragon Form* = at least one Dragon Form in his
ongoing area, resolved. A *normal dodge* is a dodge whose card has no During Combat ability of
its owner (AB-3); Ghost Riposte (DeGrey A) and Blackjack (Lum A) are ability dodges.

Responsibility: Midori's ability hooks; each docstring names the step the game calls it at.
Decisions of this module's making (docs/rules/characters/midori.md, "Engine rulings"):

- Dragon Form ends at lock-in (C5) when the combat card Midori combat-revealed is a non-Dragon
  attack or throw (FR-MIDORI-2): also when that card is later void (an unpaid Wrath of Earth,
  CF-08). Being thrown ends it at once (C6, a hit-back, or a throw inside a combo).
- A second Dragon Form may be played while one is in play (no text forbids it); both end
  together.
- Glimpse of the Dragon needs Midori *not* in Dragon Form when it is played at C4; nothing can
  start or end Dragon Form between the reveal (C2) and C4, so this is the state at the reveal.
  The rotated card is a Dragon move, so Aspect's "Dragon attacks can't be dodged" holds for it.
- Aspect's anti-dodge clause voids the opponent's normal dodge (M-DRAGON -> M-VOID): the dodge
  is discarded at once and the opponent counts as no-card; the Dragon attack hits.
- Aspect's return "instead of drawing" is a choice at C8b (pass = draw as usual); blocking a
  Joker counts, blocking no-card does not.
"""

from __future__ import annotations

from collections.abc import Generator, Sequence
from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine import effects
from rules_engine.actions import Action, Draw, Pass, UseAbility
from rules_engine.cards import Card, Move, Rank
from rules_engine.characters import CharacterRules
from rules_engine.combat import CombatResult
from rules_engine.errors import RuleViolation
from rules_engine.journal import Thrown
from rules_engine.state import Trigger, Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.journal import Event
    from rules_engine.state import Decision, PlayerState, Step
    from rules_engine.types import PlayerId

DRAGON_FORM = "Dragon Form"
GLIMPSE = "Glimpse of the Dragon"
ASPECT = "Aspect of the Dragon"
DEFENSE_MASTERY = "Defense Mastery"


def _distinct(cards: Sequence[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def is_dragon_move(move: Move | None) -> bool:
    """A Dragon move: legal only in Dragon Form (its ``requires``)."""
    return move is not None and move.requires == DRAGON_FORM


def is_normal_dodge(ps: PlayerState) -> bool:
    """``ps``'s locked-in dodge is a normal dodge: its card's rank carries no During Combat
    ability of ``ps``'s character (AB-3; midori.md: Ghost Riposte and Blackjack are not normal
    dodges)."""
    c = ps.combat_card
    if ps.kind != cb.DODGE or c is None or c.rank is None:
        return False
    return not any(a.rank is c.rank and a.timing == "during_combat"
                   for a in ps.character.abilities)


def defense_mastery(attacker: PlayerState) -> bool:
    """Defense Mastery (Midori, Rook, Troq): "Opponents don't draw when you block their normal
    attacks" — true when the attacker's locked-in action is a normal attack (the C7 draw)."""
    m = attacker.combat_move
    return attacker.kind == cb.ATTACK and m is not None and m.is_normal_attack


_AFTER_C6 = frozenset({"C7", "C8", "C9", "C10", "C11", "C12", "C13"})


def defense_mastery_broken(ctx: AbilityContext, blocker: PlayerState, player: PlayerId,
                           action: Action) -> RuleViolation | None:
    """A diagnosis (``CharacterRules.rule_broken``): ``player`` records a draw that Defense
    Mastery took away: ``blocker``'s block beat their normal attack this combat (C7)."""
    attacker = ctx.opponent(blocker)
    if not isinstance(action, Draw) or player is not attacker.player \
            or ctx.step not in _AFTER_C6 or blocker.kind != cb.BLOCK \
            or attacker.hit_this_combat or not defense_mastery(attacker):
        return None
    return RuleViolation("AB-1", f"Defense Mastery: {blocker.character.name}'s block beat "
                                 f"{player.name}'s normal attack, and opponents don't draw when "
                                 f"{blocker.character.name} blocks their normal attacks (no C7 "
                                 "draw)")


class MidoriRules(CharacterRules):
    """Midori with every ability implemented.

    Greedy heuristic (:meth:`bot_choice`): play Dragon Form whenever he is not in it and
    holds a 2 (it only adds moves); play Glimpse of the Dragon whenever it is playable (every
    Dragon end is faster or stronger than its plain end: Toxic Breath 9 vs Whirlwind 8, Dragon
    Mountain 0.6/14 vs Rising Mountain 1.2/10, Talon Swoop 1.8/17 vs Rushing River 4.4/12);
    with Aspect, return the highest card of the discard pile instead of drawing when it is a
    face card or an Ace (a known strong card beats a random draw), else draw.
    """

    abilities_implemented = True

    # --- windows: Dragon Form (2, Draw Phase), Glimpse of the Dragon (10, Combat Reveal) -----
    def _glimpse_possible(self, ps: PlayerState) -> bool:
        """Glimpse's condition: a combat-revealed face card on its non-Dragon end, its other
        end a Dragon move, and Midori not in Dragon Form."""
        c, m = ps.combat_card, ps.combat_move
        if c is None or m is None or c.rank is None or not c.rank.is_face:
            return False  # "Aces aren't face cards"
        if ps.revealed_card is not c or is_dragon_move(m):
            return False
        if effects.is_active(ps, DRAGON_FORM):
            return False
        return any(is_dragon_move(o) for o in ps.character.moves_of(c))

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window == "draw_phase":
            return [UseAbility(DRAGON_FORM, c) for c in _distinct(ps.hand) if c.rank is Rank.TWO]
        if window == "combat_reveal" and self._glimpse_possible(ps):
            return [UseAbility(GLIMPSE, c) for c in _distinct(ps.hand) if c.rank is Rank.TEN]
        return []

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        if window == "draw_phase":
            return ps.holds(Rank.TWO)
        if window == "combat_reveal":
            return ps.holds(Rank.TEN) and self._glimpse_possible(ps)
        return False

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility):
            raise RuleViolation("INI-4", "play an ability or pass")
        if action in self.window_options(ctx, ps, window):
            return
        if action.ability == DRAGON_FORM:
            if window != "draw_phase":
                raise RuleViolation("WIN-DRAW", "Dragon Form is played right after the draw "
                                                "phase (Draw Phase)")
            rank = Rank.TWO
        elif action.ability == GLIMPSE:
            if window != "combat_reveal":
                raise RuleViolation("WIN-REVEAL", "Glimpse of the Dragon is played after the "
                                                  "combat cards are revealed (Combat Reveal)")
            rank = Rank.TEN
        else:
            raise RuleViolation("AB-2", f"Midori has no ability {action.ability!r} to play here")
        if action.card is None or action.card.rank is not rank:
            raise RuleViolation("AB-2", f"{action.ability} is played with one of Midori's "
                                        f"{rank.code}s")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        if action.cards or action.option:
            raise RuleViolation("AB-2", f"{action.ability} takes no other choice")
        # Glimpse with a card in hand in the right window: its condition does not hold.
        if effects.is_active(ps, DRAGON_FORM):
            raise RuleViolation("AB-2", "Glimpse of the Dragon: only while not in Dragon Form")
        raise RuleViolation("AB-2", "Glimpse of the Dragon needs a combat-revealed face card "
                                    "(J, Q or K; Aces aren't face cards) on its non-Dragon end")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility) and action.card is not None
        if action.ability == DRAGON_FORM:
            # AB-2 / AB-4: it stays in play; countered only now (CTR-4, FR-MIDORI-3).
            yield from effects.play_ongoing(ctx, ps, action.card, DRAGON_FORM,
                                            ends_on={Trigger.THROWN})
            return
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2: paid, discarded
        countered = yield from ctx.offer_counter(ps, GLIMPSE)
        if not countered:
            ctx.rotate(ps)  # the Dragon end faces the opponent now (AB-9: no Ace cost)

    # --- Dragon Form's endings (FR-MIDORI-2) ------------------------------------------
    def _end_form(self, ctx: AbilityContext, ps: PlayerState) -> None:
        for effect in [e for e in ps.ongoing if e.name == DRAGON_FORM and e.resolved]:
            effects.end(ctx, ps, effect)

    def on_lock_in(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """C5: Dragon Form is discarded if Midori combat-revealed a non-Dragon attack or throw
        (a block, a dodge, a Joker or no-card does not end it, FR-MIDORI-2)."""
        if effects.is_active(ps, DRAGON_FORM) and self._revealed_plain_strike(ps):
            self._end_form(ctx, ps)
        return
        yield  # pragma: no cover

    @staticmethod
    def _revealed_plain_strike(ps: PlayerState) -> bool:
        if ps.combat_move is not None:
            return ps.combat_move.is_attack_or_throw and not is_dragon_move(ps.combat_move)
        c = ps.revealed_card  # void since the reveal (an unpaid Ace, CF-08)
        if c is None or ps.revealed_kind not in (cb.ATTACK, cb.THROW):
            return False
        return any(cb.KIND_OF_MOVE[m.type] == ps.revealed_kind and not is_dragon_move(m)
                   for m in ps.character.moves_of(c))

    reacts_to = frozenset({Thrown})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        """Thrown by a throw inside a combo (not the combat card or a hit-back, which end it
        through its trigger at once): "discard this if you get thrown" (AR-THR-2)."""
        if isinstance(event, Thrown) and event.seat is ps.player:
            self._end_form(ctx, ps)
        return
        yield  # pragma: no cover

    # --- Aspect of the Dragon: Dragon attacks can't be dodged (FR-MIDORI-1, M-DRAGON) ------
    def combat_override(self, ctx: AbilityContext, ps: PlayerState, a: PlayerState,
                        b: PlayerState, result: CombatResult) -> CombatResult | None:
        """C6: Midori's Dragon attack against a normal dodge: the dodge is void (discarded,
        no-card) and the attack hits (M-DRAGON, M-VOID)."""
        opp = ctx.opponent(ps)
        if ps.kind != cb.ATTACK or not is_dragon_move(ps.combat_move) \
                or not is_normal_dodge(opp):
            return None
        ctx.void(opp)
        return CombatResult(0 if ps is a else 1, False, "M-DRAGON")

    # --- Defense Mastery (C7) -----------------------------------------------------------
    def rule_broken(self, ctx: AbilityContext, ps: PlayerState, player: PlayerId,
                    action: Action) -> RuleViolation | None:
        """Defense Mastery took the attacker's draw away (a diagnosis' question)."""
        return defense_mastery_broken(ctx, ps, player, action) \
            or super().rule_broken(ctx, ps, player, action)

    def normal_draw_prevented(self, ctx: AbilityContext, blocker: PlayerState,
                              attacker: PlayerState) -> bool:
        """Opponents don't draw when Midori blocks their normal attacks."""
        return defense_mastery(attacker)

    # --- Aspect of the Dragon: the block return (C8b) -----------------------------------
    def replace_block_draw(self, ctx: AbilityContext, blocker: PlayerState,
                           attacker: PlayerState) -> Generator[Decision,
                                                               tuple[PlayerId, Action], bool]:
        """Blocking an attack or a Joker in Dragon Form, Midori may return a non-Joker card
        from his discard pile to his hand instead of drawing (``pass`` = draw)."""
        if attacker.kind not in (cb.ATTACK, cb.JOKER) \
                or not effects.is_active(blocker, DRAGON_FORM):
            return False
        returnable = [c for c in _distinct(blocker.discard) if not c.is_joker]
        if not returnable:
            return False

        def check(player: PlayerId, a: Action) -> None:
            if isinstance(a, Pass):
                return
            if not isinstance(a, UseAbility) or a.ability != ASPECT or len(a.cards) != 1 \
                    or a.card is not None or a.option:
                raise RuleViolation("AB-1", "Aspect of the Dragon: name one card of the discard "
                                            "pile to return instead of drawing, or pass (draw)")
            c = a.cards[0]
            if c.is_joker:
                raise RuleViolation("AB-1", "Aspect of the Dragon returns a non-Joker card")
            if c not in blocker.discard:
                raise RuleViolation("AB-1", f"{c} is not in {player.name}'s discard pile")

        _, a = yield from ctx.ask(
            (blocker.player,), "AB-1", check,
            lambda p: [Pass(), *(UseAbility(ASPECT, cards=(c,)) for c in returnable)])
        if not isinstance(a, UseAbility):
            return False
        # the counter policy refuses every counter (CTR-8; FR-SETSUKI-1 under the first-edition
        # reading): "can't be countered" was printed on his first-edition character card
        if (yield from ctx.offer_counter(blocker, ASPECT)):
            return False  # pragma: no cover - never countered
        ctx.move(blocker, a.cards[0], Zone.DISCARD, Zone.HAND)
        return True

    # --- the greedy bot -----------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        mine = [a for a in legal if isinstance(a, UseAbility)
                and a.ability in (DRAGON_FORM, GLIMPSE, ASPECT)]
        if not mine:
            return None
        glimpse = [a for a in mine if a.ability == GLIMPSE]
        if glimpse:
            return glimpse[0]
        forms = [a for a in mine if a.ability == DRAGON_FORM]
        if forms:
            return forms[0] if not effects.is_active(ps, DRAGON_FORM) else Pass()
        best = max((a for a in mine if a.ability == ASPECT),
                   key=lambda a: int(a.cards[0].rank or 0))
        rank = best.cards[0].rank
        return best if rank is not None and rank >= Rank.JACK else Pass()

