"""Generating a stage: who takes part, in which seed order, and its sets.

The algorithms (seed order, bracket shapes, schedules, Swiss pairing) are pure functions in
``tournaments.formats``; this module turns their output into rows.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import timedelta
from typing import Any

from django.db import transaction
from django.db.models import Count

from matches.bulk import rows_update
from tournaments.announcements import sets_ready_announce
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.formats import elimination, round_robin
from tournaments.models import Entrant, EntrantMember, Event, Set, Stage, StageEntry
from tournaments.services.bracket import SetBook, place, resolve
from tournaments.services.common import lock_stage, require_organizer, require_stage_fits_mode
from tournaments.services.seeding import entrants_in_seed_order

MIN_ENTRANTS, MAX_ENTRANTS = 2, 4096
# A round-robin (or league) group of n entrants plays n(n-1)/2 sets: 32 make 496 sets in 31
# rounds, 512 would make 130,816 (15 s to generate, a 20 s stage page). Larger events split into
# more groups, play Swiss rounds, or groups then a playoff.
MAX_ROUND_ROBIN_GROUP = 32


def _source_dict(source: Any) -> dict[str, Any]:
    return {"kind": source.kind, "seed": source.seed, "set_key": source.set_key}


def _stage_entrants(stage: Stage) -> list[Entrant]:
    """Entrants of a stage in seed order: the event's seeding, or the previous stage's result."""
    from tournaments.selectors import stage_advancing_entrants

    previous = (
        Stage.objects.filter(event=stage.event, order__lt=stage.order).order_by("-order").first()
    )
    if previous is None:
        return entrants_in_seed_order(stage.event)
    if previous.status != Stage.Status.FINISHED:
        raise TournamentError(
            TournamentErrorCode.STAGE_NOT_READY,
            f"{previous.name} must finish before {stage.name} is generated",
        )
    return stage_advancing_entrants(previous)


def _best_of(event: Event, bracket: str, round_: int, last_round: dict[str, int]) -> int:
    if bracket == Set.Bracket.GRAND_FINAL:
        return event.grand_final_best_of
    if bracket in (Set.Bracket.WINNERS, Set.Bracket.LOSERS, Set.Bracket.THIRD_PLACE):
        last = last_round.get(
            Set.Bracket.WINNERS if bracket == Set.Bracket.THIRD_PLACE else bracket, 0
        )
        if event.top_rounds and round_ > last - event.top_rounds:
            return event.top_best_of
    return event.best_of


def _generate_elimination(stage: Stage, entrants: list[Entrant]) -> list[Set]:
    n = len(entrants)
    if stage.kind == Stage.Kind.SINGLE_ELIMINATION:
        specs = elimination.single_elimination(n, third_place=stage.third_place)
    else:
        specs = elimination.double_elimination(n, grand_final_reset=stage.grand_final_reset)
    last_round: dict[str, int] = {}
    for spec in specs:
        last_round[spec.bracket] = max(last_round.get(spec.bracket, 0), spec.round)
    sets: dict[str, Set] = {}
    for spec in specs:
        s = Set(
            stage=stage, key=spec.key, bracket=spec.bracket, round=spec.round,
            round_name=spec.round_name, position=spec.position,
            source_a=_source_dict(spec.side_a), source_b=_source_dict(spec.side_b),
            is_conditional=spec.is_conditional,
            best_of=_best_of(stage.event, spec.bracket, spec.round, last_round),
        )
        if spec.winner_to:
            s.winner_to_key, s.winner_to_side = spec.winner_to
        if spec.loser_to:
            s.loser_to_key, s.loser_to_side = spec.loser_to
        sets[s.key] = s
    # Edges may be given by the sources only: derive the missing targets from them.
    for s in sets.values():
        for side, source in (("a", s.source_a), ("b", s.source_b)):
            origin = sets.get(source.get("set_key") or "")
            if origin is None:
                continue
            if source["kind"] == "winner" and not origin.winner_to_key:
                origin.winner_to_key, origin.winner_to_side = s.key, side
            if source["kind"] == "loser" and not origin.loser_to_key:
                origin.loser_to_key, origin.loser_to_side = s.key, side
    book = SetBook(sets=sets)
    for s in list(sets.values()):
        for side, source in (("a", s.source_a), ("b", s.source_b)):
            if source["kind"] == "seed":
                seed = source["seed"]
                place(book, s.key, side, entrants[seed - 1] if seed <= n else None)
            elif source["kind"] == "bye":
                place(book, s.key, side, None)
    for s in sets.values():
        resolve(book, s)
    return list(sets.values())


def _schedule(stage: Stage, members: Sequence[Entrant]) -> list[list[tuple[int, int]]]:
    if stage.event.mode == Event.Mode.DRAMATIC_BATTLE:
        sizes = dict(
            EntrantMember.objects.filter(entrant__in=members).values("entrant_id")
            .annotate(n=Count("id")).values_list("entrant_id", "n")
        )
        lone = [e.pk for e in members if sizes.get(e.pk) == 1]
        pairs = [e.pk for e in members if sizes.get(e.pk) == 2]
        if not lone or not pairs:
            raise TournamentError(
                TournamentErrorCode.TOO_FEW_ENTRANTS,
                f"{stage.name} pairs lone players against pairs: it needs at least one of each "
                f"(it has {len(lone)} lone player(s) and {len(pairs)} pair(s))",
            )
        return round_robin.lone_against_pair_schedule(lone, pairs)
    return round_robin.round_robin_schedule([e.pk for e in members])


def _round_robin_sets(
    stage: Stage,
    groups: Sequence[Sequence[Entrant]],
) -> list[Set]:
    sets = []
    for g, members in enumerate(groups, start=1):
        by_id = {e.pk: e for e in members}
        for r, pairs in enumerate(_schedule(stage, members), 1):
            for p, (a, b) in enumerate(pairs, start=1):
                s = Set(
                    stage=stage, key=f"G{g}R{r}P{p}", bracket=Set.Bracket.ROUND_ROBIN, round=r,
                    round_name=f"Round {r}", position=p, group=g if len(groups) > 1 else None,
                    entrant_a=by_id[a], entrant_b=by_id[b], status=Set.Status.READY,
                    best_of=stage.event.best_of,
                )
                if stage.kind == Stage.Kind.LEAGUE and stage.starts_at:
                    s.window_opens_at = stage.starts_at + timedelta(days=(r - 1) * stage.round_days)
                    s.window_closes_at = s.window_opens_at + timedelta(days=stage.round_days)
                sets.append(s)
    return sets


def _create_entries(stage: Stage, entrants: list[Entrant], groups: list[list[Entrant]]) -> None:
    group_of = {e.pk: g for g, members in enumerate(groups, 1) for e in members}
    StageEntry.objects.bulk_create(
        StageEntry(
            stage=stage, entrant=e, seed=i,
            group=group_of.get(e.pk) if len(groups) > 1 else None,
        )
        for i, e in enumerate(entrants, 1)
    )


def _event_seeds_fix(event: Event, entrants: list[Entrant]) -> None:
    """The first stage's seeds become the event's, so the event page and the bracket agree.

    Unseeded entrants (placed after the seeded ones) and gaps left by withdrawals would otherwise
    show one number on the event page and another in the bracket.
    """
    event.entrants.filter(seed__isnull=False).update(seed=None)
    for i, entrant in enumerate(entrants, 1):
        entrant.seed = i
    # one UPDATE from a VALUES list: bulk_update's CASE per entrant cost 0.6 s at 4,096
    rows_update(entrants, ["seed"])


@transaction.atomic
def stage_generate(*, stage: Stage, actor: Any) -> Stage:
    """Fix the stage's entrants and seeds and create its sets (Swiss: the first round)."""
    require_organizer(event=stage.event, actor=actor)
    stage = lock_stage(stage)
    event = Event.objects.select_for_update().get(pk=stage.event_id)
    if stage.status != Stage.Status.PENDING:
        raise TournamentError(
            TournamentErrorCode.STAGE_STARTED, f"{stage.name} has already been generated"
        )
    is_first = not Stage.objects.filter(event=event, order__lt=stage.order).exists()
    if is_first:
        if event.status not in (Event.Status.REGISTRATION, Event.Status.CHECK_IN):
            raise TournamentError(
                TournamentErrorCode.INVALID_TRANSITION,
                f"open registration for {event.name} before generating {stage.name}",
            )
        if event.status == Event.Status.CHECK_IN:
            # Entrants who did not check in are removed before the bracket exists.
            event.entrants.filter(
                status=Entrant.Status.REGISTERED, checked_in_at__isnull=True
            ).update(status=Entrant.Status.REMOVED, seed=None)
        event.status = Event.Status.RUNNING
        event.save(update_fields=["status"])
    entrants = _stage_entrants(stage)
    if len(entrants) < MIN_ENTRANTS:
        raise TournamentError(
            TournamentErrorCode.TOO_FEW_ENTRANTS,
            f"{stage.name} needs at least {MIN_ENTRANTS} entrants, it has {len(entrants)}",
        )
    if len(entrants) > MAX_ENTRANTS:
        raise TournamentError(
            TournamentErrorCode.TOO_MANY_ENTRANTS,
            f"{stage.name} takes at most {MAX_ENTRANTS} entrants, it has {len(entrants)}",
        )
    require_stage_fits_mode(event=event, kind=stage.kind)
    if is_first:
        _event_seeds_fix(event, entrants)
    groups: list[list[Entrant]] = [entrants]
    if stage.kind in Stage.ELIMINATION_KINDS:
        sets = _generate_elimination(stage, entrants)
        stage.current_round = 1
    elif stage.kind in (Stage.Kind.ROUND_ROBIN, Stage.Kind.LEAGUE):
        group_count = min(stage.group_count, len(entrants) // 2) or 1
        if event.mode == Event.Mode.DRAMATIC_BATTLE:
            group_count = 1  # groups would split the lone players from the pairs
        by_id = {e.pk: e for e in entrants}
        groups = [
            [by_id[i] for i in ids]
            for ids in round_robin.split_into_groups([e.pk for e in entrants], group_count)
        ]
        largest = max(len(g) for g in groups)
        if largest > MAX_ROUND_ROBIN_GROUP:
            needed = -(-len(entrants) // MAX_ROUND_ROBIN_GROUP)
            raise TournamentError(
                TournamentErrorCode.TOO_MANY_ENTRANTS,
                f"{stage.name}: a round-robin group takes at most {MAX_ROUND_ROBIN_GROUP} "
                f"entrants, and this one would have {largest} ({largest * (largest - 1) // 2:,} "
                f"sets). Use at least {needed} groups, Swiss rounds, or groups then a playoff.",
            )
        sets = _round_robin_sets(stage, groups)
        stage.current_round = max((s.round for s in sets), default=0)
    else:
        from tournaments.services.swiss import swiss_round_sets

        sets = swiss_round_sets(stage, entrants, round_=1, previous=[])
        stage.current_round = 1
    _create_entries(stage, entrants, groups)
    Set.objects.bulk_create(sets)
    sets_ready_announce(sets=sets)
    stage.status = Stage.Status.RUNNING
    stage.save(update_fields=["status", "current_round"])
    from tournaments.services.advancement import stage_finish_if_done

    stage_finish_if_done(stage)
    return stage
