"""Reads for Training and Survival (RULES.md §12): a player's solo results, their best Survival
score per character, and the Survival leaderboard.

A solo result counts while its match is confirmed from a verified log (``result_source`` LOG)
whose newest finished verification run is legal: the verifier derived every bot choice, so the
score in the verdict's facts (``survival.score``: bots beaten, TR-14) is the engine's, not the
player's claim. These are read from the verdicts on demand (one query per list, bounded by
``limit``); they are not part of the player-vs-player aggregates (:mod:`stats.services`).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from django.db.models import OuterRef, QuerySet, Subquery

from matches.models import Match, MatchSide, Player, VerificationRun

SOLO_SCAN_LIMIT = 5000  # solo matches read for a leaderboard (newest first)


@dataclass(frozen=True)
class SoloResult:
    match_id: int
    mode: str
    player_id: int
    player_name: str
    character: str
    bots: list[str]
    won: bool  # Training: the bot was beaten; Survival: every bot was
    score: int  # bots beaten (Training: 0 or 1)
    turns: int | None
    played_at: Any

    def to_dict(self) -> dict[str, Any]:
        return {"match": self.match_id, "mode": self.mode, "player": self.player_id,
                "player_name": self.player_name, "character": self.character,
                "bots": self.bots, "won": self.won, "score": self.score, "turns": self.turns,
                "played_at": self.played_at.isoformat()}


def _solo_matches() -> QuerySet[Match]:
    newest = (VerificationRun.objects.filter(log_id=OuterRef("result_log_id"),
                                             status__in=VerificationRun.FINISHED_STATUSES)
              .order_by("-created_at", "-id"))
    return (
        Match.objects.filter(mode__in=[Match.Mode.TRAINING, Match.Mode.SURVIVAL],
                             status=Match.Status.CONFIRMED,
                             result_source=Match.ResultSource.LOG, result_log__isnull=False)
        .annotate(run_status=Subquery(newest.values("status")[:1]),
                  run_verdict=Subquery(newest.values("verdict")[:1]),
                  player_id=Subquery(MatchSide.objects.filter(match=OuterRef("pk"), side=1)
                                     .values("player_id")[:1]))
        .filter(run_status=VerificationRun.Status.LEGAL)
        .order_by("-created_at", "-id")
    )


def _result(match: Any, names: dict[int, str]) -> SoloResult | None:
    verdict = match.run_verdict or {}
    facts = verdict.get("facts") or {}
    final = verdict.get("final") or {}
    teams = facts.get("teams") or {}
    human = (teams.get("P1") or [None])[0]
    if human is None:
        return None
    bots = list(teams.get("P2") or [])
    won = final.get("winner") == "P1"
    if match.mode == Match.Mode.SURVIVAL:
        score = int((facts.get("survival") or {}).get("score", 0))
    else:
        score = 1 if won else 0
    return SoloResult(match.pk, match.mode, match.player_id, names.get(match.player_id, ""),
                      human, bots, won, score, final.get("turns"), match.created_at)


def _results(matches: QuerySet[Match], limit: int) -> list[SoloResult]:
    rows = list(matches[:limit])
    names = dict(Player.objects.filter(pk__in={m.player_id for m in rows})
                 .values_list("pk", "display_name"))
    return [r for m in rows if (r := _result(m, names)) is not None]


def player_solo_results(player: Player, *, limit: int = 10) -> list[SoloResult]:
    """The player's latest verified Training games and Survival runs."""
    return _results(_solo_matches().filter(sides__player=player, sides__side=1), limit)


def player_best_survival(player: Player) -> list[dict[str, Any]]:
    """The player's best Survival score per character (ties: the earliest run), best first."""
    runs = _results(_solo_matches().filter(mode=Match.Mode.SURVIVAL, sides__player=player,
                                           sides__side=1), SOLO_SCAN_LIMIT)
    best: dict[str, SoloResult] = {}
    for r in reversed(runs):  # oldest first: a tie keeps the earlier run
        if r.character not in best or r.score > best[r.character].score:
            best[r.character] = r
    return [b.to_dict() for b in sorted(best.values(), key=lambda r: (-r.score, r.character))]


def survival_leaderboard(*, character: str = "", limit: int = 50) -> list[dict[str, Any]]:
    """Players by their best Survival score (with one character, or any), then the earlier
    run; one row per player."""
    matches = _solo_matches().filter(mode=Match.Mode.SURVIVAL)
    runs = [r for r in _results(matches, SOLO_SCAN_LIMIT)
            if not character or r.character == character]
    best: dict[int, SoloResult] = {}
    for r in reversed(runs):
        if r.player_id not in best or r.score > best[r.player_id].score:
            best[r.player_id] = r
    ordered = sorted(best.values(), key=lambda r: (-r.score, r.played_at, r.player_name))
    return [{"rank": i, **r.to_dict()} for i, r in enumerate(ordered[:limit], start=1)]
