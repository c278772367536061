"""The portable PRNG and shuffle used for seeded games (GEN-4; docs/log-format.md §Shuffle).

Glossary: *seed* = an unsigned 64-bit integer recorded in the log; *stream* = the sequence of
64-bit outputs, consumed in the order the game needs them (deck shuffles, coin flip, later
shuffles).

Algorithm ``splitmix64-fy-v1`` (specified so another language reproduces it exactly):
- state = seed mod 2**64; ``next()``: state = (state + 0x9E3779B97F4A7C15) mod 2**64;
  z = state; z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9 mod 2**64;
  z = (z ^ (z >> 27)) * 0x94D049BB133111EB mod 2**64; return z ^ (z >> 31).
- ``below(n)`` (0 <= result < n, n >= 1): limit = 2**64 - (2**64 mod n); draw v = next() until
  v < limit; return v mod n (rejection sampling, no modulo bias).
- ``shuffle(list)`` (Fisher-Yates): for i from len-1 down to 1: j = below(i + 1); swap items i, j.

Python's ``random`` module is deliberately not used: its algorithm is not a portable spec.
"""

from __future__ import annotations

import struct
from functools import lru_cache
from typing import TypeVar

ALGORITHM = "splitmix64-fy-v1"
_MASK = (1 << 64) - 1
_TWO_64 = 1 << 64
T = TypeVar("T")


class SplitMix64:
    """splitmix64 generator with rejection-sampled ``below`` and Fisher-Yates ``shuffle``."""

    __slots__ = ("_state",)

    def __init__(self, seed: int) -> None:
        self._state = seed & _MASK

    def next(self) -> int:
        self._state = (self._state + 0x9E3779B97F4A7C15) & _MASK
        z = self._state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) & _MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & _MASK
        return z ^ (z >> 31)

    def below(self, n: int) -> int:
        if n < 1:
            raise ValueError("below(n) needs n >= 1")
        limit = (1 << 64) - ((1 << 64) % n)
        while True:
            v = self.next()
            if v < limit:
                return v % n

    def shuffle(self, items: list[T]) -> None:
        """Fisher-Yates: for i from len - 1 down to 1, j = below(i + 1), swap items i and j.
        A list of up to 256 items (every deck) has its outputs computed at once."""
        steps = _fisher_yates(len(items))
        if len(steps) > _AT_ONCE_MAX:
            self._state = _shuffle_in_turn(self._state, items, steps)
        elif steps:
            self._state = _shuffle_at_once(self._state, items, steps)


# the longest shuffle computed at once (its integers grow with the length; decks are 54 cards)
_AT_ONCE_MAX = 255

# One shuffle's steps: (i, n, limit) for i from len - 1 down to 1, with n = i + 1 and limit
# below(n)'s rejection limit.
_Steps = tuple[tuple[int, int, int], ...]


@lru_cache(maxsize=128)
def _fisher_yates(length: int) -> _Steps:
    """The steps of a shuffle of ``length`` items. The same few lengths are shuffled in every
    game (a deck of 54 or 52 at setup, then what is left of it after a search)."""
    return tuple((i, i + 1, _TWO_64 - _TWO_64 % (i + 1)) for i in range(length - 1, 0, -1))


def _shuffle_in_turn(state: int, items: list[T], steps: _Steps) -> int:
    """The shuffle as specified: one ``below(n)`` per step, each drawing ``next()`` until an
    output is under the limit (next() and below() inlined); the state after it."""
    for i, n, limit in steps:
        while True:
            state = (state + 0x9E3779B97F4A7C15) & 0xFFFF_FFFF_FFFF_FFFF
            z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFF_FFFF_FFFF_FFFF
            z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFF_FFFF_FFFF_FFFF
            v = z ^ (z >> 31)
            if v < limit:
                break
        j = v % n
        items[i], items[j] = items[j], items[i]
    return state


@lru_cache(maxsize=128)
def _lanes(count: int) -> tuple[int, int, int, struct.Struct]:
    """For ``count`` outputs side by side in one integer, 128 bits apart: 1 in every lane,
    k + 1 in lane k, 2**64 - 1 in every lane, and the reader of each lane's low 64 bits."""
    ones = sum(1 << (128 * k) for k in range(count))
    return (ones, sum((k + 1) << (128 * k) for k in range(count)), ones * _MASK,
            struct.Struct("<" + "Q8x" * count))


def _shuffle_at_once(state: int, items: list[T], steps: _Steps) -> int:
    """The shuffle of :func:`_shuffle_in_turn`, value for value, with the outputs of every
    step computed together: the states a shuffle goes through are known in advance
    (``state + k * 0x9E37...`` mod 2**64 when no draw is rejected), so each is put in a lane
    of 128 bits of one integer and next()'s arithmetic is done once on all of them. Each
    lane keeps below 2**128 (a 64-bit value times a 64-bit constant; a shift's bits from the
    next lane are masked off before a product), so no lane spills into another. A rejected
    output (a chance under n / 2**64 per step) leaves the rest of the shuffle to
    :func:`_shuffle_in_turn` from that step's state, which draws again exactly as specified."""
    ones, ramp, mask, lanes = _lanes(len(steps))
    z = (state * ones + 0x9E3779B97F4A7C15 * ramp) & mask
    z = ((z ^ (z >> 30)) & mask) * 0xBF58476D1CE4E5B9 & mask
    z = ((z ^ (z >> 27)) & mask) * 0x94D049BB133111EB & mask
    z = (z ^ (z >> 31)) & mask
    outputs = lanes.unpack(z.to_bytes(lanes.size, "little"))
    for (i, n, limit), v in zip(steps, outputs, strict=True):
        if v >= limit:
            k = len(steps) - i  # steps run i = len - 1 down: this is step number k (from 0)
            return _shuffle_in_turn((state + k * 0x9E3779B97F4A7C15) & _MASK, items, steps[k:])
        j = v % n
        items[i], items[j] = items[j], items[i]
    return (state + len(steps) * 0x9E3779B97F4A7C15) & _MASK
