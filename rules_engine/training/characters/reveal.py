"""Revealing the bot's combat card from its deck until one fits (BOT-MIDORI's Dragon Form,
BOT-BALBASBETA's Overdrive): "reveal cards from the deck until one shows ... and use it; unused
cards go to the bottom of the deck".

Responsibility: the C1 commit of the bot's seat by such a rule. Like TR-5 the card comes from
the top of the deck into the hand and is committed from there (the game checks it as any
commit); a card that does not fit goes to the bottom of the deck, in the order revealed. Each
card of the deck is revealed at most once: with none that fits, the deck is back in its order
and the rule's caller falls back to the generic procedure.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from rules_engine.actions import Action, Commit
from rules_engine.cards import Card, Move
from rules_engine.ruleset import Timeout
from rules_engine.state import Decision, PlayerState, Zone

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore


def commit_of(ps: PlayerState, c: Card, m: Move) -> Commit:
    """The commit of ``c`` on its end ``m`` (named when both ends are of one type)."""
    ends = ps.character.moves_of(c)
    return Commit(c, m.type, m.name if sum(1 for o in ends if o.type is m.type) > 1 else None)


def playable(game: GameCore, ps: PlayerState, d: Decision, c: Card, m: Move) -> Commit | None:
    """TR-6: ``c`` (in hand) on its end ``m`` as a legal commit with a payable Ace cost, or
    None."""
    action = commit_of(ps, c, m)
    if action not in d.options(ps.player):
        return None
    played = game.played_move(ps, c, m)
    if sum(1 for h in ps.hand if h.is_ace and h is not c) < played.extra_aces:
        return None
    return action


def reveal_until(game: GameCore, ps: PlayerState, d: Decision,
                 ends_of: Callable[[Card], list[Move]]) -> Action | None:
    """Reveal the deck's top cards one by one until one has an end ``ends_of`` lists (in the
    order tried) that is playable; commit it. The others go to the deck's bottom. None when no
    card of the deck fits (the deck is then in its old order)."""
    for _ in range(len(ps.deck)):
        c = ps.deck[0]
        game.move(ps, c, Zone.DECK, Zone.HAND)
        for m in ends_of(c):
            action = playable(game, ps, d, c, m)
            if action is not None:
                if not ps.deck and game.ruleset.timeout is Timeout.RULEBOOK:
                    game.timeout_triggered = True  # END-4 / TR-15: its last card
                return action
        ps.hand.remove(c)  # unused: to the bottom of the deck
        ps.deck.append(c)
    return None
