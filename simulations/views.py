"""Pages and JSON for simulations; thin: they read selectors and call services."""

from __future__ import annotations

import csv

from django.contrib import messages
from django.contrib.admin.views.decorators import staff_member_required
from django.http import HttpRequest, HttpResponse, JsonResponse
from django.shortcuts import get_object_or_404, redirect, render
from django.views.decorators.http import require_POST

from rules_engine.bots import BOTS
from simulations import plots, selectors, services
from simulations.errors import SimulationError
from simulations.models import MatchupJob


def matchup_jobs_page(request: HttpRequest) -> HttpResponse:
    return render(request, "simulations/jobs.html", {
        "jobs": selectors.matchup_jobs_recent(),
        "default_chunk": services.DEFAULT_CHUNK_SIZE,
        "bots": BOTS, "default_bot": services.DEFAULT_BOT,
    })


@require_POST
@staff_member_required
def matchup_job_create_view(request: HttpRequest) -> HttpResponse:
    raw_chars = request.POST.get("characters", "").strip()
    try:
        games = int(request.POST.get("games_per_pair", "0"))
        job = services.matchup_job_create(
            bot=request.POST.get("bot", "").strip() or services.DEFAULT_BOT, games_per_pair=games,
            characters=[c.strip() for c in raw_chars.split(",") if c.strip()] or None,
            created_by=request.user,
        )
    except (SimulationError, ValueError) as exc:
        messages.error(request, str(exc))
        return redirect("simulations:jobs")
    return redirect("simulations:job", pk=job.pk)


def matchup_job_page(request: HttpRequest, pk: int) -> HttpResponse:
    job = get_object_or_404(MatchupJob, pk=pk)
    chart = selectors.matchup_job_chart(job=job)
    return render(request, "simulations/job.html", {
        "job": job, "chart": chart,
        "in_use": selectors.matchup_job_in_use() == job,
        "progress": selectors.matchup_job_progress(job=job),
        "plots": {"simheatmap": plots.simulated_heatmap_figure(chart)},
    })


def chart_in_use_page(request: HttpRequest) -> HttpResponse:
    chart = selectors.chart_in_use()
    return render(request, "simulations/chart_in_use.html", {
        "blend": chart, "job": chart.job,
        "plots": {"blendheatmap": plots.blended_heatmap_figure(chart)},
    })


def matchup_job_progress_api(request: HttpRequest, pk: int) -> JsonResponse:
    job = get_object_or_404(MatchupJob, pk=pk)
    return JsonResponse(selectors.matchup_job_progress(job=job).as_dict())


def matchup_job_chart_json(request: HttpRequest, pk: int) -> JsonResponse:
    job = get_object_or_404(MatchupJob, pk=pk)
    response = JsonResponse(selectors.matchup_job_chart(job=job).as_dict())
    response["Content-Disposition"] = f'attachment; filename="simulated-chart-{job.pk}.json"'
    return response


def matchup_job_chart_csv(request: HttpRequest, pk: int) -> HttpResponse:
    job = get_object_or_404(MatchupJob, pk=pk)
    chart = selectors.matchup_job_chart(job=job)
    response = HttpResponse(content_type="text/csv; charset=utf-8")
    response["Content-Disposition"] = f'attachment; filename="simulated-chart-{job.pk}.csv"'
    writer = csv.writer(response)
    writer.writerow(["character", "opponent", "score_out_of_10", "games", "wins", "draws",
                     "losses", "low_95", "high_95"])
    for cid, _, cells in chart.rows():
        for oid, c in cells:
            writer.writerow([
                cid, oid, "" if c.score is None else f"{c.score:.3f}", c.games, c.wins,
                c.draws, c.losses,
                *((f"{x:.3f}" for x in c.interval) if c.interval else ("", "")),
            ])
    return response


def calibration_page(request: HttpRequest) -> HttpResponse:
    from simulations import calibration_selectors

    stages = calibration_selectors.finished_stage_calibrations()
    total = calibration_selectors.overall(stages)
    return render(request, "simulations/calibration.html", {
        "stages": stages, "total": total,
        "plots": {"reliability": plots.reliability_figure(total.bins)},
    })


def event_seeding_simulated_view(request: HttpRequest, slug: str) -> HttpResponse:
    """Seeding by expected finish, previewed like the other methods: nothing is saved here; the
    preview's button fixes it through the seeding page (as manual numbers)."""
    from django.core.exceptions import PermissionDenied

    from simulations.odds import event_seeding_simulated_order
    from tournaments.errors import TournamentError
    from tournaments.models import Event

    event = get_object_or_404(Event, slug=slug)
    if not event.is_organizer(request.user):
        raise PermissionDenied("organizers only")
    try:
        preview = event_seeding_simulated_order(event=event)
    except TournamentError as exc:
        messages.error(request, str(exc))
        return redirect("tournaments:event-seeding", slug=event.slug)
    return render(request, "simulations/seeding_preview.html",
                  {"event": event, "preview": preview})
