"""Event odds: a stage simulated many times from its entrants' ratings and characters.

Writes (``stage_odds_refresh``, ``event_seeding_simulated``) and the reads behind them. The
model (``simulations.montecarlo.model``): a game is won with OpenSkill's two-player probability
(an entrant's rating is its players' mean ``mu`` and root-mean-square ``sigma``; unrated players
count as a new rating), moved in log-odds by the chart in use (``selectors.chart_in_use``: the
best bot's latest simulated chart blended with the real verified games') when both entrants
declared a single character; a set is a best-of-N series of such games.
"""

from __future__ import annotations

import math
import time
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from django.conf import settings
from django.db import transaction
from django.db.models import Max

from simulations import selectors
from simulations.models import StageOdds
from simulations.montecarlo.elimination import simulate_elimination
from simulations.montecarlo.model import chart_adjusted, rating_win_probability, series_matrix
from simulations.montecarlo.stages import simulate_groups_then_playoff
from simulations.montecarlo.tables import (
    PlaceOdds,
    Played,
    simulate_round_robin,
    simulate_swiss,
)
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.formats import round_robin as rr
from tournaments.formats.elimination import double_elimination, single_elimination
from tournaments.models import (
    Entrant,
    EntrantMember,
    Event,
    PlayerRating,
    Set,
    SetResultChange,
    Stage,
)
from tournaments.services.common import require_organizer, stage_has_started
from tournaments.services.seeding import (
    entrants_in_seed_order,
    event_seeding_set,
    seeding_preview,
)

DEFAULT_MU = 25.0
FINISHED_RUNS = 200
DEFAULT_SIGMA = 25.0 / 3.0
TOP = 8


@dataclass(frozen=True)
class EntrantModel:
    entrant_id: int
    name: str
    mu: float
    sigma: float
    character: str  # "" unless exactly one character is declared


def entrant_models(entrants: Sequence[Entrant]) -> list[EntrantModel]:
    members = list(EntrantMember.objects.filter(entrant__in=entrants)
                   .values_list("entrant_id", "player_id", "character"))
    ratings = {r.player_id: r for r in PlayerRating.objects.filter(
        player_id__in={p for _, p, _ in members})}
    per: dict[int, list[tuple[float, float, str]]] = defaultdict(list)
    for entrant_id, player_id, char in members:
        r = ratings.get(player_id)
        per[entrant_id].append((r.mu if r else DEFAULT_MU, r.sigma if r else DEFAULT_SIGMA, char))
    models = []
    for e in entrants:
        rows = per.get(e.pk) or [(DEFAULT_MU, DEFAULT_SIGMA, "")]
        chars = {c for _, _, c in rows if c}
        models.append(EntrantModel(
            e.pk, e.name, sum(m for m, _, _ in rows) / len(rows),
            math.sqrt(sum(s * s for _, s, _ in rows) / len(rows)),
            next(iter(chars)) if len(chars) == 1 and len(rows) == 1 else "",
        ))
    return models


def game_matrix(models: Sequence[EntrantModel]) -> list[list[float]]:
    """P(row beats column in one game)."""
    chart = selectors.chart_in_use().scores()
    matrix = []
    for a in models:
        row = []
        for b in models:
            p = rating_win_probability(a.mu, a.sigma, b.mu, b.sigma)
            if a.character and b.character:
                p = chart_adjusted(p, chart.get((a.character, b.character)))
            row.append(0.5 if a is b else p)
        matrix.append(row)
    return matrix


def _stage_entrants(stage: Stage) -> list[Entrant] | None:
    entries = list(stage.entries.select_related("entrant").order_by("seed"))
    if entries:
        return [e.entrant for e in entries]
    first = stage.event.stages.order_by("order", "id").first()
    if first is not None and first.pk == stage.pk:
        return entrants_in_seed_order(stage.event)
    return None  # a later stage before its entrants are known


def stage_odds_compute(*, stage: Stage, runs: int, seed: int = 0,
                       entrants: Sequence[Entrant] | None = None) -> dict[str, Any] | None:
    """The odds of a stage, following its finished sets: an elimination bracket; round-robin
    groups with the elimination stage after them, in one simulation; a Swiss, league or
    round-robin stage otherwise (its final places: ``table_odds_compute``). None for a stage
    whose entrants are not known yet. ``entrants`` (in seed order): simulate the stage as if
    generated with them (the simulated seeding), ignoring its sets."""
    if stage.kind == Stage.Kind.ROUND_ROBIN and entrants is None:
        grouped = groups_odds_compute(stage=stage, runs=runs, seed=seed)
        if grouped is not None:
            return grouped
    if stage.kind in Stage.TABLE_KINDS:
        return table_odds_compute(stage=stage, runs=runs, seed=seed, entrants=entrants)
    if stage.kind not in Stage.ELIMINATION_KINDS:
        return None
    chosen = list(entrants) if entrants is not None else _stage_entrants(stage)
    if not chosen or len(chosen) < 2:
        return None
    n = len(chosen)
    specs = _specs(stage.kind, n, stage)
    models = entrant_models(chosen)
    game = game_matrix(models)
    event = stage.event
    sets = {s.key: s for s in stage.sets.all()} if entrants is None else {}
    best_of = {k: s.best_of for k, s in sets.items()}
    default = {spec.key: (event.grand_final_best_of if spec.bracket == "grand_final"
                          else event.best_of) for spec in specs}
    lengths = sorted({best_of.get(k, default[k]) for k in default})
    matrices = [series_matrix(game, b) for b in lengths]
    forced = {}
    for key, s in sets.items():
        if s.status == Set.Status.FINISHED and s.winner_id is not None:
            forced[key] = "a" if s.winner_id == s.entrant_a_id else "b"
    started = time.perf_counter()
    result = simulate_elimination(
        specs, list(range(n)), matrices, runs=runs, seed=seed, forced=forced,
        matrix_of=lambda spec: lengths.index(best_of.get(spec.key, default[spec.key])),
    )
    seconds = time.perf_counter() - started
    rows = [{
        "entrant": m.entrant_id, "name": m.name, "character": m.character,
        "reach": dict(zip(result.columns, result.reach[i], strict=True)),
        "top8": result.top8[i], "win": result.win[i],
        "expected_place": result.expected_place[i],
    } for i, m in enumerate(models)]
    rows.sort(key=lambda r: (-r["win"], r["expected_place"]))
    return {"columns": result.columns, "rows": rows, "runs": runs, "seconds": seconds,
            "results_seen": len(forced), "top": TOP}


def _specs(kind: str, n: int, stage: Stage) -> list[Any]:
    if kind == Stage.Kind.SINGLE_ELIMINATION:
        return single_elimination(n, third_place=stage.third_place)
    return double_elimination(n, grand_final_reset=stage.grand_final_reset)


def groups_odds_compute(*, stage: Stage, runs: int, seed: int = 0) -> dict[str, Any] | None:
    """Groups, then the elimination stage after them, in one simulation: the chance to reach
    the playoff, each of its rounds, its top 8 and to win it. Group games already played are
    followed; ties in a group are broken at random (the real tie-breaks need game scores)."""
    playoff = (stage.event.stages.filter(order__gt=stage.order, kind__in=Stage.ELIMINATION_KINDS)
               .order_by("order", "id").first())
    entries = list(stage.entries.select_related("entrant").order_by("group", "seed"))
    if playoff is None or len(entries) < 2:
        return None
    chosen = [e.entrant for e in entries]
    index = {e.pk: i for i, e in enumerate(chosen)}
    by_group: dict[int, list[int]] = defaultdict(list)
    for entry in entries:
        by_group[entry.group or 0].append(index[entry.entrant_id])
    groups = [by_group[g] for g in sorted(by_group)]
    per_group = min(stage.advance_count or min(len(g) for g in groups), *(len(g) for g in groups))
    size = per_group * len(groups)
    if size < 2:
        return None
    models = entrant_models(chosen)
    game = game_matrix(models)
    event = stage.event
    decided = {}
    for s in stage.sets.filter(status=Set.Status.FINISHED, winner__isnull=False):
        if s.entrant_a_id in index and s.entrant_b_id in index:
            a, b = index[s.entrant_a_id], index[s.entrant_b_id]
            decided[(min(a, b), max(a, b))] = index[s.winner_id]
    specs = _specs(playoff.kind, size, playoff)
    lengths = sorted({event.best_of, event.grand_final_best_of})
    started = time.perf_counter()
    result = simulate_groups_then_playoff(
        groups, series_matrix(game, event.best_of), advance_per_group=per_group,
        playoff_specs=specs, playoff_matrices=[series_matrix(game, b) for b in lengths],
        runs=runs, seed=seed, decided=decided,
        matrix_of=lambda spec: lengths.index(event.grand_final_best_of
                                             if spec.bracket == "grand_final" else event.best_of),
    )
    seconds = time.perf_counter() - started
    label = f"{playoff.name}"
    columns = [label, *result.playoff.columns[1:]]
    rows = [{
        "entrant": m.entrant_id, "name": m.name, "character": m.character,
        "reach": {label: result.advance[i],
                  **dict(zip(result.playoff.columns[1:], result.playoff.reach[i][1:],
                             strict=True))},
        "top8": result.playoff.top8[i], "win": result.playoff.win[i],
        "expected_place": result.playoff.expected_place[i],
    } for i, m in enumerate(models)]
    rows.sort(key=lambda r: (-r["win"], r["expected_place"]))
    return {"columns": columns, "rows": rows, "runs": runs, "seconds": seconds,
            "results_seen": len(decided), "top": TOP}


def table_odds_compute(*, stage: Stage, runs: int, seed: int = 0,
                       entrants: Sequence[Entrant] | None = None) -> dict[str, Any] | None:
    """A Swiss, league or round-robin stage's odds: each entrant's chance of each final place
    of its table (its group's, with groups), from which the top ``advance_count`` (when the
    stage hands entrants to another), the top 8 and the first place; finished sets followed,
    the rest simulated (``simulations.montecarlo.tables``: Swiss rounds paired as the
    tournaments app pairs them, standings by its tie-breaks)."""
    generated = entrants is None and stage.pk is not None and stage.entries.exists()
    chosen = _stage_entrants(stage) if entrants is None else list(entrants)
    if not chosen or len(chosen) < 2:
        return None
    n = len(chosen)
    index = {e.pk: i for i, e in enumerate(chosen)}
    event = stage.event
    sets = list(stage.sets.all()) if generated else []
    played = [
        Played(index[s.entrant_a_id], index[s.entrant_b_id],
               index[s.winner_id] if s.outcome != Set.Outcome.DOUBLE_FORFEIT and s.winner_id
               else None, s.score_a, s.score_b)
        for s in sets if s.status == Set.Status.FINISHED and s.entrant_a_id in index
        and s.entrant_b_id in index
    ]
    unplayed = [(index[s.entrant_a_id], index[s.entrant_b_id]) for s in sets
                if s.status != Set.Status.FINISHED and s.entrant_a_id in index
                and s.entrant_b_id in index]
    models = entrant_models(chosen)
    game = game_matrix(models)
    started = time.perf_counter()
    sizes: list[int]
    if stage.kind == Stage.Kind.SWISS:
        rounds = stage.swiss_rounds or max(1, math.ceil(math.log2(n)))
        result = simulate_swiss(
            n, game, rounds=rounds, best_of=event.best_of, runs=runs, seed=seed,
            played=played, pending=unplayed, rounds_paired=stage.current_round if generated else 0,
            byes=[index[s.entrant_a_id] for s in sets if s.is_bye_b and s.entrant_a_id in index],
            withdrawn={index[e.pk] for e in chosen if e.status == Entrant.Status.DISQUALIFIED},
        )
        sizes = [n] * n
    else:
        if generated:
            by_group: dict[int, list[int]] = defaultdict(list)
            for entry in stage.entries.order_by("seed"):
                by_group[entry.group or 0].append(index[entry.entrant_id])
            groups = [by_group[g] for g in sorted(by_group)]
        else:  # as generation would split them (tournaments.services.generation)
            count = min(stage.group_count, n // 2) or 1
            if event.mode == Event.Mode.DRAMATIC_BATTLE:
                count = 1
            groups = rr.split_into_groups(list(range(n)), count)
            unplayed = [pair for g in groups for rnd in rr.round_robin_schedule(g)
                        for pair in rnd]
        result = simulate_round_robin(
            groups, game, fixtures=unplayed, best_of=event.best_of, runs=runs, seed=seed,
            played=played, tiebreaks=tuple(stage.tiebreaks) or rr.DEFAULT_RR_TIEBREAKS,
        )
        sizes = [0] * n
        for g in groups:
            for e in g:
                sizes[e] = len(g)
    seconds = time.perf_counter() - started
    columns = _table_columns(stage, min(sizes))
    rows = [{
        "entrant": m.entrant_id, "name": m.name, "character": m.character,
        "reach": {label: sum(result.places[i][:k]) for label, k in columns},
        "top8": result.top(TOP)[i], "win": result.win[i],
        "expected_place": result.expected_place[i],
    } for i, m in enumerate(models)]
    rows.sort(key=lambda r: (-r["win"], r["expected_place"]))
    return {"columns": [label for label, _ in columns], "rows": rows, "runs": runs,
            "seconds": seconds, "results_seen": len(played), "top": TOP,
            "places": _places(models, result)}


def _table_columns(stage: Stage, size: int) -> list[tuple[str, int]]:
    """The table odds' columns besides the top 8 and first place: the top half, and the top
    ``advance_count`` when the stage hands that many to the next one."""
    ks = {k for k in (size // 2, stage.advance_count or 0) if 1 < k < size and k != TOP}
    return [(f"Top {k}", k) for k in sorted(ks, reverse=True)]


def _places(models: Sequence[EntrantModel], result: PlaceOdds) -> dict[str, list[float]]:
    """Each entrant's chance of every place (by entrant id), for the JSON of the odds."""
    return {str(m.entrant_id): [round(p, 6) for p in result.places[i]]
            for i, m in enumerate(models)}


def stage_odds_refresh(*, stage_id: int, runs: int | None = None) -> StageOdds | None:
    """Recompute a stage's current odds; the first odds before any result are also kept as its
    initial odds (what calibration compares with the outcome)."""
    stage = Stage.objects.select_related("event").filter(pk=stage_id).first()
    if stage is None:
        return None
    runs = runs or settings.YOMI_ODDS_RUNS
    if stage.status == Stage.Status.FINISHED:
        # every result is known: the runs all play the same stage (ties aside), and the page
        # shows the result instead of these odds; a few runs record where each entrant ended
        runs = min(runs, FINISHED_RUNS)
    last_change = SetResultChange.objects.filter(set__stage=stage).aggregate(
        last=Max("id"))["last"] or 0
    data = stage_odds_compute(stage=stage, runs=runs)
    if data is None:
        return None
    data["chart"] = selectors.chart_in_use().source()  # which chart the odds stood on
    with transaction.atomic():
        current, _ = StageOdds.objects.update_or_create(
            stage=stage, kind=StageOdds.Kind.CURRENT,
            defaults={"runs": runs, "results_seen": data["results_seen"],
                      "seconds": data["seconds"], "data": data, "last_change": last_change},
        )
        if data["results_seen"] == 0:
            StageOdds.objects.update_or_create(
                stage=stage, kind=StageOdds.Kind.INITIAL,
                defaults={"runs": runs, "results_seen": 0, "seconds": data["seconds"],
                          "data": data},
            )
    return current


def event_seeding_simulated(*, event: Event, actor: Any, runs: int | None = None,
                            seed: int = 0) -> list[Entrant]:
    """Seed by expected finish (``event_seeding_simulated_order``), applied by the ordinary
    seeding service. Permission is checked before the simulation (seconds of CPU for a large
    event): a refused caller costs a query, not a simulation."""
    require_organizer(event=event, actor=actor)
    order = [e.pk for e in event_seeding_simulated_order(event=event, runs=runs, seed=seed)]
    return event_seeding_set(event=event, actor=actor, method="manual", order=order)


def event_seeding_simulated_order(*, event: Event, runs: int | None = None,
                                  seed: int = 0) -> list[Entrant]:
    """The seeding by expected finish, not applied (a preview): the first stage's format (any
    kind; single elimination when the event has no stage yet) simulated from the rating
    seeding. Groups: the expected place in one's group. The event's state is checked before
    the simulation: a started event's seeding can no longer change."""
    if stage_has_started(event) or event.status in (Event.Status.RUNNING, Event.Status.FINISHED):
        raise TournamentError(TournamentErrorCode.STAGE_STARTED,
                              f"{event.name} has started: its seeding can no longer change")
    by_rating = seeding_preview(event=event, method="rating")
    stage = event.stages.order_by("order", "id").first()
    if stage is None:
        stage = Stage(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    data = stage_odds_compute(stage=stage, runs=runs or settings.YOMI_ODDS_RUNS, seed=seed,
                              entrants=by_rating)
    order = [e.pk for e in by_rating]
    if data is not None:
        place = {r["entrant"]: r["expected_place"] for r in data["rows"]}
        rank = {pk: i for i, pk in enumerate(order)}  # ties: the rating order
        order.sort(key=lambda pk: (round(place[pk], 6), rank[pk]))
    by_pk = {e.pk: e for e in by_rating}
    return [by_pk[pk] for pk in order]
