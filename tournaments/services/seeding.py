"""Seeding: manual (an order or seed numbers), random, or by rating; previewed, then fixed."""

from __future__ import annotations

import random
from collections.abc import Sequence
from typing import Any

from django.db import transaction

from matches.bulk import rows_update
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Entrant, Event, PlayerRating
from tournaments.services.common import lock_event, require_organizer, stage_has_started

METHODS = ("manual", "random", "rating")


def entrants_in_seed_order(event: Event) -> list[Entrant]:
    """Registered entrants: seeded ones by seed, then the rest in registration order."""
    entrants = list(
        event.entrants.filter(status=Entrant.Status.REGISTERED).order_by("registered_at", "id")
    )
    return sorted(entrants, key=lambda e: (e.seed is None, e.seed or 0))


def _rating_of(entrants: Sequence[Entrant]) -> dict[int, float]:
    """An entrant's rating: the mean ordinal of its players (unrated players count as 0)."""
    from tournaments.models import EntrantMember

    members = EntrantMember.objects.filter(entrant__in=entrants).values_list(
        "entrant_id", "player_id"
    )
    player_ids = {p for _, p in members}
    ordinal = dict(
        PlayerRating.objects.filter(player_id__in=player_ids).values_list("player_id", "ordinal")
    )
    per_entrant: dict[int, list[float]] = {}
    for entrant_id, player_id in members:
        per_entrant.setdefault(entrant_id, []).append(ordinal.get(player_id, 0.0))
    return {e: sum(v) / len(v) for e, v in per_entrant.items()}


def seeding_preview(
    *,
    event: Event,
    method: str,
    order: Sequence[int] | None = None,
    random_seed: int | None = None,
) -> list[Entrant]:
    """The entrants in the order a seeding method gives; writes nothing.

    ``manual``: ``order`` lists every registered entrant's id once, top seed first.
    ``random``: shuffled with ``random_seed`` (the same seed gives the same order, so a previewed
    draw can be fixed exactly). ``rating``: highest rating first, ties by registration.
    """
    entrants = list(
        event.entrants.filter(status=Entrant.Status.REGISTERED).order_by("registered_at", "id")
    )
    if method == "manual":
        by_id = {e.pk: e for e in entrants}
        order = list(order or [])
        if sorted(order) != sorted(by_id) or len(set(order)) != len(order):
            missing = sorted(set(by_id) - set(order))
            unknown = sorted(set(order) - set(by_id))
            raise TournamentError(
                TournamentErrorCode.SEEDING_INVALID,
                "a manual seeding lists every registered entrant exactly once",
                missing=missing, unknown=unknown,
            )
        return [by_id[i] for i in order]
    if method == "random":
        rng = random.Random(random_seed)
        rng.shuffle(entrants)
        return entrants
    if method == "rating":
        rating = _rating_of(entrants)
        return sorted(entrants, key=lambda e: -rating.get(e.pk, 0.0))
    raise TournamentError(
        TournamentErrorCode.SEEDING_INVALID, f"unknown seeding method {method!r}; use {METHODS}"
    )


@transaction.atomic
def event_seeding_set(
    *,
    event: Event,
    actor: Any,
    method: str,
    order: Sequence[int] | None = None,
    random_seed: int | None = None,
) -> list[Entrant]:
    """Fix the seeding (seed 1 = first) before the first stage is generated."""
    require_organizer(event=event, actor=actor)
    event = lock_event(event)
    if stage_has_started(event) or event.status in (Event.Status.RUNNING, Event.Status.FINISHED):
        raise TournamentError(
            TournamentErrorCode.STAGE_STARTED,
            f"{event.name} has started: its seeding can no longer change",
        )
    seeded = seeding_preview(event=event, method=method, order=order, random_seed=random_seed)
    event.entrants.update(seed=None)
    for i, entrant in enumerate(seeded, 1):
        entrant.seed = i
    rows_update(seeded, ["seed"])  # one UPDATE from a VALUES list (not a CASE per entrant)
    return seeded
