"""Jaina Stormborne (2014 deck): innates Burning Vigor and Burning Desperation, Unstable Power,
Smoldering Embers (docs/rules/characters/jaina.md; the 2014 card text wins over the
1st-edition FAQ).

Glossary: *combo cards* (Burning Vigor) = the cards of Jaina's combo this combat: her attack
combat card (even one that did not hit, FR-JAINA-2), her combo moves, the cards that pumped them
(CF-03 ``pumpCardsInCombo``) and the Aces that paid their mandatory costs (FR-JAINA-2's two-Ace
"Letter J"). *Rotate* = turn the combat card 180 degrees so its other end faces the opponent.

Responsibility: Jaina's ability hooks. Decisions of this module's making:
- Unstable Power resolves at end of combat (C13, before Burning Vigor): "this combat" is over.
- "Rotate your combat-revealed attack" (2014 text): only the card revealed at C2 as an attack,
  once per Unstable Power played this turn. The first-edition FAQ reading (FR-JAINA-9, written
  for the older wording: a revealed dodge may be rotated into an attack) is the ruleset option
  ``unstablePowerRotation=ANY_CARD_WITH_ATTACK``.
- Smoldering Embers acts for every copy in her discard pile however it got there (discarded as
  a combat card, a pump or a cost, or played at Combat Reveal, countered or not): its text is a
  condition on the card being in the discard pile, not a trigger on playing it, and FR-JAINA-10
  says every copy there triggers (docs/rules/characters/jaina.md, "Engine rulings").
"""

from __future__ import annotations

from itertools import combinations
from typing import TYPE_CHECKING, Any

from rules_engine import combat as cb
from rules_engine.actions import Action, Pass, UseAbility
from rules_engine.cards import Card, Character, Move, MoveType, Rank
from rules_engine.characters import CharacterRules
from rules_engine.errors import RuleViolation
from rules_engine.modifiers import MOVE_ALLOWED, POWER_UP_WITH, Expiry, Modifier
from rules_engine.ruleset import UnstablePowerRotation
from rules_engine.state import Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.state import PlayerState, Step
    from rules_engine.types import PlayerId

BURNING_VIGOR = "Burning Vigor"
UNSTABLE_POWER = "Unstable Power"
SMOLDERING_EMBERS = "Smoldering Embers"
DESPERATION_LIFE = 35


def _distinct(cards: list[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def _not_a_ten(ps: PlayerState, card: Card, allowed: bool) -> bool:
    return allowed and card.rank is not Rank.TEN


def _no_aces(ps: PlayerState, subject: tuple[Move, str],
             violation: RuleViolation | None) -> RuleViolation | None:
    """Unstable Power: "You can't play Aces this turn" (combat cards and combo moves)."""
    move, _step = subject
    if violation is None and move.rank is Rank.ACE:
        return RuleViolation("GEN-1", "Unstable Power: Jaina can't play Aces this turn")
    return violation


class JainaRules(CharacterRules):
    """Jaina with every ability implemented."""

    abilities_implemented = True

    def __init__(self, character: Character) -> None:
        super().__init__(character)
        self.unstable_pending = 0  # Unstable Powers resolved this turn, awaiting end of combat
        self.rotations = 0  # rotations still allowed this turn

    def start_of_turn(self, ctx: AbilityContext, ps: PlayerState) -> None:
        self.unstable_pending, self.rotations = 0, 0

    def modifiers(self, seat: PlayerId) -> list[Modifier[Any]]:
        """Smoldering Embers: "You can't power up with this card" (every Jaina 10)."""
        return [Modifier(POWER_UP_WITH, seat, _not_a_ten, SMOLDERING_EMBERS)]

    # --- windows ----------------------------------------------------------------------
    def _can_rotate(self, ctx: AbilityContext, ps: PlayerState) -> bool:
        """Unstable Power: "you may rotate your combat-revealed attack". By default (the 2014
        text) only a card revealed at C2 as an attack; ``opt.unstablePowerRotation=
        ANY_CARD_WITH_ATTACK`` follows the first-edition FAQ (FR-JAINA-9: a revealed dodge may
        be turned into an attack)."""
        c = ps.combat_card
        if self.rotations <= 0 or c is None or c.is_joker or ps.combat_move is None:
            return False
        if ctx.ruleset.unstablePowerRotation is UnstablePowerRotation.REVEALED_ATTACK and not (
                ps.revealed_kind == cb.ATTACK and c is ps.revealed_card):
            return False
        moves = ps.character.moves_of(c)
        return len(moves) == 2 and any(m.type is MoveType.ATTACK for m in moves) and all(
            m.requires is None for m in moves)

    def _why_no_rotation(self, ctx: AbilityContext, ps: PlayerState) -> str:
        c = ps.combat_card
        if self.rotations <= 0:
            return ("Unstable Power: no rotation is available now (play Unstable Power in the "
                    "draw phase first; each one allows one rotation this turn)")
        if c is None or c.is_joker or ps.combat_move is None:
            return "Unstable Power: there is no combat card with two ends to rotate"
        if ps.revealed_kind != cb.ATTACK or c is not ps.revealed_card:
            kind = "no-card" if ps.revealed_kind == cb.NONE else ps.revealed_kind
            return (f"Unstable Power rotates only Jaina's combat-revealed attack (2014 card "
                    f"text); {c} was revealed as {kind}")
        return "Unstable Power: the combat card needs an attack end to rotate"

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        return bool(self.window_options(ctx, ps, window))

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window == "draw_phase":
            return [UseAbility(UNSTABLE_POWER, c) for c in _distinct(ps.hand)
                    if c.rank is Rank.SEVEN]
        if window == "combat_reveal":
            out: list[Action] = [UseAbility(SMOLDERING_EMBERS, c) for c in _distinct(ps.hand)
                                 if c.rank is Rank.TEN]
            if self._can_rotate(ctx, ps):
                out.append(UseAbility(UNSTABLE_POWER, option="rotate"))
            return out
        return []

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility):
            raise RuleViolation("INI-4", "play an ability or pass")
        if action not in self.window_options(ctx, ps, window):
            if action.ability == UNSTABLE_POWER and action.option == "rotate":
                raise RuleViolation("AB-9", self._why_no_rotation(ctx, ps))
            if action.card is not None and action.card not in ps.hand:
                raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
            timing = {UNSTABLE_POWER: "WIN-DRAW", SMOLDERING_EMBERS: "WIN-REVEAL"}
            raise RuleViolation(timing.get(action.ability, "AB-2"),
                                f"{action.ability!r} cannot be played in this window")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility)
        if action.option == "rotate":
            # FR-JAINA-7/8: no Ace cost is charged or refunded (AB-9); pumps of the new end
            # may still be paid.
            ctx.rotate(ps)
            self.rotations -= 1
            return
        assert action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2
        countered = yield from ctx.offer_counter(ps, action.ability, action.card)
        if countered or action.ability == SMOLDERING_EMBERS:
            return  # Embers acts from the discard pile (on_lock_in), countered or not
        # Unstable Power (Draw Phase): knocked-down opponents stand up; no Aces this turn.
        ctx.stand_up(ctx.opponent(ps))
        ctx.add_modifier(Modifier(MOVE_ALLOWED, ps.player, _no_aces, UNSTABLE_POWER,
                                  Expiry.END_OF_TURN))
        self.rotations += 1
        self.unstable_pending += 1

    # --- Smoldering Embers (10) ---------------------------------------------------------
    def on_lock_in(self, ctx: AbilityContext, ps: PlayerState) -> Step:
        """Whenever the opponent dodges, each Smoldering Embers in Jaina's discard pile deals 2
        (FR-JAINA-10). A void dodge (knocked down) is no dodge (M-VOID)."""
        opp = ctx.opponent(ps)
        if opp.kind == cb.DODGE:
            embers = sum(1 for c in ps.discard if c.rank is Rank.TEN)
            if embers:
                ctx.damage(opp, 2 * embers, ps)
        return
        yield  # pragma: no cover

    # --- end of combat: Unstable Power, then Burning Vigor -----------------------------
    def end_of_combat(self, ctx: AbilityContext,
                      ps: PlayerState, winner: PlayerState | None) -> Step:
        for _ in range(self.unstable_pending):
            if ps.hit_this_combat:
                yield from ctx.search(ps, 2, "C13")
            else:
                ctx.damage(ps, 7, ps)
        self.unstable_pending = 0
        yield from self._burning_vigor(ctx, ps, winner)

    def returnable(self, ctx: AbilityContext,
                   ps: PlayerState, winner: PlayerState | None) -> list[Card]:
        """Burning Vigor / Burning Desperation: the combo cards Jaina may take back now."""
        if ps.kind != cb.ATTACK:
            return []  # FR-JAINA-4, AB-8: only if attack was the locked-in combat action
        cards: list[Card] = []
        if ps.combat_card is not None:
            cards.append(ps.combat_card)
        if winner is ps:
            # her own moves only: after a tag or an assist the combo holds her partner's
            # moves too, cards of the partner's deck (Tag Team)
            for e in ctx.combo_of(ps):
                if e.played_in_c10 and not e.returned:
                    cards.append(e.card)
                if ctx.ruleset.pumpCardsInCombo:
                    cards += [c for c in e.pumps if c in ps.discard]
        cards += [c for c in ps.paid_this_combat if c in ps.discard]
        desperate = ps.life <= DESPERATION_LIFE
        return [c for c in _distinct(cards)
                if desperate or c.rank not in (Rank.QUEEN, Rank.ACE)]

    def _burning_vigor(self, ctx: AbilityContext,
                       ps: PlayerState, winner: PlayerState | None) -> Step:
        candidates = self.returnable(ctx, ps, winner)
        if not candidates:
            return

        def check(player: PlayerId, a: Action) -> None:
            if isinstance(a, Pass):
                return
            if not isinstance(a, UseAbility) or a.ability != BURNING_VIGOR or not a.cards:
                raise RuleViolation("AB-1", "Burning Vigor: name the combo cards to return, "
                                            "or pass")
            if len(set(a.cards)) != len(a.cards):
                raise RuleViolation("AB-1", "the same card is named twice")
            for c in a.cards:
                if c not in candidates:
                    why = ("Queens and Aces return only at 35 life or less (Burning Desperation)"
                           if c.rank in (Rank.QUEEN, Rank.ACE) else
                           "it is not one of her combo cards this combat")
                    raise RuleViolation("AB-1", f"{c} cannot be returned: {why}")

        def options(p: PlayerId) -> list[Action]:
            out: list[Action] = [Pass()]
            for k in range(1, len(candidates) + 1):
                out += [UseAbility(BURNING_VIGOR, cards=cs)
                        for cs in combinations(candidates, k)]
            return out

        _, a = yield from ctx.ask((ps.player,), "AB-1", check, options)
        if not isinstance(a, UseAbility):
            return
        # CTR-6 / CTR-8: counterable as she announces the returns, by Smoke Bomb only and only
        # under opt.innateCounters=FIRST_EDITION_FAQ (one activation a combat, so one a turn)
        if (yield from ctx.offer_counter(ps, BURNING_VIGOR)):
            return
        damage = 0
        for c in a.cards:
            damage += 4 if c.rank in (Rank.QUEEN, Rank.ACE) else 3
            if c is ps.combat_card:
                ctx.move(ps, c, Zone.COMBAT, Zone.HAND)
            elif c in ps.discard:
                ctx.move(ps, c, Zone.DISCARD, Zone.HAND)
            else:
                ctx.move(ps, c, Zone.COMBO, Zone.HAND)
        ctx.damage(ps, damage, ps)  # FR-JAINA-6: Rewind Time never stops this
