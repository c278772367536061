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
        # below() and next() inlined (the same stream, value for value): a shuffle of a deck
        # made two method calls per card, and decks are shuffled at setup and after searches.
        # The mask is written as a literal (a constant, not a global read per use), and each
        # step's n and rejection limit come from a table per length (_fisher_yates).
        state = self._state
        for i, n, limit in _fisher_yates(len(items)):
            while True:
                state = (state + 0x9E3779B97F4A7C15) & 0xFFFF_FFFF_FFFF_FFFF
                z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & 0xFFFF_FFFF_FFFF_FFFF
                z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & 0xFFFF_FFFF_FFFF_FFFF
                v = z ^ (z >> 31)
                if v < limit:
                    break
            j = v % n
            items[i], items[j] = items[j], items[i]
        self._state = state


@lru_cache(maxsize=128)
def _fisher_yates(length: int) -> tuple[tuple[int, int, int], ...]:
    """The steps of a shuffle of ``length`` items: ``(i, n, limit)`` for ``i`` from
    ``length - 1`` down to 1, where ``n = i + 1`` and ``limit`` is ``below(n)``'s rejection
    limit, ``2**64 - (2**64 mod n)``. The same few lengths are shuffled in every game (a deck
    of 54 or 52 at setup, then what is left of it after a search)."""
    return tuple((i, i + 1, _TWO_64 - _TWO_64 % (i + 1)) for i in range(length - 1, 0, -1))
