"""Issue 30, parts 2 and 5: the replay viewer's data comes from the engine's one replay
(``judge``), names a P1 win as a P1 win (``PlayerId.P1 == 0`` is falsy: it was called a draw),
and shows a 64-bit seed exactly (a JSON number loses it past 2**53)."""

from __future__ import annotations

import json

import pytest
from django.contrib.auth.models import AnonymousUser
from django.test import RequestFactory

from rooms import views
from rooms.replay import replay_frames
from rules_engine.game import Game
from rules_engine.selfplay import play_game
from rules_engine.types import PlayerId

BIG_SEED = 2**63 + 1  # past 2**53: a JavaScript number would print 9223372036854775808


def _page(text: str) -> str:
    request = RequestFactory().get("/replay/")
    request.user = AnonymousUser()
    return views._replay(request, text, "Test", None).content.decode()


def _log_won_by(seat: PlayerId, seeds: range) -> str:
    for seed in seeds:
        game, log = play_game("grave", "jaina", seed)
        assert game.outcome is not None
        if game.outcome.winner is seat:
            return log.dumps()
    raise AssertionError(f"no game of these seeds won by {seat.name}")


def test_the_viewer_names_a_p1_win() -> None:
    text = _log_won_by(PlayerId.P1, range(BIG_SEED, BIG_SEED + 20))
    data = replay_frames(text)
    assert data["outcome"]["winner"] == "P1"
    page = _page(text)
    assert "P1 won" in page and "a draw" not in page


def test_the_viewer_names_a_p2_win() -> None:
    data = replay_frames(_log_won_by(PlayerId.P2, range(1, 40)))
    assert data["outcome"]["winner"] == "P2"


def test_a_64_bit_seed_travels_as_a_string_and_the_page_shows_it_exactly() -> None:
    _, log = play_game("grave", "jaina", BIG_SEED)
    text = log.dumps()
    data = replay_frames(text)
    assert data["seed"] == str(BIG_SEED)
    page = _page(text)
    assert f"seed {BIG_SEED}" in page
    # the data the page's script reads carries the seed as a string, digit for digit
    script = page.split('id="replay-data" type="application/json">')[1].split("</script>")[0]
    assert json.loads(script)["seed"] == str(BIG_SEED)


def test_the_frames_are_the_one_replay_and_an_illegal_log_says_where_it_stops(
        monkeypatch: pytest.MonkeyPatch) -> None:
    _, log = play_game("grave", "jaina", 3)
    doc = json.loads(log.dumps())
    events = len(doc["events"])
    data = replay_frames(log.dumps())
    assert len(data["frames"]) == events + 1 and data["problem"] is None
    assert [f["event"]["index"] for f in data["frames"][1:]] == list(range(events))
    doc["events"].append({"player": "P1", "action": "stop"})  # after the end: END-2
    applied = [0]
    apply = Game.apply

    def counted(self: Game, *args: object) -> None:
        applied[0] += 1
        apply(self, *args)  # type: ignore[arg-type]

    monkeypatch.setattr(Game, "apply", counted)
    data = replay_frames(json.dumps(doc))
    assert applied[0] == events  # one replay: the viewer's frames are the judge's
    assert len(data["frames"]) == events + 1
    assert data["problem"] is not None and f"event {events}" in data["problem"]
    assert "END-2" in data["problem"]
