"""Plotly figures for the simulation pages (plain ``{"data", "layout"}``, drawn by
``static/stats/plots.js`` like the statistics pages; every figure has a table beside it)."""

from __future__ import annotations

from typing import Any

from simulations.selectors import BlendedCell, BlendedChart, SimulatedChart
from stats.plots import LEFT_TITLE

FONT = {"family": "system-ui, sans-serif", "size": 12}


def _layout(title: str, **extra: Any) -> dict[str, Any]:
    placed = extra.pop("title_place", {})  # LEFT_TITLE for a wide plot
    return {
        "title": {"text": title, "font": {"size": 14}, **placed}, "autosize": True, "font": FONT,
        "margin": {"l": 90, "r": 12, "t": 36, "b": 40},
        "paper_bgcolor": "rgba(0,0,0,0)", "plot_bgcolor": "rgba(0,0,0,0)", **extra,
    }


def chart_heatmap_figure(names: list[str], scores: list[list[float | None]],
                         hover: list[list[str]], title: str) -> dict[str, Any]:
    """Rows: the character; columns: the opponent; colour: the row's expected score out of 10."""
    z = [[None if s is None else round(s, 2) for s in row] for row in scores]
    text = [[("" if s is None else f"{s:.1f}") for s in row] for row in scores]
    return {
        "data": [{
            "type": "heatmap", "x": names, "y": names, "z": z, "text": text,
            "customdata": hover, "texttemplate": "%{text}", "textfont": {"size": 9},
            "zmin": 0, "zmax": 10, "zmid": 5, "colorscale": "RdBu", "reversescale": True,
            "hoverongaps": False, "xgap": 1, "ygap": 1,
            "colorbar": {"thickness": 10, "title": {"text": "/10"}},
            "hovertemplate": "%{y} vs %{x}: %{z} (%{customdata})<extra></extra>",
        }],
        "layout": _layout(
            title, height=720, margin={"l": 90, "r": 10, "t": 56, "b": 110}, title_place=LEFT_TITLE,
            xaxis={"side": "bottom", "tickangle": -60, "fixedrange": True,
                   "title": {"text": "opponent"}, "automargin": True},
            yaxis={"autorange": "reversed", "fixedrange": True,
                   "title": {"text": "character"}, "automargin": True}, plot_bgcolor="#ddd",
        ),
    }


def simulated_heatmap_figure(chart: SimulatedChart) -> dict[str, Any]:
    hover = [[(f"n={c.games}, 95% {c.interval[0]:.2f} to {c.interval[1]:.2f}" if c.interval
               else "no games") for c in row] for row in chart.cells]
    return chart_heatmap_figure(
        chart.names, chart.scores, hover,
        f"Simulated ({chart.job.bot} bot): expected score<br>of the row's character, out of 10")


def blended_heatmap_figure(chart: BlendedChart) -> dict[str, Any]:
    def hover(c: BlendedCell) -> str:
        sim = ("no simulation" if c.simulated is None or c.simulated.score is None
               else f"simulated {c.simulated.score:.2f}")
        real = ("no real games" if c.real_score is None
                else f"real {c.real_score:.2f} over {c.real.games} games")
        return f"{sim}; {real}"

    return chart_heatmap_figure(
        chart.names, [[c.score for c in row] for row in chart.cells],
        [[hover(c) for c in row] for row in chart.cells],
        "Used for seeding and odds: simulated and<br>real games blended, out of 10")


def odds_figure(rows: list[dict[str, Any]], columns: list[str]) -> dict[str, Any]:
    """Each entrant's chance to reach each column (a grouped horizontal bar per column)."""
    names = [r["name"] for r in rows]
    data = [{
        "type": "bar", "orientation": "h", "name": col, "y": names,
        "x": [round(100 * r["reach"].get(col, 0.0), 1) for r in rows],
        "hovertemplate": "%{y}: %{x}%<extra>" + col + "</extra>",
    } for col in columns]
    return {
        "data": data,
        "layout": _layout(
            "Chance to reach each round (simulated)", barmode="overlay",
            height=max(240, 22 * len(rows) + 90),
            xaxis={"range": [0, 100], "ticksuffix": "%", "fixedrange": True,
                   "title": {"text": "chance (simulated)"}},
            yaxis={"autorange": "reversed", "fixedrange": True, "automargin": True,
                   "title": {"text": "entrant"}},
            legend={"orientation": "h", "y": -0.15},
        ),
    }


def reliability_figure(bins: list[dict[str, Any]]) -> dict[str, Any]:
    """Observed frequency against mean predicted probability per bin, with the diagonal."""
    used = [b for b in bins if b["count"]]
    return {
        "data": [
            {"type": "scatter", "mode": "lines", "x": [0, 100], "y": [0, 100],
             "name": "perfect", "line": {"dash": "dot", "width": 1}, "hoverinfo": "skip"},
            {"type": "scatter", "mode": "lines+markers", "name": "predictions",
             "x": [round(100 * b["predicted"], 1) for b in used],
             "y": [round(100 * b["observed"], 1) for b in used],
             "text": [f"n={b['count']}" for b in used],
             "hovertemplate": "predicted %{x}% → happened %{y}% (%{text})<extra></extra>"},
        ],
        "layout": _layout(
            "Reliability: predicted against observed", height=360,
            xaxis={"range": [0, 100], "ticksuffix": "%", "fixedrange": True,
                   "title": {"text": "predicted"}},
            yaxis={"range": [0, 100], "ticksuffix": "%", "fixedrange": True,
                   "title": {"text": "observed"}},
            showlegend=False,
        ),
    }
