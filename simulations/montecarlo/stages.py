"""Two stages in one simulation: round-robin groups, then an elimination playoff seeded from the
group standings exactly as the tournaments app seeds it (``round_robin.playoff_seeding``: all
group winners, then all runners-up, ...). Each run plays the groups, then the playoff."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.formats.round_robin import playoff_seeding
from tournaments.formats.types import SetSpec

from .elimination import Matrix, OddsResult, simulate_elimination


@dataclass(frozen=True)
class GroupsThenPlayoff:
    advance: list[float]  # per entrant index: reached the playoff
    playoff: OddsResult


def simulate_groups_then_playoff(
    groups: Sequence[Sequence[int]],
    group_prob: Matrix,
    *,
    advance_per_group: int,
    playoff_specs: Sequence[SetSpec],
    playoff_matrices: Sequence[Matrix],
    runs: int,
    seed: int,
    decided: Mapping[tuple[int, int], int] | None = None,
    matrix_of: Callable[[SetSpec], int] = lambda s: 0,
) -> GroupsThenPlayoff:
    """``decided[(a, b)]`` (a < b) is the winner of a group game already played."""
    n = len(group_prob)
    decided = dict(decided or {})
    pairs = [
        [(a, b, group_prob[a][b], decided.get((min(a, b), max(a, b))))
         for i, a in enumerate(g) for b in g[i + 1:]]
        for g in groups
    ]
    advanced = [0] * n

    def order_of_run(rnd: Callable[[], float]) -> list[int]:
        rows = []
        for group, group_pairs in zip(groups, pairs, strict=True):
            points = dict.fromkeys(group, 0)
            for a, b, p, winner in group_pairs:
                if winner is None:
                    winner = a if rnd() < p else b
                points[winner] += 1
            rows.append(sorted(group, key=lambda e: (-points[e], rnd())))
        order = playoff_seeding(rows, advance_per_group)
        for e in order:
            advanced[e] += 1
        return order

    size = advance_per_group * len(groups)
    result = simulate_elimination(playoff_specs, list(range(size)), playoff_matrices,
                                  runs=runs, seed=seed, matrix_of=matrix_of,
                                  order_of_run=order_of_run)
    return GroupsThenPlayoff([a / max(runs, 1) for a in advanced], result)
