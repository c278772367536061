"""What a finished room says about its match's result: a link worded by what the match holds
(issue 35: "See the match's verified result" was offered for a refused log, with no result)."""

from __future__ import annotations

from typing import Any

from django.urls import reverse

from matches.models import Match, VerificationRun
from matches.verdicts import verdict_view
from rooms.models import Room


def room_match_link(room: Room) -> dict[str, Any]:
    """``match_url``, ``match_link_text`` and, for a refused log, ``result_problem``."""
    if room.match_id is None:
        return {}
    match = Match.objects.filter(pk=room.match_id).only("status", "result_log_id").first()
    if match is None:
        return {}
    out: dict[str, Any] = {"match_url": reverse("matches:match-detail", args=[match.pk])}
    if room.mode in ("training", "survival"):
        out["match_link_text"] = "See your solo run"
    elif match.status == Match.Status.CONFIRMED and match.result_log_id == room.match_log_id:
        out["match_link_text"] = "See the match's verified result"
    else:
        out["match_link_text"] = f"See the match ({match.get_status_display().lower()})"
    run = (VerificationRun.objects.filter(log_id=room.match_log_id)
           .order_by("-created_at", "-id").first() if room.match_log_id else None)
    if run is not None and run.status == VerificationRun.Status.ILLEGAL:
        out["result_problem"] = (f"the log was refused ({verdict_view(run.verdict).headline}); "
                                 "no result was recorded. The set's page says how to go on.")
    return out
