"""BOT-GLORIA (RULES.md §12.2): her innate, Healing Sphere, Bathed in Moonlight, Overdose.

- Healing Touch (her innate): played whenever it is offered and has an effect (TR-11): she is
  below her maximum life, a Healing Sphere is in play (it counts the heal, even at full life) or
  a Hearts card waits in her discard pile; paid with the two lowest-rank non-Hearts cards (Aces
  kept while others qualify, ties by hand order, as OQ-27); it "returns as many Hearts as
  possible, highest first": the Hearts card fetched is the highest-rank one (Aces highest). The
  innate fetches one card a turn, so "as many as possible" is that one, every turn she can.
- Healing Sphere: only with at least one Hearts card in her discard pile.
- Bathed in Moonlight: she takes the life gain whenever possible, unless skipping it would
  kill the human. Engine reading: the only thing in the same window that can kill them is her
  Overdose (10 to each player, her first): she skips the bath when Overdose would KO the human
  now (10 life or less, she above 10 and holding an Ace she may play) but not after the bath's
  +4 to them.
- Overdose: whenever she won combat, unless she trails the human by more than 40 life.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import effects
from rules_engine.actions import Action, Pass, Search, UseAbility
from rules_engine.cards import Card, Suit
from rules_engine.characters.gloria import (
    BATHED,
    HEAL,
    HEALING_SPHERE,
    HEALING_TOUCH,
    OVERDOSE,
    OVERDOSE_DAMAGE,
    GloriaRules,
)
from rules_engine.state import Decision, PlayerState
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore

#: Overdose is skipped when she trails the human by more than this.
OVERDOSE_TRAILING = 40


def _rank(c: Card) -> int:
    """A card's rank for the bot: Aces highest (14), Jokers above."""
    return 15 if c.is_joker or c.rank is None else 14 if c.is_ace else int(c.rank)


class GloriaBot(BotRules):
    """BOT-GLORIA: Healing Touch fetches the highest Hearts; Healing Sphere only with a Hearts
    card in the discard pile; Bathed in Moonlight unless skipping it would kill the human;
    Overdose whenever she won combat unless she trails by more than 40."""

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        fetches = [a for a in legal if isinstance(a, Search)]
        if fetches and decision.step == "K1":  # Healing Touch's Hearts card
            return max(fetches, key=lambda a: max((_rank(c) for c in
                                                   (a.from_discard if isinstance(a, Search)
                                                    else ())), default=0))
        uses = [a for a in legal if isinstance(a, UseAbility)]
        if not uses or Pass() not in legal:
            return None
        rules = game.rules[ps.player]
        assert isinstance(rules, GloriaRules)
        human = game.opponent(ps)
        overdoses = [a for a in uses if a.ability == OVERDOSE]
        baths = [a for a in uses if a.ability == BATHED]
        if baths:
            kills = (bool(overdoses) and ps.life > OVERDOSE_DAMAGE
                     and human.life <= OVERDOSE_DAMAGE < human.life + HEAL)
            if not kills:
                return baths[0]
        if overdoses:
            won = rules.won_turn == game.turn
            trailing = human.life - ps.life > OVERDOSE_TRAILING
            if won and not trailing:
                return overdoses[0]
        spheres = [a for a in uses if a.ability == HEALING_SPHERE]
        if spheres and any(c.suit is Suit.HEARTS for c in ps.discard):
            return spheres[0]
        touches = [a for a in uses if a.ability == HEALING_TOUCH]
        if touches and (ps.life < ps.character.life or effects.is_active(ps, HEALING_SPHERE)
                        or any(c.suit is Suit.HEARTS for c in ps.discard)):
            def cost(a: UseAbility) -> tuple[tuple[int, ...], tuple[int, ...]]:
                return (tuple(sorted((_rank(c) for c in a.cards), reverse=True)),
                        tuple(sorted(ps.hand.index(c) for c in a.cards)))
            return min(touches, key=cost)
        return Pass()
