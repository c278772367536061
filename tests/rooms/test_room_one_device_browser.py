"""A tabletop game recorded on one phone (Debian's Chromium, Playwright, a phone's viewport):
the device takes both players' entries in turn, the cards they draw included, hands each
decision over behind a "pass the device" screen, and at the end the log is submitted and
verified on a real worker."""

from __future__ import annotations

import random
import time
from typing import Any

import pytest
from django.urls import reverse

from matches.models import Match, VerificationRun
from rooms.models import Room
from rules_engine.log import parse_log
from tests.matches.factories import side_user, versus_match
from tests.rooms.conftest import click_a_choice, log_in
from tests.rooms.servers import AsgiServer
from tests.support.waiting import wait_for, worker_drained

pytestmark = [pytest.mark.browser, pytest.mark.services, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


def _hand_over(page: Any) -> str | None:
    """If the page asks to pass the device, check it shows no hand, then take it over."""
    ready = page.locator("#handover-ready")
    if not ready.is_visible():
        return None
    seat = ready.get_attribute("data-seat")
    # while the device is handed over, nothing of the previous holder's view is on screen
    assert page.locator("#board [data-field=your-hand]").count() == 0
    assert page.locator("#choices button").count() == 0 or not page.is_visible("#decision")
    try:
        ready.click(timeout=2_000)
    except Exception:  # re-rendered meanwhile: look again
        return None
    return seat


def _fits(page: Any) -> bool:
    return bool(page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"))


def test_one_phone_records_a_tabletop_game_to_the_end_and_its_log_is_verified(
    browser: Any, asgi_server: AsgiServer
) -> None:
    match = versus_match()
    base = asgi_server.url
    phone = log_in(browser, base, side_user(match, 1), **PHONE)

    phone.goto(base + reverse("rooms:match-room", args=[match.pk]))
    assert _fits(phone)
    phone.click("#open-one-device")
    phone.wait_for_selector("#room[data-status=picking]")
    assert "this device records both sides" in phone.inner_text("main")
    # the device asks for P1 first, then P2, each picking behind the hand-over
    for seat, character in (("P1", "grave"), ("P2", "jaina")):
        phone.wait_for_selector(f"#handover-ready[data-seat={seat}]", state="visible")
        assert "Pass the device to" in phone.inner_text("#handover-title")
        phone.click("#handover-ready")
        phone.click(f"button.pick[data-character={character}]")
    phone.wait_for_selector("#room[data-status=playing]")
    assert _fits(phone)

    rng = random.Random(3)
    handed = {"P1": 0, "P2": 0}
    drew = 0
    deadline = time.monotonic() + 400
    while phone.get_attribute("#room", "data-status") != "finished":
        assert time.monotonic() < deadline, "the game did not end in time"
        seat = _hand_over(phone)
        if seat is not None:
            handed[seat] += 1
            continue
        # a recorded draw: the cards left in the deck, offered as cards to pick
        if phone.locator("#tray [data-zone=deck] .card.legal").count():
            drew += 1
        if not click_a_choice(phone, rng):
            time.sleep(0.02)
    assert handed["P1"] >= 3 and handed["P2"] >= 3  # decisions went back and forth
    assert drew >= 14  # both opening hands, entered card by card
    outcome = phone.inner_text("#outcome")
    assert "Draws as recorded." in outcome
    assert _fits(phone)

    room = Room.objects.get(match=match)
    log = parse_log(room.log_text)
    assert log.seed is None and {e.player.name for e in log.events} == {"P1", "P2"}
    # submitted as side 1's log and verified on the worker: side 2 confirms on the match page
    deadline = time.monotonic() + 90
    while Match.objects.get(pk=match.pk).status != Match.Status.AWAITING_CONFIRMATION:
        assert time.monotonic() < deadline, "the recorded log was not verified"
        time.sleep(0.2)
    run = VerificationRun.objects.get(log=room.match_log)
    assert run.status == "legal"
    phone.goto(base + reverse("matches:match-detail", args=[match.pk]))
    assert _fits(phone)
    wait_for(worker_drained, 60, "the worker to finish the log's follow-up tasks")
