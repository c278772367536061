"""Round robin: circle-method schedules, snake groups, group standings, playoff seeding.

Circle method (`round_robin_schedule`)
    The entrants are written in a row in the order given. With an odd count a phantom entrant is
    appended; whoever faces the phantom in a round sits that round out (the bye), so each entrant
    sits out exactly once and that pair is simply missing from the round. The first entrant stays
    fixed and the others rotate one place per round; round r pairs position i with position
    n - 1 - i. That gives n - 1 rounds (n even) or n rounds (n odd) in which everyone meets
    everyone exactly once. Sides are irrelevant; the fixed entrant alternates sides per round and
    pairs are otherwise written (earlier in the row, later in the row) of the rotated order.

Groups (`split_into_groups`)
    Seeded entrants are dealt snake-wise: seeds 1..G to groups 1..G, seeds G+1..2G to groups
    G..1, and so on, so every group gets a similar spread of seeds. Group sizes differ by at most
    one.

Standings (`round_robin_standings`)
    See `tournaments.formats.standings` for scoring and every tie-break's definition; the default
    order is DEFAULT_RR_TIEBREAKS.

Playoff seeding (`playoff_seeding`)
    The top K of each group advance. Seeds are given tier by tier: all group winners first (group
    order), then all runners-up, and so on. Inside each tier after the first the group order is
    chosen (the first of: natural, rotations of it, reversed, rotations of that) so that no
    entrant meets someone from its own group in the first round of the playoff bracket (the
    standard seed order of `tournaments.formats.elimination`, byes to top seeds); when no order
    avoids it (e.g. a single group), the one with the fewest such meetings is used.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from .elimination import bracket_size, seed_order
from .standings import compute_standings
from .types import GameResultRecord, StandingRow

__all__ = [
    "DEFAULT_RR_TIEBREAKS",
    "playoff_seeding",
    "round_robin_schedule",
    "round_robin_standings",
    "split_into_groups",
]

DEFAULT_RR_TIEBREAKS: tuple[str, ...] = (
    "points",
    "head_to_head",
    "game_difference",
    "games_won",
    "seed",
)


def round_robin_schedule(entrant_ids: Sequence[int]) -> list[list[tuple[int, int]]]:
    """Rounds of pairs by the circle method (see the module docstring)."""
    ids = list(entrant_ids)
    if len(set(ids)) != len(ids):
        raise ValueError("entrant_ids contains duplicates")
    if len(ids) < 2:
        return []
    row: list[int | None] = [*ids, None] if len(ids) % 2 else list(ids)
    n = len(row)
    fixed, rest = row[0], row[1:]
    rounds: list[list[tuple[int, int]]] = []
    for r in range(n - 1):
        rotated = rest[len(rest) - r :] + rest[: len(rest) - r]
        current = [fixed, *rotated]
        pairs: list[tuple[int, int]] = []
        for i in range(n // 2):
            a, b = current[i], current[n - 1 - i]
            if a is None or b is None:
                continue
            if i == 0 and r % 2:
                a, b = b, a
            pairs.append((a, b))
        rounds.append(pairs)
    return rounds


def split_into_groups(seeded_ids: Sequence[int], group_count: int) -> list[list[int]]:
    """Deal `seeded_ids` (best seed first) into `group_count` groups, snake-wise."""
    if group_count < 1:
        raise ValueError(f"group count must be >= 1, got {group_count}")
    if group_count > len(seeded_ids):
        raise ValueError(f"{group_count} groups for {len(seeded_ids)} entrants")
    groups: list[list[int]] = [[] for _ in range(group_count)]
    for index, entrant in enumerate(seeded_ids):
        lap, offset = divmod(index, group_count)
        groups[offset if lap % 2 == 0 else group_count - 1 - offset].append(entrant)
    return groups


def round_robin_standings(
    entrant_ids: Sequence[int],
    results: Iterable[GameResultRecord],
    *,
    tiebreaks: Sequence[str] = DEFAULT_RR_TIEBREAKS,
    win_points: float = 1.0,
    draw_points: float = 0.5,
    loss_points: float = 0.0,
) -> list[StandingRow]:
    """Standings of one group; `entrant_ids` in seed order (the "seed" tie-break)."""
    return compute_standings(
        entrant_ids,
        results,
        tiebreaks=tiebreaks,
        win_points=win_points,
        draw_points=draw_points,
        loss_points=loss_points,
    )


def playoff_seeding(group_standings: Sequence[Sequence[int]], advance_per_group: int) -> list[int]:
    """Playoff seed order (seed 1 first) of the top `advance_per_group` of every group.

    `group_standings[g]` is group g's entrant ids in final standing order.
    """
    if advance_per_group < 1:
        raise ValueError(f"advance_per_group must be >= 1, got {advance_per_group}")
    for g, standing in enumerate(group_standings):
        if len(standing) < advance_per_group:
            raise ValueError(
                f"group {g + 1} has {len(standing)} entrants, fewer than {advance_per_group}"
            )
    group_count = len(group_standings)
    total = group_count * advance_per_group
    if total < 2:
        raise ValueError("a playoff needs at least 2 entrants")
    size = bracket_size(total)
    order = seed_order(size)
    opponent = {}
    for i in range(0, size, 2):
        opponent[order[i]] = order[i + 1]
        opponent[order[i + 1]] = order[i]

    natural = list(range(group_count))
    candidates: list[list[int]] = []
    for base in (natural, natural[::-1]):
        for shift in range(group_count):
            candidate = base[shift:] + base[:shift]
            if candidate not in candidates:
                candidates.append(candidate)

    group_of_seed: dict[int, int] = {}
    seeds: list[int] = []
    for tier in range(advance_per_group):
        first_seed = tier * group_count + 1
        best: list[int] | None = None
        best_clashes = -1
        for candidate in candidates if tier else [natural]:
            clashes = 0
            for offset, group in enumerate(candidate):
                other = opponent[first_seed + offset]
                if group_of_seed.get(other) == group:
                    clashes += 1
                elif first_seed <= other < first_seed + group_count:
                    clashes += candidate[other - first_seed] == group
            if best is None or clashes < best_clashes:
                best, best_clashes = candidate, clashes
                if clashes == 0:
                    break
        assert best is not None
        for offset, group in enumerate(best):
            group_of_seed[first_seed + offset] = group
            seeds.append(group_standings[group][tier])
    return seeds


def lone_against_pair_schedule(
    lone_ids: Sequence[int], pair_ids: Sequence[int]
) -> list[list[tuple[int, int]]]:
    """Dramatic Battle rounds: every lone player meets every pair once, never a like side.

    The shorter list rotates against the longer one: round ``r`` pairs its ``i``-th entrant with
    the longer list's ``(i + r) mod len`` -th, so nobody plays twice in a round and every
    lone-pair couple meets exactly once over ``max(len)`` rounds. Entrants of the longer list
    without an opponent in a round sit it out. Pairs are (lone, pair).
    """
    if not lone_ids or not pair_ids:
        return []
    lone_short = len(lone_ids) <= len(pair_ids)
    short, long_ = (lone_ids, pair_ids) if lone_short else (pair_ids, lone_ids)
    rounds = []
    for r in range(len(long_)):
        games = [(short[i], long_[(i + r) % len(long_)]) for i in range(len(short))]
        rounds.append(games if lone_short else [(lone, pair) for pair, lone in games])
    return rounds
