"""Training and Survival on the site (RULES.md §12): a player submits a solo run on their own,
the verifier replays it (every bot choice derived), the player's submission alone makes a legal
log the result, and the results appear on the player's page and the Survival leaderboard, never
in the player-vs-player numbers."""

from __future__ import annotations

import json
from dataclasses import replace
from functools import cache

import pytest
from django.urls import reverse

from matches.errors import MatchError
from matches.models import Match, VerificationRun
from matches.services import match_create, solo_run_submit
from rules_engine.actions import NoCard
from rules_engine.log import LogEvent
from rules_engine.selfplay import play_match
from rules_engine.team import Mode
from rules_engine.training import survival_score
from rules_engine.types import PlayerId
from stats.models import GameRecord
from stats.training import survival_leaderboard
from tests.matches.factories import PlayerFactory

pytestmark = pytest.mark.django_db

BOTS = ("jaina", "rook", "lum")


@cache
def survival_log(seed: int) -> tuple[str, int]:
    game, log = play_match(Mode.SURVIVAL, ("grave",), BOTS, seed, bot="greedy")
    return log.dumps(), survival_score(game)


def _scored(at_least: int) -> tuple[str, int]:
    for seed in range(60):
        text, score = survival_log(seed)
        if score >= at_least:
            return text, score
    raise AssertionError("no run scored enough")


def submit(client, player, text: str, capture) -> Match:  # type: ignore[no-untyped-def]
    client.force_login(player.user)
    with capture(execute=True):
        response = client.post(reverse("matches-api:solo-run-submit"),
                               data={"log_text": text}, content_type="application/json")
    assert response.status_code == 201, response.json()
    return Match.objects.get(pk=response.json()["match"]["id"]
                             if isinstance(response.json()["match"], dict)
                             else response.json()["match"])


def test_a_survival_run_is_submitted_alone_and_verified__TR_14(
        client, django_capture_on_commit_callbacks) -> None:
    """TR-14: the run's log creates the player's match (side 2 is the bot), is verified, and
    the player's submission alone makes it the result; it does not count in Versus stats."""
    alice = PlayerFactory(display_name="Alice")
    text, score = _scored(1)
    match = submit(client, alice, text, django_capture_on_commit_callbacks)
    match.refresh_from_db()
    assert match.mode == Match.Mode.SURVIVAL
    assert match.status == Match.Status.CONFIRMED
    assert match.result_source == Match.ResultSource.LOG
    assert [(s.side, s.character) for s in match.sides.all()] == [(1, "grave")]
    assert not GameRecord.objects.filter(match_id=match.pk).exists()
    page = client.get(reverse("matches:match-detail", args=[match.pk]))
    assert page.status_code == 200 and "bot (Training" in page.content.decode()
    run = VerificationRun.objects.get(log=match.result_log)
    assert run.verdict["facts"]["survival"]["score"] == score


def test_a_log_whose_bot_deviates_is_not_a_result__TR_3(
        client, django_capture_on_commit_callbacks) -> None:
    """TR-3: a log making a choice for the bot is illegal: the match gets no result."""
    bob = PlayerFactory(display_name="Bob")
    _, log = play_match(Mode.TRAINING, ("grave",), ("jaina",), 2, bot="greedy")
    events = list(log.events)
    events.insert(1, LogEvent(PlayerId.P2, NoCard(), "jaina"))
    text = replace(log, events=tuple(events)).dumps()
    match = submit(client, bob, text, django_capture_on_commit_callbacks)
    match.refresh_from_db()
    assert match.status != Match.Status.CONFIRMED
    run = VerificationRun.objects.get(log__match=match)
    assert run.status == VerificationRun.Status.ILLEGAL
    assert run.verdict["first_error"]["rule_id"].startswith("TR-")


def test_only_solo_logs_and_players_submit_alone(client) -> None:
    """A player-vs-player log (Triple Threat) is refused on the solo endpoint (400, nothing
    stored); a solo match has one player and no second side."""
    carol = PlayerFactory(display_name="Carol")
    _, log = play_match(Mode.TRIPLE_THREAT,
                        ("grave", "jaina", "rook"), ("lum", "troq", "gwen"), 1)
    client.force_login(carol.user)
    response = client.post(reverse("matches-api:solo-run-submit"),
                           data={"log_text": log.dumps()}, content_type="application/json")
    assert response.status_code == 400 and response.json()["code"] == "log_mode_mismatch"
    assert not Match.objects.exists()
    with pytest.raises(MatchError):
        match_create(mode=Match.Mode.TRAINING, side_1=[carol], side_2=[PlayerFactory()])
    with pytest.raises(MatchError):
        solo_run_submit(user=PlayerFactory().user, log_bytes=b"{}")


def test_best_survival_on_the_player_page_and_the_leaderboard__TR_14(
        client, django_capture_on_commit_callbacks) -> None:
    """TR-14: the player page shows the best Survival score per character; the Survival
    leaderboard ranks players by their best run, per character too."""
    dana, eve = PlayerFactory(display_name="Dana"), PlayerFactory(display_name="Eve")
    high, high_score = _scored(2)
    low = next(t for t, s in (survival_log(k) for k in range(60)) if s < high_score)
    capture = django_capture_on_commit_callbacks
    submit(client, dana, low, capture)
    submit(client, dana, high, capture)
    submit(client, eve, low, capture)
    page = client.get(reverse("stats:player", args=[dana.pk]))
    assert page.status_code == 200
    best = page.context["best_survival"]
    assert [(b["character"], b["score"]) for b in best] == [("grave", high_score)]
    assert len(page.context["solo_results"]) == 2
    assert "best-survival-table" in page.content.decode()
    rows = survival_leaderboard()
    assert (rows[0]["player_name"], rows[0]["rank"]) == ("Dana", 1)
    assert rows[0]["score"] == high_score and len(rows) == 2
    board = client.get(reverse("stats:survival"), {"character": "grave"})
    assert board.status_code == 200 and "Dana" in board.content.decode()
    assert client.get(reverse("stats:survival"), {"character": "chess"}).status_code == 400
    assert survival_leaderboard(character="jaina") == []
    assert json.loads(json.dumps(rows))  # plain data
