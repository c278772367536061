"""BOT-TROQ (RULES.md §12.2): "No changes", so TR-11 plays his abilities: "whenever possible,
but only when they would have an effect".

- War Stomp (10, Draw Phase): it is offered only while he is not knocked down, and then always
  has an effect (he draws a card; the human is knocked down for the turn and discards a card,
  whatever they hold): he plays it whenever it is offered.
- Giant Growth, Defense Mastery, Troq Armor, Lockhorn Skewer and Beast Unleashed's return need
  no choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action, UseAbility
from rules_engine.characters.troq import WAR_STOMP
from rules_engine.state import Decision, PlayerState
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore


class TroqBot(BotRules):
    """BOT-TROQ ("No changes") with TR-11: War Stomp whenever it is offered."""

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        stomps = [a for a in legal if isinstance(a, UseAbility) and a.ability == WAR_STOMP
                  and a.card is not None]
        return stomps[0] if stomps else None
