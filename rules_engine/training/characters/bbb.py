"""BOT-BALBASBETA (RULES.md §12.2) and TR-11 for Bal-Bas-Beta's other abilities.

BOT-BALBASBETA: "After Overdrive, if the combat card is neither a face card nor a dodge,
reveal cards from the deck until a face card or dodge turns up and use it; unused cards go to
the bottom of the deck."

Engine readings (docs/rules/characters/bbb.md, "Engine rulings"): "after Overdrive" is the turn
Overdrive was played (its effects last that turn). The combat card is first turned over by the
generic procedure (TR-5's seeded 50/50, TR-6); when it is neither a face card (J, Q, K; Aces aren't
face cards) nor on its dodge end, it goes to the bottom of the deck and the next cards are
revealed: a face card is used with TR-5's seeded orientation (rotated when that end is
illegal, TR-6), a card with a dodge end on its dodge end; the others go to the bottom. With no
face card or dodge card left in the deck the first card is kept.

TR-11: Overdrive is played whenever it can be and a face card is in his hand or deck (its +3
and its Long Arm, Junk Shot and Extensor Grab texts act on face cards, and this rule makes a
face card or a dodge his combat card); Robo Headbutt's extra combo is a combo (TR-8: always
taken); Long Range needs no decision.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action, Commit, NoCard, UseAbility
from rules_engine.cards import Card, Move, MoveType
from rules_engine.characters.bbb import OVERDRIVE, BBBRules
from rules_engine.state import Decision, PlayerState
from rules_engine.training.characters.base import BotRules
from rules_engine.training.characters.reveal import reveal_until

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore


def _face(c: Card) -> bool:
    return c.rank is not None and c.rank.is_face


def _has_dodge(ps: PlayerState, c: Card) -> bool:
    return any(m.type is MoveType.DODGE for m in ps.character.moves_of(c))


class BBBBot(BotRules):
    """BOT-BALBASBETA, and TR-11 for Overdrive."""

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        rules = game.rules[ps.player]
        if decision.step == "C1" and isinstance(rules, BBBRules) and rules.overdrive \
                and any(isinstance(a, Commit | NoCard) for a in legal):
            return self._overdrive_commit(game, ps, decision)
        overdrive = [a for a in legal if isinstance(a, UseAbility) and a.ability == OVERDRIVE]
        if overdrive and any(_face(c) for c in (*ps.hand, *ps.deck)):
            return overdrive[0]
        return None

    def _overdrive_commit(self, game: GameCore, ps: PlayerState, d: Decision) -> Action:
        # TR-5 / TR-6 turn the first card over (imported here: bot.py imports this package)
        from rules_engine.training.bot import _commit

        first = _commit(game, ps, d)
        if not isinstance(first, Commit) or _face(first.card) \
                or first.move is MoveType.DODGE:
            return first
        if not any(_face(c) or _has_dodge(ps, c) for c in ps.deck):
            return first
        ps.hand.remove(first.card)  # unused: to the bottom of the deck
        ps.deck.append(first.card)
        rng = game.rng
        assert rng is not None  # Training is always seeded

        def ends(c: Card) -> list[Move]:
            moves = list(ps.character.moves_of(c))
            if _face(c):  # TR-5's seeded orientation, then rotated (TR-6)
                up = rng.below(len(moves)) if len(moves) > 1 else 0
                return moves[up:] + moves[:up]
            return [m for m in moves if m.type is MoveType.DODGE]

        found = reveal_until(game, ps, d, ends)
        if found is None:  # none of them can be played: the first card after all
            ps.deck.remove(first.card)
            ps.hand.append(first.card)
            return first
        return found
