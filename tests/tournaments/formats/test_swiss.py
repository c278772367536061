from __future__ import annotations

import random
from functools import cache

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tournaments.formats.swiss import (
    SwissPairingError,
    _Problem,
    _rank_key,
    swiss_pair,
    swiss_standings,
)
from tournaments.formats.types import GameResultRecord as R
from tournaments.formats.types import SwissEntrant as E
from tournaments.formats.types import SwissPairing


def _fresh(count: int) -> list[E]:
    return [E(id=i, score=0.0, seed=i) for i in range(1, count + 1)]


def test_round_one_folds_top_half_against_bottom_half():
    assert swiss_pair(_fresh(8), [], []) == SwissPairing(
        pairs=[(1, 5), (2, 6), (3, 7), (4, 8)], bye=None
    )


def test_odd_count_gives_the_bye_to_the_lowest_ranked():
    assert swiss_pair(_fresh(7), [], []) == SwissPairing(pairs=[(1, 4), (2, 5), (3, 6)], bye=7)


def test_bye_goes_to_the_lowest_ranked_entrant_without_one():
    # given 7 already had a bye
    pairing = swiss_pair(_fresh(7), [], [7])
    # then
    assert pairing.bye == 6
    assert pairing.pairs == [(1, 4), (2, 5), (3, 7)]


def test_bye_prefers_low_score_over_low_seed():
    # given 1 lost and everyone else won or had a bye
    entrants = [E(1, 0.0, 1), E(2, 1.0, 2), E(3, 1.0, 3)]
    assert swiss_pair(entrants, [frozenset({1, 2})], [3]).bye == 1


def test_rating_orders_inside_a_score_group():
    # given ratings reverse the seeds
    entrants = [E(i, 0.0, i, rating=1000.0 + i) for i in range(1, 5)]
    # then 4 and 3 are the top half
    assert swiss_pair(entrants, [], []).pairs == [(4, 2), (3, 1)]


def test_no_rematch_moves_the_pair_inside_the_group():
    # given a group of 4 where the fold pairs 1-3 and 2-4 have been played
    pairing = swiss_pair(_fresh(4), [frozenset({1, 3}), frozenset({2, 4})], [])
    assert pairing.pairs == [(1, 4), (2, 3)]


def test_score_groups_are_kept_and_odd_groups_float_one_entrant():
    # given scores 2 | 1 1 1 | 0 0 (1 and 2 met in round 1 ... irrelevant pairs)
    entrants = [E(1, 2, 1), E(2, 1, 2), E(3, 1, 3), E(4, 1, 4), E(5, 0, 5), E(6, 0, 6)]
    # when
    pairing = swiss_pair(entrants, [frozenset({2, 3})], [])
    # then 1 floats down to the top of the 1-point group, 3-4 ... 2 and 3 already met
    assert pairing == SwissPairing(pairs=[(1, 2), (3, 4), (5, 6)], bye=None)


def test_floaters_move_one_group_at_a_time():
    # given groups of 1 | 2 | 1: pairing 1 with 4 directly is one crossing of distance 2, but
    # two crossings of distance 1 are preferred
    entrants = [E(1, 2, 1), E(2, 1, 2), E(3, 1, 3), E(4, 0, 4)]
    assert swiss_pair(entrants, [], []).pairs == [(1, 2), (3, 4)]


def test_impossible_rounds_raise():
    with pytest.raises(SwissPairingError, match="rematch"):
        swiss_pair(_fresh(4), [frozenset({1, 2}), frozenset({1, 3}), frozenset({1, 4})], [])
    with pytest.raises(SwissPairingError, match="every entrant has had a bye"):
        swiss_pair(_fresh(3), [], [1, 2, 3])
    with pytest.raises(SwissPairingError, match="at least 2"):
        swiss_pair(_fresh(1), [], [])
    with pytest.raises(ValueError, match="duplicate"):
        swiss_pair([E(1, 0, 1), E(1, 0, 2)], [], [])


def test_same_input_same_output_whatever_the_input_order():
    entrants = [E(i, float(i % 3), i) for i in range(1, 30)]
    shuffled = entrants[:]
    random.Random(4).shuffle(shuffled)
    previous = [frozenset({1, 4}), frozenset({2, 8}), frozenset({5, 11})]
    assert swiss_pair(entrants, previous, [29]) == swiss_pair(shuffled, previous[::-1], [29])


# --- oracle: brute force over all matchings for small fields ------------------------------


def _rank_order(entrants: list[E]) -> list[E]:
    return sorted(
        entrants, key=lambda e: (-e.score, e.rating is None, -(e.rating or 0), e.seed, e.id)
    )


def _optimal_distance(players: list[E], previous: set[frozenset[int]]) -> int | None:
    """Least total score-group distance over all rematch-free perfect matchings, or None."""
    scores = sorted({p.score for p in players}, reverse=True)
    group = {p.id: scores.index(p.score) for p in players}
    ids = tuple(p.id for p in players)

    @cache
    def best(remaining: tuple[int, ...]) -> int | None:
        if not remaining:
            return 0
        first, rest = remaining[0], remaining[1:]
        found = None
        for k, other in enumerate(rest):
            if frozenset({first, other}) in previous:
                continue
            tail = best(rest[:k] + rest[k + 1 :])
            if tail is not None:
                cost = tail + abs(group[first] - group[other])
                found = cost if found is None else min(found, cost)
        return found

    return best(ids)


def _group_distance(pairs, entrants: list[E]) -> int:
    scores = sorted({e.score for e in entrants}, reverse=True)
    score = {e.id: e.score for e in entrants}
    return sum(abs(scores.index(score[a]) - scores.index(score[b])) for a, b in pairs)


def _simulate(count: int, rounds: int, rng: random.Random, *, check_oracle: bool):
    entrants = {i: E(i, 0.0, i) for i in range(1, count + 1)}
    previous: set[frozenset[int]] = set()
    byes: list[int] = []
    for _ in range(rounds):
        field = list(entrants.values())
        try:
            pairing = swiss_pair(field, previous, byes)
        except SwissPairingError:
            # only acceptable when the oracle agrees nothing is possible
            assert check_oracle
            ranked = _rank_order(field)
            candidates = [e for e in ranked if e.id not in byes] if count % 2 else [None]
            assert all(
                _optimal_distance([p for p in ranked if p is not c], previous) is None
                for c in candidates
            )
            return
        # no rematch, everyone placed exactly once, at most one bye each
        placed = [e for pair in pairing.pairs for e in pair]
        if pairing.bye is not None:
            placed.append(pairing.bye)
            assert pairing.bye not in byes
        assert sorted(placed) == sorted(entrants)
        assert (pairing.bye is None) == (count % 2 == 0)
        new_pairs = {frozenset(p) for p in pairing.pairs}
        assert not new_pairs & previous
        if check_oracle:
            ranked = _rank_order(field)
            remaining = [e for e in ranked if e.id != pairing.bye]
            optimum = _optimal_distance(remaining, previous)
            assert _group_distance(pairing.pairs, remaining) == optimum
            if pairing.bye is not None:
                # every lower-ranked entrant without a bye could not have taken it
                lower = ranked[[e.id for e in ranked].index(pairing.bye) + 1 :]
                for e in lower:
                    if e.id not in byes:
                        others = [p for p in ranked if p.id != e.id]
                        assert _optimal_distance(others, previous) is None
        previous |= new_pairs
        if pairing.bye is not None:
            byes.append(pairing.bye)
            entrants[pairing.bye] = E(pairing.bye, entrants[pairing.bye].score + 1, pairing.bye)
        for a, b in pairing.pairs:
            outcome = rng.choice(["a", "b", "a", "b", "draw"])
            gain = {"a": (1.0, 0.0), "b": (0.0, 1.0), "draw": (0.5, 0.5)}[outcome]
            entrants[a] = E(a, entrants[a].score + gain[0], a)
            entrants[b] = E(b, entrants[b].score + gain[1], b)


@settings(max_examples=60, deadline=None)
@given(count=st.integers(2, 12), rounds=st.integers(1, 11), seed=st.integers(0, 10**6))
def test_simulated_small_swiss_is_optimal_against_brute_force(count, rounds, seed):
    _simulate(count, min(rounds, count), random.Random(seed), check_oracle=True)


@settings(max_examples=25, deadline=None)
@given(count=st.integers(13, 80), seed=st.integers(0, 10**6))
def test_simulated_swiss_rounds_never_rematch_or_repeat_a_bye(count, seed):
    # rounds < count / 2: a rematch-free pairing always exists (Dirac), so none may raise
    rounds = min(count // 2 - 1, 9)
    _simulate(count, rounds, random.Random(seed), check_oracle=False)


# --- Swiss standings ------------------------------------------------------------------------


def test_swiss_standings_buchholz_and_sonneborn_berger_by_hand():
    # given two rounds of five: R1 1 beat 2, 3 drew 4, 5 bye; R2 1 beat 5, 4 beat 2, 3 bye
    results = [R(1, 2, winner=1), R(3, 4, winner=None), R(1, 5, winner=1), R(4, 2, winner=4)]
    # when
    rows = swiss_standings([1, 2, 3, 4, 5], results, byes=[5, 3])
    # then points 1: 2, 3: 1.5, 4: 1.5, 5: 1, 2: 0
    table = [
        (
            r.entrant_id,
            r.rank,
            r.points,
            r.wins,
            r.tiebreaks["buchholz"],
            r.tiebreaks["sonneborn_berger"],
        )
        for r in rows
    ]
    assert table == [
        (1, 1, 2.0, 2, 1.0, 1.0),  # opponents 2 (0) and 5 (1); beat both
        (3, 2, 1.5, 1, 1.5, 0.75),  # opponent 4 (1.5), drawn; the bye adds nothing
        (4, 3, 1.5, 1, 1.5, 0.75),  # opponents 3 (1.5, drawn) and 2 (0, beaten)
        (5, 4, 1.0, 1, 2.0, 0.0),
        (2, 5, 0.0, 0, 3.5, 0.0),
    ]
    # 3 and 4 tie on everything including their draw; seed order puts 3 first
    assert rows[1].tiebreaks["head_to_head"] == rows[2].tiebreaks["head_to_head"] == 0.5


def test_swiss_standings_without_seed_share_the_rank():
    results = [R(1, 2, winner=1), R(3, 4, winner=None), R(1, 5, winner=1), R(4, 2, winner=4)]
    rows = swiss_standings(
        [1, 2, 3, 4, 5],
        results,
        byes=[5, 3],
        tiebreaks=["points", "buchholz", "sonneborn_berger", "head_to_head"],
    )
    assert [(r.entrant_id, r.rank) for r in rows] == [(1, 1), (3, 2), (4, 2), (5, 4), (2, 5)]


def test_swiss_standings_head_to_head_breaks_equal_buchholz():
    # given 1 and 2 both on 1 point with equal Buchholz and Sonneborn-Berger... 2 beat 1
    results = [R(1, 2, winner=2), R(1, 3, winner=1), R(2, 4, winner=None), R(3, 4, winner=None)]
    rows = swiss_standings([1, 2, 3, 4], results)
    points = {r.entrant_id: r.points for r in rows}
    assert points == {1: 1.0, 2: 1.5, 3: 0.5, 4: 1.0}
    assert [r.entrant_id for r in rows] == [2, 4, 1, 3]


def _lower_bound(entrants: list[E], bye: int | None) -> int:
    scores = sorted({e.score for e in entrants if e.id != bye}, reverse=True)
    sizes = [sum(1 for e in entrants if e.id != bye and e.score == s) for s in scores]
    return sum(sum(sizes[: g + 1]) % 2 for g in range(len(sizes) - 1))


def _exact_distance(field: list[E], previous: set[frozenset[int]], bye: int | None) -> int:
    """The optimum of criterion (1) by the exact matching (slow on large fields)."""
    ranked = sorted((e for e in field if e.id != bye), key=_rank_key)
    played: dict[int, set[int]] = {e.id: set() for e in ranked}
    for a, b in (tuple(p) for p in previous):
        if a in played and b in played:
            played[a].add(b)
            played[b].add(a)
    problem = _Problem(ranked, played)
    pairs = problem.solve_exact(list(range(problem.n)))
    assert pairs is not None
    return sum(problem.group[j] - problem.group[i] for i, j in pairs)


@pytest.mark.parametrize(("count", "rounds"), [(129, 14), (1000, 8)])
def test_large_fields_pair_validly_and_inside_score_groups(count, rounds):
    # given a seeded simulation above the exact-matching limit
    rng = random.Random(count)
    entrants = {i: E(i, 0.0, i) for i in range(1, count + 1)}
    previous: set[frozenset[int]] = set()
    byes: list[int] = []
    for _ in range(rounds):
        field = list(entrants.values())
        # when
        pairing = swiss_pair(field, previous, byes)
        # then
        placed = sorted([e for pair in pairing.pairs for e in pair] + [pairing.bye] * (count % 2))
        assert placed == list(range(1, count + 1))
        assert pairing.bye not in byes
        new_pairs = {frozenset(p) for p in pairing.pairs}
        assert len(new_pairs) == len(pairing.pairs) and not new_pairs & previous
        remaining = [e for e in field if e.id != pairing.bye]
        # and pairs inside score groups as far as the groups and past pairs allow
        distance = _group_distance(pairing.pairs, remaining)
        if distance != _lower_bound(field, pairing.bye):
            assert distance == _exact_distance(field, previous, pairing.bye)
        previous |= new_pairs
        if pairing.bye is not None:
            byes.append(pairing.bye)
            entrants[pairing.bye] = E(pairing.bye, entrants[pairing.bye].score + 1, pairing.bye)
        for a, b in pairing.pairs:
            winner = rng.choice((a, b, a, b, None))
            for e in (a, b):
                gain = 0.5 if winner is None else float(winner == e)
                entrants[e] = E(e, entrants[e].score + gain, e)
