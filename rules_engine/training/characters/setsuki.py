"""BOT-SETSUKI (RULES.md §12.2) and TR-11 for Setsuki's other abilities.

BOT-SETSUKI: "Bag of Tricks becomes: at the end of the turn, if it is the only card in her
hand, shuffle the top three face cards and/or Aces of the discard pile into the deck, then put
Bag of Tricks on top of the deck." The new effect is played by :class:`SetsukiBotAbilities`
(installed by the Training mode on the bot's seat only).

Engine readings (docs/rules/characters/setsuki.md, "Engine rulings"): it is still played in the End
of Turn window (K1) with the 7 as the only card in hand, and it can still be countered (the 7 is
then discarded, CTR-3); "the top three face cards and/or Aces" are the three such cards nearest the
top of the discard pile (fewer when there are fewer; none: the deck is not shuffled), Jokers
are neither. TR-11: it always has an effect (the 7 leaves her hand for the deck's top), so the
bot plays it whenever it can. Smoke Bomb counters every ability it can (a counter always has an
effect), paying with the two lowest-rank other cards (TR-9's lowest ranks first, ties by hand
order). Speed of the Fox needs no decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action, UseAbility
from rules_engine.cards import Card
from rules_engine.characters import CharacterRules
from rules_engine.characters.setsuki import BAG_OF_TRICKS, SMOKE_BOMB, SetsukiRules
from rules_engine.state import Decision, PlayerState, Zone
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.game.core import GameCore
    from rules_engine.state import Step

#: "the top three face cards and/or Aces of the discard pile"
BAG_CARDS = 3


def _face_or_ace(c: Card) -> bool:
    return c.rank is not None and (c.rank.is_face or c.is_ace)


def _rank(c: Card) -> int:
    return 0 if c.rank is None else int(c.rank)


class SetsukiBotAbilities(SetsukiRules):
    """Setsuki's abilities as BOT-SETSUKI makes them for the bot (Training only)."""

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        """Bag of Tricks becomes: the top three face cards and/or Aces of the discard pile are
        shuffled into the deck, then the 7 goes on top of the deck."""
        assert isinstance(action, UseAbility) and action.card is not None
        seven = action.card
        ctx.move(ps, seven, Zone.HAND, Zone.DISCARD)  # AB-2: played (a countered 7 stays)
        if (yield from ctx.offer_counter(ps, BAG_OF_TRICKS, seven)):
            return
        tops = [c for c in reversed(ps.discard) if c is not seven and _face_or_ace(c)]
        for c in tops[:BAG_CARDS]:
            ctx.move(ps, c, Zone.DISCARD, Zone.DECK)
        if tops:
            ctx.shuffle_deck(ps)
        ctx.move(ps, seven, Zone.DISCARD, Zone.DECK)  # on top, after the shuffle


class SetsukiBot(BotRules):
    """BOT-SETSUKI, and TR-11 for Smoke Bomb."""

    def seat_rules(self, rules: CharacterRules) -> CharacterRules:
        return SetsukiBotAbilities(rules.character)

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        uses = [a for a in legal if isinstance(a, UseAbility)]
        bombs = [a for a in uses if a.ability == SMOKE_BOMB]
        if bombs:  # TR-11: the two lowest other cards pay
            return min(bombs, key=lambda a: (sorted((_rank(c) for c in a.cards), reverse=True),
                                             sorted(ps.hand.index(c) for c in a.cards)))
        bag = [a for a in uses if a.ability == BAG_OF_TRICKS]
        return bag[0] if bag else None
