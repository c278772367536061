"""The statistics pages show the numbers of verified games, filter them, refuse bad filters
with a 400 naming the parameter, and read a fixed number of queries whatever the data size."""

from __future__ import annotations

import json

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.urls import reverse

from matches.models import Match
from stats.models import ComboRecord, GameSide
from stats.services import game_record_sync
from tests.matches.factories import PlayerFactory
from tests.stats.helpers import confirm, log_won_by, versus

pytestmark = pytest.mark.django_db


@pytest.fixture
def three_games(django_capture_on_commit_callbacks):
    """Setsuki beats Rook twice (Versus), Rook beats Setsuki once (Tag Team)."""
    a, b = PlayerFactory(display_name="Alice"), PlayerFactory(display_name="Bob")
    capture = django_capture_on_commit_callbacks
    confirm(versus(a, b), log_won_by("P1", "setsuki", "rook"), capture)
    confirm(versus(a, b), log_won_by("P1", "setsuki", "rook"), capture)
    third = confirm(versus(a, b), log_won_by("P2", "setsuki", "rook"), capture)
    Match.objects.filter(pk=third.pk).update(mode=Match.Mode.TAG_TEAM)
    game_record_sync(match_id=third.pk)
    return a, b


def _plot(response, name: str) -> dict:
    html = response.content.decode()
    start = html.index(f'id="plot-{name}" type="application/json">') + len(
        f'id="plot-{name}" type="application/json">')
    return json.loads(html[start:html.index("</script>", start)])


def test_character_page_shows_win_rate_interval_matchups_and_plots(client, three_games) -> None:
    response = client.get(reverse("stats:character", args=["setsuki"]))
    assert response.status_code == 200
    stats = response.context["stats"]
    assert (stats.overall.games, stats.overall.wins) == (3, 2)
    low, high = stats.overall.interval
    assert low < 2 / 3 < high
    rook = next(m for m in stats.matchups if m.opponent == "rook")
    assert (rook.record.games, rook.record.wins) == (3, 2)
    assert len(stats.matchups) == 20
    figure = _plot(response, "matchups")
    assert figure["data"][0]["x"] == [66.7]
    assert figure["data"][0]["customdata"] == ["rook"]
    sides = GameSide.objects.filter(character="setsuki")
    options = _plot(response, "options")["data"][0]
    assert sum(s.option_attack for s in sides) == stats.options[0]["count"]
    assert options["y"][0] == "Attack"
    assert stats.combos["damage_max"] == max(
        c.damage for c in ComboRecord.objects.filter(character="setsuki"))
    body = response.content.decode()
    assert 'id="matchup-table"' in body and "vendor/plotly/plotly.min.js" in body


def test_filters_by_mode_and_period(client, three_games) -> None:
    url = reverse("stats:character", args=["setsuki"])
    versus_only = client.get(url, {"mode": "versus"}).context["stats"]
    assert (versus_only.overall.games, versus_only.overall.wins) == (2, 2)
    month = GameSide.objects.first().month.strftime("%Y-%m")
    this_month = client.get(url, {"since": month, "until": month}).context["stats"]
    assert this_month.overall.games == 3
    later = client.get(url, {"since": "2099-01"}).context["stats"]
    assert later.overall.games == 0
    assert [p["month"] for p in this_month.popularity] == [month]
    assert this_month.popularity[0]["pick_rate"] == 0.5


@pytest.mark.parametrize(("params", "named"), [
    ({"mode": "chess"}, "mode"),
    ({"since": "2026-13"}, "since"),
    ({"until": "March"}, "until"),
    ({"event": "no-such-event"}, "event"),
    ({"since": "2026-05", "until": "2026-01"}, "until"),
], ids=["mode_case", "month_case", "format_case", "event_case", "order_case"])
def test_bad_filters_are_a_400_naming_the_parameter(client, params, named) -> None:
    for name in ("stats:matchups", "stats:leaderboards", "stats:index"):
        response = client.get(reverse(name), params)
        assert response.status_code == 400
        assert f"{named}:" in response.content.decode()


def test_unknown_character_or_player_is_a_404(client) -> None:
    assert client.get(reverse("stats:character", args=["ryu"])).status_code == 404
    assert client.get(reverse("stats:player", args=[999999])).status_code == 404


def test_matchup_chart_has_every_pair_and_hides_rates_of_small_samples(client,
                                                                       three_games) -> None:
    response = client.get(reverse("stats:matchups"))
    chart = response.context["chart"]
    assert len(chart.characters) == 20
    assert chart.cell("setsuki", "rook").games == 3
    figure = _plot(response, "heatmap")
    names = [n for _, n in chart.characters]
    row, col = names.index("Setsuki"), names.index("Rook")
    assert figure["data"][0]["z"][row][col] is None  # 3 games: too few for a rate
    assert figure["data"][0]["text"][row][col] == "n=3"
    assert 'data-cell="setsuki:rook" data-games="3"' in response.content.decode()


def test_player_page_has_characters_head_to_head_and_recent_games(client, three_games) -> None:
    alice, bob = three_games
    response = client.get(reverse("stats:player", args=[alice.pk]), {"opponent": bob.pk})
    assert response.status_code == 200
    stats = response.context["stats"]
    assert (stats.overall.games, stats.overall.wins) == (3, 2)
    assert [c["character"] for c in stats.characters] == ["setsuki"]
    assert stats.opponent["games"] == 3 and stats.opponent["wins"] == 2
    assert stats.head_to_head[0]["opponent_name"] == "Bob"
    assert len(stats.recent_games) == 3
    assert client.get(reverse("stats:player", args=[alice.pk]),
                      {"opponent": "x"}).status_code == 400


def test_leaderboard_per_mode_and_character(client, three_games) -> None:
    _alice, _bob = three_games
    rows = client.get(reverse("stats:leaderboards")).context["rows"]
    assert [(r["player_name"], r["wins"], r["games"]) for r in rows] == [
        ("Alice", 2, 3), ("Bob", 1, 3)]
    tag = client.get(reverse("stats:leaderboards"), {"mode": "tag_team"}).context["rows"]
    assert [(r["player_name"], r["wins"]) for r in tag] == [("Bob", 1), ("Alice", 0)]
    rook = client.get(reverse("stats:leaderboards"), {"character": "rook"}).context["rows"]
    assert [r["player_name"] for r in rook] == ["Bob"]
    response = client.get(reverse("stats:leaderboards"), {"character": "ryu"})
    assert response.status_code == 400 and "character:" in response.content.decode()


def _queries(client, url: str, params: dict | None = None) -> int:
    with CaptureQueriesContext(connection) as ctx:
        assert client.get(url, params or {}).status_code == 200
    return len(ctx.captured_queries)


def test_query_counts_do_not_grow_with_the_number_of_games(client,
                                                          django_capture_on_commit_callbacks,
                                                          three_games) -> None:
    alice, _bob = three_games
    urls = [reverse("stats:character", args=["setsuki"]), reverse("stats:matchups"),
            reverse("stats:player", args=[alice.pk]), reverse("stats:leaderboards")]
    before = [_queries(client, u) for u in urls]
    carol = PlayerFactory(display_name="Carol")
    for winner in ("P1", "P2", "P1"):
        confirm(versus(carol, alice), log_won_by(winner, "setsuki", "grave"),
                django_capture_on_commit_callbacks)
    assert GameSide.objects.count() == 12
    assert [_queries(client, u) for u in urls] == before
