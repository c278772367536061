"""Event pages: thin views over selectors (reads) and services (writes).

Service errors are shown as messages on the page the user came from; nothing raises a 500 for
bad input. Organizer-only pages answer 403 to everyone else.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from django.contrib import messages
from django.contrib.auth.decorators import login_required
from django.core.exceptions import PermissionDenied
from django.core.paginator import Paginator
from django.http import HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.urls import reverse
from django.views.decorators.http import require_POST

from matches.models import Player
from tournaments import selectors
from tournaments.errors import TournamentError
from tournaments.forms import (
    CorrectionForm,
    EntrantAddForm,
    EventForm,
    OrganizerAddForm,
    ReasonForm,
    RegisterForm,
    SeedingForm,
    SetResultForm,
    StageForm,
)
from tournaments.models import Entrant, Event, Set, SetReport, Stage
from tournaments.services import (
    advancement,
    events,
    generation,
    picks,
    registration,
    seeding,
    self_reports,
    set_matches,
    set_recovery,
    verification,
)
from tournaments.services.events import TRANSITIONS

# Lists are paged (Django's Paginator): a page of rows, never the whole table.
PAGE_SIZE = 50


def _event(slug: str, user: Any) -> Event:
    """The event, or 404 (also for a draft the user does not organize: see events_visible_to)."""
    return get_object_or_404(
        selectors.events_visible_to(user).prefetch_related("organizers"), slug=slug
    )


def _back(event: Event) -> HttpResponse:
    return redirect("tournaments:event-detail", slug=event.slug)


@login_required
def my_matches_page(request: HttpRequest) -> HttpResponse:
    """The user's next step in each event: answer, check in, play, submit, confirm or wait."""
    steps = selectors.player_next_steps(request.user)
    return render(request, "tournaments/my_matches.html", {
        "todo": [s for s in steps if s.kind != "wait"],
        "waiting": [s for s in steps if s.kind == "wait"],
    })


def event_list_page(request: HttpRequest) -> HttpResponse:
    events = Paginator(selectors.event_list(user=request.user), PAGE_SIZE).get_page(
        request.GET.get("page"))
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
        "disputes": selectors.event_open_disputes(event) if is_organizer else [],
        "disputed_reports": selectors.event_disputed_reports(event) if is_organizer else [],
        "mine": mine,
        "champion": selectors.event_champion(event),
        "unchecked": selectors.event_unchecked_entrants(event) if is_organizer else [],
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
            characters=form.cleaned_data.get("characters", []),
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


def _entrant_change(request: HttpRequest, slug: str, pk: int,
                    change: Callable[..., object], done: str) -> Entrant:
    """Make the registration service ``change`` for the user on the event's entrant ``pk`` and
    say so (``done`` follows the entrant's name), or say why it was refused; the entrant."""
    entrant = get_object_or_404(Entrant, pk=pk, event__slug=slug)
    try:
        change(entrant=entrant, actor=request.user)
        messages.success(request, f"{entrant.name} {done}")
    except TournamentError as exc:
        messages.error(request, exc.message)
    return entrant


@login_required
@require_POST
def entrant_withdraw(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    entrant = _entrant_change(request, slug, pk, registration.entrant_withdraw, "has withdrawn.")
    return _back(entrant.event)


@login_required
@require_POST
def entrant_check_in(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    entrant = _entrant_change(request, slug, pk, registration.entrant_check_in, "is checked in.")
    if request.POST.get("from") == "entrants":
        # the organizer checks entrants in one after another from the entrants page: back
        # there, not to the event page (one page load per entrant, not two)
        return redirect("tournaments:event-entrants", slug=slug)
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
    unchecked = [e.name for e in selectors.event_unchecked_entrants(stage.event)]
    try:
        generation.stage_generate(stage=stage, actor=request.user)
    except TournamentError as exc:
        messages.error(request, exc.message)
        return _back(stage.event)
    removed = [e.name for e in stage.event.entrants.filter(
        status=Entrant.Status.REMOVED, name__in=unchecked)]
    messages.success(request, f"{stage.name} is generated." + (
        f" Removed for not checking in: {', '.join(sorted(removed))}." if removed else ""))
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
        set_url = reverse("tournaments:set-detail", args=[slug, 0])[: -len("0/")]
        rounds = selectors.stage_bracket_rounds(stage)
        if sum(link.sets for link in rounds) > selectors.BRACKET_WHOLE_MAX_SETS:
            # Large stages: one round at a time (the first unfinished one unless chosen), a page
            # of sets at a time, with links to every round.
            chosen = next((link for link in rounds if link.key == request.GET.get("round")),
                          next((link for link in rounds if link.unfinished), rounds[-1]))
            section, page = selectors.stage_bracket_round_page(stage, chosen,
                                                               request.GET.get("page"))
            sections = [section]
            context.update(round_links=rounds, round_chosen=chosen, round_page=page)
        else:
            sections = selectors.stage_bracket(stage)
        shown = [s for section in sections for r in section.rounds for s in r.sets]
        entrant_ids = {e for s in shown for e in (s.entrant_a_id, s.entrant_b_id) if e}
        seeds = dict(stage.entries.filter(entrant_id__in=entrant_ids)
                     .values_list("entrant_id", "seed"))
        context["sections"] = [
            {
                "title": section.title,
                "bracket": section.bracket,
                "rounds": _rounds(section, seeds, set_url),
            }
            for section in sections
        ]
    # Standings are shown for table formats, and for a bracket once it is finished.
    if stage.status != Stage.Status.PENDING and (
        stage.kind not in Stage.ELIMINATION_KINDS or stage.status == Stage.Status.FINISHED
    ):
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


def _rounds(section: Any, seeds: dict[int, int], set_url: str) -> list[dict[str, Any]]:
    rounds = section.rounds
    drawn = section.bracket not in (Set.Bracket.ROUND_ROBIN, Set.Bracket.SWISS)
    joins = [_joins(r, nxt) if drawn else ""
             for r, nxt in zip(rounds, [*rounds[1:], None], strict=True)]
    return [
        {"name": r.name, "sets": [_set_box(s, seeds, set_url) for s in r.sets],
         "joins": joins[i], "has_in": i > 0 and bool(joins[i - 1])}
        for i, r in enumerate(rounds)
    ]


def _joins(this: Any, following: Any) -> str:
    """How a round's sets connect to the next round's: in pairs, one to one, or not drawn."""
    if following is None:
        return ""
    if len(following.sets) * 2 == len(this.sets):
        return "pairs"
    if len(following.sets) == len(this.sets):
        return "straight"
    return ""


def _side_box(s: Set, side: str, seeds: dict[int, int]) -> dict[str, Any]:
    entrant = s.entrant_a if side == "a" else s.entrant_b
    return {
        "name": s.side_label(side),
        "seed": seeds.get(entrant.pk) if entrant else None,
        "score": (s.score_a if side == "a" else s.score_b) if s.outcome == "played" else "",
        "won": bool(s.winner_id) and entrant is not None and s.winner_id == entrant.pk,
        "empty": entrant is None,
        "dq": entrant is not None and entrant.status == Entrant.Status.DISQUALIFIED,
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
        "best_of": s.best_of, "sides": [_side_box(s, "a", seeds), _side_box(s, "b", seeds)],
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
    pick_context: dict[str, Any] = {}
    if s.status == Set.Status.READY and picks.picks_apply(event):
        number, sides = picks.picks_for_viewer(s, request.user)
        pick_context = {
            "pick_game": number, "pick_sides": sides,
            "can_pick": picks.pick_needed_by(s, request.user),
            "character_choices": sorted(set(advancement.character_names().values())),
        }
    report_context: dict[str, Any] = {}
    if event.result_policy == Event.ResultPolicy.SELF_REPORT:
        side = picks.member_side(s, request.user)
        pending = s.reports.filter(status=SetReport.Status.PENDING).first()
        report_context = {
            "self_report": True,
            "pending_report": pending,
            "can_answer": pending is not None and side is not None and side != pending.side,
            "can_report": s.status == Set.Status.READY and side is not None
            and (pending is None or pending.side == side),
            "report_form": SetResultForm(set=s),
            "disputed_reports": s.reports.filter(status=SetReport.Status.DISPUTED)
            if is_organizer else [],
        }
    return render(request, "tournaments/set_detail.html", {
        **pick_context,
        **report_context,
        "self_reported": s.changes.filter(action="self_report").exists(),
        "event": event, "set": s, "games": selectors.set_games(s), "form": form,
        "is_organizer": is_organizer, "changes": s.changes.select_related("changed_by")[:20],
        "set_matches": s.set_matches.select_related("match").order_by("created_at", "id"),
        "refused_logs": set_recovery.set_refused_logs(s),
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


@require_POST
@login_required
def set_match_replay_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Play again a game whose log was refused: a fresh match (and room) for it."""
    s = _set(slug, pk, request.user)
    try:
        match = set_recovery.set_match_replay(set=s, actor=request.user)
    except TournamentError as exc:
        messages.error(request, exc.message)
        return redirect("tournaments:set-detail", slug=slug, pk=pk)
    messages.success(request, f"The game is played again in match #{match.pk}.")
    return redirect("matches:match-detail", pk=match.pk)


def _organizer_set(slug: str, pk: int, user: Any) -> Set:
    s = _set(slug, pk, user)
    if not s.stage.event.is_organizer(user):
        raise PermissionDenied("organizers only")
    return s


def _set_change_confirmed(
    request: HttpRequest, form: Any, *, confirm: Callable[[], HttpResponse],
    preview: Callable[[], Any],
) -> tuple[HttpResponse | None, Any]:
    """An organizer's change of a finished set in two POSTs: the first shows the plan of what
    changes (``preview``), the second, with ``confirm`` ticked, makes it (``confirm``, which
    answers the page to go to). Returns that answer once confirmed, else the plan (None on a
    GET, an invalid form or a refused change, whose message is shown)."""
    if request.method != "POST" or not form.is_valid():
        return None, None
    try:
        if request.POST.get("confirm"):
            return confirm(), None
        return None, preview()
    except TournamentError as exc:
        messages.error(request, exc.message)
        return None, None


@login_required
def set_correct_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Correct a finished set: the first POST shows what will change, the second confirms."""
    s = _organizer_set(slug, pk, request.user)
    form = CorrectionForm(request.POST or None, set=s)

    def correct() -> HttpResponse:
        advancement.set_result_correct(
            set=s, actor=request.user, result=form.to_result(),
            reason=form.cleaned_data["reason"], confirm=True,
        )
        messages.success(request, "Result corrected.")
        return redirect(reverse("tournaments:stage-detail", args=[slug, s.stage_id]))

    done, plan = _set_change_confirmed(request, form, confirm=correct, preview=lambda: (
        advancement.set_correction_preview(set=s, actor=request.user, result=form.to_result())))
    if done is not None:
        return done
    return render(request, "tournaments/set_correct.html", {
        "event": s.stage.event, "set": s, "form": form, "plan": plan,
        "summary": advancement.describe_plan(plan) if plan else "",
    })


def player_ratings_page(request: HttpRequest) -> HttpResponse:
    players = selectors.player_list().filter(rating__isnull=False).order_by(
        "-rating__ordinal", "display_name")
    page = Paginator(players, PAGE_SIZE).get_page(request.GET.get("page"))
    return render(request, "players/ratings.html", {"players": page})


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


# --- organizer pages: create and edit an event, its stages, co-organizers, entrants -----------


def _organizer_event(slug: str, user: Any) -> Event:
    event = _event(slug, user)
    if not event.is_organizer(user):
        raise PermissionDenied("organizers only")
    return event


def _form_errors(form: Any, exc: TournamentError) -> None:
    """A service's field errors land on the form's fields; the rest above the form."""
    fields = exc.extra.get("fields") or {}
    placed = False
    for name, errors in fields.items():
        if name in form.fields:
            form.add_error(name, " ".join(errors))
            placed = True
    if not placed:
        form.add_error(None, exc.message)


@login_required
def event_create_page(request: HttpRequest) -> HttpResponse:
    """A new draft event; its stages are added on the next page."""
    form = EventForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        fields = form.changes()
        try:
            event = events.event_create(actor=request.user, **fields)
        except TournamentError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, f"{event.name} is created as a draft: add its stages.")
            return redirect("tournaments:event-edit", slug=event.slug)
    status = 400 if request.method == "POST" else 200
    return render(request, "tournaments/event_form.html",
                  {"form": form, "creating": True}, status=status)


@login_required
def event_edit_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Change the settings until a stage starts; add stages and co-organizers."""
    event = _organizer_event(slug, request.user)
    form = EventForm(request.POST or None, instance=event)
    status = 200
    if request.method == "POST":
        if form.is_valid():
            fields = form.changes()
            try:
                events.event_update(event=event, actor=request.user, **fields)
            except TournamentError as exc:
                _form_errors(form, exc)
            else:
                messages.success(request, "Event settings saved.")
                return redirect("tournaments:event-edit", slug=event.slug)
        status = 400
    return render(request, "tournaments/event_form.html", {
        "form": form, "event": event, "stages": list(event.stages.all()),
        "stage_form": StageForm(), "organizer_form": OrganizerAddForm(),
        "organizers": list(event.organizers.order_by("username")),
        "started": events.stage_has_started(event),
    }, status=status)


@login_required
def stage_add_page(request: HttpRequest, slug: str) -> HttpResponse:
    event = _organizer_event(slug, request.user)
    form = StageForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        fields = form.changes()
        name, kind = fields.pop("name"), fields.pop("kind")
        try:
            stage = events.stage_create(event=event, actor=request.user, name=name, kind=kind,
                                        **fields)
        except TournamentError as exc:
            _form_errors(form, exc)
        else:
            messages.success(request, f"{stage.name} added.")
            return redirect("tournaments:event-edit", slug=event.slug)
    return render(request, "tournaments/stage_form.html", {"form": form, "event": event},
                  status=400 if request.method == "POST" else 200)


@login_required
@require_POST
def event_organizer_add(request: HttpRequest, slug: str) -> HttpResponse:
    event = _organizer_event(slug, request.user)
    form = OrganizerAddForm(request.POST)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(errors))
    else:
        user = form.cleaned_data["username"]
        try:
            events.event_organizer_add(event=event, actor=request.user, user=user)
        except TournamentError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"{user.get_username()} now co-organizes {event.name}.")
    return redirect("tournaments:event-edit", slug=event.slug)


@login_required
def event_entrants_page(request: HttpRequest, slug: str) -> HttpResponse:
    """Organizers: add an entrant, check anyone in, withdraw, change the cap, disqualify."""
    event = _organizer_event(slug, request.user)
    form = EntrantAddForm(request.POST or None)
    if request.method == "POST" and form.is_valid():
        try:
            entrant = registration.entrant_register(
                event=event, actor=request.user, players=form.cleaned_data["players"],
                name=form.cleaned_data.get("name", ""),
                lineup=form.cleaned_data.get("lineup", []),
            )
        except TournamentError as exc:
            form.add_error(None, exc.message)
        else:
            messages.success(
                request, f"{entrant.name}: {entrant.get_status_display().lower()}."
            )
            return redirect("tournaments:event-entrants", slug=slug)
    entrants = list(selectors.event_entrants(event))
    return render(request, "tournaments/event_entrants.html", {
        "event": event, "form": form, "entrants": entrants,
        "check_in_open": registration.check_in_is_open(event),
        "started": events.stage_has_started(event),
    }, status=400 if request.method == "POST" else 200)


@login_required
@require_POST
def event_capacity_change(request: HttpRequest, slug: str) -> HttpResponse:
    event = _organizer_event(slug, request.user)
    raw = request.POST.get("max_entrants", "").strip()
    try:
        cap = int(raw) if raw else None
        promoted = registration.event_capacity_change(
            event=event, actor=request.user, max_entrants=cap
        )
    except ValueError:
        messages.error(request, f"the cap is a whole number, not {raw!r}")
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, "Cap changed." + (
            f" Moved off the waitlist: {', '.join(e.name for e in promoted)}." if promoted else ""
        ))
    return redirect("tournaments:event-entrants", slug=slug)


@login_required
def entrant_disqualify_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Disqualify: the page shows which sets the entrant loses, a second POST confirms."""
    event = _organizer_event(slug, request.user)
    entrant = get_object_or_404(Entrant, pk=pk, event=event)
    form = ReasonForm(request.POST or None)
    preview = selectors.disqualification_preview(entrant)
    if request.method == "POST" and form.is_valid() and request.POST.get("confirm"):
        try:
            advancement.entrant_disqualify(
                entrant=entrant, actor=request.user, reason=form.cleaned_data["reason"]
            )
        except TournamentError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, f"{entrant.name} is disqualified.")
            return redirect("tournaments:event-entrants", slug=slug)
    return render(request, "tournaments/entrant_disqualify.html", {
        "event": event, "entrant": entrant, "form": form, "preview": preview,
        "confirming": request.method == "POST" and form.is_valid(),
    })


@login_required
def set_reopen_page(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """Reopen a finished set: the first POST shows what is cleared, the second confirms."""
    s = _organizer_set(slug, pk, request.user)
    form = ReasonForm(request.POST or None)

    def reopen() -> HttpResponse:
        advancement.set_reopen(set=s, actor=request.user, reason=form.cleaned_data["reason"],
                               confirm=True)
        messages.success(request, f"{s.round_name or s.key} is open again.")
        return redirect("tournaments:set-detail", slug=slug, pk=s.pk)

    done, plan = _set_change_confirmed(request, form, confirm=reopen, preview=lambda: (
        advancement.set_reopen_preview(set=s, actor=request.user)))
    if done is not None:
        return done
    return render(request, "tournaments/set_reopen.html",
                  {"event": s.stage.event, "set": s, "form": form, "plan": plan})


@login_required
@require_POST
def character_pick_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    s = _set(slug, pk, request.user)
    try:
        pick = picks.character_pick_lock(
            set=s, actor=request.user, character=request.POST.get("character", "")
        )
    except TournamentError as exc:
        messages.error(request, exc.message)
    else:
        messages.success(request, (
            f"{pick.character} locked for game {pick.game_number}"
            + ("." if pick.is_revealed else ": hidden until your opponent locks theirs.")
        ))
    return redirect("tournaments:set-detail", slug=slug, pk=pk)


@login_required
@require_POST
def set_report_submit_view(request: HttpRequest, slug: str, pk: int) -> HttpResponse:
    """A player reports the set's score (self-reporting events); the opponent confirms it."""
    s = _set(slug, pk, request.user)
    form = SetResultForm(request.POST, set=s)
    if not form.is_valid():
        for errors in form.errors.values():
            messages.error(request, " ".join(errors))
    else:
        try:
            self_reports.set_report_submit(set=s, actor=request.user, result=form.to_result())
        except TournamentError as exc:
            messages.error(request, exc.message)
        else:
            messages.success(request, "Score reported: it counts once your opponent confirms.")
    return redirect("tournaments:set-detail", slug=slug, pk=pk)


@login_required
@require_POST
def set_report_answer_view(
    request: HttpRequest, slug: str, pk: int, report_pk: int, answer: str
) -> HttpResponse:
    s = _set(slug, pk, request.user)
    report = get_object_or_404(SetReport, pk=report_pk, set=s)
    try:
        if answer == "confirm":
            self_reports.set_report_confirm(report=report, actor=request.user)
            messages.success(request, "Score confirmed.")
        else:
            self_reports.set_report_dispute(report=report, actor=request.user,
                                            reason=request.POST.get("reason", ""))
            messages.success(request, "Report disputed: an organizer decides the set.")
    except TournamentError as exc:
        messages.error(request, exc.message)
    return redirect("tournaments:set-detail", slug=slug, pk=pk)
