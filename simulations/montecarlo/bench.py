"""Timing of the Monte Carlo odds: ``python -m simulations.montecarlo.bench [--entrants N]
[--format double_elimination|swiss|round_robin] [--rounds R]``.

Target from the tracker issue (19, part 3): 10,000 runs of a 256-entrant double elimination in
under 5 s on one worker (the Swiss and round-robin simulations have no target: their figure is
reported). Strengths are seeded random normals, so the run is reproducible.
"""

from __future__ import annotations

import argparse
import random
import time

from tournaments.formats.elimination import double_elimination
from tournaments.formats.round_robin import round_robin_schedule

from .elimination import simulate_elimination
from .model import series_matrix, sigmoid
from .tables import simulate_round_robin, simulate_swiss

TARGET_SECONDS = 5.0


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--entrants", type=int, default=256)
    parser.add_argument("--runs", type=int, default=10_000)
    parser.add_argument("--format", default="double_elimination",
                        choices=("double_elimination", "swiss", "round_robin"))
    parser.add_argument("--rounds", type=int, default=6, help="Swiss rounds")
    args = parser.parse_args(argv)
    if args.format != "double_elimination":
        tables(args.format, args.entrants, args.runs, args.rounds)
        return
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


def tables(kind: str, n: int, runs: int, rounds: int) -> None:
    """A Swiss stage (``rounds`` rounds, best of 3) or one round-robin group of ``n``."""
    rng = random.Random(19)
    skill = [rng.gauss(0.0, 1.0) for _ in range(n)]
    game = [[sigmoid(skill[i] - skill[j]) for j in range(n)] for i in range(n)]
    started = time.perf_counter()
    cpu_started = time.process_time()
    if kind == "swiss":
        result = simulate_swiss(n, game, rounds=rounds, best_of=3, runs=runs, seed=1)
        what = f"Swiss, {n} entrants, {rounds} rounds"
    else:
        fixtures = [pair for rnd in round_robin_schedule(list(range(n))) for pair in rnd]
        result = simulate_round_robin([list(range(n))], game, fixtures=fixtures, best_of=3,
                                      runs=runs, seed=1)
        what = f"round robin, one group of {n}"
    seconds = time.perf_counter() - started
    cpu = time.process_time() - cpu_started
    best = max(range(n), key=lambda i: skill[i])
    print(f"{what}, {runs} runs: {seconds:.2f} s wall, {cpu:.2f} s CPU; the strongest entrant "
          f"finishes first {100 * result.win[best]:.1f}%, expected place "
          f"{result.expected_place[best]:.1f}")


if __name__ == "__main__":
    main()
