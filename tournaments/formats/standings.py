"""The standings engine that round-robin and Swiss standings share.

Scoring
    A win is worth `win_points` (1), a draw (`winner=None`) `draw_points` (0.5) to each side, a
    loss `loss_points` (0), a bye `bye_points` (1, counted as a win). A double forfeit
    (`double_forfeit=True`) is a loss for both sides and not a meeting: it adds nothing to
    Buchholz, Sonneborn-Berger, head-to-head or games. Several results between the same two
    entrants (a double round robin) all count.

Tie-breaks, applied in the order given; each splits only entrants still tied by the earlier ones
    "points"            points (higher first).
    "wins"              sets won, byes included (higher first).
    "game_difference"   games won minus games lost inside sets (higher first).
    "games_won"         games won inside sets (higher first).
    "buchholz"          sum of the final points of every opponent met (a bye adds nothing).
    "sonneborn_berger"  sum over opponents of (1 for a win, 0.5 for a draw, 0 for a loss) times
                        that opponent's final points (a bye adds nothing).
    "head_to_head"      points earned in the results among the entrants still tied only (a
                        mini-league; for two entrants, their direct results). When it splits a
                        tied block of three or more, it is applied again inside every smaller block
                        that is still tied, until nothing changes.
    "seed"              the entrant's position in `entrant_ids` (earlier first); always breaks
                        every remaining tie.
Entrants still tied after every tie-break share a rank (1, 2, 2, 4) and keep their `entrant_ids`
order. `StandingRow.tiebreaks` holds every scalar tie-break above, plus "games_lost", for every
entrant; "head_to_head" is present only for entrants that were in a tied block when it was applied
(its value is their mini-league points in the last block it was applied to).
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field

from .types import GameResultRecord, StandingRow

__all__ = ["TIEBREAKS", "compute_standings"]

TIEBREAKS = frozenset(
    {
        "points",
        "wins",
        "game_difference",
        "games_won",
        "buchholz",
        "sonneborn_berger",
        "head_to_head",
        "seed",
    }
)


@dataclass(slots=True)
class _Stats:
    seed: int
    wins: int = 0
    losses: int = 0
    draws: int = 0
    byes: int = 0
    points: float = 0.0
    games_won: int = 0
    games_lost: int = 0
    # (opponent, fraction scored: 1, 0.5 or 0), one per result
    meetings: list[tuple[int, float]] = field(default_factory=list)


def compute_standings(
    entrant_ids: Sequence[int],
    results: Iterable[GameResultRecord],
    *,
    tiebreaks: Sequence[str],
    byes: Collection[int] = (),
    win_points: float = 1.0,
    draw_points: float = 0.5,
    loss_points: float = 0.0,
    bye_points: float = 1.0,
) -> list[StandingRow]:
    """Rank `entrant_ids` by `results` (see the module docstring for the rules)."""
    unknown = [name for name in tiebreaks if name not in TIEBREAKS]
    if unknown:
        raise ValueError(f"unknown tie-break(s) {unknown}; known: {sorted(TIEBREAKS)}")
    if len(set(entrant_ids)) != len(entrant_ids):
        raise ValueError("entrant_ids contains duplicates")
    stats = {entrant: _Stats(seed=index) for index, entrant in enumerate(entrant_ids, 1)}
    results = list(results)
    for result in results:
        for entrant in (result.entrant_a, result.entrant_b):
            if entrant not in stats:
                raise ValueError(f"result {result} names entrant {entrant}, not in entrant_ids")
        a, b = stats[result.entrant_a], stats[result.entrant_b]
        if result.double_forfeit:
            for side in (a, b):
                side.losses += 1
                side.points += loss_points
            continue
        a.games_won += result.games_a
        a.games_lost += result.games_b
        b.games_won += result.games_b
        b.games_lost += result.games_a
        if result.winner is None:
            fa = fb = 0.5
            a.draws += 1
            b.draws += 1
            a.points += draw_points
            b.points += draw_points
        else:
            winner, loser = (a, b) if result.winner == result.entrant_a else (b, a)
            fa = 1.0 if winner is a else 0.0
            fb = 1.0 - fa
            winner.wins += 1
            loser.losses += 1
            winner.points += win_points
            loser.points += loss_points
        a.meetings.append((result.entrant_b, fa))
        b.meetings.append((result.entrant_a, fb))
    for entrant in byes:
        if entrant not in stats:
            raise ValueError(f"bye for entrant {entrant}, not in entrant_ids")
        stats[entrant].byes += 1
        stats[entrant].wins += 1
        stats[entrant].points += bye_points

    values: dict[int, dict[str, float]] = {}
    for entrant, s in stats.items():
        values[entrant] = {
            "points": s.points,
            "wins": float(s.wins),
            "game_difference": float(s.games_won - s.games_lost),
            "games_won": float(s.games_won),
            "games_lost": float(s.games_lost),
            "buchholz": sum(stats[o].points for o, _ in s.meetings),
            "sonneborn_berger": sum(f * stats[o].points for o, f in s.meetings),
            "seed": float(s.seed),
        }

    # points each entrant earned against each opponent, for the head-to-head mini-leagues
    earned: dict[int, dict[int, float]] = {entrant: {} for entrant in stats}
    for result in results:
        if result.double_forfeit:
            continue
        id_a, id_b = result.entrant_a, result.entrant_b
        if result.winner is None:
            got_a = got_b = draw_points
        elif result.winner == id_a:
            got_a, got_b = win_points, loss_points
        else:
            got_a, got_b = loss_points, win_points
        earned[id_a][id_b] = earned[id_a].get(id_b, 0.0) + got_a
        earned[id_b][id_a] = earned[id_b].get(id_a, 0.0) + got_b

    def head_to_head(block: list[int]) -> list[list[int]]:
        members = set(block)
        mini = {e: sum(p for o, p in earned[e].items() if o in members) for e in block}
        for entrant in block:
            values[entrant]["head_to_head"] = mini[entrant]
        parts = _split(block, lambda e: -mini[e])
        if len(parts) == 1:
            return parts
        return [sub for part in parts for sub in (head_to_head(part) if len(part) > 1 else [part])]

    blocks: list[list[int]] = [list(entrant_ids)]
    for name in tiebreaks:
        next_blocks: list[list[int]] = []
        for block in blocks:
            if len(block) == 1:
                next_blocks.append(block)
            elif name == "head_to_head":
                next_blocks.extend(head_to_head(block))
            elif name == "seed":
                next_blocks.extend(_split(block, lambda e: values[e]["seed"]))
            else:
                next_blocks.extend(_split(block, lambda e, n=name: -values[e][n]))
        blocks = next_blocks

    rows: list[StandingRow] = []
    rank = 1
    for block in blocks:
        for entrant in block:
            s = stats[entrant]
            rows.append(
                StandingRow(
                    entrant_id=entrant,
                    rank=rank,
                    wins=s.wins,
                    losses=s.losses,
                    draws=s.draws,
                    points=s.points,
                    tiebreaks=values[entrant],
                )
            )
        rank += len(block)
    return rows


def _split(block: list[int], key) -> list[list[int]]:  # type: ignore[no-untyped-def]
    """Stable sort of `block` by `key`, cut into runs of equal key."""
    ordered = sorted(block, key=key)
    parts: list[list[int]] = []
    previous = object()
    for entrant in ordered:
        k = key(entrant)
        if parts and k == previous:
            parts[-1].append(entrant)
        else:
            parts.append([entrant])
        previous = k
    return parts
