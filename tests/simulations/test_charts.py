"""The charts' arithmetic (pure): split-half reliability and the blend of a simulated chart with
the real games'."""

from __future__ import annotations

import pytest

from simulations.montecarlo.charts import (
    blended_score,
    character_averages,
    pearson,
    spearman_brown,
    split_half,
)


def test_pearson_and_spearman_brown() -> None:
    assert pearson([1, 2, 3, 4], [2, 4, 6, 8]) == pytest.approx(1.0)
    assert pearson([1, 2, 3, 4], [8, 6, 4, 2]) == pytest.approx(-1.0)
    assert pearson([1, 2, 3], [1, 1, 1]) is None  # a constant side: no correlation
    assert pearson([1, 2], [1, 2]) is None  # too few points
    assert pearson([1, 2, 3, 4], [1, 3, 2, 4]) == pytest.approx(0.8)
    assert spearman_brown(0.5) == pytest.approx(2 / 3)
    assert spearman_brown(None) is None


def chart(top: list[float]) -> list[list[float | None]]:
    """A 4-character chart from its 6 cells above the diagonal (the rest: 10 minus, mirrors 5)."""
    grid: list[list[float | None]] = [[5.0] * 4 for _ in range(4)]
    k = 0
    for i in range(4):
        for j in range(i + 1, 4):
            grid[i][j], grid[j][i] = top[k], 10 - top[k]
            k += 1
    return grid


def test_split_half_correlates_each_pair_once_and_the_averages() -> None:
    a = chart([6, 7, 4, 5, 3, 8])
    b = chart([6.5, 7.5, 3.5, 5.5, 2.5, 8.5])
    rel = split_half(a, b)
    assert rel.pairs == 6
    assert rel.cells == pytest.approx(pearson([6, 7, 4, 5, 3, 8], [6.5, 7.5, 3.5, 5.5, 2.5, 8.5]))
    assert character_averages(a)[0] == pytest.approx((6 + 7 + 4) / 3)
    assert rel.averages == pytest.approx(pearson(
        [x for x in character_averages(a) if x is not None],
        [x for x in character_averages(b) if x is not None]))
    assert 0.9 < rel.cells < 1.0 and rel.cells_full == pytest.approx(spearman_brown(rel.cells))
    # halves that disagree (one is the other's mirror image) correlate negatively
    flipped = split_half(a, chart([10 - x for x in [6, 7, 4, 5, 3, 8]]))
    assert flipped.cells == pytest.approx(-1.0)
    # a cell missing in one half leaves its pair and its characters' averages out
    b[0][1] = None
    rel = split_half(a, b)
    assert rel.pairs == 5 and character_averages(b)[0] is None


def test_the_blend_weighs_real_games_by_their_count() -> None:
    # no real games: the simulated score; no simulated score: the real one
    assert blended_score(7.0, 0, 0, prior_games=20) == pytest.approx(7.0)
    assert blended_score(None, 3, 4, prior_games=20) == pytest.approx(7.5)
    assert blended_score(None, 0, 0, prior_games=20) is None
    # 20 real games at 2/10 against a 7/10 prior worth 20 games: halfway
    assert blended_score(7.0, 4, 20, prior_games=20) == pytest.approx(4.5)
    # many real games: close to the real score
    assert blended_score(7.0, 200, 1000, prior_games=20) == pytest.approx(
        10 * (14 + 200) / 1020)
