"""The Wilson score interval for a win rate: sensible at 0 and n wins and for small samples,
where the normal ("Wald") interval collapses to a point or leaves [0, 1]."""

from __future__ import annotations

import math

Z_95 = 1.959963984540054  # the standard normal's 97.5th percentile


def wilson_interval(wins: float, games: int, z: float = Z_95) -> tuple[float, float] | None:
    """The interval for ``wins`` successes in ``games`` trials; None without games.

    Draws count as half a win (``wins`` may be fractional), as in a win rate.
    """
    if games <= 0:
        return None
    p = wins / games
    z2 = z * z
    centre = (p + z2 / (2 * games)) / (1 + z2 / games)
    half = z * math.sqrt(p * (1 - p) / games + z2 / (4 * games * games)) / (1 + z2 / games)
    return max(0.0, centre - half), min(1.0, centre + half)
