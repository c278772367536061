"""Every main page in real Chromium: no serious or critical axe-core violation, and on a phone
(390 px wide) no horizontal scroll of the page itself (a bracket, a plot or a wide table scrolls
inside its own box).

axe-core is vendored in ``tests/yomi_site/axe/`` (MPL-2.0) and injected into each page. Skipped
when no Chromium is installed, unless YOMI_REQUIRE_SERVICES=1 (CI installs it).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import reverse

from matches.services import match_log_confirm, match_log_submit
from notifications.models import Notification
from tests.matches.factories import PlayerFactory, UserFactory, with_extra_event
from tests.stats.helpers import log_won_by, versus
from tests.support.browser import inject_axe
from tests.tournaments.factories import EventFactory, StageFactory, entrants_create
from tests.tournaments.helpers import report
from tournaments.models import Set
from tournaments.services.generation import stage_generate

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PHONE = {"width": 390, "height": 844}
PASSWORD = "a-long-browser-passphrase"




@pytest.fixture
def site() -> dict[str, str]:
    """A played bracket, a match decided by a legal log after an illegal one, a player with a
    notification: every page has real content. Returns the pages' paths by name."""
    organizer = UserFactory(username="browser-org")
    event = EventFactory(organizers=[organizer], name="Browser Open", slug="browser-open")
    entrants = entrants_create(event, 4)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    first = Set.objects.filter(stage=stage, round=1).order_by("position").first()
    report(stage, first.key, "a", organizer)

    me = PlayerFactory(display_name="Phone Player", user=UserFactory(username="phone"))
    me.user.set_password(PASSWORD)
    me.user.save()
    rival = entrants[1].members.get().player
    match = versus(me, rival)
    legal = log_won_by("P1", "grave", "jaina")
    for text in (with_extra_event(legal), legal):  # on commit: verified in-process
        match_log_submit(match=match, submitted_by=me.user, log_bytes=text.encode())
    match_log_confirm(match=match, user=rival.user)
    # the refused first log told both players (issue 35); the badge test counts one notification
    Notification.objects.filter(user=me.user).delete()
    Notification.objects.create(user=me.user, kind=Notification.Kind.SET_READY, subject="x",
                                text="Browser Open: your set is ready.", url="/events/")
    return {
        "home": reverse("home"),
        "events": reverse("tournaments:event-list"),
        "event": reverse("tournaments:event-detail", args=[event.slug]),
        "stage (bracket)": reverse("tournaments:stage-detail", args=[event.slug, stage.pk]),
        "set": reverse("tournaments:set-detail", args=[event.slug, first.pk]),
        "matches": reverse("matches:match-list"),
        "match": reverse("matches:match-detail", args=[match.pk]),
        "players": reverse("matches:player-list"),
        "player": reverse("tournaments:player-detail", args=[me.pk]),
        "stats": reverse("stats:index"),
        "matchup chart": reverse("stats:matchups"),
        "character stats": reverse("stats:character", args=["grave"]),
        "player stats": reverse("stats:player", args=[me.pk]),
        "leaderboards": reverse("stats:leaderboards"),
        "characters": reverse("characters"),
        "character": reverse("character-detail", args=["grave"]),
        "profile": reverse("accounts:profile"),
        "API tokens": reverse("accounts:api-tokens"),
        "inbox": reverse("notifications:inbox"),
    }


ANONYMOUS = {
    "login": "/accounts/login/",
    "sign-up": "/accounts/signup/",
    "password reset": "/accounts/password_reset/",
}


def _axe(page: Any) -> list[dict[str, Any]]:
    inject_axe(page)
    result = page.evaluate("""async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                        nodes: v.nodes.slice(0, 3).map(n => n.target.join(' '))}));
    }""")
    return [v for v in result if v["impact"] in ("serious", "critical")]


def _overflow(page: Any) -> int:
    """How far the page itself is wider than the screen (0: no horizontal scroll)."""
    return page.evaluate(
        "Math.max(document.documentElement.scrollWidth, document.body.scrollWidth)"
        " - document.documentElement.clientWidth"
    )


def _wide(page: Any) -> list[str]:
    """The elements that stick out of the screen outside any scrolling box (for the message)."""
    return page.evaluate("""() => {
        const out = [], w = document.documentElement.clientWidth;
        for (const el of document.querySelectorAll('body *')) {
            const r = el.getBoundingClientRect();
            if (r.right <= w + 1 || r.width === 0) continue;
            let p = el.parentElement, inside = false;
            while (p) {
                const o = getComputedStyle(p).overflowX;
                if (o === 'auto' || o === 'scroll' || o === 'hidden') { inside = true; break; }
                p = p.parentElement;
            }
            const tag = `${el.tagName.toLowerCase()}.${el.className}`;
            if (!inside) out.push(`${tag} → ${Math.round(r.right)}px`);
        }
        return out.slice(0, 5);
    }""")


def _check(page: Any, base: str, pages: dict[str, str]) -> dict[str, Any]:
    problems: dict[str, Any] = {}
    for name, path in pages.items():
        response = page.goto(base + path)
        assert response is not None and response.status == 200, (name, path)
        page.wait_for_load_state("load")
        serious = _axe(page)
        if serious:
            problems[f"{name} {path}: axe"] = serious
        overflow = _overflow(page)
        if overflow > 0:
            problems[f"{name} {path}: {overflow}px wider than a 390 px phone"] = _wide(page)
    return problems


def test_main_pages_have_no_serious_accessibility_violation_and_fit_a_phone(
    browser, live_server, site,
) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    problems = _check(page, live_server.url, ANONYMOUS)
    page.goto(live_server.url + ANONYMOUS["login"])
    page.fill("#id_username", "phone")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + "/")
    problems |= _check(page, live_server.url, site)
    assert not problems, json.dumps(problems, indent=1)
    context.close()


def test_the_header_links_are_on_screen_on_a_phone_and_the_badge_counts(
    browser, live_server, site,
) -> None:
    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(live_server.url + ANONYMOUS["login"])
    page.fill("#id_username", "phone")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + "/")
    for link in page.locator("header a").all():
        box = link.bounding_box()
        assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= 390, \
            link.inner_text()
    assert page.locator("header .inbox-link .count").inner_text().startswith("1")
    page.click("header .inbox-link")
    page.get_by_role("button", name="Open", exact=True).click()
    page.wait_for_url(live_server.url + "/events/")
    assert page.locator("header .inbox-link .count").count() == 0
    context.close()


def test_a_newcomer_signs_up_edits_the_profile_and_makes_and_revokes_a_token(
    browser, live_server, settings,
) -> None:
    """The account pages end to end on a phone (no e-mail confirmation, as under make run)."""
    from accounts.models import ApiToken, Profile

    settings.YOMI_SIGNUP_CONFIRM_EMAIL = False

    context = browser.new_context(viewport=PHONE)
    page = context.new_page()
    page.goto(live_server.url + "/")
    page.click("header >> text=Sign up")
    page.fill("#id_username", "newcomer")
    page.fill("#id_email", "newcomer@example.org")
    page.fill("#id_display_name", "New Comer")
    page.fill("#id_password1", PASSWORD)
    page.fill("#id_password2", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + reverse("accounts:profile"))
    assert page.locator("header .profile-link").inner_text() == "newcomer"
    page.select_option("#id_country", "JP")
    page.get_by_label("Setsuki").check()
    page.click("main button[type=submit]")
    page.wait_for_selector(".messages >> text=Profile saved.")
    profile = Profile.objects.get(user__username="newcomer")
    assert (profile.country.code, profile.main_characters) == ("JP", ["setsuki"])

    page.click("main .subnav >> text=API tokens")
    page.fill("#id_name", "overlay")
    page.click("main button[type=submit]")
    key = page.locator("#new-token-key").inner_text()
    assert key.startswith("yomi_") and ApiToken.objects.filter(user__username="newcomer").exists()
    page.click("text=Revoke…")
    page.click("main button[type=submit]")  # the confirmation page's button
    page.wait_for_selector(".messages >> text=revoked")
    assert not ApiToken.objects.filter(user__username="newcomer").exists()
    assert _overflow(page) == 0
    context.close()
