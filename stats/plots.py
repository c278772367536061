"""Plotly figures (``{"data", "layout"}``, plotly.js's JSON) for the statistics pages.

Built as plain data so that a page embeds them with ``json_script`` and the API and the tests
can read them without a browser; ``static/stats/plots.js`` draws them with plotly.js. Every
figure is also shown as an HTML table beside it (the numbers, readable without the plot).
Layouts are compact, let the width follow the screen and keep labels horizontal, for phones.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from stats.selectors import CharacterStats, MatchupChart, PlayerStats

FONT = {"family": "system-ui, sans-serif", "size": 12}


# A wide plot (a heatmap scrolls sideways in its box on a phone) starts its title at the left
# edge, where the box opens, instead of centring it off screen.
LEFT_TITLE = {"x": 0, "xanchor": "left", "xref": "container", "pad": {"l": 8}}


def _layout(title: str, **extra: Any) -> dict[str, Any]:
    placed = extra.pop("title_place", {})
    return {
        "title": {"text": title, "font": {"size": 14}, **placed},
        "autosize": True,
        "font": FONT,
        "margin": {"l": 90, "r": 12, "t": 36, "b": 40},
        "paper_bgcolor": "rgba(0,0,0,0)",
        "plot_bgcolor": "rgba(0,0,0,0)",
        **extra,
    }


def _percent(value: float | None) -> float | None:
    return None if value is None else round(100 * value, 1)


def matchup_row_figure(stats: CharacterStats) -> dict[str, Any]:
    """Win rate against each opponent with its 95% interval (only opponents with games)."""
    cells = [m for m in stats.matchups if m.record.games]
    rates = [_percent(m.record.win_rate) for m in cells]
    lows = [m.record.interval[0] if m.record.interval else 0 for m in cells]
    highs = [m.record.interval[1] if m.record.interval else 0 for m in cells]
    rate_values = [m.record.win_rate or 0 for m in cells]
    return {
        "data": [{
            "type": "scatter", "mode": "markers", "orientation": "h", "cliponaxis": False,
            "marker": {"size": 10},
            "x": rates, "y": [f"{m.opponent_name} (n={m.record.games})" for m in cells],
            "customdata": [m.opponent for m in cells],
            "error_x": {
                "type": "data", "symmetric": False,
                "array": [round(100 * (h - r), 1) for h, r in zip(highs, rate_values, strict=True)],
                "arrayminus": [round(100 * (r - lo), 1)
                               for lo, r in zip(lows, rate_values, strict=True)],
            },
            "hovertemplate": "%{y}: %{x}%<extra></extra>",
        }],
        "layout": _layout(
            f"{stats.name}: win rate by opponent (95% interval)",
            height=max(220, 26 * len(cells) + 80),
            xaxis={"range": [-2, 102], "ticksuffix": "%", "fixedrange": True,
                   "title": {"text": "win rate"}},
            yaxis={"autorange": "reversed", "fixedrange": True, "automargin": True,
                   "title": {"text": "opponent (games)"}},
            shapes=[{"type": "line", "x0": 50, "x1": 50, "yref": "paper", "y0": 0, "y1": 1,
                     "line": {"dash": "dot", "width": 1}}],
        ),
    }


def options_figure(stats: CharacterStats) -> dict[str, Any]:
    return {
        "data": [{
            "type": "bar", "orientation": "h",
            "x": [_percent(o["share"]) for o in stats.options],
            "y": [o["label"] for o in stats.options],
            "text": [f"{o['count']}" for o in stats.options],
            "hovertemplate": "%{y}: %{x}% (%{text} turns)<extra></extra>",
        }],
        "layout": _layout(
            f"{stats.name}: combat cards chosen", height=260,
            xaxis={"ticksuffix": "%", "fixedrange": True, "rangemode": "tozero",
                   "title": {"text": "share of turns"}},
            yaxis={"autorange": "reversed", "fixedrange": True, "automargin": True,
                   "title": {"text": "combat card"}},
        ),
    }


def popularity_figure(stats: CharacterStats) -> dict[str, Any]:
    return {
        "data": [{
            "type": "scatter", "mode": "lines+markers",
            "x": [p["month"] for p in stats.popularity],
            "y": [_percent(p["pick_rate"]) for p in stats.popularity],
            "text": [str(p["games"]) for p in stats.popularity],
            "hovertemplate": "%{x}: %{y}% of picks (%{text} games)<extra></extra>",
        }],
        "layout": _layout(
            f"{stats.name}: share of picks by month", height=260,
            xaxis={"type": "category", "fixedrange": True, "title": {"text": "month"}},
            yaxis={"ticksuffix": "%", "rangemode": "tozero", "fixedrange": True,
                   "title": {"text": "share of picks"}},
        ),
    }


def heatmap_figure(chart: MatchupChart) -> dict[str, Any]:
    """Rows: the character; columns: the opponent; colour: the row's win rate (grey: too few
    games, shown as a blank cell with its game count)."""
    names = [name for _, name in chart.characters]
    z, text = [], []
    for _, _, cells in chart.rows():
        z.append([_percent(r.win_rate) if r.is_enough else None for _, r in cells])
        text.append([
            (f"{_percent(r.win_rate):.0f}%<br>n={r.games}" if r.is_enough and r.win_rate
             is not None else (f"n={r.games}" if r.games else ""))
            for _, r in cells
        ])
    return {
        "data": [{
            "type": "heatmap", "x": names, "y": names, "z": z, "text": text,
            "texttemplate": "%{text}", "textfont": {"size": 9},
            "zmin": 0, "zmax": 100, "zmid": 50, "colorscale": "RdBu",
            "reversescale": True,  # plotly's RdBu runs blue to red: blue is winning here
            "hoverongaps": False, "xgap": 1, "ygap": 1,
            "colorbar": {"ticksuffix": "%", "thickness": 10},
            "hovertemplate": "%{y} vs %{x}: %{z}%<extra></extra>",
        }],
        "layout": _layout(
            # two short lines from the left: one long centred line was cut off on a phone
            "Win rate of the row's character<br>against the column's",
            height=720, width=None, title_place=LEFT_TITLE,
            margin={"l": 90, "r": 10, "t": 56, "b": 110},
            xaxis={"side": "bottom", "tickangle": -60, "fixedrange": True,
                   "title": {"text": "opponent"}, "automargin": True},
            yaxis={"autorange": "reversed", "fixedrange": True,
                   "title": {"text": "character"}, "automargin": True},
            plot_bgcolor="#ddd",
        ),
    }


def rating_figure(stats: PlayerStats) -> dict[str, Any]:
    history = stats.rating_history
    return {
        "data": [{
            "type": "scatter", "mode": "lines", "line": {"shape": "hv"},
            "x": [h["recorded_at"] for h in history],
            "y": [round(h["ordinal"], 2) for h in history],
            "hovertemplate": "%{x|%d %b %Y}: %{y}<extra></extra>",
        }],
        "layout": _layout(
            f"{stats.player.display_name}: rating over time", height=260,
            xaxis={"type": "date", "fixedrange": True, "title": {"text": "date"}},
            yaxis={"fixedrange": True, "title": {"text": "rating"}},
            margin={"l": 50, "r": 12, "t": 36, "b": 40},
        ),
    }


def player_characters_figure(stats: PlayerStats) -> dict[str, Any]:
    rows = stats.characters
    return {
        "data": [{
            "type": "bar", "orientation": "h",
            "x": [_percent(r["win_rate"]) for r in rows],
            "y": [f"{r['name']} (n={r['games']})" for r in rows],
            "error_x": {
                "type": "data", "symmetric": False,
                "array": [round(100 * ((r["interval_high"] or 0) - (r["win_rate"] or 0)), 1)
                          for r in rows],
                "arrayminus": [round(100 * ((r["win_rate"] or 0) - (r["interval_low"] or 0)), 1)
                               for r in rows],
            },
            "hovertemplate": "%{y}: %{x}%<extra></extra>",
        }],
        "layout": _layout(
            f"{stats.player.display_name}: win rate by character",
            height=max(200, 28 * len(rows) + 80),
            xaxis={"range": [0, 100], "ticksuffix": "%", "fixedrange": True,
                   "title": {"text": "win rate"}},
            yaxis={"autorange": "reversed", "fixedrange": True, "automargin": True,
                   "title": {"text": "character (games)"}},
        ),
    }


def _win_rate_bars(title: str, labels: list[str], records: list[Any], axis: str,
                   customdata: list[str]) -> dict[str, Any]:
    """Win rates with their 95% intervals, one horizontal bar each (records: ``win_rate``,
    ``interval``)."""
    rates = [_percent(r.win_rate) or 0 for r in records]
    return {
        "data": [{
            "type": "bar", "orientation": "h", "x": rates, "y": labels,
            "customdata": customdata,
            "error_x": {
                "type": "data", "symmetric": False,
                "array": [round(100 * (r.interval[1] - (r.win_rate or 0)), 1) if r.interval
                          else 0 for r in records],
                "arrayminus": [round(100 * ((r.win_rate or 0) - r.interval[0]), 1)
                               if r.interval else 0 for r in records],
            },
            "hovertemplate": "%{y}: %{x}%<extra></extra>",
        }],
        "layout": _layout(
            title, height=max(220, 24 * len(labels) + 90),
            xaxis={"range": [0, 100], "ticksuffix": "%", "fixedrange": True,
                   "title": {"text": "win rate (95% interval)"}},
            yaxis={"autorange": "reversed", "fixedrange": True, "automargin": True,
                   "title": {"text": axis}},
            shapes=[{"type": "line", "x0": 50, "x1": 50, "yref": "paper", "y0": 0, "y1": 1,
                     "line": {"dash": "dot", "width": 1}}],
        ),
    }


def characters_figure(overall: list[tuple[str, str, Any]]) -> dict[str, Any]:
    """The statistics index: every character with enough games, by win rate."""
    shown = sorted(((cid, name, r) for cid, name, r in overall if r.is_enough),
                   key=lambda row: -(row[2].win_rate or 0))
    return _win_rate_bars("Win rate of each character (enough games only)",
                          [f"{name} (n={r.games})" for _, name, r in shown],
                          [r for _, _, r in shown], "character (games)",
                          [cid for cid, _, _ in shown])


@dataclass(frozen=True)
class _Rate:
    win_rate: float | None
    interval: tuple[float, float] | None


def leaderboard_figure(rows: list[Any], top: int = 20) -> dict[str, Any]:
    """The leaderboard's first ``top`` players' win rates (the table lists them all)."""
    shown = list(rows)[:top]
    return _win_rate_bars(
        f"Win rate of the first {len(shown)} players", [
            f"{r['player_name']} (n={r['games']})" for r in shown],
        [_Rate(r["win_rate"], (r["interval_low"], r["interval_high"])
               if r["interval_low"] is not None else None) for r in shown],
        "player (games)", [str(r["player"]) for r in shown])
