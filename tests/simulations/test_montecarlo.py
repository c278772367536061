"""The pure Monte Carlo module: known small brackets with exact probabilities."""

from __future__ import annotations

import itertools
import math

import pytest

from simulations.montecarlo.calibration import calibration
from simulations.montecarlo.elimination import simulate_elimination
from simulations.montecarlo.model import (
    chart_adjusted,
    rating_win_probability,
    series_win_probability,
)
from simulations.montecarlo.round_robin import simulate_groups
from tournaments.formats.elimination import double_elimination, single_elimination

RUNS = 20_000


def within(observed: float, expected: float, runs: int = RUNS) -> bool:
    # five standard errors: a seeded run, so this is a check of the model, not luck
    return abs(observed - expected) <= 5 * math.sqrt(expected * (1 - expected) / runs) + 1e-9


def test_two_entrants_with_p_07() -> None:
    result = simulate_elimination(single_elimination(2), [0, 1], [[[0.5, 0.7], [0.3, 0.5]]],
                                  runs=RUNS, seed=7)
    assert within(result.win[0], 0.7) and result.win[0] + result.win[1] == pytest.approx(1)
    assert result.place_of_exit == [1, 2]
    assert result.expected_place[0] == pytest.approx(2 - result.win[0])


def test_four_entrant_single_elimination_matches_the_analytic_odds() -> None:
    strength = [4.0, 3.0, 2.0, 1.0]
    p = [[s / (s + t) for t in strength] for s in strength]
    # seeds 1..4 are entrants 0..3: semifinals 1 v 4 and 2 v 3
    result = simulate_elimination(single_elimination(4), [0, 1, 2, 3], [p], runs=RUNS, seed=3)
    for e in range(4):
        mine = 3 - e  # semifinals: seeds 1 v 4 and 2 v 3
        semi = p[e][mine]
        other = [x for x in range(4) if x not in (e, mine)]
        final = sum(p[o][other[1] if o == other[0] else other[0]] * p[e][o] for o in other)
        assert within(result.win[e], semi * final), e
        assert within(result.reach[e][result.columns.index("Final")], semi), e
        assert result.reach[e][result.columns.index("Semifinals")] == 1.0


def test_deterministic_for_a_seed_and_byes_advance() -> None:
    p = [[0.5] * 5 for _ in range(5)]
    one = simulate_elimination(double_elimination(5), list(range(5)), [p], runs=500, seed=1)
    two = simulate_elimination(double_elimination(5), list(range(5)), [p], runs=500, seed=1)
    assert one == two
    assert sum(one.win) == pytest.approx(1.0)
    assert all(t == 1.0 for t in one.top8)  # five entrants: everyone is in the top 8


def test_double_elimination_places_and_reset() -> None:
    # entrant 0 always beats everyone: it wins every run, without a reset
    n = 8
    p = [[0.5 if i == j else (1.0 if i == 0 else (0.0 if j == 0 else 0.5)) for j in range(n)]
         for i in range(n)]
    result = simulate_elimination(double_elimination(n), list(range(n)), [p], runs=2000, seed=2)
    assert result.win[0] == 1.0 and result.expected_place[0] == 1.0
    assert result.place_of_exit == [1, 2, 3, 4, 5, 7]
    assert sum(result.expected_place) / n == pytest.approx((1 + 2 + 3 + 4 + 5 + 5 + 7 + 7) / 8)
    # a fair grand final with reset: the losers-side entrant must win two sets
    # a grand final with reset: from the losers side, an entrant must win two sets
    two = [[0.5, 0.7], [0.3, 0.5]]
    gf = simulate_elimination(double_elimination(2), [0, 1], [two], runs=RUNS, seed=4)
    assert within(gf.win[0], 0.7 * (0.7 + 0.3 * 0.7) + 0.3 * (0.7 * 0.7))


def test_third_place_match_ranks_below_the_final() -> None:
    p = [[0.5] * 4 for _ in range(4)]
    result = simulate_elimination(single_elimination(4, third_place=True), [0, 1, 2, 3], [p],
                                  runs=1000, seed=5)
    assert result.place_of_exit == [1, 2, 3, 4]
    assert sum(result.expected_place) == pytest.approx(10)


def test_series_and_rating_models() -> None:
    assert series_win_probability(0.6, 1) == 0.6
    bo3 = 0.6 * 0.6 + 2 * 0.6 * 0.4 * 0.6
    assert series_win_probability(0.6, 3) == pytest.approx(bo3)
    assert series_win_probability(0.5, 5) == pytest.approx(0.5)
    assert rating_win_probability(25, 8.3, 25, 8.3) == pytest.approx(0.5)
    assert rating_win_probability(30, 2, 20, 2) > 0.8
    assert chart_adjusted(0.5, 7.0) == pytest.approx(0.7)
    assert chart_adjusted(0.6, 5.0) == pytest.approx(0.6)
    assert chart_adjusted(0.6, None) == 0.6


def test_groups_every_pair_once() -> None:
    p = [[0.5, 0.9, 0.9], [0.1, 0.5, 0.5], [0.1, 0.5, 0.5]]
    odds = simulate_groups([[0, 1, 2]], p, advance_per_group=1, runs=RUNS, seed=9)
    # 0 beats both (0.81): first; beats one, and that one's victim... 0 on 1 point ties at
    # most one other on 1 point (the one that beat 0 and lost to the third) or tops a 3-way tie
    # when 0 beats one, loses to the other, and the other loses to the first: all on 1 point
    three_way = 2 * 0.9 * 0.1 * 0.5
    expected = 0.81 + three_way / 3
    assert within(odds.first[0], expected)
    assert sum(odds.first) == pytest.approx(1.0)
    assert odds.advance == odds.first


def test_calibration_brier_and_bins() -> None:
    result = calibration([(0.9, True), (0.9, True), (0.1, False), (0.5, True)], bins=10)
    assert result.brier == pytest.approx((0.01 + 0.01 + 0.01 + 0.25) / 4)
    top = result.bins[9]
    assert (top["count"], top["observed"]) == (2, 1.0)
    assert result.bins[5]["count"] == 1
    assert calibration([]).brier is None


@pytest.mark.parametrize("n", [3, 6, 13])
def test_every_run_has_one_winner(n: int) -> None:
    p = [[0.5] * n for _ in range(n)]
    for specs in (single_elimination(n), double_elimination(n)):
        result = simulate_elimination(specs, list(range(n)), [p], runs=300, seed=n)
        assert sum(result.win) == pytest.approx(1.0)
        assert all(x >= 1 for x in result.expected_place)
        assert list(itertools.accumulate(result.place_of_exit)) == sorted(
            itertools.accumulate(result.place_of_exit))


def test_decided_sets_are_followed() -> None:
    p = [[0.5] * 4 for _ in range(4)]
    # entrant 3 (seed 4) beat seed 1 in the semifinal: it reaches the final every time
    result = simulate_elimination(single_elimination(4), [0, 1, 2, 3], [p], runs=2000, seed=1,
                                  forced={"W1-1": "b"})
    final = result.columns.index("Final")
    assert result.reach[3][final] == 1.0 and result.reach[0][final] == 0.0
    assert result.win[0] == 0.0 and within(result.win[3], 0.5, 2000)


def test_groups_then_playoff() -> None:
    from simulations.montecarlo.stages import simulate_groups_then_playoff

    # two groups of two; the winners meet in a final. Entrant 0 beats 1 with 0.8, 2 beats 3
    # with 0.6, and 0 beats 2 with 0.5: 0 wins the event with 0.8 * 0.5
    p = [[0.5, 0.8, 0.5, 0.5], [0.2, 0.5, 0.5, 0.5], [0.5, 0.5, 0.5, 0.6],
         [0.5, 0.5, 0.4, 0.5]]
    result = simulate_groups_then_playoff(
        [[0, 1], [2, 3]], p, advance_per_group=1, playoff_specs=single_elimination(2),
        playoff_matrices=[p], runs=RUNS, seed=11)
    assert within(result.advance[0], 0.8) and within(result.advance[3], 0.4)
    assert within(result.playoff.win[0], 0.4) and within(result.playoff.win[3], 0.2)
    assert sum(result.playoff.win) == pytest.approx(1.0)
    decided = simulate_groups_then_playoff(
        [[0, 1], [2, 3]], p, advance_per_group=1, playoff_specs=single_elimination(2),
        playoff_matrices=[p], runs=2000, seed=11, decided={(0, 1): 1})
    assert decided.advance[1] == 1.0 and decided.playoff.win[0] == 0.0
