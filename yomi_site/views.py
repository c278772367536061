"""Site-wide pages that belong to no single app."""

from __future__ import annotations

from django.http import HttpRequest, HttpResponse
from django.shortcuts import render

SECTIONS = [
    ("Events", "tournaments:event-list", "Brackets, Swiss, round robin and leagues."),
    ("Players", "matches:player-list", "Everyone who plays here, with ratings and results."),
    ("Characters", "characters", "The 20 characters: cards, abilities and matchup statistics."),
    ("Matches", "matches:match-list", "Submitted match logs and the rules engine's verdicts."),
    ("Stats", "stats:index",
     "Matchup chart, character and player statistics, leaderboards from verified logs."),
    ("API", "api-docs", "The REST API, with its OpenAPI schema and browsable docs."),
]


def home(request: HttpRequest) -> HttpResponse:
    return render(request, "home.html", {"sections": SECTIONS})

