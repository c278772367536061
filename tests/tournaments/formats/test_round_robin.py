from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tournaments.formats.elimination import bracket_size, seed_order
from tournaments.formats.league import league_schedule
from tournaments.formats.round_robin import (
    DEFAULT_RR_TIEBREAKS,
    playoff_seeding,
    round_robin_schedule,
    round_robin_standings,
    split_into_groups,
)
from tournaments.formats.types import GameResultRecord as R


@pytest.mark.parametrize("count", range(2, 41))
def test_schedule_everyone_meets_everyone_exactly_once(count):
    # given
    ids = [100 + i for i in range(count)]
    # when
    rounds = round_robin_schedule(ids)
    # then
    assert len(rounds) == (count if count % 2 else count - 1)
    meetings = Counter(frozenset(pair) for pairs in rounds for pair in pairs)
    assert set(meetings) == {frozenset(p) for p in combinations(ids, 2)}
    assert set(meetings.values()) == {1}
    sitting_out = Counter()
    for pairs in rounds:
        playing = [e for pair in pairs for e in pair]
        assert len(playing) == len(set(playing))  # nobody plays twice in a round
        assert len(pairs) == count // 2
        sitting_out.update(set(ids) - set(playing))
    assert sitting_out == (Counter(ids) if count % 2 else Counter())


def test_schedule_exact_for_four_and_three():
    assert round_robin_schedule([1, 2, 3, 4]) == [
        [(1, 4), (2, 3)],
        [(3, 1), (4, 2)],
        [(1, 2), (3, 4)],
    ]
    # with 3 entrants the phantom sits at the end of the row: 1 sits out round 1, then 3, then 2
    assert round_robin_schedule([1, 2, 3]) == [[(2, 3)], [(3, 1)], [(1, 2)]]


def test_schedule_degenerate_and_invalid_inputs():
    assert round_robin_schedule([7]) == []
    with pytest.raises(ValueError, match="duplicates"):
        round_robin_schedule([1, 2, 2])


def test_league_repeats_the_schedule_with_sides_swapped():
    season = league_schedule([1, 2, 3, 4], cycles=2)
    assert season == [
        [(1, 4), (2, 3)],
        [(3, 1), (4, 2)],
        [(1, 2), (3, 4)],
        [(4, 1), (3, 2)],
        [(1, 3), (2, 4)],
        [(2, 1), (4, 3)],
    ]
    assert league_schedule([1, 2, 3]) == round_robin_schedule([1, 2, 3])
    with pytest.raises(ValueError, match="cycles"):
        league_schedule([1, 2], cycles=0)


@pytest.mark.parametrize(
    ("count", "groups", "expected"),
    [
        (8, 2, [[1, 4, 5, 8], [2, 3, 6, 7]]),
        (10, 3, [[1, 6, 7], [2, 5, 8], [3, 4, 9, 10]]),
        (12, 4, [[1, 8, 9], [2, 7, 10], [3, 6, 11], [4, 5, 12]]),
        (3, 1, [[1, 2, 3]]),
    ],
)
def test_split_into_groups_is_snake_order(count, groups, expected):
    assert split_into_groups(list(range(1, count + 1)), groups) == expected


def test_split_into_groups_rejects_bad_counts():
    with pytest.raises(ValueError, match="group count"):
        split_into_groups([1, 2], 0)
    with pytest.raises(ValueError, match="3 groups for 2 entrants"):
        split_into_groups([1, 2], 3)


# --- standings ------------------------------------------------------------------------------

# 1 beat 2, 2 beat 3, 3 beat 1 (a cycle), 1 and 2 beat 4, 4 beat 3.
CYCLE_RESULTS = [
    R(1, 2, winner=1, games_a=2, games_b=1),
    R(2, 3, winner=2, games_a=2, games_b=0),
    R(3, 1, winner=3, games_a=2, games_b=1),
    R(1, 4, winner=1, games_a=2, games_b=0),
    R(2, 4, winner=2, games_a=2, games_b=1),
    R(4, 3, winner=4, games_a=2, games_b=1),
]


def test_standings_default_order_uses_head_to_head():
    # when
    rows = round_robin_standings([1, 2, 3, 4], CYCLE_RESULTS)
    # then 1 and 2 tie on 2 points, 1 beat 2; 3 and 4 tie on 1 point, 4 beat 3
    assert DEFAULT_RR_TIEBREAKS == (
        "points",
        "head_to_head",
        "game_difference",
        "games_won",
        "seed",
    )
    assert [(r.entrant_id, r.rank, r.wins, r.losses, r.draws, r.points) for r in rows] == [
        (1, 1, 2, 1, 0, 2.0),
        (2, 2, 2, 1, 0, 2.0),
        (4, 3, 1, 2, 0, 1.0),
        (3, 4, 1, 2, 0, 1.0),
    ]
    by_id = {r.entrant_id: r.tiebreaks for r in rows}
    assert by_id[1]["game_difference"] == 2.0 and by_id[1]["games_won"] == 5.0
    assert by_id[2]["game_difference"] == 2.0 and by_id[2]["games_won"] == 5.0
    assert by_id[3]["game_difference"] == -2.0 and by_id[3]["games_lost"] == 5.0
    assert by_id[4]["game_difference"] == -2.0 and by_id[4]["games_won"] == 3.0
    assert [by_id[e]["head_to_head"] for e in (1, 2, 3, 4)] == [1.0, 0.0, 0.0, 1.0]


def test_standings_configurable_order_without_head_to_head():
    # when game difference and games won tie too, seed order decides
    rows = round_robin_standings(
        [1, 2, 3, 4], CYCLE_RESULTS, tiebreaks=["wins", "game_difference", "games_won", "seed"]
    )
    # then
    assert [(r.entrant_id, r.rank) for r in rows] == [(1, 1), (2, 2), (3, 3), (4, 4)]
    assert "head_to_head" not in rows[0].tiebreaks


def test_standings_unbroken_ties_share_a_rank():
    rows = round_robin_standings([1, 2, 3, 4], CYCLE_RESULTS, tiebreaks=["points"])
    assert [(r.entrant_id, r.rank) for r in rows] == [(1, 1), (2, 1), (3, 3), (4, 3)]


def test_three_way_head_to_head_cycle_falls_through_to_game_difference():
    # given 1, 2 and 3 beat each other in a cycle and all beat 4, with different margins
    results = [
        R(1, 2, winner=1, games_a=2, games_b=1),
        R(2, 3, winner=2, games_a=2, games_b=0),
        R(3, 1, winner=3, games_a=2, games_b=0),
        R(1, 4, winner=1, games_a=2, games_b=0),
        R(2, 4, winner=2, games_a=2, games_b=0),
        R(3, 4, winner=3, games_a=2, games_b=0),
    ]
    # when
    rows = round_robin_standings([1, 2, 3, 4], results)
    # then the mini-league is 1-1-1; game difference: 1 -> +1, 2 -> +3, 3 -> +2
    assert [(r.entrant_id, r.rank) for r in rows] == [(2, 1), (3, 2), (1, 3), (4, 4)]
    assert [rows[i].tiebreaks["game_difference"] for i in range(4)] == [3.0, 2.0, 1.0, -6.0]
    assert [rows[i].tiebreaks["head_to_head"] for i in range(3)] == [1.0, 1.0, 1.0]


def test_head_to_head_is_reapplied_inside_a_smaller_tie():
    # given 1, 2, 3 tie on 3 points; among the three, 1 has 3 points and 2 and 3 have 1.5 each,
    # but between 2 and 3 alone 2 scored 1.5 to 0.5
    results = [
        R(1, 2, winner=1), R(1, 2, winner=1),
        R(1, 3, winner=1), R(1, 3, winner=3),
        R(2, 3, winner=2), R(2, 3, winner=None),
        R(1, 4, winner=4),
        R(2, 4, winner=2), R(2, 4, winner=None),
        R(3, 4, winner=3), R(3, 4, winner=None),
    ]  # fmt: skip
    # when (3 listed before 2, and no seed tie-break, so only head-to-head can order them)
    rows = round_robin_standings([1, 3, 2, 4], results, tiebreaks=["points", "head_to_head"])
    # then
    assert [(r.entrant_id, r.rank, r.points) for r in rows] == [
        (1, 1, 3.0),
        (2, 2, 3.0),
        (3, 3, 3.0),
        (4, 4, 2.0),
    ]
    assert [r.tiebreaks.get("head_to_head") for r in rows] == [3.0, 1.5, 0.5, None]


def test_draws_score_half_and_points_are_configurable():
    results = [R(1, 2, winner=None, games_a=1, games_b=1), R(1, 3, winner=1)]
    rows = round_robin_standings([1, 2, 3], results, win_points=3, draw_points=1)
    assert [(r.entrant_id, r.points, r.draws) for r in rows] == [
        (1, 4.0, 1),
        (2, 1.0, 1),
        (3, 0.0, 0),
    ]


def test_double_forfeit_is_a_loss_for_both_and_no_meeting():
    # given 1 and 2 both forfeited their set; 1 beat 3
    results = [R(1, 2, winner=None, double_forfeit=True), R(1, 3, winner=1, games_a=2)]
    # when
    rows = round_robin_standings([1, 2, 3], results, tiebreaks=["points", "head_to_head"])
    # then
    assert [(r.entrant_id, r.rank, r.wins, r.losses, r.draws, r.points) for r in rows] == [
        (1, 1, 1, 1, 0, 1.0),
        (2, 2, 0, 1, 0, 0.0),
        (3, 2, 0, 1, 0, 0.0),
    ]
    # 2 and 3 never met: their mini-league is empty
    assert rows[1].tiebreaks["head_to_head"] == rows[2].tiebreaks["head_to_head"] == 0.0
    assert rows[0].tiebreaks["games_won"] == 2.0
    assert rows[1].tiebreaks["buchholz"] == 0.0  # the forfeit is not a meeting
    with pytest.raises(ValueError, match="double forfeit has no winner"):
        R(1, 2, winner=1, double_forfeit=True)


def test_standings_reject_bad_input():
    with pytest.raises(ValueError, match="unknown tie-break"):
        round_robin_standings([1, 2], [], tiebreaks=["points", "coin_flip"])
    with pytest.raises(ValueError, match="not in entrant_ids"):
        round_robin_standings([1, 2], [R(1, 3, winner=1)])
    with pytest.raises(ValueError, match="neither side"):
        R(1, 2, winner=3)


# --- playoff seeding ------------------------------------------------------------------------


def _first_round_clashes(seeds: list[int], group_of: dict[int, int]) -> int:
    size = bracket_size(len(seeds))
    order = seed_order(size)
    clashes = 0
    for i in range(0, size, 2):
        a, b = order[i], order[i + 1]
        if b <= len(seeds) and group_of[seeds[a - 1]] == group_of[seeds[b - 1]]:
            clashes += 1
    return clashes


def test_playoff_seeding_four_groups_top_two():
    standings = [[11, 12, 13], [21, 22, 23], [31, 32, 33], [41, 42, 43]]
    # when
    seeds = playoff_seeding(standings, 2)
    # then winners are seeds 1-4; 1v8, 4v5, 2v7, 3v6 never pit a group against itself
    assert seeds == [11, 21, 31, 41, 12, 22, 32, 42]


def test_playoff_seeding_three_groups_top_two_rotates_runners_up():
    # given 3 groups: bracket of 8, seeds 4v5 and 3v6 play in round 1 (1 and 2 have byes)
    seeds = playoff_seeding([[11, 12], [21, 22], [31, 32]], 2)
    # then runners-up in natural order would put 31 v 32... rotation avoids it
    assert seeds == [11, 21, 31, 22, 32, 12]


@pytest.mark.parametrize("groups", range(2, 17))
@pytest.mark.parametrize("advance", [1, 2, 3, 4])
def test_playoff_seeding_never_pits_a_group_against_itself_in_round_one(groups, advance):
    standings = [[g * 100 + place for place in range(1, 6)] for g in range(groups)]
    group_of = {e: g for g, entrants in enumerate(standings) for e in entrants}
    # when
    seeds = playoff_seeding(standings, advance)
    # then
    assert sorted(seeds) == sorted(e for entrants in standings for e in entrants[:advance])
    assert seeds[:groups] == [entrants[0] for entrants in standings]
    for tier in range(advance):
        assert {group_of[e] for e in seeds[tier * groups : (tier + 1) * groups]} == set(
            range(groups)
        )
    assert _first_round_clashes(seeds, group_of) == 0


def test_playoff_seeding_single_group_keeps_standing_order():
    assert playoff_seeding([[5, 6, 7, 8]], 4) == [5, 6, 7, 8]


def test_playoff_seeding_rejects_short_groups():
    with pytest.raises(ValueError, match="group 2 has 1 entrants"):
        playoff_seeding([[1, 2], [3]], 2)
