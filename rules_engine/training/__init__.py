"""Training and Survival (RULES.md §12): the rulebook's solo bot and the modes that seat it.

- :mod:`rules_engine.training.bot`: the generic bot procedure (TR-5..TR-13, OQ-27), one choice
  per decision of the bot's seat, derived and never logged;
- :mod:`rules_engine.training.modes`: :class:`Training` and :class:`Survival`, strategies
  beside Versus (:mod:`rules_engine.modes`);
- the games themselves start at the front door: ``Game.new(Mode.TRAINING, (human, bot),
  seed=...)``, ``Game.new(Mode.SURVIVAL, (human, bots), seed=...)``.
"""

from __future__ import annotations

from rules_engine.training.bot import BOT_RULES_IMPLEMENTED
from rules_engine.training.modes import SURVIVAL_HEAL, Survival, Training, survival_score

__all__ = ["BOT_RULES_IMPLEMENTED", "SURVIVAL_HEAL", "Survival", "Training", "survival_score"]
