"""BOT-GEIGER (RULES.md §12.2) and TR-11 for Geiger's other abilities.

BOT-GEIGER: "Research & Development only with ≥1 Time Spiral in the discard pile. It becomes:
after the draw phase, you may discard this card to draw ⌈X/2⌉ cards, X = Time Spiral cards
(Aces included) in the discard pile. Temporal Distortion only with ≥1 Jack or Queen in the
discard pile." Research and Development's new effect is played by :class:`GeigerBotAbilities`
(installed by the Training mode on the bot's seat only).

Engine readings (docs/rules/characters/geiger.md, "Engine rulings"): X is counted as the ability
resolves (the 8 is not a Time Spiral card, so discarding it first changes nothing); both abilities
are played whenever their condition holds (TR-11), Research and Development first in a window where
both are (Temporal Distortion's fetch takes a Jack or Queen out of the discard pile, which would
lower X). Time Stop's throw is a combo (TR-8: the bot always combos when it can); its
Temporal Distortion fetch takes the first Jack or Queen listed (card text asking the bot).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action, UseAbility
from rules_engine.cards import Rank
from rules_engine.characters import CharacterRules
from rules_engine.characters.geiger import RESEARCH, TEMPORAL_DISTORTION, GeigerRules
from rules_engine.state import Decision, PlayerState, Zone
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.abilities import AbilityContext
    from rules_engine.game.core import GameCore
    from rules_engine.state import Step


def spiral_count(rules: GeigerRules, ps: PlayerState) -> int:
    """X: the Time Spiral cards (every J, Q and A of his deck) in the discard pile."""
    return sum(1 for c in ps.discard if c.rank in rules.spiral_ranks)


class GeigerBotAbilities(GeigerRules):
    """Geiger's abilities as BOT-GEIGER makes them for the bot (Training only)."""

    def play(self, ctx: AbilityContext, ps: PlayerState, window: str, action: Action) -> Step:
        """Research and Development becomes: discard this card to draw ⌈X/2⌉ cards (a card
        ability played from hand: it can be countered). Temporal Distortion as printed."""
        assert isinstance(action, UseAbility) and action.card is not None
        if action.ability != RESEARCH:
            yield from super().play(ctx, ps, window, action)
            return
        ctx.move(ps, action.card, Zone.HAND, Zone.DISCARD)  # AB-2: discarded as it is played
        if (yield from ctx.offer_counter(ps, RESEARCH, action.card)):
            return
        x = spiral_count(self, ps)
        yield from ctx.draw(ps, ctx.step, -(-x // 2))


class GeigerBot(BotRules):
    """BOT-GEIGER: Research and Development (as it became) only with a Time Spiral card in the
    discard pile, Temporal Distortion only with a Jack or Queen there; both whenever that holds
    (TR-11)."""

    def seat_rules(self, rules: CharacterRules) -> CharacterRules:
        return GeigerBotAbilities(rules.character)

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        uses = [a for a in legal if isinstance(a, UseAbility) and a.card is not None]
        rules = game.rules[ps.player]
        assert isinstance(rules, GeigerRules)
        research = [a for a in uses if a.ability == RESEARCH]
        if research and spiral_count(rules, ps) >= 1 and ps.deck:
            return research[0]
        distortion = [a for a in uses if a.ability == TEMPORAL_DISTORTION]
        if distortion and any(c.rank in (Rank.JACK, Rank.QUEEN) for c in ps.discard):
            return distortion[0]
        return None
