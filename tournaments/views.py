"""Event pages: thin views over selectors (reads) and services (writes).

Service errors are shown as messages on the page the user came from; nothing raises a 500 for
bad input. Organizer-only pages answer 403 to everyone else.
"""

from __future__ import annotations

import random
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from matches.models import Player
from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.forms import CorrectionForm, RegisterForm, SeedingForm, SetResultForm
from tournaments.models import Entrant, Event, Set, Stage
from tournaments.services import (
    advancement,
    events,
    generation,
    registration,
    seeding,
    set_matches,
    verification,
)
from tournaments.services.events import TRANSITIONS


def _event(slug: str, user: Any) -> Event:
    """The event, or 404 (also for a draft the user does not organize: see events_visible_to)."""
    return get_object_or_404(
        selectors.events_visible_to(user).prefetch_related("organizers"), slug=slug
    )


def _back(event: Event) -> HttpResponse:
    return redirect("tournaments:event-detail", slug=event.slug)


def event_list_page(request: HttpRequest) -> HttpResponse:
    events = selectors.event_list(user=request.user)
    return render(request, "tournaments/event_list.html", {"events": events})


def event_detail_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug, request.user)
    entrants = list(selectors.event_entrants(event))
    is_organizer = event.is_organizer(request.user)
    mine = selectors.entrant_for_user(event, request.user)
    context = {
        "event": event,
        "stages": list(event.stages.all()),
        "registered": [e for e in entrants if e.status == Entrant.Status.REGISTERED],
        "waitlist": sorted(
            (e for e in entrants if e.status == Entrant.Status.WAITLISTED),
            key=lambda e: (e.registered_at, e.pk),
        ),
        "others": [e for e in entrants if e.status not in (
            Entrant.Status.REGISTERED, Entrant.Status.WAITLISTED)],
        "is_organizer": is_organizer,
        "mine": mine,
        "invitations": selectors.entrant_invitations_for_user(event, request.user),
        "has_player": hasattr(request.user, "player") if request.user.is_authenticated else False,
        "register_form": RegisterForm(event=event),
        "check_in_open": registration.check_in_is_open(event),
        "next_statuses": [
            (s, Event.Status(s).label) for s in sorted(TRANSITIONS.get(event.status, ()))
        ] if is_organizer else [],
    }
    return render(request, "tournaments/event_detail.html", context)


@login_required
@require_POST
def event_register(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug, request.user)
    form = RegisterForm(request.POST, event=event)
    player = Player.objects.filter(user=request.user).first()
    if player is None:
        messages.error(request, "Your account has no player profile yet.")
        return _back(event)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(errors))
        return _back(event)
    try:
        entrant = registration.entrant_register(
            event=event, actor=request.user,
            players=[player, *form.cleaned_data.get("teammates", [])],
            name=form.cleaned_data.get("name", ""),
            lineup=form.cleaned_data.get("lineup", []),
        )
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        if entrant.status == Entrant.Status.WAITLISTED:
            messages.warning(request, "The event is full: you are on the waitlist.")
        elif entrant.status == Entrant.Status.INVITED:
            messages.info(request, f"{entrant.name} is registered once your teammates accept.")
        else:
            messages.success(request, f"{entrant.name} is registered.")
    return _back(event)


@login_required
@require_POST
def entrant_invitation_answer(
    request: HttpRequest, slug: str, pk: int, answer: str
) -> HttpResponse:
    """The invited player accepts or declines their place on a team's roster."""
    entrant = get_object_or_404(Entrant, pk=pk, event__slug=slug)
    service = (registration.entrant_invitation_accept if answer == "accept"
               else registration.entrant_invitation_decline)
    try:
        entrant = service(entrant=entrant, actor=request.user)
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, f"{entrant.name}: {entrant.get_status_display().lower()}.")
    return _back(entrant.event)


@login_required
@require_POST
def entrant_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    entrant = get_object_or_404(Entrant, pk=pk, event__slug=slug)
    try:
        registration.entrant_withdraw(entrant=entrant, actor=request.user)
        messages.success(request, f"{entrant.name} has withdrawn.")
    except TournamentError as exc:
        messages.error(request, exc.message)
    return _back(entrant.event)


@login_required
@require_POST
def entrant_check_in(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    entrant = get_object_or_404(Entrant, pk=pk, event__slug=slug)
    try:
        registration.entrant_check_in(entrant=entrant, actor=request.user)
        messages.success(request, f"{entrant.name} is checked in.")
    except TournamentError as exc:
        messages.error(request, exc.message)
    return _back(entrant.event)


@login_required
@require_POST
def event_status_change(request: HttpRequest, slug: str) -> HttpResponse:
    event = _event(slug, request.user)
    try:
        events.event_status_change(
            event=event, actor=request.user, status=request.POST.get("status", "")
        )
        messages.success(request, "Status changed.")
    except TournamentError as exc:
        messages.error(request, exc.message)
    return _back(event)


@login_required
@require_POST
def stage_generate(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    stage = get_object_or_404(
        Stage.objects.select_related("event"), pk=pk, event__slug=slug,
        event__in=selectors.events_visible_to(request.user),
    )
    try:
        generation.stage_generate(stage=stage, actor=request.user)
    except TournamentError as exc:
        messages.error(request, exc.message)
        return _back(stage.event)
    messages.success(request, f"{stage.name} is generated.")
    return redirect("tournaments:stage-detail", slug=slug, pk=stage.pk)


@login_required
def event_seeding_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Preview a seeding (manual numbers or drag, random, by rating), then fix it."""
    event = _event(slug, request.user)
    if not event.is_organizer(request.user):
        raise PermissionDenied("organizers only")
    data = request.POST if request.method == "POST" else request.GET
    form = SeedingForm(data or {"method": "manual"})
    preview: list[Entrant] = []
    error = ""
    if form.is_valid():
        method = form.cleaned_data["method"]
        random_seed = form.cleaned_data.get("random_seed")
        if method == "random" and random_seed is None:
            random_seed = random.SystemRandom().randrange(2**31)
        order = None
        if method == "manual":
            current = list(seeding.entrants_in_seed_order(event))
            numbers = {
                e.pk: _int(data.get(f"seed_{e.pk}"), default=i)
                for i, e in enumerate(current, 1)
            }
            order = sorted(numbers, key=lambda pk: (numbers[pk], pk))
        try:
            if request.method == "POST" and data.get("confirm"):
                seeding.event_seeding_set(event=event, actor=request.user, method=method,
                                          order=order, random_seed=random_seed)
                messages.success(request, "Seeding fixed.")
                return _back(event)
            preview = seeding.seeding_preview(event=event, method=method, order=order,
                                              random_seed=random_seed)
        except TournamentError as exc:
            error = exc.message
        form = SeedingForm({"method": method, "random_seed": random_seed})
    return render(request, "tournaments/seeding.html", {
        "event": event, "form": form, "preview": preview, "error": error,
        "method": form.data.get("method"),
    })


def _int(value: Any, *, default: int) -> int:
    try:
        return int(value)
    except (TypeError, ValueError):
        return default


def stage_detail_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    stage = get_object_or_404(
        Stage.objects.select_related("event"), pk=pk, event__slug=slug,
        event__in=selectors.events_visible_to(request.user),
    )
    context: dict[str, Any] = {"event": stage.event, "stage": stage,
                               "is_organizer": stage.event.is_organizer(request.user)}
    if stage.status != Stage.Status.PENDING:
        seeds = dict(stage.entries.values_list("entrant_id", "seed"))
        set_url = reverse("tournaments:set-detail", args=[slug, 0])[: -len("0/")]
        context["sections"] = [
            {
                "title": section.title,
                "bracket": section.bracket,
                "rounds": [
                    {"name": r.name, "sets": [_set_box(s, seeds, set_url) for s in r.sets]}
                    for r in section.rounds
                ],
            }
            for section in selectors.stage_bracket(stage)
        ]
        standings = selectors.stage_standings(stage)
        context["tiebreak_names"] = [n.replace("_", " ") for n in standings.tiebreak_names]
        context["standing_groups"] = [
            (group, [
                (line, [line.tiebreaks.get(n) for n in standings.tiebreak_names])
                for line in lines
            ])
            for group, lines in standings.groups
        ]
    return render(request, "tournaments/stage_detail.html", context)


def _side_box(s: Set, side: str, seeds: dict[int, int]) -> dict[str, Any]:
    entrant = s.entrant_a if side == "a" else s.entrant_b
    return {
        "name": s.side_label(side),
        "seed": seeds.get(entrant.pk) if entrant else None,
        "score": (s.score_a if side == "a" else s.score_b) if s.outcome == "played" else "",
        "won": bool(s.winner_id) and entrant is not None and s.winner_id == entrant.pk,
        "empty": entrant is None,
    }


def _set_box(s: Set, seeds: dict[int, int], set_url: str) -> dict[str, Any]:
    """What the bracket shows for one set (plain values: fast to render at 256 entrants)."""
    to = []
    if s.winner_to_key:
        to.append(f"W→{s.winner_to_key}")
    if s.loser_to_key:
        to.append(f"L→{s.loser_to_key}")
    return {
        "key": s.key, "url": f"{set_url}{s.pk}/", "status": s.status, "group": s.group,
        "outcome": s.get_outcome_display() if s.outcome not in ("", "played") else "",
        "best_of": s.best_of, "a": _side_box(s, "a", seeds), "b": _side_box(s, "b", seeds),
        "to": " · ".join(to),
        "window": (
            f"{s.window_opens_at:%d %b} to {s.window_closes_at:%d %b}"
            if s.window_opens_at and s.window_closes_at else ""
        ),
    }


def _set(slug: str, pk: int, user: Any) -> Set:
    return get_object_or_404(
        Set.objects.select_related("stage__event", "entrant_a", "entrant_b", "winner"),
        pk=pk, stage__event__slug=slug, stage__event__in=selectors.events_visible_to(user),
    )


def set_detail_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    s = _set(slug, pk, request.user)
    event = s.stage.event
    is_organizer = event.is_organizer(request.user)
    form = SetResultForm(request.POST or None, set=s)
    if request.method == "POST":
        if not is_organizer:
            raise PermissionDenied("organizers only")
        if form.is_valid():
            try:
                advancement.set_result_report(set=s, actor=request.user, result=form.to_result())
                messages.success(request, "Result recorded.")
                return redirect("tournaments:set-detail", slug=slug, pk=s.pk)
            except TournamentError as exc:
                messages.error(request, exc.message)
    is_player = request.user.is_authenticated and event.entrants.filter(
        pk__in=[s.entrant_a_id, s.entrant_b_id], members__player__user=request.user
    ).exists()
    return render(request, "tournaments/set_detail.html", {
        "event": event, "set": s, "games": selectors.set_games(s), "form": form,
        "is_organizer": is_organizer, "changes": s.changes.select_related("changed_by")[:20],
        "set_matches": s.set_matches.select_related("match").order_by("created_at", "id"),
        "can_open_match": s.status == Set.Status.READY and (is_organizer or is_player),
    })


@login_required
def event_verification_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Re-verify every match log of the event (after a confirmation), and watch the progress."""
    event = _event(slug, request.user)
    if not event.is_organizer(request.user):
        raise PermissionDenied("organizers only")
    if request.method == "POST":
        if request.POST.get("confirm") != "yes":
            messages.error(request, "Tick the box to confirm the re-verification.")
        else:
            batch = verification.event_logs_reverify(event=event, actor=request.user)
            messages.success(request, f"Re-verifying {batch.total} match logs.")
        return redirect("tournaments:event-verification", slug=slug)
    latest = verification.event_verification_latest(event)
    return render(request, "tournaments/event_verification.html", {
        "event": event,
        "log_count": verification.event_match_logs(event).count(),
        "batch": latest[0] if latest else None,
        "progress": latest[1] if latest else None,
    })


@login_required
@require_POST
def set_match_open_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Start (or return to) the match for the set's next game, then submit its log there."""
    s = _set(slug, pk, request.user)
    try:
        match = set_matches.set_match_open(set=s, actor=request.user)
    except TournamentError as exc:
        messages.error(request, exc.message)
        return redirect("tournaments:set-detail", slug=slug, pk=pk)
    return redirect("matches:match-detail", pk=match.pk)


@login_required
def set_correct_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Correct a finished set: the first POST shows what will change, the second confirms."""
    s = _set(slug, pk, request.user)
    event = s.stage.event
    if not event.is_organizer(request.user):
        raise PermissionDenied("organizers only")
    form = CorrectionForm(request.POST or None, set=s)
    plan = None
    if request.method == "POST" and form.is_valid():
        try:
            if request.POST.get("confirm"):
                advancement.set_result_correct(
                    set=s, actor=request.user, result=form.to_result(),
                    reason=form.cleaned_data["reason"], confirm=True,
                )
                messages.success(request, "Result corrected.")
                return redirect(reverse("tournaments:stage-detail", args=[slug, s.stage_id]))
            plan = advancement.set_correction_preview(
                set=s, actor=request.user, result=form.to_result()
            )
        except TournamentError as exc:
            messages.error(request, exc.message)
    return render(request, "tournaments/set_correct.html", {
        "event": event, "set": s, "form": form, "plan": plan,
        "summary": advancement.describe_plan(plan) if plan else "",
    })


def player_ratings_page(request: HttpRequest) -> HttpResponse:
    players = selectors.player_list().filter(rating__isnull=False).order_by("-rating__ordinal")
    return render(request, "players/ratings.html", {"players": players})


def player_detail_page(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player.objects.select_related("user"), pk=pk)
    history = list(selectors.player_rating_history(player))
    return render(request, "players/player_detail.html", {
        "player": player,
        "rating": selectors.player_rating(player),
        "history": history[-50:],
        "sparkline": _sparkline([h.ordinal for h in history]),
        "sets": selectors.player_sets(player)[:50],
        "entries": selectors.player_events(player),
    })


def _sparkline(values: list[float], width: int = 300, height: int = 60) -> str:
    """SVG polyline points for the rating history (empty when fewer than two values)."""
    if len(values) < 2:
        return ""
    low, high = min(values), max(values)
    span = (high - low) or 1.0
    step = width / (len(values) - 1)
    return " ".join(
        f"{i * step:.1f},{height - (v - low) / span * height:.1f}" for i, v in enumerate(values)
    )
