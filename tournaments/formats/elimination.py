"""Single and double elimination brackets.

Rules implemented
-----------------
Bracket size and seeds
    The bracket size is the smallest power of two >= the entrant count (at least 2). Seeds are
    placed in the standard recursive order (`seed_order`): start from [1, 2] and replace every
    seed s by the pair (s, size + 1 - s). For 16 this gives the first-round sets 1v16, 8v9, 5v12,
    4v13, 3v14, 6v11, 7v10, 2v15: the two halves hold seeds 1 and 2, so they can only meet in the
    final, 1-4 only in the semifinals, and so on.

Byes
    Seeds above the entrant count are byes. Because every first-round set pairs s with
    size + 1 - s, the byes face the top seeds (seed 1 first), and no set has two byes. Sets with a
    bye side (`SlotSource(kind="bye")`) ARE part of the returned spec: the consumer auto-advances
    the other side, and such a set has no loser (its `loser_to` is None; in double elimination the
    losers-bracket side it would have fed is a bye instead). A losers-bracket set that would have a
    bye on both sides is left out and its winner's slot becomes a bye in turn, so no returned set
    ever has two bye sides.

Keys and names
    Winners bracket sets are "W{round}-{position}", losers bracket sets "L{round}-{position}", the
    third-place match "3RD", the grand final "GF1" and its reset "GF2". Single elimination rounds
    are named "Round n", ..., "Quarterfinals", "Semifinals", "Final"; double elimination winners
    rounds "Winners Round n", ..., "Winners Final", losers rounds "Losers Round n" and the last
    "Losers Final".

Double elimination loser placement
    With a bracket of 2**k, the losers bracket has 2(k - 1) rounds. Losers Round 1 pairs the
    losers of W1-1 and W1-2, W1-3 and W1-4, ... Every even losers round 2j is a "drop-in" round:
    the survivors of losers round 2j - 1 (side a) meet the losers of winners round j + 1 (side b).
    Every odd losers round after the first pairs the survivors among themselves. To keep entrants
    who already met apart, the order in which a winners round's losers drop in alternates per
    drop-in round, as start.gg and Challonge do:
        drop-in 1 (losers of W2): reversed                 (W2-1 loser goes to the last set)
        drop-in 2 (losers of W3): halves swapped           (W3-1 loser goes to the middle set)
        drop-in 3 (losers of W4): each half reversed
        drop-in 4 (losers of W5): neighbours swapped (1 2 3 4 -> 2 1 4 3)
        and the four patterns repeat (see `_DROP_PATTERNS`).
    `tests/tournaments/formats/test_elimination.py` computes, from the spec alone, the earliest
    losers round where two entrants who already met can meet again, and pins it per size: losers
    round 3 of 4 for 8 entrants, 4 of 6 for 16, 5 of 8 for 32, 7 of 10 for 64, 8 of 12 for 128,
    9 of 14 for 256, 9 of 16 for 512.
    A counting argument bounds what any placement can reach: by losers round 2j a set's
    possible entrants have played in (j + 1) * 2**j distinct first-round sets (pairwise
    disjoint, or they could already have met), which must fit in the 2**(k-1) there are. For
    8 to 256 entrants the placement above reaches that bound; above 256 it falls short of it
    (round 9 where 11 is the bound for 512).

Grand final
    GF1 is the winners-bracket champion (side a) against the losers-bracket champion (side b).
    With `grand_final_reset=True` the spec also holds GF2 with `is_conditional=True`: it is played
    only if side b (the losers-bracket champion) wins GF1. GF1 sends its loser to GF2 side a and its
    winner to GF2 side b; when side a wins GF1 the consumer skips GF2 and GF1's winner is champion.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field

from .types import BYE, Bracket, SetSpec, Side, SlotSource

__all__ = [
    "bracket_size",
    "double_elimination",
    "seed_order",
    "single_elimination",
]

MAX_ENTRANTS = 4096


def bracket_size(entrant_count: int) -> int:
    """The smallest power of two >= `entrant_count` (and >= 2)."""
    _check_count(entrant_count)
    size = 2
    while size < entrant_count:
        size *= 2
    return size


def seed_order(bracket_size: int) -> list[int]:
    """Seeds in bracket order for a power-of-two size: 8 -> [1, 8, 4, 5, 2, 7, 3, 6].

    Consecutive pairs are the first-round sets.
    """
    if bracket_size < 1 or bracket_size & (bracket_size - 1):
        raise ValueError(f"bracket size must be a power of two, got {bracket_size}")
    order = [1]
    size = 1
    while size < bracket_size:
        size *= 2
        order = [s for seed in order for s in (seed, size + 1 - seed)]
    return order


def single_elimination(entrant_count: int, *, third_place: bool = False) -> list[SetSpec]:
    """All sets of a single elimination bracket, round by round (round 1 first).

    `third_place=True` adds "3RD" between the semifinal losers (needs at least 4 bracket slots).
    """
    size = bracket_size(entrant_count)
    rounds = size.bit_length() - 1
    builder = _Builder()
    _build_winners(builder, entrant_count, size, names=_single_round_name)
    if third_place and rounds >= 2:
        semi = rounds - 1
        builder.add("3RD", "third_place", 1, "Third-place match", 1)
        builder.link_loser(f"W{semi}-1", "3RD", "a")
        builder.link_loser(f"W{semi}-2", "3RD", "b")
    return builder.finish()


def double_elimination(entrant_count: int, *, grand_final_reset: bool = True) -> list[SetSpec]:
    """All sets of a double elimination bracket: winners rounds, losers rounds, grand final(s).

    See the module docstring for the loser placement and the grand-final reset.
    """
    size = bracket_size(entrant_count)
    rounds = size.bit_length() - 1
    builder = _Builder()
    _build_winners(builder, entrant_count, size, names=_winners_round_name)
    if rounds == 1:
        builder.add("GF1", "grand_final", 1, "Grand Final", 1)
        builder.link_winner("W1-1", "GF1", "a")
        builder.link_loser("W1-1", "GF1", "b")
    else:
        losers_rounds = 2 * (rounds - 1)

        def losers_name(r: int) -> str:
            return "Losers Final" if r == losers_rounds else f"Losers Round {r}"

        # Losers round 1: the losers of W1 in pairs.
        count = size // 4
        for p in range(1, count + 1):
            key = f"L1-{p}"
            builder.add(key, "losers", 1, losers_name(1), p)
            builder.link_loser(f"W1-{2 * p - 1}", key, "a")
            builder.link_loser(f"W1-{2 * p}", key, "b")
        for j in range(1, rounds):
            # Drop-in round 2j: survivors of round 2j - 1 against the losers of W(j + 1).
            r = 2 * j
            count = size // 2 ** (j + 1)
            pattern = _DROP_PATTERNS[(j - 1) % len(_DROP_PATTERNS)]
            drops = pattern(list(range(1, count + 1)))
            for p in range(1, count + 1):
                key = f"L{r}-{p}"
                builder.add(key, "losers", r, losers_name(r), p)
                builder.link_winner(f"L{r - 1}-{p}", key, "a")
                builder.link_loser(f"W{j + 1}-{drops[p - 1]}", key, "b")
            if j == rounds - 1:
                break
            # Round 2j + 1: the survivors in pairs.
            r += 1
            for p in range(1, count // 2 + 1):
                key = f"L{r}-{p}"
                builder.add(key, "losers", r, losers_name(r), p)
                builder.link_winner(f"L{r - 1}-{2 * p - 1}", key, "a")
                builder.link_winner(f"L{r - 1}-{2 * p}", key, "b")
        builder.add("GF1", "grand_final", 1, "Grand Final", 1)
        builder.link_winner(f"W{rounds}-1", "GF1", "a")
        builder.link_winner(f"L{losers_rounds}-1", "GF1", "b")
    if grand_final_reset:
        builder.add("GF2", "grand_final", 2, "Grand Final Reset", 1, is_conditional=True)
        builder.link_loser("GF1", "GF2", "a")
        builder.link_winner("GF1", "GF2", "b")
    return builder.finish()


# --- drop patterns --------------------------------------------------------------------------


def _reversed(items: list[int]) -> list[int]:
    return items[::-1]


def _halves_swapped(items: list[int]) -> list[int]:
    half = len(items) // 2
    return items[half:] + items[:half] if half else items


def _halves_reversed(items: list[int]) -> list[int]:
    half = len(items) // 2
    return items[:half][::-1] + items[half:][::-1] if half else items


def _pairs_flipped(items: list[int]) -> list[int]:
    return [items[i ^ 1] for i in range(len(items))] if len(items) > 1 else items


# Entry i of the returned list is the winners-round position whose loser drops into losers set
# i + 1 of the drop-in round.
_DROP_PATTERNS: tuple[Callable[[list[int]], list[int]], ...] = (
    _reversed,
    _halves_swapped,
    _halves_reversed,
    _pairs_flipped,
)


# --- building ---------------------------------------------------------------------------------


def _check_count(entrant_count: int) -> None:
    if not 2 <= entrant_count <= MAX_ENTRANTS:
        raise ValueError(f"entrant count must be 2..{MAX_ENTRANTS}, got {entrant_count}")


def _single_round_name(r: int, rounds: int) -> str:
    return {0: "Final", 1: "Semifinals", 2: "Quarterfinals"}.get(rounds - r, f"Round {r}")


def _winners_round_name(r: int, rounds: int) -> str:
    return "Winners " + _single_round_name(r, rounds)


def _build_winners(
    builder: _Builder, entrant_count: int, size: int, *, names: Callable[[int, int], str]
) -> None:
    rounds = size.bit_length() - 1
    order = seed_order(size)
    for p in range(1, size // 2 + 1):
        a, b = order[2 * p - 2], order[2 * p - 1]
        builder.add(
            f"W1-{p}",
            "winners",
            1,
            names(1, rounds),
            p,
            side_a=_seed_source(a, entrant_count),
            side_b=_seed_source(b, entrant_count),
        )
    for r in range(2, rounds + 1):
        for p in range(1, size // 2**r + 1):
            key = f"W{r}-{p}"
            builder.add(key, "winners", r, names(r, rounds), p)
            builder.link_winner(f"W{r - 1}-{2 * p - 1}", key, "a")
            builder.link_winner(f"W{r - 1}-{2 * p}", key, "b")


def _seed_source(seed: int, entrant_count: int) -> SlotSource:
    return SlotSource(kind="seed", seed=seed) if seed <= entrant_count else BYE


_UNSET = SlotSource(kind="bye", set_key="<unset>")


@dataclass(slots=True)
class _Draft:
    key: str
    bracket: Bracket
    round: int
    round_name: str
    position: int
    side_a: SlotSource = _UNSET
    side_b: SlotSource = _UNSET
    winner_to: tuple[str, Side] | None = None
    loser_to: tuple[str, Side] | None = None
    is_conditional: bool = False


@dataclass(slots=True)
class _Builder:
    """Sets in creation order, which is also a valid play order (sources before their targets)."""

    drafts: dict[str, _Draft] = field(default_factory=dict)

    def add(
        self,
        key: str,
        bracket: Bracket,
        round_: int,
        round_name: str,
        position: int,
        *,
        side_a: SlotSource = _UNSET,
        side_b: SlotSource = _UNSET,
        is_conditional: bool = False,
    ) -> None:
        self.drafts[key] = _Draft(
            key, bracket, round_, round_name, position, side_a, side_b, None, None, is_conditional
        )

    def link_winner(self, source: str, target: str, side: Side) -> None:
        self.drafts[source].winner_to = (target, side)
        self._set_side(target, side, SlotSource(kind="winner", set_key=source))

    def link_loser(self, source: str, target: str, side: Side) -> None:
        self.drafts[source].loser_to = (target, side)
        self._set_side(target, side, SlotSource(kind="loser", set_key=source))

    def _set_side(self, target: str, side: Side, source: SlotSource) -> None:
        draft = self.drafts[target]
        if side == "a":
            draft.side_a = source
        else:
            draft.side_b = source

    def finish(self) -> list[SetSpec]:
        """Propagate byes (see the module docstring) and freeze the drafts."""
        removed: set[str] = set()
        for draft in self.drafts.values():
            if draft.side_a is _UNSET or draft.side_b is _UNSET:
                raise AssertionError(f"set {draft.key} has an unset side")  # a bug here
            a_bye, b_bye = draft.side_a.kind == "bye", draft.side_b.kind == "bye"
            if not (a_bye or b_bye):
                continue
            if draft.loser_to is not None:  # nobody loses a bye set
                self._set_side(*draft.loser_to, BYE)
                draft.loser_to = None
            if a_bye and b_bye:
                removed.add(draft.key)
                if draft.winner_to is not None:
                    self._set_side(*draft.winner_to, BYE)
        return [
            SetSpec(
                key=d.key,
                bracket=d.bracket,
                round=d.round,
                round_name=d.round_name,
                position=d.position,
                side_a=d.side_a,
                side_b=d.side_b,
                winner_to=d.winner_to,
                loser_to=d.loser_to,
                is_conditional=d.is_conditional,
            )
            for d in self.drafts.values()
            if d.key not in removed
        ]
