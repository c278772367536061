"""Valerie Rose (2014 deck): the innate Agile Hands, Bold Strokes, Burst of Speed, Splash of
Color and Unbounded Creativity (docs/rules/characters/valerie.md; FR-VALERIE-1..4, CH-6,
CB-15).

Glossary: a *normal attack* is the attack end of a 2..6 (combo type Normal); *Agile Hands*
lets Valerie play normal attacks after one another in any order (the CT-NORMAL "one rank
higher" rule does not bind her, CB-15) and counts any back-to-back normal attacks as a chain for
Power Up (CH-6). A card's *colour* is its suit's: Hearts and Diamonds red, Clubs and Spades
black.

Responsibility: Valerie's ability hooks; each docstring names the step the game calls it at.
Decisions of this module's making (docs/rules/characters/valerie.md, "Engine rulings"):

- Bold Strokes (7, Combat Reveal): +1 to the hit damage of every normal attack of hers this
  turn — the combat card's (C8c, also in a speed tie) and each combo entry's (C12) — not to
  block damage; then she draws. It is counterable (CTR-2) like every card ability; countered,
  neither happens.
- Burst of Speed (10, Combat Reveal): playable only when her combat action is an attack or a
  throw. Each resolved Burst makes it 2.0 faster but never faster than 1.0 (a move already at
  1.0 or faster keeps its speed) — the 2014 text, the default. ``opt.burstOfSpeed=FLOOR_0_0`` is
  the first-edition FAQ ruling FR-VALERIE-2 (2.2 -> 0.2 -> 0.0). It lasts for this combat.
- Splash of Color (K): when her K attack is the combat card and the opponent's block card is of
  the other colour, the block fails: the attack wins and hits (as against no block). A block of
  the same colour blocks as usual. In a combo the K is never blocked, so nothing changes there.
- Unbounded Creativity (A): each hit with an Ace of hers as the combat card (C6) or as a combo
  move or hit-back (C10) draws one card at once (FR-VALERIE-3: one per Ace move, the two-Ace
  Masterpiece too); the hit happened even if a Rewind Time later prevents its damage
  (FR-VALERIE-4, GL-HIT). A card drawn in the middle of a combo may be played in it.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

from rules_engine import combat as cb
from rules_engine.actions import Action, Pass, UseAbility
from rules_engine.cards import Card, ComboType, Move, Rank
from rules_engine.characters import CharacterRules
from rules_engine.combat import CombatResult
from rules_engine.errors import RuleViolation
from rules_engine.journal import Hit
from rules_engine.modifiers import COMBAT_DAMAGE, COMBO_DAMAGE, FOLLOW, SPEED, Expiry, Modifier
from rules_engine.ruleset import BurstOfSpeed
from rules_engine.state import ComboEntry, Zone

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.journal import Event
    from rules_engine.state import PlayerState, Step
    from rules_engine.types import PlayerId

AGILE_HANDS = "Agile Hands"
BOLD_STROKES = "Bold Strokes"
BURST_OF_SPEED = "Burst of Speed"
SPLASH_OF_COLOR = "Splash of Color"
UNBOUNDED_CREATIVITY = "Unbounded Creativity"

BURST = 20  # tenths: "2 speed faster"
BURST_MIN = 10  # tenths: "to a minimum of speed 1.0" (2014)

_CARD_OF = {BOLD_STROKES: Rank.SEVEN, BURST_OF_SPEED: Rank.TEN}


def _distinct(cards: Sequence[Card]) -> list[Card]:
    return list(dict.fromkeys(cards))


def agile_follow(ps: PlayerState, pair: tuple[Move, Move],
                 v: RuleViolation | None) -> RuleViolation | None:
    """Agile Hands (CB-15): a normal attack may follow a normal attack of any rank; every other
    follow rule (Enders, Starters, Can't Combo) still holds."""
    prev, nxt = pair
    if v is not None and v.rule_id == "CT-NORMAL" and prev.combo_type is ComboType.NORMAL \
            and nxt.combo_type is ComboType.NORMAL:
        return None
    return v


def burst(speed: int, floor_zero: bool) -> int:
    """One Burst of Speed on ``speed`` (tenths): 2.0 faster, to a minimum of 1.0 (a faster move
    keeps its speed), or to a minimum of 0.0 under FR-VALERIE-2's reading."""
    if floor_zero:
        return max(speed - BURST, 0)
    return speed if speed <= BURST_MIN else max(speed - BURST, BURST_MIN)


def _normal_plus_one(ps: PlayerState, m: Move, v: int) -> int:
    return v + 1 if m.is_normal_attack else v


def _entry_plus_one(ps: PlayerState, e: ComboEntry, v: int) -> int:
    """A combo move's C12 damage (the combat card's own damage is dealt at C8c)."""
    return v + 1 if e.played_in_c10 and e.move.is_normal_attack else v


def splash_blocked(attack: Card | None, block: Card | None) -> bool:
    """Splash of Color: whether ``block`` may block the K ``attack`` (same suit colour)."""
    if attack is None or block is None or attack.suit is None or block.suit is None:
        return True
    return attack.suit.is_red == block.suit.is_red


class ValerieRules(CharacterRules):
    """Valerie with every ability implemented.

    Greedy heuristic (:meth:`bot_choice`): play Burst of Speed when her combat action is an
    attack or a throw and the opponent's is an attack or a throw too (speed only matters between
    two of them, AR-SPD-1) and the Burst changes her speed; play Bold Strokes whenever it is
    playable (+1 per normal attack this turn and a card drawn never hurt). Agile Hands, Splash of
    Color and Unbounded Creativity need no choice.
    """

    abilities_implemented = True
    chains_any_order = True  # CH-6 / FR-VALERIE-1
    ability_notes = {
        AGILE_HANDS: "Always on: her normal attacks (2-6) may follow each other in a combo in "
                     "any order (her combo limit 6 still counts), and any normal attacks played "
                     "back to back count as a chain for Power Up (CH-6, CB-15).",
        BOLD_STROKES: "Combat Reveal, from hand (a 7, discarded): each of her normal attacks "
                      "deals +1 hit damage this turn (combat card and combo moves), then she "
                      "draws a card. The opponent may counter it.",
        BURST_OF_SPEED: "Combat Reveal, from hand (a 10, discarded), when her combat card is an "
                        "attack or a throw: it is 2.0 faster for this combat, but never faster "
                        "than 1.0 (opt.burstOfSpeed=FLOOR_0_0: never below 0.0, FR-VALERIE-2). "
                        "Several stack.",
        SPLASH_OF_COLOR: "Automatic: when her K attack is the combat card, a block card of the "
                         "other colour (red: Hearts, Diamonds; black: Clubs, Spades) does not "
                         "block it — the attack hits.",
        UNBOUNDED_CREATIVITY: "Automatic: each time her Ace hits (combat card, combo move or "
                              "hit-back) she draws a card at once — one per Ace move, even for "
                              "the two-Ace Masterpiece, and even if a Rewind prevents the "
                              "damage.",
    }

    def modifiers(self, seat: PlayerId) -> list[Modifier[Any]]:
        """Agile Hands: the follow rule for normal attacks does not bind her (CB-15)."""
        return [Modifier(FOLLOW, seat, agile_follow, AGILE_HANDS)]

    # --- windows: Bold Strokes (7), Burst of Speed (10), both Combat Reveal -----
    @staticmethod
    def _burst_possible(ps: PlayerState) -> bool:
        return ps.kind in (cb.ATTACK, cb.THROW) and ps.combat_move is not None

    def window_options(self, ctx: AbilityContext, ps: PlayerState, window: str) -> list[Action]:
        if window != "combat_reveal":
            return []
        out: list[Action] = [UseAbility(BOLD_STROKES, c) for c in _distinct(ps.hand)
                             if c.rank is Rank.SEVEN]
        if self._burst_possible(ps):
            out += [UseAbility(BURST_OF_SPEED, c) for c in _distinct(ps.hand)
                    if c.rank is Rank.TEN]
        return out

    def can_act(self, ctx: AbilityContext, ps: PlayerState, window: str) -> bool:
        if window != "combat_reveal":
            return False
        return ps.holds(Rank.SEVEN) or (ps.holds(Rank.TEN) and self._burst_possible(ps))

    def check(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> None:
        if not isinstance(action, UseAbility):
            raise RuleViolation("INI-4", "play an ability or pass")
        if action in self.window_options(ctx, ps, window):
            return
        rank = _CARD_OF.get(action.ability)
        if rank is None:
            raise RuleViolation("AB-2", f"Valerie has no ability {action.ability!r} to play here")
        if window != "combat_reveal":
            raise RuleViolation("WIN-REVEAL", f"{action.ability} is played after the combat "
                                              "cards are revealed (Combat Reveal)")
        if action.card is None or action.card.rank is not rank:
            raise RuleViolation("AB-2", f"{action.ability} is played with one of Valerie's "
                                        f"{rank.code}s")
        if action.card not in ps.hand:
            raise RuleViolation("AB-2", f"{action.card} is not in {ps.player.name}'s hand")
        if action.cards or action.option:
            raise RuleViolation("AB-2", f"{action.ability} takes no other choice")
        raise RuleViolation("AB-2", "Burst of Speed needs an attack or a throw as Valerie's "
                                    "combat-revealed action")

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        assert isinstance(action, UseAbility) and action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2: paid, discarded
        countered = yield from ctx.offer_counter(ps, action.ability, action.card)
        if countered:
            return
        if action.ability == BOLD_STROKES:
            ctx.add_modifier(Modifier(COMBAT_DAMAGE, ps.player, _normal_plus_one, BOLD_STROKES,
                                      Expiry.END_OF_TURN))
            ctx.add_modifier(Modifier(COMBO_DAMAGE, ps.player, _entry_plus_one, BOLD_STROKES,
                                      Expiry.END_OF_TURN))
            yield from ctx.draw(ps, ctx.step)
            return
        floor_zero = ctx.ruleset.burstOfSpeed is BurstOfSpeed.FLOOR_0_0

        def faster(seat: PlayerState, m: Move, speed: int) -> int:
            return burst(speed, floor_zero) if m.is_attack_or_throw else speed

        ctx.add_modifier(Modifier(SPEED, ps.player, faster, BURST_OF_SPEED,
                                  Expiry.END_OF_COMBAT))

    # --- Splash of Color (K, C6) -----
    def combat_override(self, ctx: AbilityContext, ps: PlayerState, a: PlayerState,
                        b: PlayerState, result: CombatResult) -> CombatResult | None:
        """C6: her K attack against a block card of the other colour: the attack hits."""
        opp = ctx.opponent(ps)
        c = ps.combat_card
        if ps.kind != cb.ATTACK or c is None or c.rank is not Rank.KING or opp.kind != cb.BLOCK:
            return None
        if splash_blocked(c, opp.combat_card):
            return None
        return CombatResult(0 if ps is a else 1, False, result.cell)

    # --- Unbounded Creativity (A) -----
    reacts_to = frozenset({Hit})  # the events on_event reads

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        """A hit by an Ace of hers (the combat card at C6, a combo move or hit-back at C10)
        draws her a card (FR-VALERIE-3, FR-VALERIE-4)."""
        if not isinstance(event, Hit) or event.by is not ps.player:
            return
        if event.combo:
            c = ctx.combo[-1].card if ctx.combo and ctx.combo_seat is ps.player else None
        else:
            c = ps.combat_card
        if c is not None and c.rank is Rank.ACE:
            yield from ctx.draw(ps, ctx.step)

    # --- the greedy bot -----
    def bot_choice(self, ctx: AbilityContext, ps: PlayerState,
                   legal: Sequence[Action]) -> Action | None:
        mine = [a for a in legal if isinstance(a, UseAbility)
                and a.ability in (BOLD_STROKES, BURST_OF_SPEED)]
        if not mine:
            return None
        bold = [a for a in mine if a.ability == BOLD_STROKES]
        if bold:
            return bold[0]
        opp = ctx.opponent(ps)
        m = ps.combat_move
        if opp.kind in (cb.ATTACK, cb.THROW) and m is not None and m.speed is not None \
                and burst(m.speed, ctx.ruleset.burstOfSpeed is BurstOfSpeed.FLOOR_0_0) < m.speed:
            return mine[0]
        return Pass()
