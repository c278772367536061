"""Helpers to drive stages in tests."""

from __future__ import annotations

from typing import Any

from tournaments.models import Set, Stage
from tournaments.services.advancement import GameInput, SetResult, set_result_report


def win(side: str, best_of: int = 3) -> SetResult:
    return SetResult(games=[GameInput(winner_side=side)] * (best_of // 2 + 1))


def report(stage: Stage, key: str, side: str, actor: Any) -> Set:
    s = Set.objects.get(stage=stage, key=key)
    return set_result_report(set=s, actor=actor, result=win(side, s.best_of))


def play_out(stage: Stage, actor: Any, *, side: str = "a", limit: int = 20_000) -> int:
    """Report every ready set (``side`` wins) until none is left; returns how many were played."""
    played = 0
    while played < limit:
        ready = list(Set.objects.filter(stage=stage, status=Set.Status.READY).order_by("id")[:50])
        if not ready:
            return played
        for s in ready:
            set_result_report(set=s, actor=actor, result=win(side, s.best_of))
            played += 1
    raise AssertionError("the stage did not finish")


def sets_by_key(stage: Stage) -> dict[str, Set]:
    return {
        s.key: s for s in Set.objects.filter(stage=stage).select_related(
            "entrant_a", "entrant_b", "winner", "loser"
        )
    }
