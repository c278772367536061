"""Status changes as tables: a change not in the table is refused, naming both statuses."""

from __future__ import annotations

from matches.errors import MatchError, MatchErrorCode
from matches.models import Match, VerificationRun

MS = Match.Status
RS = VerificationRun.Status

MATCH_TRANSITIONS: dict[str, frozenset[str]] = {
    # a log arrives; or an organizer sets the result without one
    MS.AWAITING_LOG: frozenset({MS.VERIFYING, MS.CONFIRMED, MS.CANCELLED}),
    # the verdict: back to waiting (illegal), waiting for the other side, a clash, or final
    MS.VERIFYING: frozenset(
        {MS.AWAITING_LOG, MS.AWAITING_CONFIRMATION, MS.DISPUTED, MS.CONFIRMED, MS.CANCELLED}
    ),
    # the opponent confirms, or sends a log of their own
    MS.AWAITING_CONFIRMATION: frozenset(
        {MS.VERIFYING, MS.CONFIRMED, MS.DISPUTED, MS.CANCELLED}
    ),
    # only an organizer ends a dispute
    MS.DISPUTED: frozenset({MS.CONFIRMED, MS.CANCELLED}),
    # an unfinished match its owner no longer needs (its set changed entrants): final
    MS.CANCELLED: frozenset(),
    # a confirmed result changes only by an organizer's override (recorded in the audit log)
    MS.CONFIRMED: frozenset({MS.CONFIRMED}),
}

RUN_TRANSITIONS: dict[str, frozenset[str]] = {
    RS.PENDING: frozenset({RS.RUNNING}),
    # RUNNING -> RUNNING: a worker died mid-run and the redelivered task starts again
    RS.RUNNING: frozenset(
        {RS.RUNNING, RS.LEGAL, RS.ILLEGAL, RS.RESULT_MISMATCH, RS.UNVERIFIABLE, RS.ERROR}
    ),
    RS.LEGAL: frozenset(),
    RS.ILLEGAL: frozenset(),
    RS.RESULT_MISMATCH: frozenset(),
    # verified again by a new run when the engine version changes
    RS.UNVERIFIABLE: frozenset(),
    # an engine bug is fixed, then the run is retried
    RS.ERROR: frozenset({RS.PENDING}),
}


def _check(table: dict[str, frozenset[str]], what: str, current: str, new: str) -> None:
    if new not in table[current]:
        raise MatchError(
            MatchErrorCode.INVALID_TRANSITION,
            f"{what} cannot go from {current} to {new}",
            current=current, requested=new,
        )


def match_status_change(match: Match, new: str) -> None:
    """Set ``match.status`` (unsaved) if the table allows it, else raise naming both statuses."""
    _check(MATCH_TRANSITIONS, "a match", match.status, new)
    match.status = new


def run_status_change(run: VerificationRun, new: str) -> None:
    _check(RUN_TRANSITIONS, "a verification run", run.status, new)
    run.status = new
