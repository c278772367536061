"""BOT-ZANE (RULES.md §12.2): "uses his innate to play his most damaging combo"; TR-11 for
Creator and Destroyer.

Zane's innate, Shenanigans, reveals the top two cards of his deck at one of his combo decisions
(once a turn) and lets him play one of them at once as his next combo move; the unused ones are
discarded. Engine reading of the BOT rule:

- *when*: at a combo decision where the best combo from his hand (TR-8's planner) has at most
  one move left to play (nothing, or only its last move): a revealed card can then only add to
  the combo, before that last move or after the combo's end, without breaking the combo he
  would make from hand (the top of his deck is not public: the bot does not look at it first);
- *which*: once revealed, he plays the revealed card (or passes) that starts the most damaging
  combo (pumps included, TR-8/TR-9) with the rest of his hand, the revealed cards he does not
  play left out (they are discarded); a tie keeps his hand's combo (he passes), then the
  revealed card that spends fewer cards, then lower ranks.

Creator and Destroyer (TR-11, not overridden): played whenever it is offered and the human holds
a card (the hand remake then has an effect); otherwise he passes.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.actions import Action, Combo, Pass, Pump, Stop, UseAbility
from rules_engine.cards import Card, ComboType
from rules_engine.characters.zane import CREATOR, SHENANIGANS
from rules_engine.state import Decision, PlayerState
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore
    from rules_engine.training.bot import _Plan

#: Shenanigans reveals this many cards.
REVEALED = 2


def _best(game: GameCore, ps: PlayerState, firsts: list[Combo], hand: list[Card]) -> _Plan:
    """TR-8's planner over ``hand`` (the cards he will still hold), starting with one of
    ``firsts`` or with no move at all."""
    from rules_engine.training import bot

    run = game.combat.run
    limit = ps.character.combo_limit
    best = bot._with_pumps(game, ps, [], [], hand, set())
    for first in firsts:
        m = game.as_played(ps, game.resolve_move(ps, first.card, first.move, first.name, "C10"))
        rest = [c for c in hand if c is not first.card and c not in first.aces]
        closed = (run.hit_back and not run.full_combo) or m.follow_type in (
            ComboType.ENDER, ComboType.CANT_COMBO)
        for tail in bot._tails(game, ps, m, ps.combo_points_spent + (m.combo_points or 0),
                               rest, limit, 0 if closed else bot._MAX_PLAN_DEPTH - 1):
            moves = [first, *tail]
            plan = bot._with_pumps(game, ps, moves, [first.card, *first.aces,
                                                     *(t.card for t in tail)],
                                   [first.card, *hand], set())
            if plan.key(hand) < best.key(hand):
                best = plan
    return best


class ZaneBot(BotRules):
    """BOT-ZANE: Shenanigans for his most damaging combo; Creator and Destroyer whenever the
    human holds a card (TR-11)."""

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        shenanigans = UseAbility(SHENANIGANS)
        if shenanigans in legal:
            return shenanigans if self._reveal_now(game, ps, legal) else None
        creators = [a for a in legal if isinstance(a, UseAbility) and a.ability == CREATOR]
        if creators:
            return creators[0] if game.opponent(ps).hand else Pass()
        if decision.step == "C10" and Pass() in legal and Stop() not in legal \
                and any(isinstance(a, Combo) for a in legal):
            return self._pick(game, ps, [a for a in legal if isinstance(a, Combo)])
        return None

    @staticmethod
    def _reveal_now(game: GameCore, ps: PlayerState, legal: list[Action]) -> bool:
        """Whether the best combo from hand has at most one move left."""
        from rules_engine.training import bot

        plan = bot._best_plan(game, ps, [a for a in legal if isinstance(a, Combo | Pump)])
        return len(plan.moves) <= 1

    @staticmethod
    def _pick(game: GameCore, ps: PlayerState, revealed_moves: list[Combo]) -> Action:
        """The revealed card whose combo deals the most, or pass (his hand's combo)."""
        # the revealed cards were put into his hand last (a deck of one card reveals one: the
        # card before it is then left out too, a case the bot accepts)
        revealed = {a.card for a in revealed_moves} | set(ps.hand[-REVEALED:])
        hand = [c for c in ps.hand if c not in revealed]
        own = [a for a in game.combo_choices(ps) if a.card not in revealed
               and not set(a.aces) & revealed]
        most = _best(game, ps, own, hand).damage
        best: Action = Pass()
        best_key = None
        for a in revealed_moves:
            plan = _best(game, ps, [a], hand)
            if not plan.moves or plan.moves[0] != a or plan.damage <= most:
                continue
            if best_key is None or plan.key(hand) < best_key:
                best, best_key = a, plan.key(hand)
        return best
