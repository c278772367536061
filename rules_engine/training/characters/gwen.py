"""BOT-GWEN (RULES.md §12.2): a Jack revealed in combat is always rotated to Chains of Ice."""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.cards import Card, Move, Rank
from rules_engine.state import PlayerState
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore


class GwenBot(BotRules):
    """BOT-GWEN: a Jack revealed in combat is always rotated to Chains of Ice."""

    def orientation(self, game: GameCore, ps: PlayerState, card: Card,
                    order: list[Move]) -> list[Move]:
        if card.rank is not Rank.JACK:
            return order
        return sorted(order, key=lambda m: m.name != "Chains of Ice")
