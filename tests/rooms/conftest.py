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


def click_a_choice(page: Any, rng: random.Random) -> bool:
    """Click one listed choice (a kind first, then one of it); False if none is offered.

    The kinds are read in one round trip to the browser (a query per button made a long
    recorded game spend most of its time asking); if the choices re-render before the click,
    the button at that place is clicked or the click times out and the caller looks again."""
    listed = page.eval_on_selector_all(ENABLED_CHOICES, "bs => bs.map(b => b.dataset.kind || '')")
    if not listed:
        return False
    kinds: dict[str, list[int]] = {}
    for index, kind in enumerate(listed):
        kinds.setdefault(kind, []).append(index)
    try:
        page.locator(ENABLED_CHOICES).nth(rng.choice(kinds[rng.choice(sorted(kinds))])).click(
            timeout=2_000)
    except Exception:  # the state moved on and re-rendered the buttons: look again
        return False
    return True
