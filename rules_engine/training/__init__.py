"""Training and Survival (RULES.md §12): the rulebook's solo bot and the modes that seat it.

- :mod:`rules_engine.training.bot`: the generic bot procedure (TR-5..TR-13, OQ-27), one choice
  per decision of the bot's seat, derived and never logged;
- :mod:`rules_engine.training.modes`: :class:`Training` and :class:`Survival`, strategies
  beside Versus (:mod:`rules_engine.modes`);
- :func:`training_game` / :func:`survival_game`: the games.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from rules_engine.ruleset import DEFAULT_RULESET, Ruleset
from rules_engine.team import Mode, Team
from rules_engine.training.bot import BOT_RULES_IMPLEMENTED
from rules_engine.training.modes import SURVIVAL_HEAL, Survival, Training, survival_score

if TYPE_CHECKING:
    from rules_engine.game import Game

__all__ = ["BOT_RULES_IMPLEMENTED", "SURVIVAL_HEAL", "Survival", "Training", "survival_game",
           "survival_score", "training_game"]


def training_game(human: str, bot: str, *, seed: int,
                  ruleset: Ruleset = DEFAULT_RULESET) -> Game:
    """A Training game: ``human`` (P1) against the bot playing ``bot`` (P2). Always seeded:
    the bot's cards and orientations come from the seed (TR-5)."""
    from rules_engine.game import Game

    return Game.for_teams(Mode.TRAINING, (Team.of((human,)), Team.of((bot,))),
                          ruleset=ruleset, seed=seed)


def survival_game(human: str, opponents: tuple[str, ...], *, seed: int,
                  ruleset: Ruleset = DEFAULT_RULESET) -> Game:
    """A Survival run (TR-14): ``human`` against the bots ``opponents``, in order."""
    from rules_engine.game import Game

    return Game.for_teams(Mode.SURVIVAL, (Team.of((human,)), Team.of(opponents)),
                          ruleset=ruleset, seed=seed)
