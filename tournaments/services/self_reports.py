"""Self-reported results: a player reports the set's score, the opponent confirms or disputes.

Only in events whose ``result_policy`` is self-reporting. A confirmed report is recorded as the
set's result with the action ``self_report`` (the set page marks it unverified: no log was
replayed); a disputed one waits for an organizer, who decides the set on its page.
"""

from __future__ import annotations

from typing import Any

from django.db import transaction
from django.utils import timezone

from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Event, Set, SetReport
from tournaments.services.advancement import SetResult, _validate_result, set_result_record
from tournaments.services.picks import member_side
from tournaments.services.set_matches import require_window


def _games(result: SetResult) -> list[dict[str, Any]]:
    return [{"winner_side": g.winner_side, "characters_a": list(g.characters_a),
             "characters_b": list(g.characters_b)} for g in result.games]


def _result(report: SetReport) -> SetResult:
    from tournaments.services.advancement import GameInput

    return SetResult(
        games=[GameInput(g["winner_side"], g.get("characters_a", []), g.get("characters_b", []))
               for g in report.games],
        forfeit=report.forfeit,
    )


def _ready_set(set: Set) -> Set:
    s = Set.objects.select_for_update(of=("self",)).select_related("stage__event").get(pk=set.pk)
    if s.stage.event.result_policy != Event.ResultPolicy.SELF_REPORT:
        raise TournamentError(
            TournamentErrorCode.INVALID,
            f"{s.stage.event.name} takes results from verified match logs, not reported scores",
        )
    if s.status != Set.Status.READY:
        raise TournamentError(
            TournamentErrorCode.SET_NOT_READY,
            f"{s.round_name or s.key} is {s.get_status_display().lower()}: nothing to report",
        )
    # League sets are reported inside their round's window, as games are started in it.
    require_window(s, is_organizer=False)
    return s


@transaction.atomic
def set_report_submit(*, set: Set, actor: Any, result: SetResult) -> SetReport:
    """A player of the set reports its score; a pending report of theirs is replaced."""
    s = _ready_set(set)
    side = member_side(s, actor)
    if side is None:
        raise TournamentError(
            TournamentErrorCode.NOT_YOUR_ENTRANT, "only the set's players report its score"
        )
    _validate_result(s, result)
    pending = s.reports.filter(status=SetReport.Status.PENDING)
    if pending.exclude(side=side).exists():
        raise TournamentError(
            TournamentErrorCode.INVALID,
            "your opponent already reported this set: confirm or dispute their report",
        )
    pending.update(status=SetReport.Status.SUPERSEDED)
    return SetReport.objects.create(set=s, side=side, games=_games(result),
                                    forfeit=result.forfeit, reported_by=actor)


def _answerable(report: SetReport, actor: Any) -> SetReport:
    report = SetReport.objects.select_for_update().select_related("set").get(pk=report.pk)
    s = _ready_set(report.set)
    report.set = s
    side = member_side(s, actor)
    if side is None or side == report.side:
        raise TournamentError(
            TournamentErrorCode.NOT_YOUR_ENTRANT, "only the opponent answers a reported score"
        )
    if report.status != SetReport.Status.PENDING:
        raise TournamentError(
            TournamentErrorCode.INVALID, f"this report is {report.get_status_display().lower()}"
        )
    return report


@transaction.atomic
def set_report_confirm(*, report: SetReport, actor: Any) -> Set:
    """The opponent confirms: the score becomes the set's result (self-reported, unverified)."""
    report = _answerable(report, actor)
    s = set_result_record(set=report.set, actor=report.reported_by, result=_result(report),
                          action="self_report")
    report.status, report.answered_by, report.answered_at = (
        SetReport.Status.CONFIRMED, actor, timezone.now())
    report.save(update_fields=["status", "answered_by", "answered_at"])
    return s


@transaction.atomic
def set_report_dispute(*, report: SetReport, actor: Any, reason: str) -> SetReport:
    """The opponent disputes: an organizer decides the set (it stays ready until then)."""
    report = _answerable(report, actor)
    if not reason.strip():
        raise TournamentError(TournamentErrorCode.INVALID, "say what is wrong with the report")
    report.status, report.answered_by, report.answered_at = (
        SetReport.Status.DISPUTED, actor, timezone.now())
    report.reason = reason.strip()
    report.save(update_fields=["status", "answered_by", "answered_at", "reason"])
    return report
