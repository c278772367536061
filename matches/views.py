"""Match pages: list, detail with verdicts, log submission, confirmation, override, disputes."""

from __future__ import annotations

from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from matches import selectors, services
from matches.errors import MatchError
from matches.forms import LogSubmitForm, ResultOverrideForm
from matches.models import Match, VerdictChange, VerificationRun
from matches.ratelimits import submission_rate_check
from matches.services.matches import match_user_is_manager
from matches.verdicts import verdict_view

# Lists are paged (Django's Paginator): a page of rows, never the whole table.
PAGE_SIZE = 50


def player_list_page(request: HttpRequest) -> HttpResponse:
    players = Paginator(selectors.player_list(), PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "matches/player_list.html", {"players": players})


def match_list_page(request: HttpRequest) -> HttpResponse:
    matches = selectors.match_list()
    status = request.GET.get("status", "")
    if status in Match.Status.values:
        matches = matches.filter(status=status)
    page = Paginator(matches, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(
        request, "matches/match_list.html",
        {"matches": page, "statuses": Match.Status.choices, "status": status,
         "page_extra": f"status={status}&" if status else ""},
    )


def _seats(match: Match, logs: list[dict[str, Any]]) -> list[dict[str, object]]:
    """Tag Team and Dramatic Battle: the seats at the table (P1..P4) from the latest verified
    log's facts: side, player (a side's members in order, one a character), character, final
    life and whether it was defeated. Empty for modes with one seat a side."""
    facts = next((item["run"].verdict.get("facts") for item in reversed(logs)
                  if item["verdict"] is not None and item["run"].verdict.get("facts")), None)
    if not facts or "seats" not in facts:
        return []
    members = {side: [s for s in match.sides.all() if s.side == side] for side in (1, 2)}
    rows: list[dict[str, object]] = []
    for side_name, seats in facts["seats"].items():
        side = 1 if side_name == "P1" else 2
        team = facts["teams"][side_name]
        defeated = facts.get("defeated", {}).get(side_name, [])
        for order, seat in enumerate(seats):
            player = facts["players"].get(seat, {})
            character = team[order] if order < len(team) else player.get("character")
            roster = members[side]
            rows.append({
                "seat": seat, "side": side,
                "role": "active" if order == 0 else "bench",
                "player": roster[order].player.display_name if order < len(roster) else "",
                "character": str(character).title(),
                "life": player.get("life"),
                "defeated": character in defeated,
            })
    return sorted(rows, key=lambda r: str(r["seat"]))


def _detail_context(request: HttpRequest, match: Match) -> dict[str, object]:
    user_side = services.match_user_side(match, request.user)
    logs = []
    for log in match.logs.all():
        run = selectors.log_latest_run(log)
        is_finished = run is not None and run.is_finished
        # Stored analyses only: a page never replays a log (a 2 MB log takes seconds). A run
        # finished before analyses were stored has none until it is verified again.
        is_analysed = is_finished and run.turn_count is not None
        turns = (selectors.run_timeline_page(run, request.GET.get(f"turns-{log.pk}"))
                 if is_analysed else None)
        logs.append({
            "log": log,
            "run": run,
            "verdict": verdict_view(run.verdict) if is_finished else None,
            "analysis_pending": is_finished and not is_analysed,
            "turns": turns,  # a page of the timeline (Django's Paginator)
            "turns_param": f"turns-{log.pk}",
            # the position before the first illegal event, beside the verdict
            "board": run.board_before if is_analysed else None,
            "sides": sorted({e.side for e in log.endorsements.all() if e.side is not None}),
        })
    awaiting = [
        item for item in logs
        if match.status == Match.Status.AWAITING_CONFIRMATION
        and item["run"] is not None
        and item["run"].status in VerificationRun.ENDORSABLE_STATUSES
    ]
    can_confirm = bool(
        user_side is not None and awaiting and user_side not in awaiting[0]["sides"]
    )
    is_manager = match_user_is_manager(match, request.user)
    can_submit = (user_side is not None or is_manager) and match.status not in (
        Match.Status.CONFIRMED, Match.Status.DISPUTED
    )
    # The log behind the result leads the page; the others (illegal, superseded, not chosen)
    # follow it, collapsed, so a reader sees what decided the match first.
    deciding = next((item for item in logs if item["log"].pk == match.result_log_id), None)
    return {
        "match": match,
        "deciding_log": deciding,
        "other_logs": [item for item in logs if item is not deciding] if deciding else [],
        "winners": [s for s in match.sides.all() if s.side == match.winner_side],
        "seats": _seats(match, logs),
        "sides": {1: [s for s in match.sides.all() if s.side == 1],
                  2: [s for s in match.sides.all() if s.side == 2]},
        "logs": logs,
        "user_side": user_side,
        "can_confirm": can_confirm,
        "awaiting_log": awaiting[0]["log"] if can_confirm else None,
        "can_submit": can_submit,
        "is_manager": is_manager,
        "disputes": list(match.disputes.all()),
        "verdict_changes": [c for c in match.verdict_changes.all() if c.is_open]
        if is_manager else [],
        "awaiting_unverified": bool(
            awaiting and awaiting[0]["run"].status == VerificationRun.Status.UNVERIFIABLE),
    }


def match_detail_page(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(selectors.match_detail_queryset(), pk=pk)
    form = LogSubmitForm()
    if request.method == "POST":
        if not request.user.is_authenticated:
            return redirect(f"/accounts/login/?next={request.path}")
        form = LogSubmitForm(request.POST, request.FILES)
        try:
            submission_rate_check(request)
        except MatchError as error:
            context = {**_detail_context(request, match), "form": form}
            messages.error(request, error.message)
            return render(request, "matches/match_detail.html", context, status=429)
        if form.is_valid():
            try:
                outcome = services.match_log_submit(
                    match=match, submitted_by=request.user, log_bytes=form.log_bytes()
                )
            except MatchError as error:
                form.add_error(None, error.message)
            else:
                messages.success(
                    request,
                    "Log received; the rules engine is verifying it." if outcome.is_new
                    else "This exact log was already submitted; nothing changed.",
                )
                return redirect("matches:match-detail", pk=match.pk)
    context = _detail_context(request, match)
    context["form"] = form
    return render(request, "matches/match_detail.html", context, status=400 if form.errors else 200)


def _log_read(request: HttpRequest) -> int:
    """The log the player read (the confirm and dispute forms carry it); LOG_UNNAMED if the
    form named none (the service refuses it after checking who asks)."""
    raw = request.POST.get("log", "")
    return int(raw) if raw.isdigit() else services.LOG_UNNAMED


@login_required
@require_POST
def match_confirm(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    try:
        services.match_log_confirm(match=match, user=request.user,
                                   log_id=_log_read(request))
    except MatchError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "Result confirmed.")
    return redirect("matches:match-detail", pk=pk)


@login_required
@require_POST
def match_dispute(request: HttpRequest, pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    try:
        services.match_log_dispute(
            match=match, user=request.user, reason=request.POST.get("reason", ""),
            log_id=_log_read(request),
        )
    except MatchError as error:
        messages.error(request, error.message)
    else:
        messages.success(request, "Dispute opened: an organizer will decide the result.")
    return redirect("matches:match-detail", pk=pk)


@login_required
def match_override(request: HttpRequest, pk: int) -> HttpResponse:
    """Two steps: the organizer sees the current and the new result, then confirms."""
    match = get_object_or_404(Match, pk=pk)
    if not match_user_is_manager(match, request.user):
        messages.error(request, "Only the event's organizers or staff may override a result.")
        return redirect("matches:match-detail", pk=pk)
    form = ResultOverrideForm(request.POST or None)
    preview = None
    if request.method == "POST" and form.is_valid():
        if form.cleaned_data["confirmed"]:
            try:
                services.match_result_override(
                    match=match, actor=request.user, reason=form.cleaned_data["reason"],
                    **form.result_args(),
                )
            except MatchError as error:
                form.add_error(None, error.message)
            else:
                messages.success(request, "Result overridden and recorded in the audit log.")
                return redirect("matches:match-detail", pk=pk)
        else:
            preview = form.result_args()
            form = ResultOverrideForm(initial={**form.cleaned_data, "confirmed": True})
    return render(
        request, "matches/match_override.html",
        {"match": match, "form": form, "preview": preview,
         "audit": match.audit_entries.select_related("actor")[:20]},
    )


@login_required
def verdict_change_list_page(request: HttpRequest) -> HttpResponse:
    """Organizers: the final results whose log a newer engine judges differently."""
    return render(request, "matches/verdict_changes.html",
                  {"changes": selectors.verdict_changes_open(request.user)})


@login_required
@require_POST
def verdict_change_review(request: HttpRequest, pk: int, change_pk: int) -> HttpResponse:
    change = get_object_or_404(VerdictChange, pk=change_pk, match_id=pk)
    try:
        services.verdict_change_review(change=change, user=request.user,
                                       note=request.POST.get("note", "")[:2000])
    except MatchError as error:
        messages.error(request, error.message)
        return redirect("matches:match-detail", pk=pk)
    messages.success(request, "Marked as reviewed; the result stays as it is.")
    return redirect("matches:match-detail", pk=pk)


def dispute_detail_page(request: HttpRequest, pk: int, dispute_pk: int) -> HttpResponse:
    match = get_object_or_404(Match, pk=pk)
    dispute = get_object_or_404(match.disputes.select_related("log_a", "log_b"), pk=dispute_pk)
    return render(request, "matches/dispute_detail.html", {"match": match, "dispute": dispute})
