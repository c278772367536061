"""Single and double elimination, simulated ``runs`` times from a win-probability matrix.

The bracket is the one ``tournaments.formats`` generates (the same sets, byes, drop patterns and
grand-final reset as a real stage). Each run plays every set once, in dependency order: a set
between two entrants is won by side a with probability ``prob[a][b]`` (the series probability
for that set's best-of); a bye advances the other side. Each entrant's *exit* is the set where it
is eliminated (or where it wins the stage); exits rank by the set's depth in the bracket (longest
path from a first-round set), a set's winner above its loser, the third-place match below the
final at the same depth. A finish place is the first place of its exit's range (losing in a
double-elimination Losers Round shared by two entrants is 5th), as brackets show it.

*Reaching a round* means playing a set of that winners-bracket round (or the grand final);
losers rounds are not columns (an entrant still in the winners bracket has not "reached" them).
"""

from __future__ import annotations

import random
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tournaments.formats.types import SetSpec

Matrix = Sequence[Sequence[float]]

# A compiled set: slot of side a, slot of side b, winner's slot (-1: none), loser's slot,
# winner's exit (-1: none), loser's exit, matrix index, reach column of the winner (-1: none),
# kind (0: ordinary, 1: a final followed by a conditional reset, 2: that reset).
_Compiled = tuple[int, int, int, int, int, int, int, int, int]


@dataclass(frozen=True)
class OddsResult:
    """Per entrant (the index used in the matrix): the share of runs in which it ..."""

    runs: int
    columns: list[str]  # rounds, in bracket order
    reach: list[list[float]]  # reach[entrant][column]: played a set of that round
    top8: list[float]  # finished 8th or better
    win: list[float]  # won the stage
    expected_place: list[float]
    place_of_exit: list[int]


@dataclass(frozen=True)
class _Program:
    sets: list[_Compiled]
    slots: list[int]  # initial slots: entrant index, or -1 (a bye, or not filled yet)
    columns: list[str]
    exits: int
    reset_exits: tuple[int, int]  # (winner's, loser's) exits of a skipped reset
    seed_of_slot: list[int]  # the seed index (0-based) a slot starts with, or -1


def _order(specs: Sequence[SetSpec]) -> list[SetSpec]:
    by_key = {s.key: s for s in specs}
    feeders: dict[str, set[str]] = {s.key: set() for s in specs}
    for s in specs:
        for target in (s.winner_to, s.loser_to):
            if target is not None:
                feeders[target[0]].add(s.key)
    done: list[SetSpec] = []
    seen: set[str] = set()
    pending = list(specs)
    while pending:
        rest = []
        for s in pending:
            if feeders[s.key] <= seen:
                done.append(s)
            else:
                rest.append(s)
        if len(rest) == len(pending):
            raise ValueError("the bracket has a cycle")
        seen.update(s.key for s in done[len(done) - (len(pending) - len(rest)):])
        pending = rest
    assert len(done) == len(by_key)
    return done


def _compile(specs: Sequence[SetSpec], order: Sequence[int],
             matrix_of: Callable[[SetSpec], int]) -> _Program:
    ordered = _order(specs)
    by_key = {s.key: s for s in ordered}
    depth: dict[str, int] = {}
    for s in ordered:
        depth.setdefault(s.key, 0)
        for target in (s.winner_to, s.loser_to):
            if target is not None:
                depth[target[0]] = max(depth.get(target[0], 0), depth[s.key] + 1)
    slot_of: dict[tuple[str, str], int] = {}
    slots: list[int] = []
    seed_of_slot: list[int] = []
    for s in ordered:
        for side, source in (("a", s.side_a), ("b", s.side_b)):
            slot_of[(s.key, side)] = len(slots)
            if source.kind == "seed" and source.seed is not None and source.seed <= len(order):
                slots.append(order[source.seed - 1])
                seed_of_slot.append(source.seed - 1)
            else:
                slots.append(-1)
                seed_of_slot.append(-1)
    columns: list[str] = []
    for s in ordered:
        if s.bracket in ("winners", "grand_final") and not s.is_conditional \
                and s.round_name not in columns:
            columns.append(s.round_name)
    conditional = {s.key for s in ordered if s.is_conditional}
    exit_keys: dict[tuple[int, int], int] = {}

    def exit_of(s: SetSpec, winner: bool) -> tuple[int, int]:
        rank = (1 if winner else 0) + (0 if s.bracket == "third_place" else 2)
        return depth[s.key], rank

    raw: list[tuple[SetSpec, tuple[int, int] | None, tuple[int, int] | None]] = []
    for s in ordered:
        w_exit = exit_of(s, True) if s.winner_to is None else None
        l_exit = exit_of(s, False) if s.loser_to is None else None
        raw.append((s, w_exit, l_exit))
        for e in (w_exit, l_exit):
            if e is not None:
                exit_keys[e] = 0
    ranked = sorted(exit_keys, reverse=True)  # best exit first
    index = {key: i for i, key in enumerate(ranked)}
    reset_exits = (-1, -1)
    compiled: list[_Compiled] = []
    for s, w_exit, l_exit in raw:
        kind = 0
        if s.is_conditional:
            kind = 2
            reset_exits = (index[exit_of(s, True)], index[exit_of(s, False)])
        elif s.loser_to is not None and s.loser_to[0] in conditional:
            kind = 1
        goes_to = by_key[s.winner_to[0]] if s.winner_to is not None else None
        reach = -1
        if goes_to is not None and goes_to.round_name in columns and not goes_to.is_conditional:
            reach = columns.index(goes_to.round_name)
        compiled.append((
            slot_of[(s.key, "a")], slot_of[(s.key, "b")],
            slot_of[(s.winner_to[0], s.winner_to[1])] if s.winner_to else -1,
            slot_of[(s.loser_to[0], s.loser_to[1])] if s.loser_to else -1,
            index[w_exit] if w_exit is not None else -1,
            index[l_exit] if l_exit is not None else -1,
            matrix_of(s), reach, kind,
        ))
    return _Program(compiled, slots, columns, len(ranked), reset_exits, seed_of_slot)


def _may_hold_bye(program: _Program) -> list[bool]:
    """Which slots can hold no entrant (a bye, or a bye's missing loser): structural."""
    holds = [x < 0 for x in program.slots]
    for ia, ib, ws, ls, _we, _le, _m, _rc, _kind in program.sets:
        a_bye, b_bye = holds[ia], holds[ib]
        if ws >= 0:
            holds[ws] = a_bye and b_bye
        if ls >= 0:
            holds[ls] = a_bye or b_bye
    return holds


def _first_round_column(specs: Sequence[SetSpec]) -> str | None:
    for s in specs:
        if s.bracket == "winners" and s.round == 1:
            return s.round_name
    return None


def simulate_elimination(
    specs: Sequence[SetSpec],
    order: Sequence[int],
    matrices: Sequence[Matrix],
    *,
    runs: int,
    seed: int,
    matrix_of: Callable[[SetSpec], int] = lambda s: 0,
    forced: Mapping[str, str] | None = None,
    order_of_run: Callable[[Callable[[], float]], Sequence[int]] | None = None,
) -> OddsResult:
    """Simulate a bracket ``runs`` times.

    ``order[k]`` is the entrant index holding seed ``k + 1``; ``matrices[m][a][b]`` is the
    chance that entrant ``a`` beats ``b`` in a set that ``matrix_of`` maps to ``m`` (one matrix
    per best-of in use). ``forced`` maps the key of a set already decided to its winning side
    ("a" or "b"): every run then follows the real results. ``order_of_run``, given the run's
    random source, returns that run's seeding (a stage before this one simulated in the same
    run: groups, then playoffs); ``order`` then only gives the entrant count. Matrices are
    square over every entrant index. Deterministic for a given ``seed``.
    """
    n = len(matrices[0]) if matrices else 0
    if forced:
        always = [[1.0] * n] * n  # side a wins (rnd() < 1.0), never (rnd() < 0.0)
        never = [[0.0] * n] * n
        base, decided = matrix_of, dict(forced)
        first_extra = len(matrices)
        matrices = [*matrices, always, never]

        def matrix_of(spec: SetSpec) -> int:
            side = decided.get(spec.key)
            if side is None:
                return base(spec)
            return first_extra if side == "a" else first_extra + 1

    program = _compile(specs, order, matrix_of)
    width = len(program.columns)
    hist = [0] * (program.exits * n)
    reach = [0] * (max(width, 1) * n)
    may_bye = _may_hold_bye(program)
    # the hot loop's tuples: offsets into hist/reach premultiplied by n, the matrix itself,
    # and a flag for the sets that need the general path (byes possible, a final with reset)
    fast = [
        (ia, ib, ws, ls, we * n, le * n, matrices[m], rc * n if rc >= 0 else -1,
         1 if (kind or may_bye[ia] or may_bye[ib]) else 0, kind)
        for ia, ib, ws, ls, we, le, m, rc, kind in program.sets
    ]
    rnd = random.Random(seed).random
    init = program.slots
    # the slots holding a seed (position, seed index), to reseat each run
    seats = [(i, spec_seed) for i, spec_seed in enumerate(program.seed_of_slot) if spec_seed >= 0]
    gw, gl = program.reset_exits[0] * n, program.reset_exits[1] * n
    for _ in range(runs):
        s = init[:]
        if order_of_run is not None:
            this_order = order_of_run(rnd)
            for i, k in seats:
                s[i] = this_order[k]
        skip = False
        for ia, ib, ws, ls, we, le, mat, rc, general, kind in fast:
            a = s[ia]
            b = s[ib]
            if general:
                if a < 0:
                    w = b
                    lo = -1
                elif b < 0:
                    w = a
                    lo = -1
                elif rnd() < mat[a][b]:
                    w = a
                    lo = b
                else:
                    w = b
                    lo = a
                if kind == 2:
                    if skip:
                        continue
                elif kind == 1 and w == a:  # the winners-side entrant won: no reset
                    skip = True
                    if w >= 0:
                        hist[gw + w] += 1
                    if lo >= 0:
                        hist[gl + lo] += 1
                    continue
                if ws >= 0:
                    s[ws] = w
                    if rc >= 0 and w >= 0:
                        reach[rc + w] += 1
                elif w >= 0:
                    hist[we + w] += 1
                if ls >= 0:
                    s[ls] = lo
                elif lo >= 0:
                    hist[le + lo] += 1
                continue
            if rnd() < mat[a][b]:
                w = a
                lo = b
            else:
                w = b
                lo = a
            if ws >= 0:
                s[ws] = w
                if rc >= 0:
                    reach[rc + w] += 1
            else:
                hist[we + w] += 1
            if ls >= 0:
                s[ls] = lo
            else:
                hist[le + lo] += 1
    # places: exits are structural (byes do not depend on results), so count them once
    per_exit = [sum(hist[e * n:(e + 1) * n]) // max(runs, 1) for e in range(program.exits)]
    place_of_exit = []
    better = 0
    for count in per_exit:
        place_of_exit.append(better + 1)
        better += count
    first = _first_round_column(specs)
    result_reach = []
    top8 = []
    win = []
    expected = []
    size = len(order)
    runs = max(runs, 1)
    for e in range(n):
        row = [reach[c * n + e] / runs for c in range(width)]
        counts = [hist[x * n + e] for x in range(program.exits)]
        played = sum(counts)  # runs in which e was in the bracket
        if first is not None and first in program.columns:
            row[program.columns.index(first)] = played / runs
        result_reach.append(row)
        top8.append(sum(c for x, c in enumerate(counts) if place_of_exit[x] <= 8) / runs)
        win.append(counts[0] / runs if counts else 0.0)
        # a run without e in the bracket (it did not qualify) counts as below every entrant
        expected.append((sum(c * place_of_exit[x] for x, c in enumerate(counts))
                         + (runs - played) * (size + 1)) / runs)
    return OddsResult(runs, list(program.columns), result_reach, top8, win, expected,
                      place_of_exit)
