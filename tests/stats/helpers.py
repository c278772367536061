"""Builders for stats tests: matches confirmed through the real services, and snapshots of
every aggregate row (to compare incremental numbers with a rebuild)."""

from __future__ import annotations

from functools import cache
from typing import Any

from matches.models import Match, Player
from matches.services import match_create, match_log_confirm, match_log_submit
from rules_engine.selfplay import play_game
from stats.models import CharacterStat, HeadToHead, PlayerStat


@cache
def log_text(p1: str, p2: str, seed: int) -> str:
    return play_game(p1, p2, seed)[1].dumps()


@cache
def log_won_by(winner: str, p1: str, p2: str) -> str:
    """A self-play log of ``p1`` against ``p2`` that ``winner`` ("P1"/"P2") wins."""
    for seed in range(1, 300):
        game, log = play_game(p1, p2, seed)
        outcome = game.outcome
        if outcome is not None and outcome.winner is not None and outcome.winner.name == winner:
            return log.dumps()
    raise AssertionError(f"no self-play game of {p1} v {p2} won by {winner}")


def confirm(match: Match, text: str, capture: Any) -> Match:
    """Submit ``text`` as side 1, let it verify, confirm as side 2 (callbacks run on commit)."""
    with capture(execute=True):
        match_log_submit(match=match, submitted_by=match.sides.get(side=1).player.user,
                         log_bytes=text.encode())
    with capture(execute=True):
        match_log_confirm(match=match, user=match.sides.get(side=2).player.user)
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    return match


def versus(p1: Player, p2: Player, **kwargs: Any) -> Match:
    return match_create(side_1=[p1], side_2=[p2], **kwargs)


def snapshot() -> dict[str, list[tuple[Any, ...]]]:
    """Every aggregate row, without ids, sorted: equal snapshots mean equal numbers."""
    out = {}
    for model in (CharacterStat, PlayerStat, HeadToHead):
        rows = [tuple(sorted((k, v) for k, v in row.items() if k != "id"))
                for row in model.objects.values()]
        out[model.__name__] = sorted(rows)
    return out
