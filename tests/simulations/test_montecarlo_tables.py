"""Swiss and round-robin (league) stages simulated: place odds are distributions, the stronger
entrant does better, finished sets are followed, and a seed reproduces the odds."""

from __future__ import annotations

import math

import pytest

from simulations.montecarlo.model import series_win_probability, sigmoid
from simulations.montecarlo.tables import (
    Played,
    series_scores,
    simulate_round_robin,
    simulate_swiss,
)
from tournaments.formats.round_robin import round_robin_schedule

RUNS = 4000


def within(observed: float, expected: float, runs: int = RUNS) -> bool:
    # five standard errors: a seeded run, so this is a check of the model, not luck
    return abs(observed - expected) <= 5 * math.sqrt(expected * (1 - expected) / runs) + 1e-9


def skills(n: int) -> list[list[float]]:
    """Entrant i is stronger than i + 1 (a steady gap in log-odds)."""
    return [[sigmoid(0.4 * (j - i)) for j in range(n)] for i in range(n)]


def fixtures(groups: list[list[int]]) -> list[tuple[int, int]]:
    return [pair for g in groups for rnd in round_robin_schedule(g) for pair in rnd]


def assert_distribution(places: list[list[float]], members: list[int]) -> None:
    """Every entrant has one place per run, and every place of the table one entrant."""
    size = len(members)
    for e in members:
        assert sum(places[e]) == pytest.approx(1.0)
        assert all(p == 0.0 for p in places[e][size:])
    for k in range(size):
        assert sum(places[e][k] for e in members) == pytest.approx(1.0)


@pytest.mark.parametrize("n", [2, 7, 12])
def test_swiss_place_odds_sum_to_one_per_place_and_per_entrant(n: int) -> None:
    odds = simulate_swiss(n, skills(n), rounds=3 if n > 2 else 1, best_of=3, runs=600, seed=n)
    assert_distribution(odds.places, list(range(n)))
    assert sum(odds.win) == pytest.approx(1.0)
    assert sum(odds.expected_place) == pytest.approx(n * (n + 1) / 2)


def test_swiss_the_stronger_entrant_has_better_odds() -> None:
    n = 16
    odds = simulate_swiss(n, skills(n), rounds=4, best_of=3, runs=1000, seed=3)
    assert odds.win[0] > odds.win[1] > odds.win[8]
    assert odds.expected_place[0] < odds.expected_place[7] < odds.expected_place[15]
    assert odds.top(8)[0] > 0.9 > 0.1 > odds.top(8)[15]


def test_two_entrant_swiss_is_one_set() -> None:
    p = [[0.5, 0.7], [0.3, 0.5]]
    odds = simulate_swiss(2, p, rounds=1, best_of=3, runs=RUNS, seed=1)
    assert within(odds.win[0], series_win_probability(0.7, 3))
    # a second round would be a rematch: the stage ends after one (it cannot be paired)
    again = simulate_swiss(2, p, rounds=2, best_of=3, runs=RUNS, seed=1)
    assert again == odds
    # a round paired past the planned count (the organizer went on) is still played
    extra = simulate_swiss(2, p, rounds=1, best_of=3, runs=RUNS, seed=1, pending=[(0, 1)],
                           rounds_paired=2)
    assert within(extra.win[0], series_win_probability(0.7, 3))


def test_swiss_is_deterministic_from_the_seed() -> None:
    one = simulate_swiss(9, skills(9), rounds=3, best_of=1, runs=300, seed=5)
    two = simulate_swiss(9, skills(9), rounds=3, best_of=1, runs=300, seed=5)
    other = simulate_swiss(9, skills(9), rounds=3, best_of=1, runs=300, seed=6)
    assert one == two
    assert one != other


def test_swiss_follows_the_finished_rounds() -> None:
    n = 4
    even = [[0.5] * n for _ in range(n)]
    # round 1: 3 beat 0 and 2 beat 1; round 2 is paired (3 v 2, 0 v 1) and 3 beat 2 already
    played = [Played(0, 3, 3, 0, 2), Played(1, 2, 2, 1, 2), Played(2, 3, 3, 0, 2)]
    odds = simulate_swiss(n, even, rounds=2, best_of=3, runs=500, seed=2, played=played,
                          pending=[(0, 1)], rounds_paired=2)
    assert odds.win[3] == 1.0  # 2-0 in every run
    assert odds.places[2][1] + odds.places[2][2] == pytest.approx(1.0)
    assert odds.places[0][3] + odds.places[1][3] == pytest.approx(1.0)  # the loser of 0 v 1
    # nothing left to play: one outcome
    done = simulate_swiss(n, even, rounds=2, best_of=3, runs=50, seed=9,
                          played=[*played, Played(0, 1, 0, 2, 0)], rounds_paired=2)
    # 0 and 2 on 1 point tie on Buchholz (2) and Sonneborn-Berger (0), never met: the seed
    assert [row.index(1.0) for row in done.places] == [1, 3, 2, 0]


def test_swiss_byes_and_withdrawn_entrants() -> None:
    n = 5
    even = [[0.5] * n for _ in range(n)]
    # entrant 4 withdrew before round 1: never paired, no bye, last with no point every time
    odds = simulate_swiss(n, even, rounds=2, best_of=1, runs=500, seed=4, withdrawn={4})
    assert odds.places[4][4] == 1.0
    assert_distribution(odds.places, list(range(n)))


def test_series_scores_are_a_distribution_over_final_scores() -> None:
    table = series_scores(0.6, 5)
    assert table[-1][0] == pytest.approx(1.0)
    assert {(a, b) for _, a, b in table} == {(3, 0), (3, 1), (3, 2), (0, 3), (1, 3), (2, 3)}
    a_wins = table[2][0]  # the first three rows are side a's wins
    assert a_wins == pytest.approx(series_win_probability(0.6, 5))
    assert series_scores(0.3, 1) == [(pytest.approx(0.3), 1, 0), (pytest.approx(1.0), 0, 1)]


def test_round_robin_groups_place_odds() -> None:
    groups = [[0, 3, 4, 7], [1, 2, 5, 6]]
    odds = simulate_round_robin(groups, skills(8), fixtures=fixtures(groups), best_of=3,
                                runs=RUNS, seed=8)
    for g in groups:
        assert_distribution(odds.places, g)
    assert odds.win[0] > odds.win[3] > odds.win[7]
    assert odds.expected_place[1] < odds.expected_place[6]


def test_round_robin_exact_three_entrants() -> None:
    # 0 beats 1 and 2 with 0.9 each, 1 v 2 is even (one game each): 0 is first when it wins
    # both (0.81); with one win each for all three (0.18 * 0.5 + ...), head-to-head cannot
    # split them and the seed keeps 0 first: 0.81 + P(three-way tie) = 0.81 + 2 * 0.9 * 0.1 * 0.5
    p = [[0.5, 0.9, 0.9], [0.1, 0.5, 0.5], [0.1, 0.5, 0.5]]
    odds = simulate_round_robin([[0, 1, 2]], p, fixtures=fixtures([[0, 1, 2]]), best_of=1,
                                runs=RUNS, seed=10, tiebreaks=("points", "head_to_head", "seed"))
    assert within(odds.win[0], 0.81 + 0.09)


def test_a_league_follows_finished_sets_and_is_deterministic() -> None:
    group = [0, 1, 2, 3]
    remaining = [pair for pair in fixtures([group]) if pair not in ((0, 3), (1, 2))]
    played = [Played(0, 3, 3, 0, 2), Played(1, 2, None)]  # a double forfeit scores nothing
    kwargs = {"fixtures": remaining, "best_of": 3, "runs": 800, "played": played}
    one = simulate_round_robin([group], skills(4), seed=1, **kwargs)  # type: ignore[arg-type]
    two = simulate_round_robin([group], skills(4), seed=1, **kwargs)  # type: ignore[arg-type]
    assert one == two
    assert_distribution(one.places, group)
    unplayed = simulate_round_robin([group], skills(4), fixtures=fixtures([group]), best_of=3,
                                    runs=800, seed=1)
    assert one.win[3] > unplayed.win[3]  # its win over the favourite counts in every run
    # every set played: the one table the results give
    lower_wins = [Played(a, b, min(a, b), 2 * (a < b), 2 * (b < a)) for a, b in fixtures([group])]
    done = simulate_round_robin([group], skills(4), fixtures=[], best_of=3, runs=20, seed=1,
                                played=lower_wins)
    assert [row[0] for row in done.places] == [1.0, 0.0, 0.0, 0.0]
