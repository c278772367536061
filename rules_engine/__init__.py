"""Yomi rules engine: pure Python (standard library only).

Plays and verifies Yomi Versus games by `docs/rules/RULES.md`. Nothing here may import Django
or a project app (import-linter contract; tests/rules_engine/test_import_purity.py checks it too).

Public API (modules, one responsibility each):
- :mod:`rules_engine.cards`: Rank, Suit, Card, Move, MoveType, ComboType, Character, character().
- :mod:`rules_engine.ruleset`: Ruleset (the ``opt.*`` options with their defaults).
- :mod:`rules_engine.game`: Game (actor, legal_actions, apply), Outcome.
- :mod:`rules_engine.actions`: the choices (Commit, NoCard, Combo, Pump, Stop, PowerUp, ...).
- :mod:`rules_engine.log`: parse_log / MatchLog (format version 1, docs/log-format.md).
- :mod:`rules_engine.replay`: replay(log) -> Verdict.
- :mod:`rules_engine.errors`: LogSyntaxError, IllegalActionError, EngineInvariantError.
- :mod:`rules_engine.bots`, :mod:`rules_engine.selfplay`: bots and self-play.

:data:`BUILD` says which build of this source runs (:mod:`rules_engine.build`): chosen here,
before any other engine module is imported, since the compiled one is loaded from its own
directory.
"""

from rules_engine.build import Build, select

__version__ = "0.3.0"
BUILD: Build = select(__path__)
