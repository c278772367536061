"""BOT-MENELKER (RULES.md §12.2): Power Up for black face cards, Bonecracker's choice, Into
Oblivion only on an Ace.

- Power Up (P5, TR-12 changed): with no black face card (J, Q, K of Clubs or Spades) in hand he
  powers up for black face cards instead of Aces, chosen at random (the game's seeded stream)
  among those in his discard pile; otherwise for Aces. TR-12 still holds: only from the discard
  pile, as many as owed and there are, the lowest-rank sets. Engine reading: when the discard
  pile holds fewer black face cards than he is owed, Aces make up the number (the search takes
  as many as it can, TR-12), and with a black face card in hand he takes Aces only.
- Bonecracker: he makes the human discard a Joker if possible, else an Ace, else a random
  card of their revealed hand (seeded).
- Into Oblivion (TR-11 overridden): only when it banishes an Ace from the human's discard pile
  (the target is that Ace); otherwise he passes.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from rules_engine.actions import Action, Pass, PowerUp, UseAbility
from rules_engine.cards import Card
from rules_engine.characters.menelker import BONECRACKER, INTO_OBLIVION, is_black_face
from rules_engine.state import Decision, PlayerState
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore


def _rank(c: Card) -> int:
    return 0 if c.rank is None else int(c.rank)


def _seeded(game: GameCore, items: Sequence[Action]) -> Action:
    """One of ``items`` at random, from the game's seeded stream (a replay derives it again)."""
    assert game.rng is not None  # Training is always seeded (TR-5)
    return items[game.rng.below(len(items))] if len(items) > 1 else items[0]


class MenelkerBot(BotRules):
    """BOT-MENELKER: black face cards for Power Up with none in hand; Bonecracker takes a Joker,
    else an Ace, else a random card; Into Oblivion only on an Ace."""

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        ups = [a for a in legal if isinstance(a, PowerUp)]
        if ups:
            return self._power_up(game, ps, ups)
        uses = [a for a in legal if isinstance(a, UseAbility)]
        if not uses:
            return None
        if uses[0].ability == BONECRACKER:
            return self._bonecracker(game, uses)
        if uses[0].ability == INTO_OBLIVION and Pass() in legal:
            aces = [a for a in uses if a.card is not None and a.cards and a.cards[0].is_ace]
            return aces[0] if aces else Pass()
        return None

    @staticmethod
    def _power_up(game: GameCore, ps: PlayerState, ups: list[PowerUp]) -> Action:
        """TR-12 with BOT-MENELKER's target: black face cards (random) with none in hand, else
        Aces; only from the discard pile, as many as he may; the lowest-rank sets."""
        faces_wanted = not any(is_black_face(c) for c in ps.hand)
        pool = [a for a in ups if not a.from_deck]
        if not faces_wanted:  # "otherwise for Aces"
            pool = [a for a in pool if all(c.is_ace for c in a.from_discard)]
        most = max((len(a.from_discard) for a in pool), default=0)
        if most == 0:
            return PowerUp()
        pool = [a for a in pool if len(a.from_discard) == most]
        if faces_wanted:  # as many black face cards as there are, Aces make up the number
            faces = max(sum(1 for c in a.from_discard if is_black_face(c)) for a in pool)
            pool = [a for a in pool
                    if sum(1 for c in a.from_discard if is_black_face(c)) == faces]

        def sets_key(a: PowerUp) -> tuple[tuple[int, ...], int]:
            return tuple(sorted((_rank(c) for c in a.sets), reverse=True)), len(a.sets)
        best = min(sets_key(a) for a in pool)
        pool = [a for a in pool if sets_key(a) == best]
        # the cards taken: chosen at random among the equally good ones (seeded)
        taken = sorted({tuple(sorted(c.code for c in a.from_discard)) for a in pool})
        assert game.rng is not None
        pick = taken[game.rng.below(len(taken))] if len(taken) > 1 else taken[0]
        return next(a for a in pool if tuple(sorted(c.code for c in a.from_discard)) == pick)

    @staticmethod
    def _bonecracker(game: GameCore, uses: list[UseAbility]) -> Action:
        """A Joker if possible, else an Ace, else a random card (seeded)."""
        jokers = [a for a in uses if a.cards[0].is_joker]
        aces = [a for a in uses if a.cards[0].is_ace]
        if jokers or aces:
            return (jokers or aces)[0]
        return _seeded(game, uses)
