"""A set whose game's log was refused goes on (issue 35): the refused match is closed, its log
kept, and the game is played again in a fresh match (a new room), instead of the set waiting
forever on a match whose room has finished."""

from __future__ import annotations

from typing import Any

from django.db import transaction

from matches.models import AuditEntry, Match, VerificationRun
from matches.services import match_cancel
from matches.verdicts import verdict_view
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Set, SetMatch
from tournaments.services.set_matches import _is_member, set_match_open


def set_refused_logs(s: Set) -> dict[int, str]:
    """The set's open matches whose latest log was refused, each with why (the verdict's
    headline): a game to play again."""
    out = {}
    links = s.set_matches.filter(is_recorded=False, match__status=Match.Status.AWAITING_LOG)
    for link in links:
        run = (VerificationRun.objects.filter(log__match_id=link.match_id)
               .order_by("-created_at", "-id").first())
        room = (AuditEntry.objects.filter(match_id=link.match_id,
                                          action=AuditEntry.Action.LOG_ROOM_REFUSED)
                .order_by("-created_at", "-id").first())
        if room is not None and (run is None or run.created_at < room.created_at):
            out[link.match_id] = room.reason  # the room's log, refused before verification
        elif run is not None and run.status == VerificationRun.Status.ILLEGAL:
            out[link.match_id] = verdict_view(run.verdict or {}).headline
    return out


@transaction.atomic
def set_match_replay(*, set: Set, actor: Any) -> Match:
    """Close the set's match whose log was refused and open a fresh one for the same game;
    the set's players or its organizers only."""
    s = Set.objects.select_for_update(of=("self",)).select_related("stage__event").get(pk=set.pk)
    if not (s.stage.event.is_organizer(actor) or _is_member(s, actor)):
        raise TournamentError(
            TournamentErrorCode.NOT_YOUR_ENTRANT,
            "only the set's players or the event's organizers may play its game again",
        )
    refused = set_refused_logs(s)
    if not refused:
        raise TournamentError(
            TournamentErrorCode.INVALID,
            f"{s.round_name or s.key} has no refused log: its game goes on in its match",
        )
    for match_id, why in refused.items():
        match_cancel(match=Match.objects.get(pk=match_id), actor=actor,
                     reason=f"its log was refused ({why}); the game is played again")
        SetMatch.objects.filter(set=s, match_id=match_id).update(is_recorded=True)
    return set_match_open(set=s, actor=actor)
