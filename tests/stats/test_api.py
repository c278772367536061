"""The statistics API: in the OpenAPI schema, filtered, 400 on bad filters, CSV export."""

from __future__ import annotations

import csv
import io

import pytest
from django.urls import reverse

from stats.models import GameSide
from tests.matches.factories import PlayerFactory
from tests.stats.helpers import confirm, log_won_by, versus

pytestmark = pytest.mark.django_db


@pytest.fixture
def games(django_capture_on_commit_callbacks):
    a, b = PlayerFactory(display_name="Ann"), PlayerFactory(display_name="Ben")
    confirm(versus(a, b), log_won_by("P1", "grave", "jaina"), django_capture_on_commit_callbacks)
    confirm(versus(b, a), log_won_by("P1", "lum", "grave"), django_capture_on_commit_callbacks)
    return a, b


def test_every_endpoint_is_in_the_schema(client) -> None:
    schema = client.get(reverse("api-schema"), HTTP_ACCEPT="application/json").json()
    for path in ("/api/stats/characters/{character_id}/", "/api/stats/matchups/",
                 "/api/stats/players/{id}/", "/api/stats/leaderboard/", "/api/stats/games/"):
        assert path in schema["paths"], path
    params = {p["name"] for p in schema["paths"]["/api/stats/games/"]["get"]["parameters"]}
    assert {"character", "player", "mode", "event", "result"} <= params


def test_character_endpoint_numbers(client, games) -> None:
    data = client.get(reverse("stats-api:character", args=["grave"])).json()
    assert data["overall"]["games"] == 2 and data["overall"]["wins"] == 1
    by_opponent = {m["opponent"]: m for m in data["matchups"]}
    assert by_opponent["jaina"]["wins"] == 1 and by_opponent["lum"]["wins"] == 0
    assert data["combos"]["damage_max"] == max(t["damage"] for t in data["combos"]["top"])
    assert data["overall"]["interval_low"] < 0.5 < data["overall"]["interval_high"]


def test_matchup_csv_has_a_row_per_pair(client, games) -> None:
    response = client.get(reverse("stats-api:matchups"), {"format": "csv"})
    assert response.status_code == 200 and response["Content-Type"].startswith("text/csv")
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert len(rows) == 400
    cell = next(r for r in rows if r["character"] == "grave" and r["opponent"] == "jaina")
    assert (cell["games"], cell["wins"]) == ("1", "1")


def test_games_list_filters_and_exports(client, games) -> None:
    ann, _ben = games
    data = client.get(reverse("stats-api:games"), {"player": ann.pk, "result": "win"}).json()
    assert data["count"] == 1
    assert data["results"][0]["character"] == "grave"
    assert data["results"][0]["opponent_name"] == "Ben"
    response = client.get(reverse("stats-api:games"), {"character": "lum", "format": "csv"})
    rows = list(csv.DictReader(io.StringIO(response.content.decode())))
    assert [r["player_name"] for r in rows] == ["Ben"]
    assert client.get(reverse("stats-api:games"), {"character": "ryu"}).status_code == 400
    assert GameSide.objects.count() == 4


def test_leaderboard_and_player_endpoints(client, games) -> None:
    ann, ben = games
    rows = client.get(reverse("stats-api:leaderboard"), {"character": "grave"}).json()["rows"]
    # Ann played Grave in both games (won one); Ben never did
    assert [(r["player_name"], r["wins"], r["games"]) for r in rows] == [("Ann", 1, 2)]
    rows = client.get(reverse("stats-api:leaderboard")).json()["rows"]
    assert [(r["player_name"], r["wins"], r["games"]) for r in rows] == [("Ann", 1, 2),
                                                                        ("Ben", 1, 2)]
    data = client.get(reverse("stats-api:player", args=[ann.pk]), {"opponent": ben.pk}).json()
    assert data["opponent"]["games"] == 2 and data["opponent"]["wins"] == 1
    bad = client.get(reverse("stats-api:player", args=[ann.pk]), {"opponent": "zz"})
    assert bad.status_code == 400 and bad.json()["errors"]["opponent"]


@pytest.mark.parametrize(("params", "named"), [
    ({"mode": "chess"}, "mode"), ({"since": "26-01"}, "since"), ({"min_games": "0"}, "min_games"),
], ids=["mode_case", "since_case", "min_games_case"])
def test_bad_filters_are_a_400_naming_the_parameter(client, params, named) -> None:
    response = client.get(reverse("stats-api:leaderboard"), params)
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "invalid_filter" and named in body["errors"]
    assert body["message"].startswith(f"{named}:")
