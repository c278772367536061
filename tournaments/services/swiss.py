"""Swiss rounds: pair the next round by score group, no rematches, at most one bye each."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from django.db import transaction

from tournaments.announcements import sets_ready_announce
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.formats import swiss
from tournaments.formats.types import SwissEntrant
from tournaments.models import Entrant, Set, Stage
from tournaments.services.common import lock_stage, require_organizer


def swiss_round_sets(
    stage: Stage, entrants: Sequence[Entrant], *, round_: int, previous: Sequence[Set]
) -> list[Set]:
    """Unsaved sets for Swiss round ``round_`` given the sets already played."""
    from tournaments.selectors import swiss_scores

    seed_of = {e.pk: i for i, e in enumerate(entrants, 1)}
    by_id = {e.pk: e for e in entrants}
    score = swiss_scores(previous)
    pool = [
        SwissEntrant(id=e.pk, score=score.get(e.pk, 0.0), seed=seed_of[e.pk])
        for e in entrants
        if e.status != Entrant.Status.DISQUALIFIED
    ]
    previous_pairs = {
        frozenset((s.entrant_a_id, s.entrant_b_id))
        for s in previous
        if s.entrant_a_id and s.entrant_b_id
    }
    previous_byes = [s.entrant_a_id for s in previous if s.is_bye_b and s.entrant_a_id]
    try:
        pairing = swiss.swiss_pair(pool, previous_pairs, previous_byes)
    except swiss.SwissPairingError as exc:
        raise TournamentError(
            TournamentErrorCode.SWISS_COMPLETE,
            f"round {round_} of {stage.name} cannot be paired without a rematch or a second "
            f"bye ({exc}); finish the stage here",
        ) from exc
    sets = []
    for p, (a, b) in enumerate(pairing.pairs, 1):
        sets.append(Set(
            stage=stage, key=f"S{round_}-{p}", bracket=Set.Bracket.SWISS, round=round_,
            round_name=f"Round {round_}", position=p, entrant_a=by_id[a], entrant_b=by_id[b],
            status=Set.Status.READY, best_of=stage.event.best_of,
        ))
    if pairing.bye is not None:
        sets.append(Set(
            stage=stage, key=f"S{round_}-bye", bracket=Set.Bracket.SWISS, round=round_,
            round_name=f"Round {round_}", position=len(sets) + 1, entrant_a=by_id[pairing.bye],
            is_bye_b=True, status=Set.Status.FINISHED, outcome=Set.Outcome.BYE,
            winner=by_id[pairing.bye], best_of=stage.event.best_of,
        ))
    return sets


@transaction.atomic
def stage_swiss_round_pair(*, stage: Stage, actor: Any) -> list[Set]:
    """Pair the next Swiss round once every set of the current round is finished."""
    require_organizer(event=stage.event, actor=actor)
    stage = lock_stage(stage)
    if stage.kind != Stage.Kind.SWISS or stage.status != Stage.Status.RUNNING:
        raise TournamentError(
            TournamentErrorCode.STAGE_NOT_READY, f"{stage.name} is not a running Swiss stage"
        )
    if stage.current_round >= (stage.swiss_rounds or 0):
        raise TournamentError(
            TournamentErrorCode.SWISS_COMPLETE,
            f"{stage.name} has played all {stage.swiss_rounds} rounds",
        )
    return swiss_pair_next_round(stage)


def swiss_pair_next_round(stage: Stage) -> list[Set]:
    """Pair the next round of a locked, running Swiss stage (no permission check)."""
    previous = list(stage.sets.all())
    if any(s.status != Set.Status.FINISHED for s in previous):
        raise TournamentError(
            TournamentErrorCode.ROUND_NOT_FINISHED,
            f"round {stage.current_round} of {stage.name} still has sets to play",
        )
    entrants = [
        entry.entrant for entry in stage.entries.select_related("entrant").order_by("seed")
    ]
    sets = swiss_round_sets(stage, entrants, round_=stage.current_round + 1, previous=previous)
    Set.objects.bulk_create(sets)
    sets_ready_announce(sets=sets)
    stage.current_round += 1
    stage.save(update_fields=["current_round"])
    return sets
