"""A log the site itself recorded while the match was played in its match room (issue 22).

Trust decision (docs/rooms.md, docs/security.md): the room applied every choice through the
engine on the server, each one sent by the player of the seat it belongs to, so for an event's
match the log needs no second submission or confirmation; both sides' endorsements are implied
(``LogEndorsement.Via.ROOM``). Outside any event the room speaks only for the sides whose
players chose themselves: a side whose every decision the clock made confirms or disputes the
log like an upload (issue 31). It still goes through the same verification on the workers as
any upload: only a LEGAL verdict makes it the result (``match_settle``), and the audit trail
names the room.
"""

from __future__ import annotations

import hashlib

from django.db import transaction
from django.utils import timezone

from matches.errors import MatchError, MatchErrorCode
from matches.models import AuditEntry, LogEndorsement, Match, MatchLog, VerificationRun
from matches.services.submission import (
    SubmissionOutcome,
    _verification_enqueue_on_commit,
    log_text_decode,
)
from matches.status import match_status_change


def match_log_record_from_room(
    *, match: Match, log_bytes: bytes, room_ref: str, vouching_sides: set[int] | None = None
) -> SubmissionOutcome:
    """Store the room's log for ``match``, endorsed by every side, and queue its verification.

    ``room_ref`` names the room in the audit entry. ``vouching_sides``: the sides the room
    speaks for (None: both); a side left out confirms or disputes the log itself, as it would
    an uploaded one. Recording the same bytes again changes nothing (a retry after a lost
    reply).
    """
    text, log_mode = log_text_decode(log_bytes)
    sha256 = hashlib.sha256(log_bytes).hexdigest()
    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=match.pk)
        if log_mode != match.mode:
            raise MatchError(
                MatchErrorCode.LOG_MODE_MISMATCH,
                f"the room recorded a {log_mode} game but this match is "
                f"{match.get_mode_display()}",
                json_path="$.mode", log_mode=log_mode, match_mode=match.mode,
            )
        if match.status in (Match.Status.CONFIRMED, Match.Status.DISPUTED,
                            Match.Status.CANCELLED):
            raise MatchError(
                MatchErrorCode.MATCH_CLOSED,
                f"the match is {match.get_status_display().lower()}; the room's log is kept "
                "in the room only",
                status=match.status,
            )
        existing = MatchLog.objects.filter(match=match, sha256=sha256).first()
        if existing is not None:
            return SubmissionOutcome(log=existing, is_new=False, run=None)
        # One player per side vouches (the first of each roster); the first of side 1 is the
        # stored submitter because a log row needs one. The endorsements say "room", not
        # "submitted it", so nobody is credited with a submission they did not make.
        vouchers = {}
        for side in match.sides.select_related("player__user").order_by("side", "order"):
            vouchers.setdefault(side.side, side.player.user)
        if set(vouchers) != {1, 2}:
            raise MatchError(MatchErrorCode.INVALID_RESULT, "a match needs a player on each side")
        everyone = vouchers
        if vouching_sides is not None:
            vouchers = {side: user for side, user in everyone.items() if side in vouching_sides}
        # the stored submitter: a side that vouches (side 1's first when none does)
        submitter = next(iter(vouchers.values()), everyone[1])
        log = MatchLog.objects.create(
            match=match, sha256=sha256, text=text, size_bytes=len(log_bytes),
            submitted_by=submitter,
        )
        for side, user in vouchers.items():
            LogEndorsement.objects.create(log=log, user=user, side=side,
                                          via=LogEndorsement.Via.ROOM)
        run = VerificationRun.objects.create(log=log, enqueued_at=timezone.now())
        if match.status != Match.Status.VERIFYING:
            match_status_change(match, Match.Status.VERIFYING)
            match.save(update_fields=["status", "updated_at"])
        AuditEntry.objects.create(
            match=match, actor=None, action=AuditEntry.Action.LOG_ROOM_RECORDED,
            after={"log": log.pk, "sha256": sha256, "size_bytes": log.size_bytes,
                   "room": room_ref, "endorsed_by_sides": sorted(vouchers)},
        )
        _verification_enqueue_on_commit(run.pk)
    return SubmissionOutcome(log=log, is_new=True, run=run)


def match_room_log_refused(*, match: Match, reason: str, room_ref: str) -> AuditEntry:
    """The room's game ended but its log could not be recorded for ``match`` (unreadable, the
    match closed meanwhile): say so in the match's audit log, where its owner and those waiting
    on the match see it (issue 35: the set stayed "Awaiting a log" and nobody was told)."""
    return AuditEntry.objects.create(
        match=match, actor=None, action=AuditEntry.Action.LOG_ROOM_REFUSED, reason=reason[:500],
        after={"room": room_ref, "status": match.status},
    )
