"""BOT-GWEN (RULES.md §12.2): a Jack revealed in combat is always rotated to Chains of Ice;
TR-11 for her one ability with a choice.

- Relentless Strikes ("whenever possible, but only when they would have an effect", TR-11):
  offered only when a normal block beat her non-Ender attack, it always turns the loss into a
  win: she plays it whenever it is offered, with the black normal attack that deals the most
  damage (its damage is dealt) and the lowest-rank red one (ties by hand order).
- Shadow Plague, Gloria's Remedy and Chillbane need no choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action, UseAbility
from rules_engine.cards import Card, Move, Rank
from rules_engine.characters.gwen import RELENTLESS_STRIKES, normal_attack
from rules_engine.state import Decision, PlayerState
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore


class GwenBot(BotRules):
    """BOT-GWEN: a Jack revealed in combat is always rotated to Chains of Ice; Relentless
    Strikes whenever it is offered (TR-11)."""

    def orientation(self, game: GameCore, ps: PlayerState, card: Card,
                    order: list[Move]) -> list[Move]:
        if card.rank is not Rank.JACK:
            return order
        return sorted(order, key=lambda m: m.name != "Chains of Ice")

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        strikes = [a for a in legal if isinstance(a, UseAbility)
                   and a.ability == RELENTLESS_STRIKES and len(a.cards) == 2]
        if not strikes:
            return None

        def value(a: UseAbility) -> tuple[int, int, int, int]:
            red, black = a.cards
            hit = normal_attack(ps.character, black)
            return (-(hit.damage if hit else 0), int(red.rank or 0), ps.hand.index(red),
                    ps.hand.index(black))
        return min(strikes, key=value)
