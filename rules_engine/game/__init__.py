"""The game: one state machine for setup, turns, combat, Power Up, cleanup and the end.

:class:`Game` is the object bots, self-play, replay and the timeline drive; the modules of this
package are its steps (see :mod:`rules_engine.game.core`). The value types live in
:mod:`rules_engine.state` and are re-exported here for callers that imported them from the game.
"""

from rules_engine.game.core import HAND_LIMIT, OPENING_HAND, GameOver
from rules_engine.game.turn import Game
from rules_engine.state import ComboEntry, ComboRecord, Decision, Outcome, PlayerState, Step

__all__ = [
    "HAND_LIMIT",
    "OPENING_HAND",
    "ComboEntry",
    "ComboRecord",
    "Decision",
    "Game",
    "GameOver",
    "Outcome",
    "PlayerState",
    "Step",
]
