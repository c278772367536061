"""Navigation and feedback in a real browser (issue 35): an organizer checks entrants in from
the entrants page (staying there), sees who generating will remove and is told after, records
a result with a double click (one result, one message), finds the champion named and the odds
gone; a player finds their way from a match to its set and event, to practice and back, and
an invited teammate answers the invitation without a second registration form."""

from __future__ import annotations

from typing import Any

import pytest
from django.urls import reverse
from django.utils import timezone

from tests.matches.factories import PlayerFactory, UserFactory
from tests.tournaments.factories import EventFactory, StageFactory, entrant_create
from tournaments.models import Entrant, Event, Set, SetResultChange
from tournaments.services.registration import entrant_register
from tournaments.services.set_matches import set_match_open

pytestmark = [pytest.mark.browser, pytest.mark.django_db(transaction=True)]

PASSWORD = "a-long-feedback-passphrase"


def _user(username: str) -> Any:
    user = UserFactory(username=username)
    user.set_password(PASSWORD)
    user.save()
    return user


def _login(browser: Any, base: str, username: str, phone: bool = False) -> Any:
    context = browser.new_context(viewport={"width": 390, "height": 844} if phone
                                  else {"width": 1280, "height": 900})
    page = context.new_page()
    page.set_default_timeout(20_000)
    page.goto(base + "/accounts/login/")
    page.fill("#id_username", username)
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(base + "/")
    return page


def test_an_organizer_runs_check_in_generation_and_a_final_from_the_pages(
        browser, live_server) -> None:
    base = live_server.url
    organizer = _user("feedback-org")
    event = EventFactory(organizers=[organizer], name="Feedback Cup", slug="feedback-cup",
                         status=Event.Status.CHECK_IN, best_of=1, grand_final_best_of=1,
                         check_in_opens_at=timezone.now() - timezone.timedelta(hours=1))
    names = ["Ann", "Ben", "Cid", "Dee", "Eve"]
    entrants = [entrant_create(event, [PlayerFactory(display_name=n)], name=n) for n in names]
    StageFactory(event=event, name="Bracket")
    page = _login(browser, base, "feedback-org")

    # check-in from the entrants page: back on the entrants page each time
    entrants_url = base + reverse("tournaments:event-entrants", args=[event.slug])
    page.goto(entrants_url)
    for name in ("Ann", "Ben", "Cid", "Dee"):
        page.get_by_role("button", name=f"Check in {name}").click()
        page.wait_for_load_state()
        assert page.url == entrants_url
        assert page.locator(".messages").inner_text() == f"{name} is checked in."

    # the event page names who generating removes, and the message names them after
    page.goto(base + reverse("tournaments:event-detail", args=[event.slug]))
    assert "Eve" in page.locator("#unchecked").inner_text()
    page.get_by_role("button", name="Generate Bracket").click()
    page.wait_for_load_state()
    assert "Removed for not checking in: Eve." in page.locator(".messages").inner_text()
    assert Entrant.objects.get(pk=entrants[4].pk).status == Entrant.Status.REMOVED

    # every set recorded from its page; a double click records one result, says it once
    stage = event.stages.get()
    while (ready := Set.objects.filter(stage=stage, status=Set.Status.READY)
           .order_by("round", "position").first()) is not None:
        page.goto(base + reverse("tournaments:set-detail", args=[event.slug, ready.pk]))
        page.select_option("select[aria-label='Game 1 winner']", "a")
        page.get_by_role("button", name="Record result").dblclick()
        page.wait_for_load_state()
        page.wait_for_selector(".messages")
        assert page.locator(".messages li").all_inner_texts() == ["Result recorded."]
        assert SetResultChange.objects.filter(set=ready).count() == 1
    page.goto(base + reverse("tournaments:event-detail", args=[event.slug]))
    final = Set.objects.filter(stage=stage).order_by("-round").first()
    assert page.locator("#champion").inner_text() == f"Champion: {final.winner.name}"
    assert page.locator("#event-odds-title").count() == 0
    # the verdict changes to review are one click from the event
    page.get_by_role("link", name="Verdict changes to review").click()
    page.wait_for_url(base + reverse("matches:verdict-changes"))
    # repeated round names are gone from the organizer's pages
    page.goto(base + reverse("tournaments:set-correct", args=[event.slug, final.pk]))
    heading = page.locator("h1").inner_text()
    assert heading.count(final.round_name) == 1, heading
    page.context.close()


def test_a_player_finds_the_set_the_event_practice_and_the_pick_link(
        browser, live_server) -> None:
    base = live_server.url
    organizer = _user("feedback-org2")
    me = PlayerFactory(display_name="Mia", user=_user("mia"))
    event = EventFactory(organizers=[organizer], name="Link Cup", slug="link-cup", best_of=3)
    entrant_create(event, [me], seed=1)
    entrant_create(event, [PlayerFactory()], seed=2)
    stage = StageFactory(event=event, name="Bracket")
    from tournaments.services.generation import stage_generate

    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    from tournaments.services.picks import character_pick_lock

    character_pick_lock(set=s, actor=me.user, character="Grave")  # the opponent has not
    match = set_match_open(set=s, actor=me.user)
    page = _login(browser, base, "mia", phone=True)
    # the pick rule says what it is: every game's pick is a blind one
    event.character_rule = Event.CharacterRule.FREE
    event.save(update_fields=["character_rule"])
    page.goto(base + reverse("tournaments:event-detail", args=[event.slug]))
    assert "Double-blind pick every game" in page.locator("main .meta").first.inner_text()
    page.goto(base + reverse("rooms:match-room", args=[match.pk]))
    assert "The room cannot open yet" in page.locator("#picks-pending").inner_text()
    page.click("#picks-set-link")
    page.wait_for_url(base + reverse("tournaments:set-detail", args=[event.slug, s.pk]))
    page.goto(base + reverse("matches:match-detail", args=[match.pk]))
    crumbs = page.locator("#match-crumbs")
    assert crumbs.get_by_role("link", name="Link Cup").count() == 1
    crumbs.get_by_role("link", name=str(s)).click()
    page.wait_for_url(base + reverse("tournaments:set-detail", args=[event.slug, s.pk]))
    page.click("header >> text=Practice")
    page.wait_for_url(base + reverse("rooms:practice"))
    # the site has an icon: /favicon.ico is found
    assert page.goto(base + "/favicon.ico").status == 200
    page.context.close()


def test_an_invited_teammate_answers_without_a_second_register_form(
        browser, live_server) -> None:
    base = live_server.url
    organizer = _user("feedback-org3")
    captain = PlayerFactory(display_name="Cap")
    mate = PlayerFactory(display_name="Mate", user=_user("mate"))
    tag = EventFactory(organizers=[organizer], name="Pair Cup", slug="pair-cup",
                       mode=Event.Mode.TAG_TEAM, status=Event.Status.REGISTRATION)
    entrant_register(event=tag, actor=captain.user, players=[captain, mate], name="Pair")
    triple = EventFactory(organizers=[organizer], name="Trio Cup", slug="trio-cup",
                          mode=Event.Mode.TRIPLE_THREAT, status=Event.Status.REGISTRATION)
    page = _login(browser, base, "mate")
    page.goto(base + reverse("tournaments:event-detail", args=[tag.slug]))
    assert page.get_by_role("button", name="Accept").count() == 1
    assert page.get_by_role("button", name="Register").count() == 0
    page.get_by_role("button", name="Accept").click()
    page.wait_for_load_state()
    # the Triple Threat form: a lineup, the team fields marked as the exception
    page.goto(base + reverse("tournaments:event-detail", args=[triple.slug]))
    assert page.get_by_label("Team name (a team of three only)").count() == 1
    page.get_by_label("Lineup").fill("Grave, Grave, Jaina")
    page.get_by_role("button", name="Register").click()
    page.wait_for_load_state()
    assert "Grave is named twice" in page.locator(".messages").inner_text()
    page.get_by_label("Lineup").fill("Grave, Jaina, Rook")
    page.get_by_role("button", name="Register").click()
    page.wait_for_load_state()
    assert triple.entrants.get().lineup == ["Grave", "Jaina", "Rook"]
    page.context.close()


def test_a_refused_log_is_told_and_the_game_is_played_again_from_the_set_page(
        browser, live_server) -> None:
    """Issue 35's stuck set: the log is refused; the player finds it in the inbox, the set page
    says why, replays the log as far as it is legal, and plays the game again."""
    from matches.models import Match
    from matches.services import match_log_submit
    from tests.matches.factories import with_extra_event
    from tests.stats.helpers import log_won_by
    from tournaments.services.generation import stage_generate

    base = live_server.url
    organizer = _user("feedback-org4")
    me = PlayerFactory(display_name="Rex", user=_user("rex"))
    event = EventFactory(organizers=[organizer], name="Stuck Cup", slug="stuck-cup", best_of=1)
    entrant_create(event, [me], seed=1)
    entrant_create(event, [PlayerFactory()], seed=2)
    stage = StageFactory(event=event, name="Bracket")
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    match = set_match_open(set=s, actor=organizer)
    mine = match.sides.get(player=me).side
    illegal = with_extra_event(log_won_by(f"P{mine}", "grave", "jaina"))
    match_log_submit(match=match, submitted_by=me.user, log_bytes=illegal.encode())  # verified
    page = _login(browser, base, "rex")
    page.click("header .inbox-link")
    page.get_by_role("button", name="Open", exact=True).first.click()
    set_url = base + reverse("tournaments:set-detail", args=[event.slug, s.pk])
    page.wait_for_url(set_url)
    notice = page.locator("#refused-log")
    assert f"The log of match #{match.pk} was refused" in notice.inner_text()
    assert "END-2" in notice.inner_text()
    notice.get_by_role("link", name="Replay its log as far as it is legal").click()
    page.wait_for_load_state()
    assert "The replay stops at" in page.locator("main").inner_text()
    page.goto(set_url)
    page.get_by_role("button", name="Play this game again").click()
    page.wait_for_load_state()
    fresh = s.set_matches.filter(is_recorded=False).get().match
    assert page.url == base + reverse("matches:match-detail", args=[fresh.pk])
    assert Match.objects.get(pk=match.pk).status == Match.Status.CANCELLED
    page.context.close()
