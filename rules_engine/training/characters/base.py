"""The base of a character's BOT rule (RULES.md §12.2): "No changes".

Why a training module keyed by character, not a ``training_choice`` hook on each
:class:`~rules_engine.characters.CharacterRules`: a BOT rule is a rule of the Training mode
about how the engine *chooses* for a character, not card text. Keeping it here keeps character
modules mode-agnostic (they are written against the ability context, never the game, and are
on the Versus hot path), lets the bot's rules be read as one table like §12.2, and lets a
character's BOT rule land without touching that character's module (other engineers' work).

A BOT rule changes the generic procedure at three points: the orientation of the combat card the
bot turns over (:meth:`BotRules.orientation`, TR-5), any decision of the bot's seat
(:meth:`BotRules.choose`: None leaves it to the generic procedure), and a decision of the
human's seat that card text gave the bot (:meth:`BotRules.control`, Mistress's Command).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action
from rules_engine.cards import Card, Move
from rules_engine.state import Decision, PlayerState

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore


class BotRules:
    """A character's BOT rule; the base class is "No changes"."""

    def __init__(self, rule_id: str) -> None:
        self.rule_id = rule_id

    def orientation(self, game: GameCore, ps: PlayerState, card: Card,
                    order: list[Move]) -> list[Move]:
        """The ends of the turned-over ``card`` in the order the bot tries them (the seeded
        50/50 end first, then rotated 180°)."""
        return order

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        """The bot's choice at ``decision`` by this rule, or None for the generic procedure."""
        return None

    def control(self, game: GameCore, ps: PlayerState, seat: PlayerState, decision: Decision,
                legal: list[Action]) -> Action | None:
        """The bot's (``ps``) choice at a decision of the human's ``seat`` that card text gave
        it (``game.controller``), or None: the generic procedure passes, stops or takes the
        first legal choice."""
        return None
