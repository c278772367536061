"""Statistics pages: each parses its filters, calls one selector, builds its plots, renders.

Bad filters (an unknown mode, a month that is not YYYY-MM, an unknown event or character) give
the page again with status 400 and the message naming the parameter.
"""

from __future__ import annotations

from typing import Any

from django.http import Http404, HttpRequest, HttpResponse
from django.shortcuts import get_object_or_404, render

from matches.models import Player
from rules_engine.cards import characters
from stats import plots, selectors, training
from stats.forms import LeaderboardForm, ScopeForm
from tournaments.models import Event


def _filter_context(form: ScopeForm) -> dict[str, Any]:
    return {
        "form": form,
        "modes": selectors.VERSUS_STATS_MODES,
        "events": Event.objects.order_by("-created_at").values("slug", "name")[:100],
    }


def _invalid(request: HttpRequest, form: ScopeForm, title: str) -> HttpResponse:
    return render(request, "stats/invalid.html",
                  {"title": title, "error": form.error_text(), **_filter_context(form)},
                  status=400)


def stats_index_page(request: HttpRequest) -> HttpResponse:
    form = ScopeForm(request.GET)
    if not form.is_valid():
        return _invalid(request, form, "Statistics")
    chart = selectors.matchup_chart(scope=form.scope())
    overall = []
    for cid, name, cells in chart.rows():
        record = selectors.Record()
        for _, cell in cells:
            record.games += cell.games
            record.wins += cell.wins
            record.draws += cell.draws
        overall.append((cid, name, record))
    return render(request, "stats/index.html", {
        "overall": overall, "plots": {"characters": plots.characters_figure(overall)},
        **_filter_context(form)})


def character_stats_page(request: HttpRequest, character_id: str) -> HttpResponse:
    if character_id not in characters():
        raise Http404(f"no character {character_id!r}")
    form = ScopeForm(request.GET)
    if not form.is_valid():
        return _invalid(request, form, characters()[character_id].name)
    stats = selectors.character_stats(character=character_id, scope=form.scope())
    return render(request, "stats/character.html", {
        "stats": stats,
        "plots": {
            "matchups": plots.matchup_row_figure(stats),
            "options": plots.options_figure(stats),
            "popularity": plots.popularity_figure(stats),
        },
        **_filter_context(form),
    })


def matchup_chart_page(request: HttpRequest) -> HttpResponse:
    form = ScopeForm(request.GET)
    if not form.is_valid():
        return _invalid(request, form, "Matchup chart")
    chart = selectors.matchup_chart(scope=form.scope())
    return render(request, "stats/matchups.html", {
        "chart": chart, "min_games": selectors.MIN_GAMES,
        "plots": {"heatmap": plots.heatmap_figure(chart)},
        **_filter_context(form),
    })


def player_stats_page(request: HttpRequest, pk: int) -> HttpResponse:
    player = get_object_or_404(Player, pk=pk)
    form = ScopeForm(request.GET)
    opponent = None
    raw_opponent = request.GET.get("opponent", "")
    if raw_opponent:
        if not raw_opponent.isdigit():
            form.is_valid()
            form.add_error(None, f"opponent must be a player id, not {raw_opponent!r}")
            return _invalid(request, form, player.display_name)
        opponent = Player.objects.filter(pk=int(raw_opponent)).first()
        if opponent is None:
            form.is_valid()
            form.add_error(None, f"no player with id {raw_opponent}")
            return _invalid(request, form, player.display_name)
    if not form.is_valid():
        return _invalid(request, form, player.display_name)
    stats = selectors.player_stats(player=player, scope=form.scope(), opponent=opponent)
    return render(request, "stats/player.html", {
        "stats": stats,
        "best_survival": training.player_best_survival(player),
        "solo_results": [r.to_dict() for r in training.player_solo_results(player)],
        "plots": {
            "rating": plots.rating_figure(stats),
            "characters": plots.player_characters_figure(stats),
        },
        **_filter_context(form),
    })


def survival_leaderboard_page(request: HttpRequest) -> HttpResponse:
    """TR-14: players by their best Survival score (bots beaten), overall or per character."""
    character = request.GET.get("character", "")
    roster = selectors.roster()
    if character and character not in dict(roster):
        return render(request, "stats/survival.html", {
            "rows": [], "roster": roster, "character": "",
            "error": f"unknown character {character!r}"}, status=400)
    return render(request, "stats/survival.html", {
        "rows": training.survival_leaderboard(character=character), "roster": roster,
        "character": character, "names": dict(roster)})


def leaderboard_page(request: HttpRequest) -> HttpResponse:
    form = LeaderboardForm(request.GET)
    if not form.is_valid():
        return _invalid(request, form, "Leaderboards")
    rows = selectors.leaderboard(
        scope=form.scope(), character=form.cleaned_data.get("character") or "",
        min_games=form.cleaned_data.get("min_games") or 1,
    )
    return render(request, "stats/leaderboard.html", {
        "rows": rows, "roster": selectors.roster(), **_filter_context(form),
        "plots": {"leaders": plots.leaderboard_figure(rows)},
    })
