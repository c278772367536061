"""Blocks other apps' pages include with one line (``{% include "simulations/_…html" %}``)."""

from __future__ import annotations

from typing import Any

from django import template

from simulations import plots, selectors

register = template.Library()


@register.inclusion_tag("simulations/_latest_chart.html")
def latest_simulated_chart() -> dict[str, Any]:
    job = selectors.matchup_job_in_use()
    if job is None:
        return {"job": None}
    chart = selectors.matchup_job_chart(job=job)
    return {"job": job, "chart": chart,
            "plots": {"simheatmap": plots.simulated_heatmap_figure(chart)}}


@register.inclusion_tag("simulations/_event_odds_block.html")
def event_odds(event: Any) -> dict[str, Any]:
    """Each unfinished stage's current odds (table and plot) on the event page. A finished
    stage's odds are not shown: its result is (issue 35: a finished event kept the odds from
    before its final). Only the rounds the stage has are columns: a "Top 8" of a bracket of 4
    is every entrant, and hid the final's bar under it."""
    from simulations.models import StageOdds
    from tournaments.models import Stage

    blocks = []
    for odds in (StageOdds.objects.filter(stage__event=event, kind=StageOdds.Kind.CURRENT)
                 .exclude(stage__status=Stage.Status.FINISHED)
                 .select_related("stage").order_by("stage__order", "stage_id")):
        data = odds.data
        top = f"Top {data['top']}"
        has_top = len(data["rows"]) > data["top"] and top not in data["columns"]
        columns = [*data["columns"], *([top] if has_top else []), "Win"]
        rows = [{**r, "reach": {**r["reach"], top: r["top8"], "Win": r["win"]}}
                for r in data["rows"]]
        plotted = [c for c in ([data["columns"][-1]] if data["columns"] else [])
                   + ([top] if has_top else []) + ["Win"]]
        blocks.append({
            "odds": odds, "columns": columns,
            "rows": [{**r, "cells": [r["reach"].get(c, 0.0) for c in columns]} for r in rows],
            "plot_name": f"odds-{odds.stage_id}",
            "plot_label": "Each entrant's chance to reach " + ", ".join(plotted[:-1])
                          + (" and " if len(plotted) > 1 else "") + "to win",
            "figure": plots.odds_figure(rows, plotted),
        })
    return {"event": event, "blocks": blocks}
