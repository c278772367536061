"""Timing of the Monte Carlo odds: ``python -m simulations.montecarlo.bench [--entrants N]``.

Target from the tracker issue (19, part 3): 10,000 runs of a 256-entrant double elimination in
under 5 s on one worker. Strengths are seeded random normals, so the run is reproducible.
"""

from __future__ import annotations

import argparse
import random
import time

from tournaments.formats.elimination import double_elimination

from .elimination import simulate_elimination
from .model import series_matrix, sigmoid

TARGET_SECONDS = 5.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entrants", type=int, default=256)
    parser.add_argument("--runs", type=int, default=10_000)
    args = parser.parse_args(argv)
    rng = random.Random(19)
    n = args.entrants
    skill = [rng.gauss(0.0, 1.0) for _ in range(n)]
    game = [[sigmoid(skill[i] - skill[j]) for j in range(n)] for i in range(n)]
    matrices = [series_matrix(game, 3), series_matrix(game, 5)]
    started = time.perf_counter()
    cpu_started = time.process_time()
    specs = double_elimination(n)
    order = sorted(range(n), key=lambda i: -skill[i])
    result = simulate_elimination(
        specs, order, matrices, runs=args.runs, seed=1,
        matrix_of=lambda s: 1 if s.bracket == "grand_final" else 0,
    )
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    best = max(range(n), key=lambda i: result.win[i])
    verdict = "within" if seconds < TARGET_SECONDS else "OVER"
    # CPU time is what one uncontended worker would take; wall time includes the machine's load
    print(f"double elimination, {n} entrants, {args.runs} runs: {seconds:.2f} s wall, "
          f"{cpu:.2f} s CPU (target < {TARGET_SECONDS:.0f} s: {verdict}); top seed wins "
          f"{100 * result.win[order[0]]:.1f}%, favourite {100 * result.win[best]:.1f}%")


if __name__ == "__main__":
    main()
