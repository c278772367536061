"""Tag Team practice against two bots: the player's side of one plays both its seats.

The services refuse what a Tag Team side cannot be; the browser test (Debian's Chromium,
Playwright, a 360 px phone viewport) plays a whole game by clicking the listed choices, sees
assist and tag buttons labelled in the game's words, and checks that neither the practice page
nor the room page overflows the phone's width.
"""

from __future__ import annotations

import random
import re
import time
from typing import Any

import pytest
from django.urls import reverse

from rooms import services
from rooms.errors import RoomError, RoomErrorCode
from rooms.models import Room
from rules_engine.log import parse_log
from rules_engine.replay import replay
from tests.matches.factories import UserFactory
from tests.rooms.conftest import click_a_choice, log_in
from tests.rooms.servers import AsgiServer

PHONE = {"viewport": {"width": 360, "height": 740}, "is_mobile": True, "has_touch": True}


@pytest.mark.django_db
@pytest.mark.parametrize(("characters", "bot", "reason"), [
    ("grave", "greedy", "your team: pick two characters (a Tag Team side has two)"),
    ("grave,grave", "greedy", "your team: a team's two characters must differ"),
    ("grave,nobody", "greedy", "there is no character 'nobody'"),
    ("grave,jaina", "nobody", "there is no bot called 'nobody'"),
])
def test_a_tag_team_practice_side_is_two_different_characters(characters: str, bot: str,
                                                               reason: str) -> None:
    with pytest.raises(RoomError) as caught:
        services.room_open_practice(user=UserFactory(), name="me", mode="tag_team", bot=bot,
                                    character=characters)
    assert caught.value.code in (RoomErrorCode.BAD_REQUEST, RoomErrorCode.UNKNOWN_BOT)
    assert caught.value.message == reason
    assert not Room.objects.exists()


@pytest.mark.django_db
def test_the_player_holds_both_seats_of_side_one_and_bots_the_other_two() -> None:
    user = UserFactory()
    room = services.room_open_practice(user=user, name="me", mode="tag_team", bot="greedy",
                                       character="grave,jaina", bot_character="rook,lum")
    seats = {s.seat: (s.user_id, s.bot, s.character, s.side) for s in room.seats.all()}
    assert seats == {"P1": (user.pk, "", "grave", 1), "P3": (user.pk, "", "jaina", 1),
                     "P2": (None, "greedy", "rook", 2), "P4": (None, "greedy", "lum", 2)}
    room.refresh_from_db()
    assert room.status == Room.Status.PLAYING and room.mode == "tag_team"


def _fits(page: Any) -> bool:
    return bool(page.evaluate(
        "document.documentElement.scrollWidth <= document.documentElement.clientWidth + 1"))


@pytest.mark.browser
@pytest.mark.services
@pytest.mark.django_db(transaction=True)
def test_a_tag_team_practice_game_is_clicked_to_the_end_on_a_phone(
    browser: Any, asgi_server: AsgiServer
) -> None:
    user = UserFactory(username="tag-team-practice")
    base = asgi_server.url
    page = log_in(browser, base, user, **PHONE)
    page.goto(base + reverse("rooms:practice"))
    assert _fits(page), "the practice page overflows a 360 px screen"
    page.select_option("#practice-tag-team select[name=character]", "grave")
    page.select_option("#practice-tag-team select[name=partner]", "jaina")
    page.select_option("#practice-tag-team select[name=bot]", "greedy")
    page.click("#play-tag-team")
    page.wait_for_selector("#room[data-status=playing]")
    room = Room.objects.get(created_by=user)

    rng = random.Random(5)
    labels: dict[str, set[str]] = {}
    checked_width = 0
    deadline = time.monotonic() + 75
    while page.get_attribute("#room", "data-status") != "finished":
        assert time.monotonic() < deadline, "the game did not end in time"
        for kind, label in page.eval_on_selector_all(
                "#choices button.choice", "bs => bs.map(b => [b.dataset.kind, b.textContent])"):
            labels.setdefault(kind, set()).add(label)
        if checked_width < 5 and page.query_selector("#choices button.choice"):
            assert _fits(page), "the room page overflows a 360 px screen"
            checked_width += 1
        if not click_a_choice(page, rng):
            time.sleep(0.02)
    assert checked_width, "no decision was ever offered"
    # the bench's choices were offered, labelled in the game's words
    offered = labels.get("assist", set()) | labels.get("tag", set())
    assert offered, f"no assist or tag button appeared (kinds seen: {sorted(labels)})"
    for label in labels.get("assist", set()):
        assert re.fullmatch(r"Assist with (?:Jack|Queen|King)[♣♦♥♠] \(.+\), discard "
                            r"(?:\S+|Joker \(second\))",
                            label), label
    for label in labels.get("tag", set()):
        assert re.match(r"(?:Tag in (?:Grave|Jaina) \(|Hard tag: (?:Grave|Jaina) comes in)",
                        label), label
    outcome = page.inner_text("#outcome")
    assert "wins" in outcome or "draw" in outcome.lower()
    assert _fits(page), "the finished room overflows a 360 px screen"
    # the room's log is the game: the engine replays it as legal, with the result it claims
    room.refresh_from_db()
    assert room.status == Room.Status.FINISHED
    log = parse_log(room.log_text)
    assert [m.character for m in log.sides[0]] == ["grave", "jaina"]
    result = replay(log)
    assert result.status == "legal", result
    assert room.outcome["winner"] == (log.result.winner.name if log.result.winner else None)
