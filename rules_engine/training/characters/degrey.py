"""BOT-DEGREY (RULES.md §12.2): "Point, Counterpoint only if it wins combat. Troublesome Rhetoric
names one of its four options at random."

- Point, Counterpoint (Combat Reveal, his 7 as the combat card): played only when the 7's other
  end wins combat against the human's revealed card and the end it shows does not (judged as
  C6 will resolve it, :mod:`rules_engine.training.judge`); a rotation that changes no result
  would have no effect (TR-11). The card it costs: the lowest rank in hand, Aces last, ties by
  hand order.
- Troublesome Rhetoric (Draw Phase, a 4): the option is drawn from the game's seeded stream
  (``rng.below(4)`` over attack, block, throw, dodge), so a replay derives the same name. When
  to play it is TR-11's "only when it would have an effect": its only effect is 12 life, so
  the bot names one while the Rhetorics already named this turn could not heal its missing
  life (GEN-8 caps a heal at 90); at full life it keeps the 4.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action, UseAbility
from rules_engine.characters.degrey import (
    POINT_COUNTERPOINT,
    RHETORIC_LIFE,
    RHETORIC_OPTIONS,
    TROUBLESOME_RHETORIC,
    DeGreyRules,
)
from rules_engine.state import Decision, PlayerState
from rules_engine.training import judge
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore


class DeGreyBot(BotRules):
    """BOT-DEGREY: Point, Counterpoint only to win combat; Troublesome Rhetoric at random."""

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        uses = [a for a in legal if isinstance(a, UseAbility)]
        rhetoric = [a for a in uses if a.ability == TROUBLESOME_RHETORIC]
        if rhetoric:
            return self._rhetoric(game, ps, rhetoric)
        points = [a for a in uses if a.ability == POINT_COUNTERPOINT]
        if points and self._rotation_wins(game, ps):
            paid = judge.cheapest(ps, [a.cards[0] for a in points])
            return next(a for a in points if a.cards[0] is paid)
        return None  # the generic procedure passes

    @staticmethod
    def _rhetoric(game: GameCore, ps: PlayerState, options: list[UseAbility]) -> Action | None:
        rules = game.rules[ps.player]
        assert isinstance(rules, DeGreyRules)
        missing = ps.character.life - ps.life
        if RHETORIC_LIFE * len(rules.rhetoric) >= missing:
            return None  # no heal left to gain: no effect (TR-11)
        assert game.rng is not None  # Training is seeded (TR-5)
        named = RHETORIC_OPTIONS[game.rng.below(len(RHETORIC_OPTIONS))]
        return next(a for a in options if a.option == named)

    @staticmethod
    def _rotation_wins(game: GameCore, ps: PlayerState) -> bool:
        """Whether the 7's other end wins combat now and the end it shows does not."""
        c, m = ps.combat_card, ps.combat_move
        if c is None or m is None or judge.wins_combat(game, ps):
            return False
        other = ps.character.other_end(c, m)
        return other is not None and judge.wins_combat(
            game, ps, card=c, move=game.played_move(ps, c, other))
