"""BOT-ONIMARU (RULES.md §12.2): "Final Authority only to turn a lost combat into a win. After
hitting with the Clockwork Soldiers Ace: plays as many more Aces as it can, then shuffles every
face card from hand and discard pile into the deck."

- Final Authority (Combat Reveal, a 9): played only when the human wins combat as things stand
  and, with Final Authority resolved, Onimaru would win it (judged as C6 will resolve it, his
  own ``combat_override`` included: :mod:`rules_engine.training.judge`). The card it costs
  besides the 9: the lowest rank of his attack's suit, ties by hand order.
- Clockwork Formation (C13b, after Clockwork Soldiers won and hit): he attaches as many Aces
  from hand as the card allows (three at most), the first ones in hand order when he holds more.
- The shuffle: card text has no such step, so it is this rule's own, made at the end of that
  turn (K1, :meth:`BotRules.end_of_turn`, before TR-13): every face card (J, Q, K; GL-FACE) of
  his hand and discard pile goes into his deck, which is shuffled with the game's seeded
  stream. It follows the hit whether or not he held an Ace to attach.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action, UseAbility
from rules_engine.characters.onimaru import (
    CLOCKWORK_FORMATION,
    CLOCKWORK_SOLDIERS,
    FINAL_AUTHORITY,
    OnimaruRules,
)
from rules_engine.state import Decision, PlayerState, Zone
from rules_engine.training import judge
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore
    from rules_engine.state import Step


def authority_wins(game: GameCore, ps: PlayerState) -> bool:
    """Whether Onimaru wins combat with Final Authority resolved (his override in force)."""
    rules = game.rules[ps.player]
    assert isinstance(rules, OnimaruRules)
    before = rules.authority
    rules.authority = True
    try:
        return judge.wins_combat(game, ps)
    finally:
        rules.authority = before


def soldiers_hit(game: GameCore, ps: PlayerState) -> bool:
    """This turn's combat: Onimaru won it with Clockwork Soldiers and it hit (its damage
    dealt), the case Clockwork Formation reads at C13b."""
    m = ps.combat_move
    return (game.combat.winner is ps.player and m is not None and m.name == CLOCKWORK_SOLDIERS
            and ps.hit_this_combat)


class OnimaruBot(BotRules):
    """BOT-ONIMARU: Final Authority only to win a lost combat; after Clockwork Soldiers hit,
    every Ace it can attach, then its face cards shuffled into the deck."""

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        uses = [a for a in legal if isinstance(a, UseAbility)]
        formation = [a for a in uses if a.ability == CLOCKWORK_FORMATION]
        if formation:
            most = max(len(a.cards) for a in formation)  # the first such, in hand order
            return next(a for a in formation if len(a.cards) == most)
        authority = [a for a in uses if a.ability == FINAL_AUTHORITY]
        if not authority or not self._lost(game, ps) or not authority_wins(game, ps):
            return None  # the generic procedure passes
        paid = judge.cheapest(ps, [a.cards[0] for a in authority])
        return next(a for a in authority if a.cards[0] is paid)

    @staticmethod
    def _lost(game: GameCore, ps: PlayerState) -> bool:
        winner = judge.combat_result(game, ps).winner
        return winner is not None and game.actives[winner] is not ps

    def end_of_turn(self, game: GameCore, ps: PlayerState) -> Step:
        """After Clockwork Soldiers hit this turn: every face card of hand and discard pile
        into the deck, then the deck is shuffled."""
        if not soldiers_hit(game, ps):
            return
        for zone, cards in ((Zone.HAND, ps.hand), (Zone.DISCARD, ps.discard)):
            for c in [c for c in cards if c.rank is not None and c.rank.is_face]:
                game.move(ps, c, zone, Zone.DECK)
        game.shuffle_deck(ps)
        return
        yield
