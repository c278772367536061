"""A whole event in a real browser (Debian's Chromium via Playwright), through the pages only.

An organizer and four players, each in their own browser context (their own cookies), go from
signing up to the champion: the organizer creates the event and its bracket (best of 1, the
final best of 3), opens registration, the players register and check in (one is checked in by
the organizer), the organizer starts the bracket; for every game both players lock their
characters (double-blind in game 1, the loser's open counter-pick after it), one submits the
match log, the other confirms it; the event finishes with its champion.

Everyone signs up through the sign-up page (no e-mail confirmation, as under ``make run``).
"""

from __future__ import annotations

import re
import time
from typing import Any

import pytest
from django.contrib.auth import get_user_model

from tests.matches.factories import self_play_log_won_by
from tournaments.models import Event, Set

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "correct horse battery staple"
PHONE = {"width": 390, "height": 844}


def _sign_up(chromium: Any, base: str, username: str) -> Any:
    """A newcomer signs up from the header's link, on a phone; signed in afterwards."""
    page = chromium.new_context(viewport=PHONE).new_page()
    page.set_default_timeout(15_000)
    page.goto(base + "/")
    page.click("header >> text=Sign up")
    page.fill("#id_username", username)
    page.fill("#id_email", f"{username}@example.org")
    page.fill("#id_display_name", username.capitalize())
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_load_state()
    assert "/accounts/signup/" not in page.url, page.content()[:2000]
    assert page.locator("header .profile-link").inner_text() == username
    return page


def _ok(page: Any) -> None:
    """No error message on the page just loaded."""
    errors = page.locator(".messages li.error, .errorlist")
    assert errors.count() == 0, errors.all_inner_texts()


def _pick(page: Any, base: str, character: str) -> None:
    page.goto(base + "/my-matches/")
    page.get_by_role("link", name="Pick your character").first.click()
    page.select_option("#id_character", character)
    page.get_by_role("button", name="Lock my pick").click()
    _ok(page)


def _play_game(base: str, side_a: Any, side_b: Any, *, picks: list[tuple[Any, str]]) -> None:
    """Picks, then side A starts the game and submits a log it won; side B confirms."""
    for page, character in picks:
        _pick(page, base, character)
    side_a.goto(base + "/my-matches/")
    side_a.get_by_role("button", name="Start the game").click()
    side_a.wait_for_url(re.compile(r"/matches/\d+/$"))
    side_a.fill("textarea[name=log_text]", self_play_log_won_by("P1", "grave", "jaina"))
    side_a.get_by_role("button", name="Submit log").click()
    _ok(side_a)
    side_b.goto(base + "/my-matches/")
    side_b.get_by_role("link", name="Confirm or dispute").click()
    side_b.get_by_role("button", name="Confirm this result").click()
    _ok(side_b)


def test_a_whole_event_through_the_pages(browser, live_server, settings) -> None:
    settings.YOMI_SIGNUP_CONFIRM_EMAIL = False  # as under make run: no mail to confirm
    started = time.monotonic()
    base = live_server.url
    names = ["ann", "ben", "cat", "dan"]
    org = _sign_up(browser, base, "olga")
    players = {name: _sign_up(browser, base, name) for name in names}
    assert get_user_model().objects.filter(username__in=["olga", *names]).count() == 5

    # the organizer creates the event and its bracket
    org.goto(base + "/events/")
    org.get_by_role("link", name="Create an event").click()
    org.fill("#id_name", "Browser Cup")
    org.select_option("#id_mode", "versus")
    org.fill("#id_best_of", "1")
    org.fill("#id_top_rounds", "1")
    org.fill("#id_top_best_of", "3")
    org.fill("#id_grand_final_best_of", "3")
    org.select_option("#id_character_rule", "winner_locked")
    org.fill("#id_max_entrants", "8")
    org.get_by_role("button", name="Create the event").click()
    _ok(org)
    org.get_by_role("link", name="Add a stage").click()
    org.fill("#id_name", "Bracket")
    org.select_option("#id_kind", "single_elimination")
    org.get_by_role("button", name="Add the stage").click()
    _ok(org)
    assert "Bracket — Single elimination" in org.content()
    event = Event.objects.get(name="Browser Cup")
    event_url = f"{base}/events/{event.slug}/"
    org.goto(event_url)
    org.get_by_role("button", name="Move to registration").click()
    _ok(org)

    # the players register; the organizer opens check-in
    for page in players.values():
        page.goto(event_url)
        page.get_by_role("button", name="Register").click()
        _ok(page)
        assert "Registered" in page.content()
    org.goto(event_url)
    org.get_by_role("button", name="Move to check-in").click()
    _ok(org)

    # three check in from "my matches"; the organizer checks the fourth in
    for name in names[:3]:
        page = players[name]
        page.goto(base + "/my-matches/")
        page.get_by_role("button", name="Check in").click()
        _ok(page)
    org.goto(event_url)
    org.get_by_role("link", name="Entrants, check-in, disqualify").click()
    org.get_by_role("button", name="Check in Dan").click()
    _ok(org)

    # the organizer starts the bracket
    org.goto(event_url)
    org.get_by_role("button", name="Generate Bracket").click()
    _ok(org)
    assert org.locator(".bracket-round").count() == 2

    def pages_of(s: Set) -> tuple[Any, Any]:
        return (players[s.entrant_a.members.get().player.user.username],
                players[s.entrant_b.members.get().player.user.username])

    # the semifinals (best of 1): side A wins each
    for key in ("W1-1", "W1-2"):
        a, b = pages_of(Set.objects.get(stage__event=event, key=key))
        a.goto(base + "/my-matches/")
        assert a.locator(".badge.count").inner_text() == "1"  # the header's open-set badge
        _play_game(base, a, b, picks=[(a, "Grave"), (b, "Jaina")])

    # the final (best of 3): game 1 blind, then the winner keeps Grave and the loser re-picks
    final = Set.objects.get(stage__event=event, key="W2-1")
    assert final.best_of == 3
    a, b = pages_of(final)
    _play_game(base, a, b, picks=[(a, "Grave"), (b, "Jaina")])
    a.goto(f"{event_url}sets/{final.pk}/")
    assert "keeps <strong>Grave</strong>" in a.content()
    _play_game(base, a, b, picks=[(b, "Jaina")])

    final.refresh_from_db()
    champion = final.entrant_a.name
    assert (final.status, final.winner_id, final.score_a, final.score_b) == (
        "finished", final.entrant_a_id, 2, 0)
    org.goto(event_url)
    assert "Finished" in org.locator(".status").first.inner_text()
    org.get_by_role("link", name="Bracket").first.click()
    first = org.locator("table.standings tbody tr").first.inner_text()
    assert first.startswith("1") and champion in first
    print(f"\nwhole event in the browser: {time.monotonic() - started:.1f}s")
