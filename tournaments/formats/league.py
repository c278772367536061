"""League season: a round robin spread over scheduled rounds.

A league plays the circle-method schedule of `tournaments.formats.round_robin` (everyone meets
everyone once per cycle; with an odd count one entrant sits out each round), repeated `cycles`
times. In every even-numbered cycle each pair is written the other way round (a home/away swap
for consumers that care; sides are irrelevant to the rules). Round r of the season is the
`r`-th entry of the returned list, numbered 1.. across cycles.
"""

from __future__ import annotations

from collections.abc import Sequence

from .round_robin import round_robin_schedule

__all__ = ["league_schedule"]


def league_schedule(entrant_ids: Sequence[int], *, cycles: int = 1) -> list[list[tuple[int, int]]]:
    """The season's rounds of pairs: `cycles` round robins back to back."""
    if cycles < 1:
        raise ValueError(f"cycles must be >= 1, got {cycles}")
    one_cycle = round_robin_schedule(entrant_ids)
    season: list[list[tuple[int, int]]] = []
    for cycle in range(cycles):
        for pairs in one_cycle:
            season.append([(b, a) for a, b in pairs] if cycle % 2 else list(pairs))
    return season
