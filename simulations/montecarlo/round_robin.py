"""Round-robin groups simulated ``runs`` times: each pair meets once; places by points, ties
broken at random (a simulation cannot replay the real tie-breaks, which need game scores)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class GroupOdds:
    runs: int
    advance: list[float]  # per entrant index: finished in the group's top ``advance_per_group``
    first: list[float]  # won its group
    expected_place: list[float]  # within its group


def simulate_groups(
    groups: Sequence[Sequence[int]],
    prob: Sequence[Sequence[float]],
    *,
    advance_per_group: int,
    runs: int,
    seed: int,
) -> GroupOdds:
    n = max((e for g in groups for e in g), default=-1) + 1
    advance = [0] * n
    first = [0] * n
    places = [0] * n
    rnd = random.Random(seed).random
    pairs = [[(a, b, prob[a][b]) for i, a in enumerate(g) for b in g[i + 1:]] for g in groups]
    for _ in range(runs):
        for group, group_pairs in zip(groups, pairs, strict=True):
            points = dict.fromkeys(group, 0.0)
            for a, b, p in group_pairs:
                if rnd() < p:
                    points[a] += 1
                else:
                    points[b] += 1
            ranked = sorted(group, key=lambda e: (-points[e], rnd()))
            for place, e in enumerate(ranked, 1):
                places[e] += place
                if place <= advance_per_group:
                    advance[e] += 1
            first[ranked[0]] += 1
    return GroupOdds(runs, [a / runs for a in advance], [f / runs for f in first],
                     [p / runs for p in places])
