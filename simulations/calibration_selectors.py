"""Reads for the calibration page: each finished stage's initial odds against what happened."""

from __future__ import annotations

from dataclasses import dataclass

from simulations.models import StageOdds
from simulations.montecarlo.calibration import Calibration, calibration
from tournaments.models import Set, Stage


@dataclass(frozen=True)
class StageCalibration:
    stage: Stage
    odds: StageOdds
    win: Calibration  # "wins the stage", one prediction per entrant
    reach: Calibration  # "reaches round X", every round after the first
    predictions: list[tuple[float, bool]]


def _champion(stage: Stage, sets: list[Set]) -> int | None:
    finished = [s for s in sets if s.status == Set.Status.FINISHED and s.winner_id]
    finals = [s for s in finished if s.bracket == Set.Bracket.GRAND_FINAL] or [
        s for s in finished if s.bracket == Set.Bracket.WINNERS and not s.winner_to_key]
    if not finals:
        return None
    return max(finals, key=lambda s: s.round).winner_id


def stage_calibration(*, odds: StageOdds) -> StageCalibration:
    stage = odds.stage
    sets = list(stage.sets.all())
    champion = _champion(stage, sets)
    played: dict[str, set[int]] = {}
    for s in sets:
        if s.bracket in (Set.Bracket.WINNERS, Set.Bracket.GRAND_FINAL):
            played.setdefault(s.round_name, set()).update(
                e for e in (s.entrant_a_id, s.entrant_b_id) if e)
    columns = odds.data["columns"][1:]  # everyone plays the first round
    win, reach = [], []
    for row in odds.data["rows"]:
        win.append((row["win"], row["entrant"] == champion))
        for c in columns:
            reach.append((row["reach"].get(c, 0.0), row["entrant"] in played.get(c, set())))
    return StageCalibration(stage, odds, calibration(win), calibration(reach), win + reach)


def finished_stage_calibrations() -> list[StageCalibration]:
    odds = (StageOdds.objects.filter(kind=StageOdds.Kind.INITIAL,
                                     stage__status=Stage.Status.FINISHED,
                                     stage__kind__in=Stage.ELIMINATION_KINDS)
            .select_related("stage", "stage__event").order_by("-stage__event__starts_at", "-id"))
    return [stage_calibration(odds=o) for o in odds]


def overall(stages: list[StageCalibration]) -> Calibration:
    return calibration([p for s in stages for p in s.predictions])
