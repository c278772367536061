"""The engine's three failure kinds, kept apart because callers treat them differently.

- :class:`LogSyntaxError`: the input cannot be read (bad JSON, wrong shape, unknown card code).
  Carries a JSON path such as ``$.events[12].card``. Reject the upload.
- :class:`IllegalActionError`: the log is readable but an event breaks a rule. Carries the
  position (event index, turn, step), the player, the action, the rule ID and a reason.
- :class:`EngineInvariantError`: the engine contradicted itself. Our bug, never the player's.

:class:`RuleViolation` is the internal form of an illegal action before the game adds the
position; it never escapes :meth:`rules_engine.game.Game.apply`.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules_engine.types import PlayerId


class RulesError(Exception):
    """Base class of every error the engine raises on purpose."""


class LogSyntaxError(RulesError):
    """Unreadable input: ``json_path`` says where (``$`` is the whole document)."""

    def __init__(self, json_path: str, reason: str) -> None:
        super().__init__(f"{json_path}: {reason}")
        self.json_path = json_path
        self.reason = reason

    @property
    def data(self) -> dict[str, Any]:
        return {"json_path": self.json_path, "reason": self.reason}


@dataclass(frozen=True, slots=True)
class LogPosition:
    """Where in a log: event index (None before the first event), turn and step."""

    index: int | None
    turn: int
    step: str


class RuleViolation(RulesError):
    """A rule broken by an action, without its position (added by the game)."""

    def __init__(self, rule_id: str, reason: str) -> None:
        super().__init__(f"{rule_id}: {reason}")
        self.rule_id = rule_id
        self.reason = reason


class IllegalActionError(RulesError):
    """An action that breaks a rule: where, who, what, and why (rule ID + readable reason)."""

    def __init__(
        self, position: LogPosition, player: PlayerId | None, action: object, rule_id: str,
        reason: str,
    ) -> None:
        self.position = position
        self.player = player
        self.action = action
        self.rule_id = rule_id
        self.reason = reason
        super().__init__(str(self))

    def __str__(self) -> str:
        who = self.player.name if self.player is not None else "nobody"
        at = f"event {self.position.index}, " if self.position.index is not None else ""
        return (
            f"{at}turn {self.position.turn}, step {self.position.step}, {who}: "
            f"{self.action} is illegal: {self.reason} [{self.rule_id}]"
        )

    @property
    def data(self) -> dict[str, Any]:
        return {
            "index": self.position.index,
            "turn": self.position.turn,
            "step": self.position.step,
            "player": None if self.player is None else self.player.name,
            "action": str(self.action),
            "rule_id": self.rule_id,
            "reason": self.reason,
        }


class EngineInvariantError(RulesError):
    """The engine broke one of its own invariants: a bug to report, never the player's fault."""
