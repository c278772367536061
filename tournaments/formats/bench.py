"""Timings of the format algorithms: `python -m tournaments.formats.bench [--rounds N]`.

Targets from the tracker issue: a 4,096-entrant double elimination generated in <= 2 s, a Swiss
round for 1,000 entrants paired in <= 1 s. Swiss rounds are simulated with seeded random results
(a fifth of the sets drawn), so the run is reproducible. No Django import.
"""

from __future__ import annotations

import argparse
import functools
import random
import time
from collections.abc import Callable
from typing import TypeVar

from .elimination import double_elimination, single_elimination
from .round_robin import round_robin_schedule, round_robin_standings
from .swiss import swiss_pair, swiss_standings
from .types import GameResultRecord, SwissEntrant

T = TypeVar("T")


def _best_of(repeat: int, fn: Callable[[], T]) -> tuple[float, T]:
    start = time.perf_counter()
    result = fn()
    best = time.perf_counter() - start
    for _ in range(repeat - 1):
        start = time.perf_counter()
        result = fn()
        best = min(best, time.perf_counter() - start)
    return best, result


def _swiss(count: int, rounds: int, seed: int, *, verbose: bool = True) -> None:
    rng = random.Random(seed)
    score = dict.fromkeys(range(1, count + 1), 0.0)
    previous: set[frozenset[int]] = set()
    byes: list[int] = []
    results: list[GameResultRecord] = []
    timings = []
    for r in range(1, rounds + 1):
        entrants = [SwissEntrant(id=e, score=s, seed=e) for e, s in score.items()]
        start = time.perf_counter()
        pairing = swiss_pair(entrants, previous, byes)
        timings.append(time.perf_counter() - start)
        if verbose:
            print(f"  swiss {count:>5} entrants, round {r:>2}: {timings[-1] * 1000:8.1f} ms")
        if pairing.bye is not None:
            byes.append(pairing.bye)
            score[pairing.bye] += 1
        for a, b in pairing.pairs:
            previous.add(frozenset((a, b)))
            roll = rng.random()
            winner = None if roll < 0.2 else (a if roll < 0.6 else b)
            results.append(
                GameResultRecord(a, b, winner, 2 if winner == a else 1, 2 if winner == b else 1)
            )
            if winner is None:
                score[a] += 0.5
                score[b] += 0.5
            else:
                score[winner] += 1
    print(
        f"  swiss {count:>5} entrants, {rounds} rounds: worst round {max(timings) * 1000:.1f} ms,"
        f" mean {sum(timings) / len(timings) * 1000:.1f} ms"
    )
    elapsed, _ = _best_of(3, lambda: swiss_standings(list(score), results, byes=byes))
    print(f"  swiss {count:>5} entrants: standings after {rounds} rounds {elapsed * 1000:.1f} ms")


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=10, help="Swiss rounds to simulate")
    parser.add_argument("--seed", type=int, default=2026)
    args = parser.parse_args(argv)

    for count in (64, 1000, 4096):
        elapsed, specs = _best_of(3, functools.partial(double_elimination, count))
        print(f"double elimination {count:>5}: {len(specs):>5} sets in {elapsed * 1000:7.1f} ms")
    elapsed, specs = _best_of(3, lambda: single_elimination(4096, third_place=True))
    print(f"single elimination  4096: {len(specs):>5} sets in {elapsed * 1000:7.1f} ms")
    elapsed, rounds = _best_of(3, lambda: round_robin_schedule(range(1, 513)))
    pairs = sum(len(r) for r in rounds)
    print(f"round robin          512: {pairs} pairs in {elapsed * 1000:7.1f} ms")
    rng = random.Random(args.seed)
    results = [
        GameResultRecord(a, b, rng.choice((a, b)), 1, 0) for pairs in rounds[:20] for a, b in pairs
    ]
    elapsed, _ = _best_of(3, lambda: round_robin_standings(range(1, 513), results))
    print(f"round robin standings 512 entrants, {len(results)} results: {elapsed * 1000:.1f} ms")
    for count in (1000, 4096):
        _swiss(count, args.rounds, args.seed)
    # Small fields play many rounds, where the exact matching takes over (EXACT_LIMIT).
    for count in (64, 128, 129):
        _swiss(count, count // 4, args.seed, verbose=False)


if __name__ == "__main__":
    main()
