"""Swiss and round-robin (league) stages simulated ``runs`` times from a win-probability matrix.

Nothing of the formats is written again here: each run pairs every Swiss round with
``tournaments.formats.swiss.swiss_pair`` (score groups, no rematch, one bye each, as the
tournaments app pairs a real round) and ranks every table with the standings engine the app's
standings page uses (``swiss_standings`` with the Swiss tie-breaks, ``round_robin_standings`` with
the stage's). A set not played yet is drawn game by game: its score (2-1, 0-2, ...) is sampled
from the game probability ``prob[a][b]`` and its best-of, so the tie-breaks that need game scores
(game difference, games won) and those that need the opponents' results (Buchholz,
Sonneborn-Berger, head-to-head) are computed as in a real stage. Sets already finished are
followed in every run.

Glossary: an entrant is an index into the matrix; *place* k (1-based) is the k-th line of its
table's final standings (a group's, for round-robin groups; the whole field's for Swiss), the
order the standings page shows. Deterministic for a given ``seed``.
"""

from __future__ import annotations

import bisect
import math
import random
from collections.abc import Collection, Sequence
from dataclasses import dataclass

from tournaments.formats.round_robin import DEFAULT_RR_TIEBREAKS, round_robin_standings
from tournaments.formats.swiss import (
    DEFAULT_SWISS_TIEBREAKS,
    SwissPairingError,
    swiss_pair,
    swiss_standings,
)
from tournaments.formats.types import GameResultRecord, SwissEntrant

Matrix = Sequence[Sequence[float]]


@dataclass(frozen=True)
class Played:
    """A finished set: its sides, its winner and the games each side won. A winner of None is
    a double forfeit: nobody scores and, as on the standings page, it is no result (but the
    pair has met: Swiss never pairs it again)."""

    a: int
    b: int
    winner: int | None
    games_a: int = 0
    games_b: int = 0


@dataclass(frozen=True)
class PlaceOdds:
    """Per entrant index: ``places[e][k]`` is the share of runs in which ``e`` finished at place
    ``k + 1`` of its table (each row and, within one table, each place sums to 1)."""

    runs: int
    places: list[list[float]]
    expected_place: list[float]

    def top(self, k: int) -> list[float]:
        """The share of runs in which each entrant finished in its table's top ``k``."""
        return [sum(row[:k]) for row in self.places]

    @property
    def win(self) -> list[float]:
        return [row[0] if row else 0.0 for row in self.places]


def series_scores(p: float, best_of: int) -> list[tuple[float, int, int]]:
    """Every final score of a best-of-``best_of`` set whose games side a wins with probability
    ``p``, as (cumulative probability, games a, games b), in a fixed order: sampling is then one
    uniform draw and a bisection."""
    need = best_of // 2 + 1
    q = 1.0 - p
    out: list[tuple[float, int, int]] = []
    total = 0.0
    for k in range(need):  # side a wins need-k... : a takes the last game, b took k before
        total += math.comb(need - 1 + k, k) * p ** need * q ** k
        out.append((total, need, k))
    for k in range(need):  # side b wins, a took k
        total += math.comb(need - 1 + k, k) * q ** need * p ** k
        out.append((total, k, need))
    return out


class _Sets:
    """Draws set results: the score distribution of each pair is built once, then cached."""

    def __init__(self, prob: Matrix, best_of: int, rnd: random.Random) -> None:
        self.prob = prob
        self.best_of = best_of
        self.rnd = rnd.random
        self.cache: dict[tuple[int, int], tuple[list[float], list[tuple[int, int]]]] = {}

    def play(self, a: int, b: int) -> GameResultRecord:
        hit = self.cache.get((a, b))
        if hit is None:
            table = series_scores(self.prob[a][b], self.best_of)
            hit = ([c for c, _, _ in table], [(ga, gb) for _, ga, gb in table])
            self.cache[(a, b)] = hit
        bounds, scores = hit
        i = min(bisect.bisect_right(bounds, self.rnd() * bounds[-1]), len(scores) - 1)
        ga, gb = scores[i]
        return GameResultRecord(a, b, a if ga > gb else b, ga, gb)


def _records(played: Sequence[Played]) -> list[GameResultRecord]:
    return [GameResultRecord(p.a, p.b, p.winner, p.games_a, p.games_b)
            for p in played if p.winner is not None]


def _odds(counts: list[list[int]], runs: int) -> PlaceOdds:
    runs = max(runs, 1)
    places = [[c / runs for c in row] for row in counts]
    expected = [sum((k + 1) * c for k, c in enumerate(row)) / runs for row in counts]
    return PlaceOdds(runs, places, expected)


def simulate_swiss(
    n: int,
    prob: Matrix,
    *,
    rounds: int,
    best_of: int,
    runs: int,
    seed: int,
    played: Sequence[Played] = (),
    byes: Sequence[int] = (),
    pending: Sequence[tuple[int, int]] = (),
    rounds_paired: int = 0,
    withdrawn: Collection[int] = (),
    tiebreaks: Sequence[str] = DEFAULT_SWISS_TIEBREAKS,
) -> PlaceOdds:
    """A Swiss stage of entrants ``0..n-1`` (in seed order) played to ``rounds`` rounds.

    ``played`` are the finished sets, ``byes`` one entrant per bye received, ``pending`` the
    pairs of the current round (``rounds_paired`` rounds are paired so far) still to play, and
    ``withdrawn`` the entrants left out of later pairings (disqualified; they stay in the
    standings). Each run plays ``pending``, then pairs and plays every remaining round; a round
    that cannot be paired (no pairing without a rematch or a second bye) ends the stage there,
    as the organizer must. Places are the final Swiss standings (``tiebreaks``).
    """
    rnd = random.Random(seed)
    sets = _Sets(prob, best_of, rnd)
    ids = list(range(n))
    counts = [[0] * n for _ in range(n)]
    base = _records(played)
    base_pairs = {frozenset((p.a, p.b)) for p in played}
    base_score = [0.0] * n
    for p in played:
        if p.winner is not None:
            base_score[p.winner] += 1.0
    for e in byes:
        base_score[e] += 1.0
    out = set(withdrawn)
    for _ in range(runs):
        records = list(base)
        pairs = set(base_pairs)
        had_bye = list(byes)
        score = list(base_score)
        todo = list(pending)
        paired = rounds_paired
        while True:
            for a, b in todo:
                r = sets.play(a, b)
                records.append(r)
                pairs.add(frozenset((a, b)))
                assert r.winner is not None
                score[r.winner] += 1.0
            if paired >= rounds:
                break
            pool = [SwissEntrant(id=e, score=score[e], seed=e + 1) for e in ids if e not in out]
            try:
                pairing = swiss_pair(pool, pairs, had_bye)
            except SwissPairingError:
                break
            paired += 1
            todo = pairing.pairs
            if pairing.bye is not None:
                had_bye.append(pairing.bye)
                score[pairing.bye] += 1.0
        rows = swiss_standings(ids, records, byes=had_bye, tiebreaks=tiebreaks)
        for k, row in enumerate(rows):
            counts[row.entrant_id][k] += 1
    return _odds(counts, runs)


def simulate_round_robin(
    groups: Sequence[Sequence[int]],
    prob: Matrix,
    *,
    fixtures: Sequence[tuple[int, int]],
    best_of: int,
    runs: int,
    seed: int,
    played: Sequence[Played] = (),
    tiebreaks: Sequence[str] = DEFAULT_RR_TIEBREAKS,
) -> PlaceOdds:
    """Round-robin groups (a league season is one group) of entrant indices, each group in
    seed order. ``fixtures`` are the sets still to play (both sides in one group); ``played``
    the finished ones. Places are within each group (``tiebreaks``)."""
    n = max((e for g in groups for e in g), default=-1) + 1
    rnd = random.Random(seed)
    sets = _Sets(prob, best_of, rnd)
    counts = [[0] * n for _ in range(n)]
    group_of = {e: g for g, members in enumerate(groups) for e in members}
    base: list[list[GameResultRecord]] = [[] for _ in groups]
    for r in _records(played):
        base[group_of[r.entrant_a]].append(r)
    todo: list[list[tuple[int, int]]] = [[] for _ in groups]
    for a, b in fixtures:
        todo[group_of[a]].append((a, b))
    for _ in range(runs):
        for g, members in enumerate(groups):
            records = base[g] + [sets.play(a, b) for a, b in todo[g]]
            rows = round_robin_standings(members, records, tiebreaks=tiebreaks)
            for k, row in enumerate(rows):
                counts[row.entrant_id][k] += 1
    return _odds(counts, runs)
