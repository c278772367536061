"""The base of a character's BOT rule (RULES.md §12.2): "No changes".

Why a training module keyed by character, not a ``training_choice`` hook on each
:class:`~rules_engine.characters.CharacterRules`: a BOT rule is a rule of the Training mode
about how the engine *chooses* for a character, not card text. Keeping it here keeps character
modules mode-agnostic (they are written against the ability context, never the game, and are
on the Versus hot path), lets the bot's rules be read as one table like §12.2, and lets a
character's BOT rule land without touching that character's module (other engineers' work).

A BOT rule changes the generic procedure at these points: the orientation of the combat card
the bot turns over (:meth:`BotRules.orientation`, TR-5), any decision of the bot's seat
(:meth:`BotRules.choose`: None leaves it to the generic procedure), a decision the *human's*
character's card text gives the bot (:meth:`BotRules.choose_against`: the rows "played by you",
e.g. BOT-QUINCE's Two Truths piles), the bot's end of the turn (:meth:`BotRules.end_of_turn`,
K1 with TR-13: what a row adds after card text, e.g. BOT-ONIMARU's shuffle), and a decision
of the human's seat that card text gave the bot (:meth:`BotRules.control`, Mistress's Command).

A BOT rule that changes what an ability *does* for the bot ("Martial Mastery becomes: ...")
gives the bot's seat other rules (:meth:`BotRules.seat_rules`): a subclass of the character's
:class:`~rules_engine.characters.CharacterRules`, defined in the BOT rule's module, overriding
the hooks of that ability. The Training mode installs it on the bot's seat only
(``GameCore.replace_rules``, as the bot comes in), so the character module stays
mode-agnostic and Versus never sees it (zero cost on its path).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action
from rules_engine.cards import Card, Move
from rules_engine.state import Decision, PlayerState

if TYPE_CHECKING:
    from rules_engine.characters import CharacterRules
    from rules_engine.game.core import GameCore
    from rules_engine.state import Step


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

    def choose_against(self, game: GameCore, ps: PlayerState, decision: Decision,
                       legal: list[Action]) -> Action | None:
        """The bot's (``ps``'s) choice at a decision this character's card text, played by the
        human, gives it; None for the generic procedure."""
        return None

    def end_of_turn(self, game: GameCore, ps: PlayerState) -> Step:
        """K1, before TR-13: what this rule makes the bot do at the end of the turn."""
        return
        yield

    def seat_rules(self, rules: CharacterRules) -> CharacterRules:
        """The rules the bot's seat plays its character with: ``rules`` (the character's own,
        fresh) unless this BOT rule changes what an ability does for the bot."""
        return rules

    def control(self, game: GameCore, ps: PlayerState, seat: PlayerState, decision: Decision,
                legal: list[Action]) -> Action | None:
        """The bot's (``ps``) choice at a decision of the human's ``seat`` that card text gave
        it (``game.controller``), or None: the generic procedure passes, stops or takes the
        first legal choice."""
        return None
