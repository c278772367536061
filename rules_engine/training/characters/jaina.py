"""BOT-JAINA (RULES.md §12.2): "Innate buyback: only for the combat card, never later combo cards.
No buyback while her life is below yours; otherwise always, unless it would kill her. Unstable
Power: if her combat card has an attack on either end, rotate to whichever end suits her
better."

- Burning Vigor (C13): the bot names its combat card alone, whenever the engine offers it, her
  life is not below the human's and the 3 (4 for a Queen or an Ace, Burning Desperation) life it
  costs leaves her above 0; otherwise it passes. Combo cards, pumps and paid Aces are never
  bought back.
- Unstable Power's rotation (Combat Reveal, offered by the engine only for a combat-revealed
  card with an attack end): the end that *suits her better* is, in order, the one that wins
  combat against the human's revealed card, then the one that does not lose it, then the one
  with more damage (after the modifiers in force); she rotates only when the other end is
  strictly better (judged as C6 will resolve it, :mod:`rules_engine.training.judge`).
- TR-11 for the rest. Unstable Power (Draw Phase, a 7) always has an effect (an Ace search on a
  hit, else 7 damage; no Aces this turn), so the bot plays every 7 it can. Smoldering Embers
  (Combat Reveal, a 10) has an effect this combat only when the human's action is a dodge (not
  voided by a knockdown, KD-4): then it plays it, else it keeps the card.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine.actions import Action, UseAbility
from rules_engine.cards import Rank
from rules_engine.characters.jaina import BURNING_VIGOR, SMOLDERING_EMBERS, UNSTABLE_POWER
from rules_engine.state import Decision, PlayerState
from rules_engine.training import judge
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore


def buyback_cost(rank: Rank | None) -> int:
    """Burning Vigor's life per card: 3, or 4 for a Queen or an Ace (Burning Desperation)."""
    return 4 if rank in (Rank.QUEEN, Rank.ACE) else 3


class JainaBot(BotRules):
    """BOT-JAINA: buyback of the combat card only, when not behind; rotation to the better end."""

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        uses = [a for a in legal if isinstance(a, UseAbility)]
        names = {a.ability for a in uses}
        if BURNING_VIGOR in names:
            return self._buyback(game, ps, uses)
        rotate = UseAbility(UNSTABLE_POWER, option="rotate")
        if rotate in legal and self._other_end_better(game, ps):
            return rotate
        embers = [a for a in uses if a.ability == SMOLDERING_EMBERS]
        if embers and game.opponent(ps).kind == cb.DODGE \
                and not game.opponent(ps).knocked_down:
            return embers[0]
        unstable = [a for a in uses if a.ability == UNSTABLE_POWER and a.card is not None]
        if unstable:
            return unstable[0]
        return None  # the generic procedure passes

    @staticmethod
    def _buyback(game: GameCore, ps: PlayerState, uses: list[UseAbility]) -> Action | None:
        c = ps.combat_card
        if c is None or ps.life < game.opponent(ps).life:
            return None
        if ps.life - buyback_cost(c.rank) <= 0:
            return None  # it would kill her
        only = UseAbility(BURNING_VIGOR, cards=(c,))
        return only if only in uses else None

    @staticmethod
    def _other_end_better(game: GameCore, ps: PlayerState) -> bool:
        c, m = ps.combat_card, ps.combat_move
        if c is None or m is None:
            return False
        other = ps.character.other_end(c, m)
        if other is None:
            return False
        rotated = game.played_move(ps, c, other)
        return judge.how_well(game, ps, rotated) > judge.how_well(game, ps, m)
