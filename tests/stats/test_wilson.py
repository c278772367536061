"""The Wilson interval against scipy's (an independent implementation), edges included."""

from __future__ import annotations

import pytest
from scipy.stats import binomtest

from stats.wilson import wilson_interval


@pytest.mark.parametrize(("k", "n"), [
    (0, 1), (1, 1), (0, 10), (10, 10), (5, 10), (3, 7), (1, 40), (55, 100), (999, 1000),
])
def test_matches_scipy_wilson_interval(k: int, n: int) -> None:
    expected = binomtest(k, n).proportion_ci(confidence_level=0.95, method="wilson")
    low, high = wilson_interval(k, n)
    assert low == pytest.approx(expected.low, abs=1e-12)
    assert high == pytest.approx(expected.high, abs=1e-12)


def test_no_games_has_no_interval() -> None:
    assert wilson_interval(0, 0) is None


def test_interval_contains_the_rate_and_narrows_with_more_games() -> None:
    small, large = wilson_interval(6, 10), wilson_interval(600, 1000)
    assert small[0] < 0.6 < small[1]
    assert large[1] - large[0] < small[1] - small[0]
