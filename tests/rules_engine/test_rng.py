"""The portable PRNG ``splitmix64-fy-v1`` (docs/log-format.md §4): every seeded log depends on
its stream value for value, so known outputs are pinned here, and the shuffle (which inlines
``next`` and ``below`` for speed) is checked against the specification written plainly."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from rules_engine.cards import FULL_DECK
from rules_engine.rng import SplitMix64

_MASK = (1 << 64) - 1


def _spec_next(state: int) -> tuple[int, int]:
    """docs/log-format.md §4.1, 64-bit arithmetic: (new state, output)."""
    state = (state + 0x9E3779B97F4A7C15) & _MASK
    z = state
    z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
    z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
    return state, z ^ (z >> 31)


def _spec_shuffle(seed: int, items: list[object], limit_for: Callable[[int], int] | None = None
                  ) -> int:
    """§4.2 and §4.3: Fisher-Yates with rejection-sampled ``below``; the state after
    (``limit_for(n)``: another rejection limit than the specification's, to force rejections)."""
    state = seed & _MASK
    for i in range(len(items) - 1, 0, -1):
        n = i + 1
        limit = 2**64 - (2**64 % n) if limit_for is None else limit_for(n)
        while True:
            state, v = _spec_next(state)
            if v < limit:
                break
        j = v % n
        items[i], items[j] = items[j], items[i]
    return state


def test_the_documented_check_value() -> None:
    assert SplitMix64(1234567).next() == 0x599ED017FB08FC85


def test_known_outputs() -> None:
    rng = SplitMix64(1234567)
    assert [rng.next() for _ in range(4)] == [
        0x599ED017FB08FC85, 3203168211198807973, 9817491932198370423, 4593380528125082431]
    rng = SplitMix64(0)
    assert [rng.below(n) for n in (1, 2, 3, 7, 54, 2**32 + 1, 2**63 + 1, 2**64 - 1)] == [
        0, 0, 1, 4, 49, 548602846, 3207296026000306913, 14232521865600346940]
    rng = SplitMix64(2**64 - 1)
    assert [rng.below(n) for n in (2, 10, 55)] == [0, 9, 26]


def test_a_known_shuffle_of_the_full_deck() -> None:
    rng = SplitMix64(5017)
    deck = [c.code for c in FULL_DECK]
    rng.shuffle(deck)
    assert deck == [
        "TS", "5H", "3H", "QC", "2D", "7S", "QD", "TD", "8S", "8C", "TC", "JC", "AC", "8D",
        "6S", "X1", "9H", "QH", "KS", "9S", "2S", "TH", "2H", "AD", "6C", "7D", "5S", "KD",
        "4D", "2C", "JH", "JS", "4C", "9D", "AH", "8H", "JD", "X2", "3D", "4S", "7C", "3C",
        "6D", "7H", "5D", "9C", "3S", "KH", "6H", "QS", "AS", "5C", "4H", "KC"]
    assert rng.next() == _spec_next(13942075065423873010)[1]


@pytest.mark.parametrize("seed", [0, 1, 42, 5000, 2**32, 2**63, 2**64 - 1, 2**64 + 7])
def test_the_shuffle_is_the_specification(seed: int) -> None:
    """Every length from empty to past a deck, one stream shuffling list after list as a game
    does; the state afterwards too (the next draw)."""
    rng = SplitMix64(seed)
    state = seed & _MASK
    for length in [*range(0, 60), 54, 52, 200, 256, 257, 300, 3]:
        items: list[object] = list(range(length))
        expected = list(items)
        state = _spec_shuffle(state, expected)
        rng.shuffle(items)
        assert items == expected
    assert rng.next() == _spec_next(state)[1]


def test_below_rejects_draws_past_the_limit() -> None:
    """With n just above 2**63 about half the outputs are past the limit and drawn again."""
    n = 2**63 + 1
    limit = 2**64 - 2**64 % n
    rng = SplitMix64(3)
    state = 3
    rejected = 0
    for _ in range(200):
        while True:
            state, v = _spec_next(state)
            if v < limit:
                break
            rejected += 1
        assert rng.below(n) == v % n
    assert rejected > 50


@pytest.mark.parametrize("seed", [0, 7, 2**64 - 1])
def test_a_rejected_output_mid_shuffle_is_drawn_again(seed: int) -> None:
    """The shuffle computes a whole shuffle's outputs at once and hands over to the shuffle
    drawn in turn at the first output past its limit. Real limits reject with a chance under
    n / 2**64, so here the steps' limits are set at 2**63 and 2**62 (about half and three
    quarters of the outputs rejected): both ways give the same cards and state."""
    from rules_engine.rng import _fisher_yates, _shuffle_at_once, _shuffle_in_turn

    for length in (2, 3, 20, 54):
        for low in (2**63, 2**62):
            steps = tuple((i, n, low) for i, n, _ in _fisher_yates(length))
            at_once: list[object] = list(range(length))
            in_turn: list[object] = list(range(length))
            assert _shuffle_at_once(seed, at_once, steps) == _shuffle_in_turn(
                seed, in_turn, steps)
            assert at_once == in_turn
    # and the one drawn in turn is the specification's with those limits
    steps = tuple((i, n, 2**63) for i, n, _ in _fisher_yates(30))
    mine: list[object] = list(range(30))
    state = _shuffle_in_turn(seed, mine, steps)
    spec: list[object] = list(range(30))
    spec_state = _spec_shuffle(seed, spec, lambda n: 2**63)
    assert (mine, state) == (spec, spec_state)
