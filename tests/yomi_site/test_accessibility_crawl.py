"""axe-core on every page type (issue 35, part 4): no serious or critical violation.

The crawl logs in as an organizer who also plays, and opens one page of every kind the site
has, each with real content: the forms organizers and players fill in (the set result form, a
player's self-report, the correction page, the manual and the simulated seeding previews, event
and stage forms), the match, dispute, override and verdict pages, a room, replays, statistics,
simulations, accounts and the inbox. ``test_every_page_type_is_crawled`` keeps the list whole:
a new page (a named route) must be crawled here or be named below with why it is not a page.

axe-core is the vendored ``tests/yomi_site/axe/axe.min.js`` (MPL-2.0).
"""

from __future__ import annotations

import json
from typing import Any

import pytest
from django.urls import URLPattern, URLResolver, get_resolver, reverse

from accounts.services import api_token_create
from matches.models import VerdictChange
from matches.services import match_log_dispute, match_log_submit
from notifications.models import Notification
from rooms import services as rooms
from rooms.models import Room
from simulations.models import MatchupChunk, MatchupJob
from tests.matches.factories import PlayerFactory, UserFactory, self_play_log_won_by
from tests.tournaments.factories import EventFactory, StageFactory, entrant_create
from tests.tournaments.helpers import report
from tests.yomi_site.test_browser_pages import ANONYMOUS, _axe
from tournaments.models import Event, Set, Stage
from tournaments.services.generation import stage_generate
from tournaments.services.registration import entrant_register
from tournaments.services.set_matches import set_match_open

PASSWORD = "a-long-crawl-passphrase"

# Named routes that are not pages to check: actions (POST only, they redirect), files and
# JSON, the health probe, links that need a one-time token from a mail, the admin, the API.
NOT_PAGES = {
    "logout", "healthz", "accounts:activate", "password_reset_confirm",
    "matches:match-confirm", "matches:match-dispute", "matches:verdict-change-review",
    "notifications:read", "notifications:read-all",
    "simulations:job-chart-csv", "simulations:job-chart-json", "simulations:job-progress",
    "tournaments:entrant-accept", "tournaments:entrant-check-in", "tournaments:entrant-decline",
    "tournaments:entrant-withdraw", "tournaments:event-capacity",
    "tournaments:event-organizer-add", "tournaments:event-register", "tournaments:event-status",
    "tournaments:set-match-open", "tournaments:set-match-replay", "tournaments:set-pick",
    "tournaments:set-report", "tournaments:set-report-confirm", "tournaments:set-report-dispute",
    "tournaments:stage-generate",
    "simulations:job-create",  # the form is on the jobs page; this route takes its POST
    "rooms:character-card",  # a character's card data as JSON, drawn by the room's page
}
ANONYMOUS_ROUTES = {"login", "accounts:signup", "accounts:confirmation-resend",
                    "password_reset", "password_reset_done",
                    "password_reset_complete"}


def _routes() -> set[str]:
    names: set[str] = set()

    def walk(patterns: list[Any], namespace: str, prefix: str) -> None:
        for p in patterns:
            if isinstance(p, URLResolver):
                ns = f"{namespace}:{p.namespace}" if namespace and p.namespace else (
                    p.namespace or namespace)
                walk(p.url_patterns, ns or "", prefix + str(p.pattern))
            elif isinstance(p, URLPattern) and p.name:
                path = prefix + str(p.pattern)
                if path.startswith(("admin/", "api/")):
                    continue
                names.add(f"{namespace}:{p.name}" if namespace else p.name)

    walk(get_resolver().url_patterns, "", "")
    return names


@pytest.fixture
def site() -> dict[str, str]:
    """Every page type with content; returns each page's URL by its route name."""
    me = PlayerFactory(display_name="Crawl Organizer", user=UserFactory(username="crawler"))
    me.user.set_password(PASSWORD)
    me.user.email = "crawler@example.org"
    me.user.save()
    # a Versus bracket organised by me, in which I play: a finished set, a ready set with picks
    event = EventFactory(organizers=[me.user], name="Crawl Open", slug="crawl-open", best_of=3)
    entrants = [entrant_create(event, [me], seed=1)] + [
        entrant_create(event, [PlayerFactory()], seed=i) for i in (2, 3, 4)]
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=me.user)
    finished = report(stage, "W1-2", "a", me.user)
    ready = Set.objects.get(stage=stage, key="W1-1")
    assert entrants[0].pk in (ready.entrant_a_id, ready.entrant_b_id)
    # a match of that set with a verified log, disputed by the other side
    match = set_match_open(set=ready, actor=me.user)
    rival = next(s.player for s in match.sides.all() if s.player_id != me.pk)
    mine = 1 if match.sides.get(side=1).player_id == me.pk else 2
    text = self_play_log_won_by(f"P{mine}")
    outcome = match_log_submit(match=match, submitted_by=me.user, log_bytes=text.encode())
    dispute = match_log_dispute(match=match, user=rival.user, reason="not our game")
    VerdictChange.objects.create(match=match, log=outcome.log, run=outcome.run,
                                 before={"status": "legal", "winner": "P1"},
                                 after={"status": "illegal", "winner": None, "summary": "x"})
    # a self-reporting event whose set waits for my report
    selfrep = EventFactory(organizers=[me.user], name="Crawl Self", slug="crawl-self",
                           result_policy=Event.ResultPolicy.SELF_REPORT, best_of=3)
    entrant_create(selfrep, [me], seed=1)
    entrant_create(selfrep, [PlayerFactory()], seed=2)
    self_stage = StageFactory(event=selfrep, kind=Stage.Kind.ROUND_ROBIN)
    stage_generate(stage=self_stage, actor=me.user)
    self_set = Set.objects.get(stage=self_stage)
    # an event in check-in with a Tag Team invitation for me, and a Triple Threat registration
    checkin = EventFactory(organizers=[me.user], name="Crawl Check-in", slug="crawl-check-in",
                           status=Event.Status.CHECK_IN, mode=Event.Mode.TAG_TEAM)
    captain = PlayerFactory()
    entrant_register(event=checkin, actor=captain.user, players=[captain, me], name="Pair")
    for _ in range(2):
        entrant_create(checkin, [PlayerFactory(), PlayerFactory()])
    StageFactory(event=checkin)
    triple = EventFactory(organizers=[UserFactory()], name="Crawl Triple", slug="crawl-triple",
                          mode=Event.Mode.TRIPLE_THREAT)
    job = MatchupJob.objects.create(bot="random", games_per_pair=10, chunk_size=10,
                                    characters=["grave", "troq"], status="finished")
    for p1, p2, w1, w2 in [("grave", "troq", 6, 4), ("troq", "grave", 4, 6),
                           ("grave", "grave", 5, 5), ("troq", "troq", 5, 5)]:
        MatchupChunk.objects.create(job=job, p1=p1, p2=p2, index=0, games=10, p1_wins=w1,
                                    p2_wins=w2, draws=0, seconds=1)
    room = rooms.room_open_practice(user=me.user, name="crawler", character="grave",
                                    bot_character="jaina")
    finished_room = rooms.room_open_practice(user=me.user, name="crawler", character="grave",
                                             bot_character="jaina")
    Room.objects.filter(pk=finished_room.pk).update(status=Room.Status.FINISHED, log_text=text)
    token, _ = api_token_create(user=me.user, name="overlay")
    Notification.objects.create(user=me.user, kind=Notification.Kind.SET_READY, subject="x",
                                text="Crawl Open: your set is ready.", url="/events/")
    slug = event.slug
    return {
        "home": reverse("home"),
        "characters": reverse("characters"),
        "character-detail": reverse("character-detail", args=["grave"]),
        "my-matches": reverse("my-matches"),
        "password_change": reverse("password_change"),
        "password_change_done": reverse("password_change_done"),
        "accounts:profile": reverse("accounts:profile"),
        "accounts:api-tokens": reverse("accounts:api-tokens"),
        "accounts:api-token-revoke": reverse("accounts:api-token-revoke", args=[token.pk]),
        "notifications:inbox": reverse("notifications:inbox"),
        "matches:match-list": reverse("matches:match-list"),
        "matches:player-list": reverse("matches:player-list"),
        "matches:match-detail": reverse("matches:match-detail", args=[match.pk]),
        "matches:dispute-detail": reverse("matches:dispute-detail", args=[match.pk, dispute.pk]),
        "matches:match-override": reverse("matches:match-override", args=[match.pk]),
        "matches:verdict-changes": reverse("matches:verdict-changes"),
        "rooms:match-room": reverse("rooms:match-room", args=[match.pk]),
        "rooms:match-replay": reverse("rooms:match-replay", args=[match.pk]),
        "rooms:practice": reverse("rooms:practice"),
        "rooms:room": reverse("rooms:room", args=[room.pk]),
        "rooms:room-replay": reverse("rooms:room-replay", args=[finished_room.pk]),
        "stats:index": reverse("stats:index"),
        "stats:matchups": reverse("stats:matchups"),
        "stats:character": reverse("stats:character", args=["grave"]),
        "stats:player": reverse("stats:player", args=[me.pk]),
        "stats:leaderboards": reverse("stats:leaderboards"),
        "stats:survival": reverse("stats:survival"),
        "simulations:jobs": reverse("simulations:jobs"),
        "simulations:job": reverse("simulations:job", args=[job.pk]),
        "simulations:calibration": reverse("simulations:calibration"),
        "simulations:chart-in-use": reverse("simulations:chart-in-use"),
        "simulations:event-seed": reverse("simulations:event-seed", args=["crawl-check-in"]),
        "tournaments:event-list": reverse("tournaments:event-list"),
        "tournaments:event-create": reverse("tournaments:event-create"),
        "tournaments:event-detail": reverse("tournaments:event-detail", args=[slug]),
        "tournaments:event-detail (invited, check-in)": reverse(
            "tournaments:event-detail", args=["crawl-check-in"]),
        "tournaments:event-detail (Triple Threat registration)": reverse(
            "tournaments:event-detail", args=[triple.slug]),
        "tournaments:event-edit": reverse("tournaments:event-edit", args=[slug]),
        "tournaments:stage-add": reverse("tournaments:stage-add", args=[slug]),
        "tournaments:event-entrants": reverse("tournaments:event-entrants",
                                              args=["crawl-check-in"]),
        "tournaments:event-seeding": reverse("tournaments:event-seeding",
                                             args=["crawl-check-in"]) + "?method=manual",
        "tournaments:event-verification": reverse("tournaments:event-verification", args=[slug]),
        "tournaments:entrant-disqualify": reverse("tournaments:entrant-disqualify",
                                                  args=[slug, entrants[3].pk]),
        "tournaments:stage-detail": reverse("tournaments:stage-detail", args=[slug, stage.pk]),
        "tournaments:set-detail": reverse("tournaments:set-detail", args=[slug, ready.pk]),
        "tournaments:set-detail (self-report)": reverse("tournaments:set-detail",
                                                        args=[selfrep.slug, self_set.pk]),
        "tournaments:set-correct": reverse("tournaments:set-correct", args=[slug, finished.pk]),
        "tournaments:set-reopen": reverse("tournaments:set-reopen", args=[slug, finished.pk]),
        "tournaments:player-detail": reverse("tournaments:player-detail", args=[me.pk]),
        "tournaments:player-ratings": reverse("tournaments:player-ratings"),
    }


@pytest.mark.django_db(transaction=True)
def test_every_page_type_is_crawled(site) -> None:
    """A new page must join the crawl (or be named in NOT_PAGES with its reason)."""
    crawled = {name.split(" (")[0] for name in site} | ANONYMOUS_ROUTES
    missing = _routes() - crawled - NOT_PAGES
    assert not missing, f"pages no accessibility test opens: {sorted(missing)}"


@pytest.mark.browser
@pytest.mark.django_db(transaction=True)
def test_no_page_has_a_serious_or_critical_axe_violation(browser, live_server, site) -> None:
    context = browser.new_context(viewport={"width": 1280, "height": 900})
    page = context.new_page()
    problems: dict[str, Any] = {}
    pages = {**ANONYMOUS, "password reset sent": reverse("password_reset_done"),
             "confirmation mail again": reverse("accounts:confirmation-resend"),
             "password reset done": reverse("password_reset_complete")}
    for name, path in pages.items():
        response = page.goto(live_server.url + path)
        assert response is not None and response.status == 200, (name, path)
        serious = _axe(page)
        if serious:
            problems[f"{name} {path}"] = serious
    page.goto(live_server.url + ANONYMOUS["login"])
    page.fill("#id_username", "crawler")
    page.fill("#id_password", PASSWORD)
    page.click("main button[type=submit]")
    page.wait_for_url(live_server.url + "/")
    for name, path in site.items():
        response = page.goto(live_server.url + path)
        if response is None or response.status != 200:
            problems[f"{name} {path}"] = f"HTTP {response.status if response else None}"
            continue
        page.wait_for_load_state("load")
        serious = _axe(page)
        if serious:
            problems[f"{name} {path}"] = serious
    assert not problems, json.dumps(problems, indent=1)
    context.close()
