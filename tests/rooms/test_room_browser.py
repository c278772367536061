"""Two browsers play a whole Versus match in the match room (Debian's Chromium, Playwright).

The production shape on loopback: daphne serves the pages and the websockets (Redis channel
layer), a real Celery worker verifies the room's log, and the set page then shows the result.
"""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from django.urls import reverse

from tests.rooms.conftest import click_a_choice as _click_a_choice
from tests.rooms.conftest import log_in as _log_in
from tests.rooms.servers import AsgiServer
from tests.support.browser import wait_until
from tests.tournaments.factories import EventFactory, StageFactory, UserFactory, entrants_create
from tournaments.models import Game, Set
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open

pytestmark = [pytest.mark.browser, pytest.mark.services, pytest.mark.django_db(transaction=True)]







def test_two_browsers_play_a_versus_match_and_the_set_shows_the_verified_result(
    browser: Any, asgi_server: AsgiServer
) -> None:
    organizer = UserFactory(username="room-browser-org")
    event = EventFactory(organizers=[organizer], best_of=1)
    entrants_create(event, 4)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    semifinal = Set.objects.get(stage=stage, key="W1-1")
    match = set_match_open(set=semifinal, actor=organizer)
    users = [match.sides.get(side=s).player.user for s in (1, 2)]
    base = asgi_server.url
    p1, p2 = (_log_in(browser, base, u) for u in users)

    # P1 opens the room from the match page; P2 follows the same link
    p1.goto(base + reverse("matches:match-detail", args=[match.pk]))
    p1.click("#match-room-link")
    p1.click("#open-room")
    p1.wait_for_selector("#room[data-status=picking]")
    p2.goto(base + reverse("matches:match-detail", args=[match.pk]))
    p2.click("#match-room-link")
    p2.wait_for_selector("#room[data-status=picking]")
    assert p1.url == p2.url
    # the room links to its set and its event, and names the players, not seats
    links = p1.eval_on_selector_all("a.room-link", "as => as.map(a => [a.textContent, a.href])")
    assert [href.split(base)[1] for _, href in links] == [
        reverse("tournaments:set-detail", args=[event.slug, semifinal.pk]),
        reverse("tournaments:event-detail", args=[event.slug])]
    assert links[1][0] == event.name
    assert match.sides.get(side=1).player.display_name in p1.inner_text("#room-title")
    p1.click("button.pick[data-character=grave]")
    p2.click("button.pick[data-character=jaina]")
    p1.wait_for_selector("#room[data-status=playing]")

    rng = random.Random(22)
    deadline = time.monotonic() + 240
    while p1.get_attribute("#room", "data-status") != "finished":
        assert time.monotonic() < deadline, "the game did not end in time"
        clicked = [_click_a_choice(page, rng) for page in (p1, p2)]
        if not any(clicked):
            time.sleep(0.02)
    p2.wait_for_selector("#room[data-status=finished]")
    # each player only ever saw their own hand
    assert p1.locator("[data-seat=P2] [data-field=your-hand]").count() == 0
    outcome = p1.inner_text("#outcome")
    assert "wins" in outcome or "draw" in outcome.lower()

    # the worker verifies the room's log; the set page shows the result
    from matches.models import Match

    deadline = time.monotonic() + 90
    while Match.objects.get(pk=match.pk).status != Match.Status.CONFIRMED:
        assert time.monotonic() < deadline, "the room's log was not verified"
        time.sleep(0.2)
    match.refresh_from_db()
    p1.goto(base + reverse("tournaments:set-detail", args=[event.slug, semifinal.pk]))
    if match.is_draw:  # rare with random clicks: a drawn game is replayed, the set says so
        assert "Draw (replayed)" in p1.inner_text("main")
        return
    deadline = time.monotonic() + 60
    while not Game.objects.filter(match=match).exists():
        assert time.monotonic() < deadline, "the set's game was not recorded"
        time.sleep(0.2)
    p1.reload()
    winner_name = (semifinal.entrant_a if match.winner_side == 1 else semifinal.entrant_b).name
    assert winner_name in p1.locator("tr.won").inner_text()
    semifinal.refresh_from_db()
    assert semifinal.status == Set.Status.FINISHED
    # the match page links the replay, which steps through by keyboard and links to a turn
    p1.goto(base + reverse("matches:match-detail", args=[match.pk]))
    p1.click("#match-replay-link")
    p1.wait_for_selector("#board [data-seat=P1]")
    assert "Event 0 of" in p1.inner_text("#position")
    p1.keyboard.press("ArrowRight")
    assert "Event 1 of" in p1.inner_text("#position")
    p1.keyboard.press("End")
    assert p1.inner_text("#event")
    # both hands are revealed in a replay
    assert p1.locator("[data-seat=P2] [data-field=hand]").count() == 1
    p1.goto(p1.url.split("#")[0] + "#turn-2")
    wait_until(p1, "document.getElementById('position').textContent.includes('turn 2')")
