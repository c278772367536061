from __future__ import annotations

import functools
import random
from collections import Counter

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tournaments.formats.bracket_checks import (
    by_key,
    first_possible_rematch,
    play_out,
    possible_seeds,
)
from tournaments.formats.elimination import (
    bracket_size,
    double_elimination,
    seed_order,
    single_elimination,
)
from tournaments.formats.types import SetSpec, SlotSource

SIZES = [*range(2, 65), 65, 96, 100, 127, 128, 129, 200, 255, 256, 257, 500, 512, 1000, 1024]
LARGE_SIZES = [2047, 2048, 2049, 3000, 4095, 4096]


def _round_one_seeds(specs: list[SetSpec]) -> list[int]:
    seeds = []
    for spec in specs:
        for side in (spec.side_a, spec.side_b):
            if side.kind == "seed":
                assert spec.round == 1 and spec.bracket == "winners"
                seeds.append(side.seed)
    return seeds


def _check_graph(specs: list[SetSpec]) -> None:
    """Every side is fed exactly once by an existing set, and edges agree with sources."""
    index = by_key(specs)
    assert len(index) == len(specs)
    fed: Counter[tuple[str, str]] = Counter()
    for spec in specs:
        for edge, kind in ((spec.winner_to, "winner"), (spec.loser_to, "loser")):
            if edge is None:
                continue
            target, side = edge
            fed[edge] += 1
            source = index[target].side_a if side == "a" else index[target].side_b
            assert source == SlotSource(kind=kind, set_key=spec.key)
        for name, side in (("a", spec.side_a), ("b", spec.side_b)):
            if side.kind in ("winner", "loser"):
                assert side.set_key in index
                upstream = index[side.set_key]
                edge = upstream.winner_to if side.kind == "winner" else upstream.loser_to
                assert edge == (spec.key, name)
    assert all(count == 1 for count in fed.values())
    assert not any(spec.side_a.kind == "bye" and spec.side_b.kind == "bye" for spec in specs)
    for spec in specs:
        if spec.has_bye:
            assert spec.loser_to is None


# --- seed order -----------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("size", "expected"),
    [
        (1, [1]),
        (2, [1, 2]),
        (4, [1, 4, 2, 3]),
        (8, [1, 8, 4, 5, 2, 7, 3, 6]),
        (16, [1, 16, 8, 9, 4, 13, 5, 12, 2, 15, 7, 10, 3, 14, 6, 11]),
    ],
)
def test_seed_order_is_the_standard_recursive_order(size, expected):
    assert seed_order(size) == expected


@pytest.mark.parametrize("size", [2**k for k in range(1, 13)])
def test_seed_order_pairs_sum_to_size_plus_one_and_top_two_in_opposite_halves(size):
    order = seed_order(size)
    assert sorted(order) == list(range(1, size + 1))
    assert all(order[i] + order[i + 1] == size + 1 for i in range(0, size, 2))
    assert order.index(1) < size // 2 <= order.index(2)


@pytest.mark.parametrize("size", [0, 3, 6, 12, 100])
def test_seed_order_rejects_non_powers_of_two(size):
    with pytest.raises(ValueError, match="power of two"):
        seed_order(size)


@pytest.mark.parametrize(("count", "size"), [(2, 2), (3, 4), (4, 4), (5, 8), (4096, 4096)])
def test_bracket_size(count, size):
    assert bracket_size(count) == size


@pytest.mark.parametrize("count", [0, 1, 4097])
def test_generators_reject_out_of_range_counts(count):
    with pytest.raises(ValueError, match="entrant count"):
        single_elimination(count)
    with pytest.raises(ValueError, match="entrant count"):
        double_elimination(count)


# --- single elimination ---------------------------------------------------------------------


@pytest.mark.parametrize("count", SIZES)
@pytest.mark.parametrize("third_place", [False, True], ids=["plain", "third_place"])
def test_single_elimination_structure(count, third_place):
    # when
    specs = single_elimination(count, third_place=third_place)
    # then every entrant appears exactly once in round 1, byes to the top seeds
    size = bracket_size(count)
    assert sorted(_round_one_seeds(specs)) == list(range(1, count + 1))
    round_one = [s for s in specs if s.bracket == "winners" and s.round == 1]
    assert len(round_one) == size // 2
    bye_seeds = sorted(
        (s.side_a if s.side_b.kind == "bye" else s.side_b).seed for s in round_one if s.has_bye
    )
    assert bye_seeds == list(range(1, size - count + 1))
    _check_graph(specs)
    # the final is the only winners set with nowhere to send its winner
    rounds = size.bit_length() - 1
    finals = [s for s in specs if s.winner_to is None and s.bracket == "winners"]
    assert [s.key for s in finals] == [f"W{rounds}-1"]
    assert finals[0].round_name == "Final"
    assert len([s for s in specs if s.bracket == "winners"]) == size - 1
    # seeds 1 and 2 can only meet in the final
    seeds = possible_seeds(specs)
    for spec in specs:
        if spec.bracket != "winners":
            continue
        meet = (1 in seeds[(spec.key, "a")] and 2 in seeds[(spec.key, "b")]) or (
            2 in seeds[(spec.key, "a")] and 1 in seeds[(spec.key, "b")]
        )
        assert meet == (spec.key == f"W{rounds}-1")
    third = [s for s in specs if s.bracket == "third_place"]
    if third_place and size >= 4:
        assert len(third) == 1
        assert third[0].key == "3RD" and third[0].round_name == "Third-place match"
        assert third[0].winner_to is None and third[0].loser_to is None
        semis = [s for s in specs if s.round == rounds - 1 and s.bracket == "winners"]
        if count > 3:  # with 3 entrants seed 1's semifinal is a bye (tested below)
            assert [s.loser_to for s in semis] == [("3RD", "a"), ("3RD", "b")]
    else:
        assert third == []


@pytest.mark.parametrize(
    ("count", "names"),
    [
        (2, ["Final"]),
        (4, ["Semifinals", "Final"]),
        (8, ["Quarterfinals", "Semifinals", "Final"]),
        (20, ["Round 1", "Round 2", "Quarterfinals", "Semifinals", "Final"]),
    ],
)
def test_single_elimination_round_names(count, names):
    specs = single_elimination(count)
    by_round = {s.round: s.round_name for s in specs}
    assert [by_round[r] for r in sorted(by_round)] == names


def test_single_elimination_five_entrants_exact_spec():
    # when
    specs = single_elimination(5, third_place=True)
    # then
    seed, win, lose, bye = (
        lambda n: SlotSource("seed", seed=n),
        lambda k: SlotSource("winner", set_key=k),
        lambda k: SlotSource("loser", set_key=k),
        SlotSource("bye"),
    )
    assert specs == [
        SetSpec("W1-1", "winners", 1, "Quarterfinals", 1, seed(1), bye, ("W2-1", "a")),
        SetSpec("W1-2", "winners", 1, "Quarterfinals", 2, seed(4), seed(5), ("W2-1", "b")),
        SetSpec("W1-3", "winners", 1, "Quarterfinals", 3, seed(2), bye, ("W2-2", "a")),
        SetSpec("W1-4", "winners", 1, "Quarterfinals", 4, seed(3), bye, ("W2-2", "b")),
        SetSpec(
            "W2-1",
            "winners",
            2,
            "Semifinals",
            1,
            win("W1-1"),
            win("W1-2"),
            ("W3-1", "a"),
            ("3RD", "a"),
        ),
        SetSpec(
            "W2-2",
            "winners",
            2,
            "Semifinals",
            2,
            win("W1-3"),
            win("W1-4"),
            ("W3-1", "b"),
            ("3RD", "b"),
        ),
        SetSpec("W3-1", "winners", 3, "Final", 1, win("W2-1"), win("W2-2")),
        SetSpec("3RD", "third_place", 1, "Third-place match", 1, lose("W2-1"), lose("W2-2")),
    ]


def test_single_elimination_three_entrants_third_place_gets_a_bye_side():
    # given 3 entrants: seed 1 has a bye in the semifinal, so nobody loses that semifinal
    specs = by_key(single_elimination(3, third_place=True))
    # then the third-place set auto-advances the loser of 2 v 3
    assert specs["3RD"].side_a == SlotSource("bye")
    assert specs["3RD"].side_b == SlotSource("loser", set_key="W1-2")
    assert specs["W1-1"].loser_to is None


# --- double elimination ---------------------------------------------------------------------


@pytest.mark.parametrize("count", SIZES)
@pytest.mark.parametrize("reset", [True, False], ids=["reset", "no_reset"])
def test_double_elimination_structure(count, reset):
    # when
    specs = double_elimination(count, grand_final_reset=reset)
    # then
    size = bracket_size(count)
    rounds = size.bit_length() - 1
    index = by_key(specs)
    assert sorted(_round_one_seeds(specs)) == list(range(1, count + 1))
    _check_graph(specs)
    winners = [s for s in specs if s.bracket == "winners"]
    losers = [s for s in specs if s.bracket == "losers"]
    assert len(winners) == size - 1
    round_one = [s for s in winners if s.round == 1]
    bye_seeds = sorted(
        (s.side_a if s.side_b.kind == "bye" else s.side_b).seed for s in round_one if s.has_bye
    )
    assert bye_seeds == list(range(1, size - count + 1))
    # losers-bracket sets see a bye only in their first two rounds (losers of round-one byes)
    assert {s.round for s in losers if s.has_bye} <= {1, 2}
    # every winners-bracket loser (of a set without a bye) drops exactly once
    for spec in winners:
        if spec.has_bye:
            assert spec.loser_to is None
        else:
            assert spec.loser_to is not None
            target = index[spec.loser_to[0]]
            assert target.bracket == ("grand_final" if rounds == 1 else "losers")
    # losers sets eliminate their loser; every set but the last sends its winner on
    assert all(s.loser_to is None for s in losers)
    last = "GF2" if reset else "GF1"
    assert [s.key for s in specs if s.winner_to is None] == [last]
    gf1 = index["GF1"]
    assert gf1.round_name == "Grand Final" and not gf1.is_conditional
    assert gf1.side_a == SlotSource("winner", set_key=f"W{rounds}-1")
    if reset:
        gf2 = index["GF2"]
        assert gf2.is_conditional and gf2.round_name == "Grand Final Reset"
        assert gf2.side_a == SlotSource("loser", set_key="GF1")
        assert gf2.side_b == SlotSource("winner", set_key="GF1")
    else:
        assert "GF2" not in index and gf1.loser_to is None
    if rounds > 1:
        losers_rounds = 2 * (rounds - 1)
        assert gf1.side_b == SlotSource("winner", set_key=f"L{losers_rounds}-1")
        assert {s.round for s in losers} == set(range(1, losers_rounds + 1))
        assert index[f"L{losers_rounds}-1"].round_name == "Losers Final"
        # the winners final loser drops into the losers final
        assert index[f"W{rounds}-1"].loser_to == (f"L{losers_rounds}-1", "b")
    # every entrant can reach the grand final from either side... and seeds 1, 2 only meet late
    seeds = possible_seeds(specs)
    for spec in winners:
        meet = (1 in seeds[(spec.key, "a")] and 2 in seeds[(spec.key, "b")]) or (
            2 in seeds[(spec.key, "a")] and 1 in seeds[(spec.key, "b")]
        )
        assert meet == (spec.key == f"W{rounds}-1")
    assert seeds[("GF1", "a")] | seeds[("GF1", "b")] == frozenset(range(1, count + 1))


@pytest.mark.parametrize("count", LARGE_SIZES)
def test_large_brackets_structure(count):
    for specs in (single_elimination(count, third_place=True), double_elimination(count)):
        assert sorted(_round_one_seeds(specs)) == list(range(1, count + 1))
        _check_graph(specs)


def test_double_elimination_four_entrants_exact_spec():
    # when
    specs = double_elimination(4)
    # then
    seed, win, lose = (
        lambda n: SlotSource("seed", seed=n),
        lambda k: SlotSource("winner", set_key=k),
        lambda k: SlotSource("loser", set_key=k),
    )
    assert specs == [
        SetSpec(
            "W1-1",
            "winners",
            1,
            "Winners Semifinals",
            1,
            seed(1),
            seed(4),
            ("W2-1", "a"),
            ("L1-1", "a"),
        ),
        SetSpec(
            "W1-2",
            "winners",
            1,
            "Winners Semifinals",
            2,
            seed(2),
            seed(3),
            ("W2-1", "b"),
            ("L1-1", "b"),
        ),
        SetSpec(
            "W2-1",
            "winners",
            2,
            "Winners Final",
            1,
            win("W1-1"),
            win("W1-2"),
            ("GF1", "a"),
            ("L2-1", "b"),
        ),
        SetSpec(
            "L1-1", "losers", 1, "Losers Round 1", 1, lose("W1-1"), lose("W1-2"), ("L2-1", "a")
        ),
        SetSpec("L2-1", "losers", 2, "Losers Final", 1, win("L1-1"), lose("W2-1"), ("GF1", "b")),
        SetSpec(
            "GF1",
            "grand_final",
            1,
            "Grand Final",
            1,
            win("W2-1"),
            win("L2-1"),
            ("GF2", "b"),
            ("GF2", "a"),
        ),
        SetSpec(
            "GF2",
            "grand_final",
            2,
            "Grand Final Reset",
            1,
            lose("GF1"),
            win("GF1"),
            is_conditional=True,
        ),
    ]


def test_double_elimination_round_names_for_sixteen():
    specs = double_elimination(16, grand_final_reset=True)
    names = {(s.bracket, s.round): s.round_name for s in specs}
    assert names == {
        ("winners", 1): "Winners Round 1",
        ("winners", 2): "Winners Quarterfinals",
        ("winners", 3): "Winners Semifinals",
        ("winners", 4): "Winners Final",
        ("losers", 1): "Losers Round 1",
        ("losers", 2): "Losers Round 2",
        ("losers", 3): "Losers Round 3",
        ("losers", 4): "Losers Round 4",
        ("losers", 5): "Losers Round 5",
        ("losers", 6): "Losers Final",
        ("grand_final", 1): "Grand Final",
        ("grand_final", 2): "Grand Final Reset",
    }
    counts = Counter((s.bracket, s.round) for s in specs)
    assert [counts[("losers", r)] for r in range(1, 7)] == [4, 4, 2, 2, 1, 1]


def test_double_elimination_two_entrants_loser_goes_straight_to_the_grand_final():
    specs = by_key(double_elimination(2))
    assert list(specs) == ["W1-1", "GF1", "GF2"]
    assert specs["W1-1"].winner_to == ("GF1", "a")
    assert specs["W1-1"].loser_to == ("GF1", "b")


def test_double_elimination_drop_orders_for_sixteen():
    # given 16 entrants: W2 losers drop in reversed, W3 losers with halves swapped
    specs = by_key(double_elimination(16))
    # then
    assert [specs[f"W2-{p}"].loser_to for p in range(1, 5)] == [
        ("L2-4", "b"),
        ("L2-3", "b"),
        ("L2-2", "b"),
        ("L2-1", "b"),
    ]
    assert [specs[f"W3-{p}"].loser_to for p in range(1, 3)] == [("L4-2", "b"), ("L4-1", "b")]
    assert specs["W4-1"].loser_to == ("L6-1", "b")


def test_first_possible_rematch_detects_a_naive_drop_order():
    # given an 8-bracket where W2 losers drop in natural order: the W2-1 loser meets the
    # survivor of the losers of W1-1/W1-2, one of whom he beat in round 1
    specs = double_elimination(8)
    index = by_key(specs)
    swapped = {
        "W2-1": ("L2-1", "b"),
        "W2-2": ("L2-2", "b"),
    }
    naive = []
    for spec in specs:
        if spec.key in swapped:
            spec = SetSpec(**{**_fields(spec), "loser_to": swapped[spec.key]})
        elif spec.key in ("L2-1", "L2-2"):
            source = "W2-1" if spec.key == "L2-1" else "W2-2"
            spec = SetSpec(**{**_fields(spec), "side_b": SlotSource("loser", set_key=source)})
        naive.append(spec)
    assert index["W2-1"].loser_to == ("L2-2", "b")
    # then
    assert first_possible_rematch(naive) == ("losers", 2)
    assert first_possible_rematch(specs) == ("losers", 3)


def _fields(spec: SetSpec) -> dict:
    return {name: getattr(spec, name) for name in SetSpec.__slots__}


def _counting_bound(size: int) -> int:
    """The first losers round where a rematch cannot be avoided by any placement.

    Entrants on the two sides of a losers set must have played in disjoint first-round sets;
    by losers round 2j a set's entrants cover (j + 1) * 2**j of them, by round 2j + 1 twice that,
    and there are only size / 2.
    """
    r = 1
    while True:
        j = r // 2
        footprint = (j + 1) * 2**j if r % 2 == 0 else (j + 1) * 2 ** (j + 1)
        if footprint > size // 2:
            return r
        r += 1


EXPECTED_FIRST_REMATCH = {8: 3, 16: 4, 32: 5, 64: 7, 128: 8, 256: 9, 512: 9}


@pytest.mark.parametrize(("size", "losers_round"), sorted(EXPECTED_FIRST_REMATCH.items()))
def test_double_elimination_no_rematch_before_late_losers_rounds(size, losers_round):
    # when
    specs = double_elimination(size)
    # then no two entrants can meet twice before that losers round
    assert first_possible_rematch(specs) == ("losers", losers_round)
    # which up to 256 entrants is as late as any placement can push it
    assert _counting_bound(size) == (losers_round if size <= 256 else 11)


@pytest.mark.parametrize("count", [5, 6, 7, 9, 12, 17, 24, 33, 48, 63])
def test_byes_do_not_bring_rematches_earlier(count):
    size = bracket_size(count)
    result = first_possible_rematch(double_elimination(count))
    assert result is not None and result[0] == "losers"
    assert result[1] >= EXPECTED_FIRST_REMATCH.get(size, 1)


def test_single_elimination_never_has_rematches():
    for count in (2, 3, 8, 13, 64):
        assert first_possible_rematch(single_elimination(count, third_place=True)) is None


@settings(max_examples=150, deadline=None)
@given(
    count=st.integers(2, 300),
    reset=st.booleans(),
    seed=st.integers(0, 2**32),
)
def test_double_elimination_plays_out_to_two_losses_each(count, reset, seed):
    # given random results
    rng = random.Random(seed)
    specs = double_elimination(count, grand_final_reset=reset)
    # when the bracket is played the way the consumer plays it
    losses, played = play_out(specs, lambda key, a, b: rng.choice((a, b)))
    # then everyone took part, and all but the champion (and, without a reset, a runner-up who
    # lost only the grand final) are out after exactly two losses
    assert sorted(losses) == list(range(1, count + 1))
    tally = Counter(losses.values())
    if reset:
        assert tally[2] == count - 1 and tally[0] + tally[1] == 1
    else:
        assert tally[2] in (count - 1, count - 2) and tally[2] + tally[1] + tally[0] == count
    # and no pair meets twice before the first losers round the static analysis allows
    first = _first_rematch_cached(count)
    index = by_key(specs)
    seen: set[frozenset[int]] = set()
    for key, a, b in played:
        pair = frozenset((a, b))
        spec = index[key]
        if pair in seen and spec.bracket != "grand_final":
            assert spec.bracket == "losers" and spec.round >= first[1]
        seen.add(pair)


@functools.cache
def _first_rematch_cached(count: int) -> tuple[str, int]:
    first = first_possible_rematch(double_elimination(count))
    assert first is not None
    return first


@settings(max_examples=100, deadline=None)
@given(count=st.integers(2, 300), third=st.booleans(), seed=st.integers(0, 2**32))
def test_single_elimination_plays_out_to_one_champion(count, third, seed):
    rng = random.Random(seed)
    losses, played = play_out(
        single_elimination(count, third_place=third), lambda k, a, b: rng.choice((a, b))
    )
    assert sorted(losses) == list(range(1, count + 1))
    with_third = third and count >= 4
    assert len(played) == count - 1 + with_third
    assert Counter(losses.values()) == (
        Counter({1: count - 1 - with_third, 0: 1, 2: 1})
        if with_third
        else Counter({1: count - 1, 0: 1})
    )
