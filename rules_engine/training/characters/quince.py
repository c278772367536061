"""BOT-QUINCE (RULES.md §12.2): "Innate: after dealing combat damage, if next turn's combat card is
a face card, rotate it whenever that wins combat. Two Truths played by you: the bot picks one of
your two piles at random. Two Truths played by the bot: pile 1 = the top 3 legal cards of its
discard pile, pile 2 = the top 2 cards of its deck. Flagstone Tax: one of four options at
random. After hitting with the Patriot Mirror Ace: next combat it turns over two cards from its
deck and uses the better one for itself."

- Positive Spin: the bot's hand is public (TR-2), so it reveals nothing at K1; instead, on the
  turn after it dealt combat damage (a ``DamageDealt`` of kind combat in the journal), a face
  card (J, Q, K) it turns over is turned to its other end when that end wins combat against
  the human's locked-in card and the end that turned up does not. The rotation is made as the
  card is turned over (TR-5, like TR-7's), so it draws no card: the draw is the card text's
  price for a rotation the rule gives the bot.
- Two Truths played by the human (Quince as the human, any bot): the bot picks a pile with the
  game's seeded stream (``rng.below(2)``), so a replay derives the same pile.
- Two Truths played by the bot: it chooses the top 3 legal cards of its discard pile (ranks 3
  through King, each rank once, scanning from the top) and divides: pile 1 those, pile 2 the 2
  cards revealed from its deck (with no legal card, one pile holds the revealed cards).
- Flagstone Tax: the option is drawn from the seeded stream (``rng.below(4)`` over attack,
  block, throw, dodge).
- Patriot Mirror: after its Patriot Mirror dealt damage, the bot takes the second face-down
  card at K1; next combat the engine's second commit turns over the next card of its deck
  (the generic TR-5/TR-6 turn-over), and at C2 it uses the *better* of the two: the one that
  wins combat, then the one that does not lose it, then the one with more damage.
- TR-11 for the rest: Two Truths and Flagstone Tax are played whenever the bot holds them in the
  draw phase and its deck is not empty (their cards are drawn or revealed from it); Two Truths
  first.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action, Commit, UseAbility
from rules_engine.cards import Card, Move, Rank
from rules_engine.characters.quince import (
    CHOOSE,
    FLAGSTONE_TAX,
    PATRIOT_MIRROR,
    PILES,
    SECOND_CARD,
    TAX_OPTIONS,
    TO_HAND,
    TWO_TRUTHS,
)
from rules_engine.journal import DamageDealt
from rules_engine.state import Decision, PlayerState
from rules_engine.training import judge
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore

_TRUTH_RANKS = frozenset(r for r in Rank if Rank.THREE <= r <= Rank.KING)


def top_legal_discards(ps: PlayerState) -> list[Card]:
    """Two Truths' pile 1 for the bot: the top 3 cards of its discard pile of different ranks
    from 3 through King (the top of the pile is its last card)."""
    out: list[Card] = []
    for c in reversed(ps.discard):
        if c.rank in _TRUTH_RANKS and all(o.rank is not c.rank for o in out):
            out.append(c)
        if len(out) == 3:
            break
    return out


def dealt_combat_damage(game: GameCore, ps: PlayerState, turn: int) -> bool:
    """Whether ``ps`` dealt combat damage to its opponent on ``turn``."""
    return any(e.turn == turn and e.source is ps.player and e.target is not ps.player
               and e.kind == "combat" and e.amount > 0 for e in game.journal.of(DamageDealt))


class QuinceBot(BotRules):
    """BOT-QUINCE: the spin rotation, Two Truths' piles, Flagstone Tax at random, Patriot
    Mirror's better card."""

    def orientation(self, game: GameCore, ps: PlayerState, card: Card,
                    order: list[Move]) -> list[Move]:
        if card.rank is None or not card.rank.is_face or len(order) != 2 \
                or not dealt_combat_damage(game, ps, game.turn - 1):
            return order
        up, other = order
        wins = [judge.wins_combat(game, ps, card=card, move=game.played_move(ps, card, m))
                for m in (up, other)]
        return [other, up] if wins == [False, True] else order

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        uses = [a for a in legal if isinstance(a, UseAbility)]
        if UseAbility(PATRIOT_MIRROR, option=SECOND_CARD) in uses:
            return UseAbility(PATRIOT_MIRROR, option=SECOND_CARD)
        mirror = [a for a in uses if a.ability == PATRIOT_MIRROR and a.card is not None]
        if mirror:
            return self._better(game, ps, mirror)
        chosen = [a for a in uses if a.ability == TWO_TRUTHS and a.option == CHOOSE]
        if chosen:
            want = set(top_legal_discards(ps))
            return next(a for a in chosen if set(a.cards) == want)
        piles = [a for a in uses if a.ability == TWO_TRUTHS and a.option == PILES]
        if piles:
            return self._piles(ps, piles)
        if not ps.deck:
            return None
        truths = [a for a in uses if a.ability == TWO_TRUTHS and a.card is not None]
        if truths:
            return truths[0]
        taxes = [a for a in uses if a.ability == FLAGSTONE_TAX]
        if taxes:
            assert game.rng is not None  # Training is seeded (TR-5)
            named = TAX_OPTIONS[game.rng.below(len(TAX_OPTIONS))]
            return next(a for a in taxes if a.option == named)
        return None  # Positive Spin's reveal, the rotation: the generic procedure passes

    def choose_against(self, game: GameCore, ps: PlayerState, decision: Decision,
                       legal: list[Action]) -> Action | None:
        picks = [a for a in legal if isinstance(a, UseAbility) and a.ability == TWO_TRUTHS
                 and a.option == TO_HAND]
        if len(picks) != 2:
            return None
        assert game.rng is not None  # Training is seeded (TR-5)
        return picks[game.rng.below(2)]

    @staticmethod
    def _piles(ps: PlayerState, piles: list[UseAbility]) -> Action:
        pool = set(piles[0].cards).union(*(set(a.cards) for a in piles))
        one = set(top_legal_discards(ps)) & pool or pool
        return next(a for a in piles if set(a.cards) == one)

    @staticmethod
    def _better(game: GameCore, ps: PlayerState, mirror: list[UseAbility]) -> Action:
        """Patriot Mirror: the better of the two revealed cards (:func:`judge.how_well`)."""
        second = game.combat.second_commits.get(ps.player)

        def how_good(a: UseAbility) -> tuple[bool, bool, int]:
            c = a.card
            assert c is not None
            if c is ps.combat_card and ps.combat_move is not None:
                return judge.how_well(game, ps, ps.combat_move)
            if not isinstance(second, Commit) or c.is_joker:
                return False, False, 0
            m = game.resolve_move(ps, c, second.move, second.name, "C2")
            return judge.how_well(game, ps, m, card=c)
        return max(mirror, key=how_good)
