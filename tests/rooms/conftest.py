"""Shared by the room's browser tests: the daphne server, a logged-in page, a scripted click."""

from __future__ import annotations

import random
from collections.abc import Iterator
from typing import Any

import pytest

from tests.rooms.servers import AsgiServer


@pytest.fixture
def asgi_server(celery_worker: str) -> Iterator[AsgiServer]:
    server = AsgiServer()
    try:
        server.wait_ready()
        yield server
    finally:
        server.stop()


ENABLED_CHOICES = "#choices button.choice:not([disabled])"
# the cards a choice can still be made on (highlighted), in the hand and the decision's tray
LEGAL_CARDS = "#hand button.card.legal:not([disabled]), #tray button.card.legal:not([disabled])"
_LOOK = """([choices, cards]) => ({
  confirms: [...document.querySelectorAll(choices)].map(b => b.classList.contains('confirm')),
  kinds: [...document.querySelectorAll(choices)].map(b => b.dataset.kind || ''),
  pressed: [...document.querySelectorAll(cards)]
    .map(b => b.getAttribute('aria-pressed') === 'true'),
})"""


def log_in(browser: Any, base: str, user: Any, **context: Any) -> Any:
    """A browser context with the user's session (the server's password hashers differ from
    the suite's fast one, so the session is made here, in the shared database)."""
    from django.test import Client

    client = Client()
    client.force_login(user)
    new = browser.new_context(**context)
    new.add_cookies([{"name": "sessionid", "value": client.cookies["sessionid"].value,
                      "url": base}])
    return new.new_page()


def click_a_choice(page: Any, rng: random.Random) -> str:
    """One click a player makes, on the cards: what was clicked ("card", "choice" or "clear"),
    or "" if nothing is offered (or the page re-rendered under the click).

    Like the engine's random bot: with a card selection under way, confirm a choice made on
    exactly those cards (offered as buttons) or select one more highlighted card; with none, a
    kind of choice first (each button's kind, or "a card": select a highlighted one), then one
    of it. What is offered is read in one round trip; if the page re-renders before the click,
    the click times out and the caller looks again."""
    seen = page.evaluate(_LOOK, [ENABLED_CHOICES, LEGAL_CARDS])
    confirms = [i for i, c in enumerate(seen["confirms"]) if c]
    free = [i for i, p in enumerate(seen["pressed"]) if not p]
    try:
        if any(seen["pressed"]):
            if confirms:
                page.locator(ENABLED_CHOICES).nth(rng.choice(confirms)).click(timeout=2_000)
                return "choice"
            if free:
                page.locator(LEGAL_CARDS).nth(rng.choice(free)).click(timeout=2_000)
                return "card"
            page.click("#clear-selection", timeout=2_000)
            return "clear"
        kinds: dict[str, list[int]] = {}
        for index, kind in enumerate(seen["kinds"]):
            kinds.setdefault(kind, []).append(index)
        if free:
            kinds["a card"] = free
        if not kinds:
            return ""
        kind = rng.choice(sorted(kinds))
        target = LEGAL_CARDS if kind == "a card" else ENABLED_CHOICES
        page.locator(target).nth(rng.choice(kinds[kind])).click(timeout=2_000)
    except Exception:  # the state moved on and re-rendered: look again
        return ""
    return "card" if kind == "a card" else "choice"
