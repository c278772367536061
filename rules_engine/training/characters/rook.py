"""BOT-ROOK (RULES.md §12.2): "Always uses Rock Armor when possible. The cost is two cards of the
attack's color, not its suit."

Reading against the engine's ruling (docs/rules/characters/rook.md, "Engine rulings"): the engine's
Rock Armor costs two cards of the *suit* of Rook's attack card (the character file's text), and the
bot plays by the same card text as everyone, so "when possible" means when the engine offers a pair
of that suit. The rulebook's "colour" (a cost easier to pay) is not played: it would let the bot pay
with cards the card text refuses. Of the pairs offered the bot discards the lowest ranks (as
TR-9 pumps), ties by hand order.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action, UseAbility
from rules_engine.characters.rook import ROCK_ARMOR
from rules_engine.state import Decision, PlayerState
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore


class RookBot(BotRules):
    """BOT-ROOK: Rock Armor whenever the engine offers it, with the two lowest-rank cards."""

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        armor = [a for a in legal if isinstance(a, UseAbility) and a.ability == ROCK_ARMOR]
        if not armor:
            return None

        def key(a: UseAbility) -> tuple[tuple[int, ...], tuple[int, ...]]:
            ranks = tuple(sorted((int(c.rank or 0) for c in a.cards), reverse=True))
            return ranks, tuple(sorted(ps.hand.index(c) for c in a.cards))
        return min(armor, key=key)
