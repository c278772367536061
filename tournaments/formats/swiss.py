"""Swiss pairing and Swiss standings.

Rules implemented by `swiss_pair`
    - Ranking: entrants are ranked by score (higher first), then rating (higher first, None
      last), then seed (lower first), then id. A score group is all entrants on the same score.
    - Bye: with an odd count exactly one entrant gets the bye: the lowest-ranked entrant who has
      not had one (`previous_byes`), unless the others then cannot all be paired without a
      rematch, in which case the next lowest-ranked eligible entrant, and so on. Nobody gets a
      second bye: if every entrant has had one, `SwissPairingError` is raised.
    - No rematches: two entrants in `previous_pairs` are never paired again. If no pairing
      without a rematch exists, `SwissPairingError` is raised (the organizer must end the Swiss).
    - Score groups: among all rematch-free pairings (with that bye) the pairing minimises, in this
      order (exactly up to EXACT_LIMIT entrants; above it see "How it is solved"):
      (1) the total score-group distance of its pairs (a pair between adjacent groups counts 1,
      two groups apart 2, ...) - so entrants are paired inside their score group whenever the
      groups allow it, and a group with an odd count sends exactly one entrant down to the next
      group; (2) the sum of the squared distances (one entrant floated two groups is worse than
      two floated one group each); (3) the distance from the "fold" inside a group (in a group
      of 2h, rank i meets rank i + h: top half against bottom half), and for a pair across
      groups the floater's distance from the bottom of its group plus its opponent's distance
      from the top of theirs.
      Criterion (3) is a preference: exact when the matching is solved, followed move by move
      by the fast pass below.
    - Sides are irrelevant (no colours); each pair is written (higher ranked, lower ranked) and
      the pairs are in rank order of their first entrant.
    How it is solved: a fast pass pairs score group by score group, top down, Dutch style: the
    floaters from the group above meet the top of the group, the rest fold (top half against
    bottom half), moving partners as little as rematches require; an odd group floats its
    lowest-ranked entrant who can be left out; a group that cannot be paired that way pairs as
    many as it can (maximum matching) and floats the rest. The fast result is kept when it is
    provably optimal for (1) and (2): its total distance equals the lower bound (one crossing per
    score-group boundary with an odd number of entrants above it) and no pair spans more than
    adjacent groups. Otherwise, up to EXACT_LIMIT entrants, the whole objective is solved exactly
    as a maximum-weight perfect matching (networkx `max_weight_matching`, integer weights, each
    criterion's weight dominating all later ones). Above EXACT_LIMIT (the blossom algorithm is too
    slow on large complete graphs) the fast result is kept, and when its bottom cannot be paired
    the exact matching is run on the bottom groups only, reaching up a group at a time until it
    succeeds. Either way the hard rules (bye, no rematch) always hold.

Swiss standings (`swiss_standings`)
    A win is 1 point, a draw 0.5, a double forfeit 0 for both, a bye 1 (and counts as a win).
    Default tie-break order: Buchholz, Sonneborn-Berger, head-to-head, seed; definitions in
    `tournaments.formats.standings`.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable, Sequence

import networkx as nx

from .standings import compute_standings
from .types import GameResultRecord, StandingRow, SwissEntrant, SwissPairing

__all__ = [
    "DEFAULT_SWISS_TIEBREAKS",
    "EXACT_LIMIT",
    "SwissPairingError",
    "swiss_pair",
    "swiss_standings",
]

DEFAULT_SWISS_TIEBREAKS: tuple[str, ...] = (
    "points",
    "buchholz",
    "sonneborn_berger",
    "head_to_head",
    "seed",
)
EXACT_LIMIT = 128
BRACKET_MATCHING_LIMIT = 64


class SwissPairingError(ValueError):
    """No pairing satisfies the hard rules (no rematch, at most one bye each)."""


def _rank_key(entrant: SwissEntrant) -> tuple[float, bool, float, int, int]:
    return (
        -entrant.score,
        entrant.rating is None,
        -(entrant.rating or 0.0),
        entrant.seed,
        entrant.id,
    )


def swiss_pair(
    entrants: Sequence[SwissEntrant],
    previous_pairs: Collection[frozenset[int]],
    previous_byes: Collection[int],
) -> SwissPairing:
    """Pair one Swiss round (see the module docstring for the rules).

    `entrants` are the active entrants (leave out anyone who dropped); `previous_pairs` every pair
    already played (pairs naming other entrants are ignored); `previous_byes` everyone who had a
    bye. Raises `SwissPairingError` when the hard rules cannot be met.
    """
    ids = [e.id for e in entrants]
    if len(set(ids)) != len(ids):
        raise ValueError("entrants contains duplicate ids")
    if len(entrants) < 2:
        raise SwissPairingError("a Swiss round needs at least 2 entrants")
    ranked = sorted(entrants, key=_rank_key)
    played: dict[int, set[int]] = {e.id: set() for e in ranked}
    for pair in previous_pairs:
        if len(pair) != 2:
            continue
        a, b = pair
        if a in played and b in played:
            played[a].add(b)
            played[b].add(a)
    if len(ranked) % 2 == 0:
        pairs = _Problem(ranked, played).pair_all()
        if pairs is None:
            raise SwissPairingError("no pairing without a rematch exists")
        return SwissPairing(pairs=pairs, bye=None)
    had_bye = set(previous_byes)
    eligible = [e for e in reversed(ranked) if e.id not in had_bye]
    if not eligible:
        raise SwissPairingError("every entrant has had a bye; no one can take another")
    for candidate in eligible:
        rest = [e for e in ranked if e is not candidate]
        pairs = _Problem(rest, played).pair_all()
        if pairs is not None:
            return SwissPairing(pairs=pairs, bye=candidate.id)
    raise SwissPairingError("no pairing without a rematch (or a second bye) exists")


def swiss_standings(
    entrant_ids: Sequence[int],
    results: Iterable[GameResultRecord],
    *,
    byes: Collection[int] = (),
    tiebreaks: Sequence[str] = DEFAULT_SWISS_TIEBREAKS,
) -> list[StandingRow]:
    """Swiss standings; `entrant_ids` in seed order, `byes` one id per bye received."""
    return compute_standings(entrant_ids, results, tiebreaks=tiebreaks, byes=byes)


class _Problem:
    """Pair an even number of entrants in rank order (index 0 = top); None if impossible."""

    def __init__(self, ranked: list[SwissEntrant], played: dict[int, set[int]]) -> None:
        self.ranked = ranked
        self.n = len(ranked)
        position = {e.id: i for i, e in enumerate(ranked)}
        self.played = [{position[o] for o in played[e.id] if o in position} for e in ranked]
        scores = sorted({e.score for e in ranked}, reverse=True)
        group_index = {score: g for g, score in enumerate(scores)}
        self.group = [group_index[e.score] for e in ranked]
        self.group_count = len(scores)
        self.group_start: list[int] = []
        self.group_size: list[int] = [0] * len(scores)
        for i, g in enumerate(self.group):
            if self.group_size[g] == 0:
                self.group_start.append(i)
            self.group_size[g] += 1

    # --- the objective ---

    def lower_bound(self) -> int:
        """Least possible total group distance: one crossing per odd-prefix group boundary."""
        bound, prefix = 0, 0
        for size in self.group_size[:-1]:
            prefix += size
            bound += prefix % 2
        return bound

    def pair_cost(self, i: int, j: int) -> tuple[int, int, int]:
        """(group distance, its square, fold distance) of pairing ranks i < j."""
        gi, gj = self.group[i], self.group[j]
        distance = gj - gi
        if distance == 0:
            half = self.group_size[gi] // 2
            fold = abs((j - i) - half)
        else:
            fold = (self.group_start[gi] + self.group_size[gi] - 1 - i) + (j - self.group_start[gj])
        return distance, distance * distance, fold

    def pair_all(self) -> list[tuple[int, int]] | None:
        pairs, failed_group, checkpoints = self.solve_fast()
        if failed_group is None:
            distances = [self.group[j] - self.group[i] for i, j in pairs]
            if (sum(distances) == self.lower_bound() and max(distances, default=0) <= 1) or (
                self.n > EXACT_LIMIT
            ):
                return self.to_ids(pairs)
            return self.to_ids(self.solve_exact(list(range(self.n))))
        if self.n <= EXACT_LIMIT:
            exact = self.solve_exact(list(range(self.n)))
            return None if exact is None else self.to_ids(exact)
        # Large field: keep the fast pairs above the trouble and solve the rest exactly,
        # reaching further up while that fails.
        for g in range(failed_group, -1, -1):
            kept, floaters = checkpoints[g]
            exact = self.solve_exact([*floaters, *range(self.group_start[g], self.n)])
            if exact is not None:
                return self.to_ids(pairs[:kept] + exact)
        return None

    def to_ids(self, pairs: list[tuple[int, int]] | None) -> list[tuple[int, int]] | None:
        if pairs is None:
            return None
        return [(self.ranked[i].id, self.ranked[j].id) for i, j in sorted(pairs)]

    # --- exact: maximum-weight perfect matching ---

    def solve_exact(self, members: list[int]) -> list[tuple[int, int]] | None:
        """Optimal pairs (i < j) of `members` (rank indices), or None if none is perfect."""
        n = self.n
        k2 = n * n + 1  # > any total fold distance
        k1 = k2 * (n * self.group_count * self.group_count + 1)  # > any total (square, fold)
        top = k1 * (n * self.group_count + 1)  # > any total cost: all weights positive
        graph: nx.Graph[int] = nx.Graph()
        graph.add_nodes_from(members)
        ordered = sorted(members)
        for x, i in enumerate(ordered):
            played = self.played[i]
            for j in ordered[x + 1 :]:
                if j in played:
                    continue
                distance, square, fold = self.pair_cost(i, j)
                graph.add_edge(i, j, weight=top - (distance * k1 + square * k2 + fold))
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        if 2 * len(matching) != len(members):
            return None
        return sorted((min(u, v), max(u, v)) for u, v in matching)

    # --- fast: fold pairing bracket by bracket ---

    def solve_fast(
        self,
    ) -> tuple[list[tuple[int, int]], int | None, list[tuple[int, list[int]]]]:
        """Pairs, the group where it got stuck (None if it did not), and per group the number
        of pairs made above it and the floaters entering it."""
        pairs: list[tuple[int, int]] = []
        checkpoints: list[tuple[int, list[int]]] = []
        floaters: list[int] = []
        for g in range(self.group_count):
            checkpoints.append((len(pairs), floaters))
            start = self.group_start[g]
            residents = list(range(start, start + self.group_size[g]))
            bracket_pairs, floaters = self._pair_bracket(floaters, residents)
            pairs.extend(bracket_pairs)
        if floaters:
            return pairs, self.group_count - 1, checkpoints
        return pairs, None, checkpoints

    def _pair_bracket(
        self, floaters: list[int], residents: list[int]
    ) -> tuple[list[tuple[int, int]], list[int]]:
        """Pairs of one bracket and who floats down: the fold when it works (at most one floater,
        the lowest-ranked resident who can be left out); otherwise as many pairs as possible."""
        bracket = floaters + residents
        if len(bracket) % 2 == 0:
            pairs = self._fold(bracket, len(floaters))
            if pairs is not None:
                return pairs, []
        else:
            lowest = max(len(floaters), len(bracket) - 9)
            for leave in range(len(bracket) - 1, lowest - 1, -1):
                rest = bracket[:leave] + bracket[leave + 1 :]
                pairs = self._fold(rest, len(floaters))
                if pairs is not None:
                    return pairs, [bracket[leave]]
        if len(bracket) <= BRACKET_MATCHING_LIMIT:
            pairs = self._most_pairs(bracket, set(floaters))
        else:
            pairs = self._greedy(bracket)
        paired = {i for pair in pairs for i in pair}
        return pairs, [i for i in bracket if i not in paired]

    def _most_pairs(self, bracket: list[int], floaters: set[int]) -> list[tuple[int, int]]:
        """A maximum set of pairs inside a small bracket, keeping incoming floaters paired and
        the fold where possible (everyone left over floats down)."""
        n = self.n
        floater_bonus = 2 * n * n
        graph: nx.Graph[int] = nx.Graph()
        for x, i in enumerate(bracket):
            for j in bracket[x + 1 :]:
                if j in self.played[i]:
                    continue
                bonus = floater_bonus * ((i in floaters) + (j in floaters))
                graph.add_edge(i, j, weight=4 * n * n + bonus - self.pair_cost(i, j)[2])
        matching = nx.max_weight_matching(graph, maxcardinality=True)
        return sorted((min(u, v), max(u, v)) for u, v in matching)

    def _greedy(self, bracket: list[int]) -> list[tuple[int, int]]:
        used: set[int] = set()
        pairs = []
        for x, i in enumerate(bracket):
            if i in used:
                continue
            for j in bracket[x + 1 :]:
                if j not in used and j not in self.played[i]:
                    used.update((i, j))
                    pairs.append((i, j))
                    break
        return pairs

    def _fold(self, bracket: list[int], floater_count: int) -> list[tuple[int, int]] | None:
        """Pair all of `bracket` (even): floaters with the top residents, then the remaining
        residents top half against bottom half, moving as little as rematches require.
        Depth-first with a step budget; None when it gives up."""
        size = len(bracket)
        if size == 0:
            return []
        used = [False] * size
        residents_left = size - 2 * floater_count
        half = residents_left // 2 if residents_left > 0 else 0

        def target(k: int) -> int:
            if k < floater_count:
                return floater_count + k
            return k + half

        def candidates(k: int):  # type: ignore[no-untyped-def]
            me = bracket[k]
            played = self.played[me]
            t = target(k)
            for d in range(size):
                for c in (t + d, t - d) if d else (t,):
                    if k < c < size and not used[c] and bracket[c] not in played:
                        yield c

        budget = 20 * size + 2000
        stack: list[tuple[int, object]] = []  # (k, candidate iterator)
        chosen: list[int] = []
        k = 0
        while True:
            while k < size and used[k]:
                k += 1
            if k == size:
                break
            used[k] = True
            stack.append((k, candidates(k)))
            while True:
                budget -= 1
                if budget < 0 or not stack:
                    return None
                top_k, it = stack[-1]
                partner = next(it, None)  # type: ignore[call-overload]
                if len(chosen) == len(stack):  # release the previous choice of this level
                    used[chosen.pop()] = False
                if partner is not None:
                    used[partner] = True
                    chosen.append(partner)
                    k = top_k + 1
                    break
                stack.pop()
                used[top_k] = False
                if not stack:
                    return None
        return [
            (min(bracket[k], bracket[c]), max(bracket[k], bracket[c]))
            for (k, _), c in zip(stack, chosen, strict=True)
        ]
