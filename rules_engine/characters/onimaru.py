"""General Onimaru (2014 deck): innate Guard Crush, General's Armor (5), Final Authority (9),
Clockwork Formation (A) (docs/rules/characters/onimaru.md).

Glossary: *special block* = a block on a card whose rank prints a During Combat ability of its
owner (Stone Wall, Entangling Vines, Gloria's Remedy); a *face card* is a J, Q or K (Aces
aren't face cards); *attached Aces* = cards Clockwork Formation put on Onimaru's character card
(the Clockwork Soldiers Ace and up to three more).

Responsibility: Onimaru's ability hooks. Decisions of this module's making
(docs/rules/characters/onimaru.md, "Engine rulings"):
- Guard Crush (C6): his normal attack against a normal block whose card's rank is equal or
  lower than his attack card's wins (the attack hits); special blocks block as usual.
- General's Armor (C6): his 5's attack that a faster normal attack without knockdown would
  beat wins instead; that attack still hits him (``also_hits``).
- Final Authority: Combat Reveal, with a 9 from hand and one more card of his attack card's
  suit, when he combat-revealed a face-card attack; not counterable. Then this combat his face
  card beats every other attack (the cell ``M-FINAL-AUTHORITY``; two Final Authority attacks
  tie: both hit) and knocks down.
- Clockwork Formation: when he won combat with Clockwork Soldiers (it hit; its C8c damage
  dealt), at C13b he attaches it and up to three Aces from hand (``ability`` naming them, none
  allowed); whenever a face card of his hits (C6, or a hit-back), the oldest attached Ace is
  discarded and the opponent takes 15 (ability damage); whenever his face card is blocked, the
  oldest attached Ace is discarded.
"""

from __future__ import annotations

import dataclasses
from collections.abc import Sequence
from itertools import combinations
from typing import TYPE_CHECKING, Any, ClassVar

from rules_engine import combat as cb
from rules_engine import effects
from rules_engine.actions import Action, Pass, UseAbility
from rules_engine.cards import Card, Move, Rank
from rules_engine.characters import CharacterRules
from rules_engine.combat import CombatResult
from rules_engine.errors import RuleViolation
from rules_engine.journal import Blocked, DamageDealt, Hit
from rules_engine.modifiers import COMBO_MOVE, Expiry, Modifier
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.journal import Event
    from rules_engine.state import PlayerState, Step
    from rules_engine.types import PlayerId

GUARD_CRUSH = "Guard Crush"
GENERALS_ARMOR = "General's Armor"
FINAL_AUTHORITY = "Final Authority"
CLOCKWORK_FORMATION = "Clockwork Formation"
CLOCKWORK_SOLDIERS = "Clockwork Soldiers"
CLOCKWORK_DAMAGE = 15
FORMATION_ACES = 3
AUTHORITY_CELL = "M-FINAL-AUTHORITY"
AUTHORITY_TIE = "M-FINAL-AUTHORITY-TIE"
FACES = (Rank.JACK, Rank.QUEEN, Rank.KING)


def _distinct(cards: Sequence[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def _is_face(c: Card | None) -> bool:
    return c is not None and c.rank in FACES


def is_special_block(ps: PlayerState) -> bool:
    """``ps``'s block card's rank prints a During Combat ability of ``ps``'s character."""
    c = ps.combat_card
    return c is not None and c.rank is not None and any(
        a.rank is c.rank and a.timing == "during_combat" for a in ps.character.abilities)


def _knocks_down(ps: PlayerState, move: Move, value: Move) -> Move:
    """Final Authority: his face card knocks down (as it plays in the combo, C13a)."""
    return dataclasses.replace(value, knockdown=True) if value.rank in FACES else value


class OnimaruRules(CharacterRules):
    """Onimaru with every ability implemented.

    Greedy heuristic (:meth:`bot_choice`, BOT-ONIMARU): Final Authority only when the
    opponent's attack is faster than his face card (it turns a lost combat into a win), paying
    with the lowest card of the suit; after Clockwork Soldiers hits, attach as many Aces as he
    can.
    """

    abilities_implemented = True
    ability_notes: ClassVar[dict[str, str]] = {
        GUARD_CRUSH: "His normal attack cannot be blocked by a card of equal or lower rank, "
                     "unless it is a block with its own ability (Stone Wall, Gloria's Remedy, "
                     "...): against such a normal block the attack hits.",
        GENERALS_ARMOR: "His 5's attack that a faster normal attack without knockdown would "
                        "beat wins combat instead; that attack still hits him for its damage.",
        FINAL_AUTHORITY: "Combat Reveal, when he revealed a face-card attack: discard this 9 "
                         "and one more card of his attack card's suit. This combat his face "
                         "card beats every other attack (two Final Authorities tie) and "
                         "knocks down. Cannot be countered.",
        CLOCKWORK_FORMATION: "When he won combat and Clockwork Soldiers dealt damage (a hit "
                             "whose damage was taken away does not count): at the end of combat "
                             "he attaches it and up to three Aces from hand. Whenever his face "
                             "card hits, one attached Ace is discarded and the opponent takes "
                             "15; whenever his face card is blocked, one attached Ace is "
                             "discarded.",
    }

    def __init__(self, character: Any) -> None:
        super().__init__(character)
        self.authority = False  # Final Authority resolved this combat

    def position_key(self) -> str:
        return "authority" if self.authority else ""

    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        self.authority = False

    # --- C6: Final Authority, Guard Crush, General's Armor ---------------------------------
    def combat_override(self, ctx: AbilityContext, ps: PlayerState, a: PlayerState,
                        b: PlayerState, result: CombatResult) -> CombatResult | None:
        opp = ctx.opponent(ps)
        me = 0 if ps is a else 1
        m, c = ps.combat_move, ps.combat_card
        if ps.kind != cb.ATTACK or m is None or c is None or c.rank is None:
            return None
        if self.authority and _is_face(c) and opp.kind == cb.ATTACK:
            if result.cell == AUTHORITY_CELL and result.winner != me:
                return CombatResult(None, True, AUTHORITY_TIE)  # the other Final Authority
            return CombatResult(me, False, AUTHORITY_CELL)
        if result.winner is None or result.winner == me:
            return None
        oc, om = opp.combat_card, opp.combat_move
        if opp.kind == cb.BLOCK and m.is_normal_attack and oc is not None \
                and oc.rank is not None and oc.rank <= c.rank and not is_special_block(opp):
            return CombatResult(me, False, result.cell)  # Guard Crush
        if c.rank is Rank.FIVE and opp.kind == cb.ATTACK and om is not None \
                and om.is_normal_attack and not om.knockdown:
            return CombatResult(me, False, result.cell, also_hits=True)  # General's Armor
        return None

    # --- Final Authority (9, Combat Reveal) ------------------------------------------------
    def _authority_possible(self, ps: PlayerState) -> bool:
        c = ps.combat_card
        return (not self.authority and ps.kind == cb.ATTACK and _is_face(c)
                and ps.revealed_card is c)

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window != "combat_reveal" or not self._authority_possible(ps):
            return []
        attack = ps.combat_card
        assert attack is not None
        out: list[Action] = []
        for nine in (x for x in _distinct(ps.hand) if x.rank is Rank.NINE):
            for x in _distinct(ps.hand):
                if x is not nine and not x.is_joker and x.suit is attack.suit:
                    out.append(UseAbility(FINAL_AUTHORITY, nine, (x,)))
        return out

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        return bool(self.window_options(ctx, ps, window))

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility):
            raise RuleViolation("INI-4", "play an ability or pass")
        if action in self.window_options(ctx, ps, window):
            return
        if action.ability != FINAL_AUTHORITY:
            raise RuleViolation("AB-2", f"Onimaru has no ability {action.ability!r} to play "
                                        "here")
        if window != "combat_reveal":
            raise RuleViolation("WIN-REVEAL", "Final Authority is played after the combat "
                                              "cards are revealed (Combat Reveal)")
        if action.card is None or action.card.rank is not Rank.NINE \
                or action.card not in ps.hand:
            raise RuleViolation("AB-2", "Final Authority is played with a 9 from Onimaru's "
                                        "hand")
        if not self._authority_possible(ps):
            raise RuleViolation("AB-2", "Final Authority needs a combat-revealed face-card "
                                        "attack (J, Q or K; Aces aren't face cards)")
        raise RuleViolation("AB-2", "Final Authority costs one more card from hand of the suit "
                                    "of his attack card")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility) and action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)
        ctx.move(ps, action.cards[0], Zone.HAND, Zone.DISCARD)
        # "This can't be countered": the counter policy refuses every counter (CTR-5)
        if (yield from ctx.offer_counter(ps, FINAL_AUTHORITY, action.card)):
            return  # pragma: no cover - never countered
        self.authority = True
        ctx.add_modifier(Modifier(COMBO_MOVE, ps.player, _knocks_down, FINAL_AUTHORITY,
                                  Expiry.END_OF_COMBAT))

    # --- Clockwork Formation ---------------------------------------------------------------
    @staticmethod
    def _spend_ace(ctx: AbilityContext, ps: PlayerState) -> bool:
        aces = [x for x in ps.attached if x.is_ace]
        if not aces:
            return False
        effects.detach(ctx, ps, aces[0], None)  # to the discard pile
        return True

    reacts_to = frozenset({Hit, Blocked})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        if isinstance(event, Hit) and event.by is ps.player:
            combo = ctx.combo
            card = ps.combat_card if event.step == "C6" or not combo else combo[-1].card
            if _is_face(card) and self._spend_ace(ctx, ps):
                ctx.damage(ctx.opponent(ps), CLOCKWORK_DAMAGE, ps)
        elif isinstance(event, Blocked) and event.attacker is ps.player \
                and _is_face(ps.combat_card):
            self._spend_ace(ctx, ps)
        return
        yield  # pragma: no cover

    @staticmethod
    def _soldiers_dealt_damage(ctx: AbilityContext, ps: PlayerState) -> bool:
        """"Clockwork Soldiers deals damage": the opponent took its combat damage this combat
        (C8c), not merely a hit whose damage card text took away (Bubble Shield)."""
        return any(e.source is ps.player and e.kind == "combat" and e.step == "C8"
                   and e.turn == ctx.turn and e.amount > 0
                   for e in ctx.journal.of(DamageDealt))

    def end_of_combat(self, ctx: AbilityContext, ps: PlayerState,
                      winner: PlayerState | None) -> Step:
        """C13b: Clockwork Soldiers won and dealt its damage: attach it and up to three Aces."""
        self.authority = False
        c, m = ps.combat_card, ps.combat_move
        if winner is not ps or c is None or m is None or m.name != CLOCKWORK_SOLDIERS \
                or not self._soldiers_dealt_damage(ctx, ps):
            return
        aces = [x for x in _distinct(ps.hand) if x.is_ace]
        options: list[Action] = [UseAbility(CLOCKWORK_FORMATION, cards=chosen)
                                 for n in range(min(FORMATION_ACES, len(aces)) + 1)
                                 for chosen in combinations(aces, n)]
        picked: tuple[Card, ...] = ()
        if len(options) > 1:
            def check(player: PlayerId, a: Action) -> None:
                if not isinstance(a, UseAbility) or a.ability != CLOCKWORK_FORMATION \
                        or a.card is not None or a.option:
                    raise RuleViolation("AB-3", "Clockwork Formation: name the Aces to attach "
                                                "(up to three, none allowed)")
                if len(a.cards) > FORMATION_ACES or len(set(a.cards)) != len(a.cards):
                    raise RuleViolation("AB-3", "Clockwork Formation attaches up to three "
                                                "different Aces")
                for x in a.cards:
                    if not x.is_ace or x not in ps.hand:
                        raise RuleViolation("AB-3", f"{x} is not an Ace in {player.name}'s "
                                                    "hand")

            _, a = yield from ctx.ask((ps.player,), "AB-3", check, lambda p: options)
            assert isinstance(a, UseAbility)
            picked = a.cards
        effects.attach(ctx, ps, c, None, source=Zone.COMBAT)
        for x in picked:
            effects.attach(ctx, ps, x, None, source=Zone.HAND)

    # --- the greedy bot ---------------------------------------------------------------------
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        mine = [a for a in legal if isinstance(a, UseAbility)]
        formation = [a for a in mine if a.ability == CLOCKWORK_FORMATION]
        if formation:
            return max(formation, key=lambda a: len(a.cards))
        authority = [a for a in mine if a.ability == FINAL_AUTHORITY]
        if not authority:
            return None
        opp = ctx.opponent(ps)
        mine_speed, theirs = ctx.speed(ps), ctx.speed(opp)
        losing = opp.kind == cb.ATTACK and mine_speed is not None and theirs is not None \
            and theirs < mine_speed
        if not losing:
            return Pass() if Pass() in legal else None
        return min(authority, key=lambda a: int(a.cards[0].rank or 99))
