"""How good were the odds? Brier score and reliability bins for binary predictions."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass


@dataclass(frozen=True)
class Calibration:
    count: int
    brier: float | None  # mean squared error of the probabilities (0 is perfect)
    bins: list[dict[str, float]]  # per bin: lower, upper, count, predicted (mean), observed


def calibration(predictions: Sequence[tuple[float, bool]], bins: int = 10) -> Calibration:
    """Brier score and ``bins`` equal-width reliability bins of (probability, happened) pairs."""
    count = len(predictions)
    brier = (sum((p - (1.0 if hit else 0.0)) ** 2 for p, hit in predictions) / count
             if count else None)
    table = []
    for k in range(bins):
        lo, hi = k / bins, (k + 1) / bins
        inside = [(p, hit) for p, hit in predictions
                  if lo <= p < hi or (k == bins - 1 and p == 1.0)]
        n = len(inside)
        table.append({
            "lower": lo, "upper": hi, "count": n,
            "predicted": sum(p for p, _ in inside) / n if n else 0.0,
            "observed": sum(1 for _, hit in inside if hit) / n if n else 0.0,
        })
    return Calibration(count, brier, table)
