"""BOT-ARGAGARG (RULES.md §12.2): "No changes", so TR-11 plays his abilities: "whenever
possible, but only when they would have an effect".

- Protective Ward (7): its effect is on the human's attacks and throws (Enders that can't be
  pumped, for the rest of the turn). In the combat-reveal window (the default timing) he plays
  it when the human revealed an attack or a throw; otherwise it would change nothing but a card
  for a card, and he passes. Under ``opt.protectiveWard=DRAW_PHASE`` the human's card is not
  known yet: he plays it whenever he can (it replaces itself, and covers whatever they commit).
- Crash and Flow (10): he counters every ability he can (it negates it, and the human draws a
  card while the countered card goes to the bottom of their deck).
- Hex of Murkwood and Bubble Shield need no choice.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine import combat as cb
from rules_engine.actions import Action, Pass, UseAbility
from rules_engine.characters.argagarg import CRASH_AND_FLOW, PROTECTIVE_WARD
from rules_engine.ruleset import ProtectiveWard
from rules_engine.state import Decision, PlayerState
from rules_engine.training.characters.base import BotRules

if TYPE_CHECKING:
    from rules_engine.game.core import GameCore


class ArgagargBot(BotRules):
    """BOT-ARGAGARG ("No changes") with TR-11: Protective Ward when the human revealed an attack
    or a throw; Crash and Flow against every ability it can counter."""

    def choose(self, game: GameCore, ps: PlayerState, decision: Decision,
               legal: list[Action]) -> Action | None:
        uses = [a for a in legal if isinstance(a, UseAbility)]
        ward = [a for a in uses if a.ability == PROTECTIVE_WARD]
        if ward:
            if game.ruleset.protectiveWard is ProtectiveWard.DRAW_PHASE \
                    or game.opponent(ps).kind in (cb.ATTACK, cb.THROW):
                return ward[0]
            return Pass()
        counters = [a for a in uses if a.ability == CRASH_AND_FLOW]
        return counters[0] if counters else None
