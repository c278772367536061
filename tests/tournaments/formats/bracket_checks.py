"""Structural checks shared by the elimination tests (plain functions, no assertions hidden)."""

from __future__ import annotations

from collections.abc import Sequence

from tournaments.formats.types import SetSpec


def by_key(specs: Sequence[SetSpec]) -> dict[str, SetSpec]:
    return {spec.key: spec for spec in specs}


def possible_seeds(specs: Sequence[SetSpec]) -> dict[tuple[str, str], frozenset[int]]:
    """For every (set key, side), the seeds that can possibly stand on that side."""
    index = by_key(specs)
    memo: dict[tuple[str, str], frozenset[int]] = {}

    def side(key: str, name: str) -> frozenset[int]:
        if (key, name) in memo:
            return memo[(key, name)]
        spec = index[key]
        source = spec.side_a if name == "a" else spec.side_b
        if source.kind == "seed":
            found = frozenset({source.seed})
        elif source.kind == "bye":
            found = frozenset()
        else:
            assert source.set_key is not None
            found = side(source.set_key, "a") | side(source.set_key, "b")
        memo[(key, name)] = found
        return found

    for spec in specs:
        side(spec.key, "a")
        side(spec.key, "b")
    return memo


def first_possible_rematch(specs: Sequence[SetSpec]) -> tuple[str, int] | None:
    """The earliest (bracket, round) where two entrants who already met can meet again.

    Two entrants meeting in set S can meet again in set T when T can be reached from S along the
    winner's path on one side and along the loser's path on the other. GF2 (the reset, a rematch
    by design) is left out. Losers-bracket rounds sort before the grand final.
    """
    index = by_key(specs)
    reach: dict[str, frozenset[tuple[str, str]]] = {}

    def reachable(key: str) -> frozenset[tuple[str, str]]:
        if key not in reach:
            spec = index[key]
            found: set[tuple[str, str]] = set()
            for edge in (spec.winner_to, spec.loser_to):
                if edge is not None and edge[0] != "GF2":
                    found.add(edge)
                    found |= reachable(edge[0])
            reach[key] = frozenset(found)
        return reach[key]

    order = {"winners": 0, "losers": 1, "grand_final": 2, "third_place": 3}
    best: tuple[int, int] | None = None
    for spec in specs:
        if spec.winner_to is None or spec.loser_to is None or spec.key == "GF1":
            continue
        via_winner = {spec.winner_to} | reachable(spec.winner_to[0])
        via_loser = {spec.loser_to} | reachable(spec.loser_to[0])
        for target, side in via_winner:
            other = "b" if side == "a" else "a"
            if (target, other) in via_loser:
                where = (order[index[target].bracket], index[target].round)
                if best is None or where < best:
                    best = where
    if best is None:
        return None
    names = {v: k for k, v in order.items()}
    return names[best[0]], best[1]


def play_out(
    specs: Sequence[SetSpec], winner_of
) -> tuple[dict[int, int], list[tuple[str, int, int]]]:
    """Play a bracket the way the consumer does: byes auto-advance, GF2 only if side b wins GF1.

    `winner_of(key, a, b)` picks the winner of a real set. Returns each entrant's loss count and
    the sets played as (key, side a entrant, side b entrant), in order.
    """
    slots: dict[tuple[str, str], int | None] = {}
    losses: dict[int, int] = {}
    played: list[tuple[str, int, int]] = []
    gf1_won_by_b = False
    for spec in specs:
        entrants = []
        for name, source in (("a", spec.side_a), ("b", spec.side_b)):
            if source.kind == "seed":
                entrants.append(source.seed)
            elif source.kind == "bye":
                entrants.append(None)
            else:
                assert (spec.key, name) in slots, f"{spec.key}{name} read before it was filled"
                entrants.append(slots[(spec.key, name)])
        a, b = entrants
        for entrant in (a, b):
            if entrant is not None:
                losses.setdefault(entrant, 0)
        if spec.is_conditional and not gf1_won_by_b:
            continue  # the reset is skipped
        if a is None or b is None:
            assert a is not None or b is not None, f"{spec.key} has no entrant at all"
            winner, loser = (a if b is None else b), None
        else:
            assert a != b
            winner = winner_of(spec.key, a, b)
            loser = b if winner == a else a
            losses[loser] += 1
            played.append((spec.key, a, b))
        if spec.key == "GF1":
            gf1_won_by_b = winner == b
        if spec.winner_to is not None:
            slots[spec.winner_to] = winner
        if spec.loser_to is not None:
            assert loser is not None
            slots[spec.loser_to] = loser
    return losses, played
