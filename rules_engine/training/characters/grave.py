"""BOT-GRAVE (RULES.md §12.2) and TR-11 for Grave's other abilities.

BOT-GRAVE: "Innate becomes: on blocking an attack, put every Queen from the discard pile into
the deck and shuffle. Martial Mastery becomes: after the draw phase, discard this card to draw
2." Both change what the ability does, so the bot's seat plays Grave with
:class:`GraveBotAbilities` (installed by the Training mode on that seat only).

TR-11 (abilities whenever possible, only when they have an effect) for the rest: Mental
Toughness counters every ability it can (a counter always has an effect), paying with the
lowest face card (TR-9's lowest ranks first); Lightning Trap needs no decision (the engine
plays it whenever Lightning Cloud deals block damage). Martial Mastery, as it became, is played
whenever the deck has a card to draw.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action, UseAbility
from rules_engine.cards import Rank
from rules_engine.characters import CharacterRules
from rules_engine.characters.grave import MARTIAL_MASTERY, MENTAL_TOUGHNESS, GraveRules
from rules_engine.journal import Blocked
from rules_engine.state import Decision, PlayerState, Zone
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.game.core import GameCore
    from rules_engine.journal import Event
    from rules_engine.state import Step

#: Martial Mastery as the bot plays it: "discard this card to draw 2".
MASTERY_DRAW = 2


class GraveBotAbilities(GraveRules):
    """Grave's abilities as BOT-GRAVE makes them for the bot (Training only)."""

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        """Martial Mastery becomes: after the draw phase, discard this card to draw 2 (no
        discard after, no hand reveal). Still a card ability played from hand: it can be
        countered (CTR-2)."""
        assert isinstance(action, UseAbility) and action.card is not None
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2: discarded as it is played
        if (yield from ctx.offer_counter(ps, MARTIAL_MASTERY, action.card)):
            return
        yield from ctx.draw(ps, ctx.step, MASTERY_DRAW)

    def on_event(self, ctx: AbilityContext, ps: PlayerState, event: Event) -> Step:
        """Knowing the Opponent becomes: on blocking an attack, every Queen of the discard pile
        goes into the deck, which is then shuffled. An innate from blocking: Time Stop stops
        it (``innates``), and with no Queen to put back it does nothing (no shuffle)."""
        if not isinstance(event, Blocked) or event.blocker is not ps.player \
                or not event.innates:
            return
        queens = [c for c in ps.discard if c.rank is Rank.QUEEN]
        if not queens:
            return
        for q in queens:
            ctx.move(ps, q, Zone.DISCARD, Zone.DECK)
        ctx.shuffle_deck(ps)
        return
        yield  # pragma: no cover - makes this a generator


class GraveBot(BotRules):
    """BOT-GRAVE, and TR-11 for Mental Toughness."""

    def seat_rules(self, rules: CharacterRules) -> CharacterRules:
        return GraveBotAbilities(rules.character)

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        uses = [a for a in legal if isinstance(a, UseAbility)]
        counters = [a for a in uses if a.ability == MENTAL_TOUGHNESS]
        if counters:  # TR-11: a counter always has an effect; the lowest face card pays
            return min(counters, key=lambda a: (a.cards[0].rank or Rank.ACE,
                                                ps.hand.index(a.cards[0])))
        mastery = [a for a in uses if a.ability == MARTIAL_MASTERY]
        if mastery and ps.deck:  # TR-11: it has an effect while there is a card to draw
            return mastery[0]
        return None
