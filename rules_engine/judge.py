"""Judging a log: the verdict, the timeline and the board before the first illegal event, all
from ONE replay (issue 30).

Responsibility: put together what the pages and the verification worker show of a log. The log
is replayed once (:func:`rules_engine.timeline.replay_observed`); an illegal event is diagnosed
from the game as that replay left it (:mod:`rules_engine.diagnosis`, ``in_place``), and the
board before it is that same game. Nothing here decides a rule.

API: ``judge(log) -> Judgement``; ``log`` is what :func:`rules_engine.replay.replay` accepts.
An unreadable log gives its ``unreadable`` verdict, no turns and no board.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from rules_engine.diagnosis import board_at
from rules_engine.errors import LogSyntaxError
from rules_engine.log import MatchLog, parse_log
from rules_engine.replay import Verdict, replay
from rules_engine.timeline import TurnSummary, Watcher, replay_observed

__all__ = ["Judgement", "judge"]


@dataclass(frozen=True, slots=True)
class Judgement:
    """What one replay of a log says: the verdict, the turns (up to the first illegal event)
    and, for an illegal (or not verifiable yet) log, the board before its first error."""

    verdict: Verdict
    turns: list[TurnSummary]
    board: dict[str, Any] | None

    def to_dict(self) -> dict[str, Any]:
        return {"verdict": self.verdict.to_dict(), "turns": [t.to_dict() for t in self.turns],
                "board": self.board}


def judge(log: MatchLog | str | bytes | dict[str, Any], *,
          watch: Watcher | None = None) -> Judgement:
    """The verdict, timeline and board of ``log`` from one replay; never raises for bad input.
    ``watch`` sees the game before the first event and after each one applied (the replay
    viewer's frames)."""
    if not isinstance(log, MatchLog):
        try:
            log = parse_log(log)
        except LogSyntaxError:
            return Judgement(replay(log), [], None)
    verdict, game, turns = replay_observed(log, watch)
    error = verdict.first_error
    board = None
    if verdict.status in ("illegal", "unverifiable") and error is not None \
            and isinstance(error.get("index"), int) and 0 <= error["index"] <= len(log.events):
        board = board_at(game, log, error["index"])
    return Judgement(verdict, turns, board)
