"""Win probabilities for the simulations.

``rating_win_probability`` is OpenSkill's two-player prediction: the chance that one player's
performance (normal, mean ``mu``, variance ``sigma² + beta²``) exceeds the other's. A matchup
chart adjusts it in log-odds: ``logit(p') = logit(p) + logit(score / 10)``, so an even chart
(5 out of 10) changes nothing and a rating gap and a character edge add up.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

BETA = 25.0 / 6.0  # OpenSkill's default beta (mu 25, sigma 25/3)
EPS = 1e-6


def _clip(p: float) -> float:
    return min(1.0 - EPS, max(EPS, p))


def logit(p: float) -> float:
    p = _clip(p)
    return math.log(p / (1.0 - p))


def sigmoid(x: float) -> float:
    return 1.0 / (1.0 + math.exp(-x))


def rating_win_probability(mu_a: float, sigma_a: float, mu_b: float, sigma_b: float,
                           beta: float = BETA) -> float:
    """P(a beats b in one game) from two OpenSkill ratings."""
    spread = math.sqrt(2 * beta * beta + sigma_a * sigma_a + sigma_b * sigma_b)
    return 0.5 * (1.0 + math.erf((mu_a - mu_b) / (spread * math.sqrt(2.0))))


def chart_adjusted(p: float, score_out_of_10: float | None) -> float:
    """``p`` moved by a matchup chart's expected score (None: no chart, ``p`` unchanged)."""
    if score_out_of_10 is None:
        return p
    return sigmoid(logit(p) + logit(score_out_of_10 / 10.0))


def series_win_probability(p: float, best_of: int) -> float:
    """P(winning a best-of-``best_of`` series) when each game is won with probability ``p``."""
    if best_of <= 1:
        return p
    need = best_of // 2 + 1
    q = 1.0 - p
    # win the series in game need + k: k losses among the first need + k - 1 games
    return sum(math.comb(need - 1 + k, k) * p**need * q**k for k in range(need))


def series_matrix(game: Sequence[Sequence[float]], best_of: int) -> list[list[float]]:
    return [[series_win_probability(p, best_of) for p in row] for row in game]
