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
    """Each stage's current odds (table and plot) on the event page."""
    from simulations.models import StageOdds

    blocks = []
    for odds in (StageOdds.objects.filter(stage__event=event, kind=StageOdds.Kind.CURRENT)
                 .select_related("stage").order_by("stage__order", "stage_id")):
        data = odds.data
        columns = [*data["columns"], f"Top {data['top']}", "Win"]
        rows = [{**r, "reach": {**r["reach"], columns[-2]: r["top8"], "Win": r["win"]}}
                for r in data["rows"]]
        blocks.append({
            "odds": odds, "columns": columns,
            "rows": [{**r, "cells": [r["reach"].get(c, 0.0) for c in columns]} for r in rows],
            "plot_name": f"odds-{odds.stage_id}",
            "figure": plots.odds_figure(rows, [data["columns"][-1], columns[-2], "Win"]
                                        if data["columns"] else ["Win"]),
        })
    return {"event": event, "blocks": blocks}
