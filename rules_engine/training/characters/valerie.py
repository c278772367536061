"""BOT-VALERIE (RULES.md §12.2): "Burst of Speed only to turn a lost combat into a win, using the
fewest copies needed. No pumping her Queen attack unless that wins the game."

- Burst of Speed (Combat Reveal, a 10): played only when the human wins combat as things stand
  and some number of Bursts, no more than the 10s in her hand, makes her win it (judged as C6
  will resolve it, :mod:`rules_engine.training.judge`, each Burst applied as the card's own
  :func:`~rules_engine.characters.valerie.burst`). One is played at a time and the window asks
  again, so she stops at the fewest copies that win. A speed tie (both hit) is not a lost
  combat.
- Her Queen attack (Crimson Passion) is pumped only when the pump makes the combo's C12 damage
  (every entry so far, after the modifiers in force) reach the human's life, which it did not
  reach without it; then with the fewest, lowest-rank cards that do (one pump action may
  carry several cards, PM-1). Every other combo choice is the generic TR-8/TR-9 plan over the
  choices left.
- Bold Strokes (Combat Reveal, a 7) is TR-11: played when it would have an effect, i.e. when she
  can draw its card (her deck is not empty) or her combat action is a normal attack (+1).
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine.actions import Action, Pump, UseAbility
from rules_engine.cards import Rank
from rules_engine.characters.valerie import BOLD_STROKES, BURST_OF_SPEED, burst
from rules_engine.modifiers import COMBO_DAMAGE
from rules_engine.ruleset import BurstOfSpeed
from rules_engine.state import ComboEntry, Decision, PlayerState
from rules_engine.training import judge
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore


def bursts_to_win(game: GameCore, ps: PlayerState, most: int) -> int | None:
    """The fewest Bursts of Speed (0..``most``) with which ``ps`` wins combat, or None."""
    floor_zero = game.ruleset.burstOfSpeed is BurstOfSpeed.FLOOR_0_0
    for n in range(most + 1):
        def faster(speed: int, n: int = n) -> int:
            for _ in range(n):
                speed = burst(speed, floor_zero)
            return speed
        if judge.wins_combat(game, ps, faster=faster):
            return n
    return None


def combo_damage(game: GameCore, ps: PlayerState, pumped: tuple[int, Pump] | None = None
                 ) -> int:
    """The C12 damage of ``ps``'s combo so far (with ``pumped``: one more pump on an entry)."""
    total = 0
    for i, e in enumerate(game.combo):
        if pumped is not None and pumped[0] == i:
            e = ComboEntry(e.card, e.move, [*e.pumps, *pumped[1].cards], e.played_in_c10)
        total += game.modifiers.fold(COMBO_DAMAGE, ps, e, e.damage_at_c12())
    return total


class ValerieBot(BotRules):
    """BOT-VALERIE: Burst of Speed only to win a lost combat; no Queen pump unless it KOs."""

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        if any(isinstance(a, Pump) for a in legal):
            return self._combo(game, ps, legal)
        uses = [a for a in legal if isinstance(a, UseAbility)]
        bursts = [a for a in uses if a.ability == BURST_OF_SPEED]
        if bursts and not judge.wins_combat(game, ps) and self._lost(game, ps):
            tens = sum(1 for c in ps.hand if c.rank is Rank.TEN)
            if bursts_to_win(game, ps, tens) is not None:
                return bursts[0]
        bold = [a for a in uses if a.ability == BOLD_STROKES]
        normal = ps.kind == cb.ATTACK and ps.combat_move is not None \
            and ps.combat_move.is_normal_attack
        if bold and (ps.deck or normal):
            return bold[0]
        return None

    @staticmethod
    def _lost(game: GameCore, ps: PlayerState) -> bool:
        winner = judge.combat_result(game, ps).winner
        return winner is not None and game.actives[winner] is not ps

    @staticmethod
    def _combo(game: GameCore, ps: PlayerState, legal: list[Action]) -> Action:
        from rules_engine.training.bot import _combo as plan_combo  # the generic TR-8 plan

        life = game.opponent(ps).life
        queen = [a for a in legal if isinstance(a, Pump)
                 and game.combo[a.target].card.rank is Rank.QUEEN]
        so_far = combo_damage(game, ps)
        winning = [a for a in queen
                   if so_far < life <= combo_damage(game, ps, (a.target, a))]
        if winning:
            return min(winning, key=lambda a: (len(a.cards), sorted(int(c.rank or 0)
                                                                    for c in a.cards)))
        return plan_combo(game, ps, [a for a in legal if a not in queen])
