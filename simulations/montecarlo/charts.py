"""Matchup charts as numbers: how far two halves of a chart agree, and a simulated chart blended
with the real games' chart.

A *chart* here is a square list of scores out of 10 (row's character against column's; None
where there are no games), in one character order.

- *Split-half reliability*: a chart's seeds split in two halves give two charts of half the
  games each. Their agreement is the Pearson correlation of their cells (each unordered pair
  once, the cell above the diagonal: the one below is 10 minus it, and a mirror is 5 by
  construction) and of the characters' averages (a row's mean against the others). A high
  correlation says the chart measures the characters, not the noise of its seeds; the
  Spearman-Brown formula ``2r / (1 + r)`` estimates the whole chart's, twice the games.
- *Blend*: a cell's blended score is the real games' points with the simulated score counting
  as ``prior_games`` games more: ``(prior_games * sim / 10 + points) / (prior_games + games)``
  out of 10. With no real games it is the simulated score; with many it tends to the real one.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

Chart = Sequence[Sequence[float | None]]


def pearson(xs: Sequence[float], ys: Sequence[float]) -> float | None:
    """Pearson's correlation; None with fewer than 3 points or a constant side."""
    n = len(xs)
    if n != len(ys) or n < 3:
        return None
    mx, my = sum(xs) / n, sum(ys) / n
    sxy = sum((x - mx) * (y - my) for x, y in zip(xs, ys, strict=True))
    sxx = sum((x - mx) ** 2 for x in xs)
    syy = sum((y - my) ** 2 for y in ys)
    if sxx <= 0 or syy <= 0:
        return None
    return sxy / math.sqrt(sxx * syy)


def spearman_brown(r: float | None) -> float | None:
    """The reliability of a test twice as long as the halves that correlate ``r``."""
    if r is None or r <= -1:
        return None
    return 2 * r / (1 + r)


def character_averages(chart: Chart) -> list[float | None]:
    """Each row's mean score against the other characters (None if a cell has no games)."""
    out: list[float | None] = []
    for i, row in enumerate(chart):
        cells = [s for j, s in enumerate(row) if j != i]
        out.append(None if not cells or any(s is None for s in cells)
                   else sum(s for s in cells if s is not None) / len(cells))
    return out


@dataclass(frozen=True, slots=True)
class SplitHalf:
    """The agreement of two halves of a chart (see the module docstring)."""

    pairs: int  # unordered pairs scored in both halves
    cells: float | None  # correlation of the cells
    averages: float | None  # correlation of the character averages

    @property
    def cells_full(self) -> float | None:
        return spearman_brown(self.cells)

    @property
    def averages_full(self) -> float | None:
        return spearman_brown(self.averages)


def split_half(first: Chart, second: Chart) -> SplitHalf:
    xs: list[float] = []
    ys: list[float] = []
    for i, (row_a, row_b) in enumerate(zip(first, second, strict=True)):
        for j in range(i + 1, len(row_a)):
            a, b = row_a[j], row_b[j]
            if a is not None and b is not None:
                xs.append(a)
                ys.append(b)
    avg_pairs = [(a, b) for a, b in zip(character_averages(first), character_averages(second),
                                        strict=True) if a is not None and b is not None]
    return SplitHalf(len(xs), pearson(xs, ys),
                     pearson([a for a, _ in avg_pairs], [b for _, b in avg_pairs]))


def blended_score(prior: float | None, points: float, games: int,
                  prior_games: float) -> float | None:
    """A cell out of 10: the simulated score ``prior`` (None: no simulated games) counting as
    ``prior_games`` games beside ``points`` out of ``games`` real games (a draw: half a point).
    None when there is neither."""
    if prior is None:
        return 10 * points / games if games else None
    return 10 * (prior_games * prior / 10 + points) / (prior_games + games)
