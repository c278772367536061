"""The room speaks Yomi, in Debian's Chromium (Playwright): cards drawn as cards, choices made
on the cards, the turn-by-turn log, names, a phone's screen; axe-core on the room, replay and
practice pages.

Screenshots: each run saves them beside the test's files; with ``YOMI_DOCS_SCREENSHOTS=1`` they
are copied to ``docs/images/`` (what ``docs/rooms.md`` shows).
"""

from __future__ import annotations

import os
import random
import re
import shutil
import statistics
import time
from pathlib import Path
from typing import Any

import pytest
from django.urls import reverse

from rooms import services
from rooms.models import RoomEvent
from tests.matches.factories import UserFactory, side_user
from tests.rooms.conftest import click_a_choice, log_in
from tests.rooms.helpers import match_room, quince_at_two_truths
from tests.rooms.helpers import state as room_state
from tests.rooms.servers import AsgiServer
from tests.support.browser import inject_axe, wait_until

pytestmark = [pytest.mark.browser, pytest.mark.services, pytest.mark.django_db(transaction=True)]

PHONE = {"viewport": {"width": 390, "height": 844}, "is_mobile": True, "has_touch": True}
DESKTOP = {"viewport": {"width": 1280, "height": 900}}
DOCS_IMAGES = Path(__file__).resolve().parents[2] / "docs" / "images"
SEAT_IDS = re.compile(r"\bP[1-4]\b")


def _shot(page: Any, tmp_path: Path, name: str) -> Path:
    path = tmp_path / name
    page.screenshot(path=str(path))
    if os.environ.get("YOMI_DOCS_SCREENSHOTS") == "1":
        DOCS_IMAGES.mkdir(exist_ok=True)
        shutil.copy(path, DOCS_IMAGES / name)
    return path


def _on_screen(page: Any, selector: str) -> bool:
    """Is every element matching ``selector`` wholly inside the viewport as the page stands (no
    scrolling), and seen: at its centre the page shows it, not something covering it?"""
    return bool(page.evaluate("""(sel) => {
      const all = [...document.querySelectorAll(sel)];
      return all.length > 0 && all.every(e => { const r = e.getBoundingClientRect();
        const top = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
        return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth
          && top !== null && (top === e || e.contains(top)); });
    }""", selector))


def _axe(page: Any) -> list[str]:
    """axe-core's serious and critical violations on the page as it stands."""
    inject_axe(page)
    found = page.evaluate("""async () => {
      const r = await axe.run(document, {resultTypes: ['violations']});
      return r.violations.filter(v => v.impact === 'serious' || v.impact === 'critical')
        .map(v => `${v.id} (${v.impact}): ` +
                  v.nodes.slice(0, 3).map(n => n.target.join(' ')).join(', '));
    }""")
    return list(found)


def _wait_cards_drawn(page: Any) -> None:
    # the hand's cards carry both ends from the character's card data once it has loaded
    page.wait_for_selector("#hand .card .end", timeout=20_000)


def test_two_players_play_a_versus_match_to_the_end_on_the_cards(
    browser: Any, asgi_server: AsgiServer, tmp_path: Path
) -> None:
    match, room = match_room(("grave", "jaina"))
    names = {"P1": side_user(match, 1), "P2": side_user(match, 2)}
    base = asgi_server.url
    url = base + reverse("rooms:room", args=[room.pk])
    desk = log_in(browser, base, names["P1"], **DESKTOP)
    phone = log_in(browser, base, names["P2"], **PHONE)
    for page in (desk, phone):
        page.goto(url)
        page.wait_for_selector("#room[data-status=playing]")
        _wait_cards_drawn(page)
    player = {s.seat: s.name for s in room.seats.all()}

    # the first decision (both commit at C1): the hand shows cards as cards, in Grave's and
    # Jaina's own terms, the legal ones highlighted
    phone.wait_for_selector("#hand .card.legal")
    hand = phone.inner_text("#hand")
    assert re.search(r"(attack|throw|block|dodge)", hand) and "speed" in hand
    assert phone.locator("#hand .card.legal").count() >= 1
    # at 390 px the hand and the decision are on screen without scrolling; the opponent's
    # public state is one summary line (its details folded)
    assert _on_screen(phone, "#decision-title"), "the decision is below the fold"
    assert _on_screen(phone, "#hand .card"), "the hand is below the fold"
    assert phone.locator("[data-seat=P1] details.seat-more[open]").count() == 0
    assert _on_screen(phone, "[data-seat=P1] .summary-line")
    assert f"{player['P1']} (Grave)" in phone.inner_text("#waiting") or \
        "Your decision" in phone.inner_text("#waiting")
    _shot(phone, tmp_path, "room-phone-decision.png")
    # a card selected: the choices made on exactly it are offered, in the game's words
    phone.locator("#hand .card.legal").first.click()
    phone.wait_for_selector("#choices button.choice.confirm")
    labels = phone.eval_on_selector_all("#choices button.confirm",
                                        "bs => bs.map(b => b.textContent)")
    assert labels and all(label.startswith("Commit ") for label in labels)
    assert not phone.is_hidden("#card-detail")
    _shot(phone, tmp_path, "room-phone-selected.png")
    phone.keyboard.press("Escape")  # the selection is cleared by key
    phone.wait_for_selector("#choices button.choice.confirm", state="detached")
    # the keyboard: 1 selects the first highlighted card, Esc clears
    desk.wait_for_selector("#hand .card.legal")
    desk.keyboard.press("1")
    desk.wait_for_selector("#hand .card.legal[aria-pressed=true]")
    assert desk.locator("#choices button.confirm").count() >= 1
    desk.keyboard.press("Escape")
    desk.wait_for_selector("#hand .card.legal[aria-pressed=true]", state="detached")
    # the character card is one tap away: life, combo limit, innate
    desk.click("[data-seat=P1] .character-button")
    assert re.search(r"Life \d+ · combo limit \d+", desk.inner_text("#character-dialog"))
    desk.click("#character-dialog-close")

    rng = random.Random(34)
    clicks: dict[tuple[str, str], int] = {}
    decisions: dict[tuple[str, str], int] = {}  # the clicks that sent a choice
    deadline = time.monotonic() + 300
    shot_reveal = False
    flashed = False  # the combat reveal highlighted when the combat cards appear
    while desk.get_attribute("#room", "data-status") != "finished":
        assert time.monotonic() < deadline, "the game did not end in time"
        moved = False
        for seat, page in (("P1", desk), ("P2", phone)):
            turn = page.get_attribute("#room", "data-turn") or "0"
            clicked = click_a_choice(page, rng)
            if clicked:
                clicks[seat, turn] = clicks.get((seat, turn), 0) + 1
                if clicked == "choice":
                    decisions[seat, turn] = decisions.get((seat, turn), 0) + 1
                moved = True
        flashed = flashed or desk.locator("#reveal.fresh").count() > 0
        if not shot_reveal and desk.locator("#reveal").count() and \
                desk.locator("#log > li[data-turn]").count() >= 2:
            _shot(desk, tmp_path, "room-desktop.png")
            shot_reveal = True
        if not moved:
            time.sleep(0.02)
    phone.wait_for_selector("#room[data-status=finished]")
    assert flashed, "the combat reveal was never highlighted"
    # each seat has a life bar showing its life
    for seat in ("P1", "P2"):
        meter = desk.locator(f"section[data-seat={seat}] meter")
        assert meter.count() == 1, desk.inner_html("#board")[:3000]
        assert meter.get_attribute("value") == str(max(0, room_state(room, "public")["view"][
            "players"][seat]["life"]))
    room.refresh_from_db()
    turns = room.outcome["turns"]
    # every (seat, turn) of the game: a turn without a click by a seat counts as 0 clicks
    per_turn = [clicks.get((seat, str(t)), 0) for seat in ("P1", "P2") for t in range(1, turns + 1)]
    median = statistics.median(per_turn)
    made = [decisions.get((seat, str(t)), 0) for seat in ("P1", "P2")
            for t in range(1, turns + 1)]
    print(f"\nclicks per seat per turn over {turns} turns: median {median}, "
          f"mean {statistics.mean(per_turn):.2f}, total {sum(per_turn)}; choices sent per "
          f"seat per turn: median {statistics.median(made)}, mean {statistics.mean(made):.2f}")
    assert 1 <= median <= 6

    # the result names the winner, by name and character; the log names the players
    outcome = desk.inner_text("#outcome")
    winner = room.outcome["winner"]
    if winner:
        character = "Grave" if winner == "P1" else "Jaina"
        assert outcome.startswith(f"{player[winner]} ({character}) wins")
    else:
        assert outcome.startswith("A draw")
    log = desk.inner_text("#log")
    assert f"Turn {turns - 1} " in log or f"Turn {turns} " in log
    assert "Reveal \u2014" in log and "Life:" in log
    assert player["P1"] in log and player["P2"] in log
    assert not SEAT_IDS.search(log + outcome), "the log or result says P1/P2"
    # the spectators' page has the same log
    watcher = browser.new_context(**PHONE).new_page()
    watcher.goto(url)
    watcher.wait_for_selector("#room[data-status=finished]")
    assert watcher.inner_text("#log") == phone.inner_text("#log")
    _shot(phone, tmp_path, "room-phone-finished.png")
    _shot(desk, tmp_path, "room-desktop-finished.png")


def test_a_quince_player_makes_a_two_truths_choice_through_the_picker(
    browser: Any, asgi_server: AsgiServer, tmp_path: Path
) -> None:
    user = UserFactory(username="quince-picker")
    room = quince_at_two_truths(user)
    now = room_state(room, "P1")
    picker = next(p for p in now["pickers"] if p["template"].get("ability") == "Two Truths")
    assert picker["count"] > 40  # a list would have had a button per combination
    pool = picker["fields"]["cards"]["pool"]
    # three cards of different ranks, as a player would pick them
    chosen: list[str] = []
    for key in pool:
        if key.split(":")[1][0] not in {k.split(":")[1][0] for k in chosen} and len(chosen) < 3:
            chosen.append(key)
    page = log_in(browser, asgi_server.url, user, **PHONE)
    page.goto(asgi_server.url + reverse("rooms:room", args=[room.pk]))
    page.wait_for_selector("#tray [data-zone=discard] .card.legal")
    # a picker: the discard pile's cards to pick from, never a button per combination
    buttons = page.locator("#decision button").count()
    assert buttons < 80 < picker["count"] or buttons < picker["count"] / 2
    assert page.locator("#choices button.choice").count() <= 2
    _shot(page, tmp_path, "room-phone-two-truths.png")
    for key in reversed(chosen):  # picked in any order: the page sends them in the engine's
        page.click(f"#tray .card.legal[data-key='{key}']")
    confirm = page.locator("#choices button.confirm", has_text="Two Truths")
    assert confirm.count() == 1
    before = RoomEvent.objects.filter(room=room).count()
    confirm.click()
    wait_until(page, f"Number(document.getElementById('room').dataset.version) > {before}")
    made = RoomEvent.objects.filter(room=room).order_by("index")[before]
    assert made.player == "P1"
    assert made.action == {"action": "ability", "ability": "Two Truths", "option": "choose",
                           "cards": [k.split(":")[1] for k in chosen]}


def test_axe_finds_no_serious_violation_on_the_room_replay_and_practice_pages(
    browser: Any, asgi_server: AsgiServer
) -> None:
    user = UserFactory(username="axe-player")
    room = services.room_open_practice(user=user, name=user.username, bot="greedy",
                                       character="grave", bot_character="jaina")
    practice = reverse("rooms:practice")
    page = log_in(browser, asgi_server.url, user, **DESKTOP)
    base = asgi_server.url
    page.goto(base + practice)
    assert _axe(page) == [], "the practice page"
    page.goto(base + reverse("rooms:room", args=[room.pk]))
    _wait_cards_drawn(page)
    page.locator("#hand .card.legal").first.click()
    assert _axe(page) == [], "the room page at a decision"
    phone = log_in(browser, base, user, **PHONE)
    phone.goto(base + reverse("rooms:room", args=[room.pk]))
    _wait_cards_drawn(phone)
    assert _axe(phone) == [], "the room page on a phone"
    rng = random.Random(1)
    deadline = time.monotonic() + 200
    while page.get_attribute("#room", "data-status") != "finished":
        assert time.monotonic() < deadline, "the game did not end in time"
        if not click_a_choice(page, rng):
            time.sleep(0.02)
    assert _axe(page) == [], "the finished room page"
    page.goto(base + reverse("rooms:room-replay", args=[room.pk]))
    page.wait_for_selector("#board [data-seat=P1]")
    assert _axe(page) == [], "the replay page"
