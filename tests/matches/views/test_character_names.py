"""Pages name characters as the game prints them ("Grave"), never by engine id ("grave")
(issue 35): the filter the match page's rosters and seats use, and the replay's heading."""

from __future__ import annotations

import pytest
from django.urls import reverse

from matches.services import match_log_submit
from matches.templatetags.character_names import character_name
from tests.matches.factories import PlayerFactory, side_user
from tests.stats.helpers import log_won_by, versus

pytestmark = pytest.mark.django_db


def test_the_filter_names_ids_lineups_and_leaves_the_unknown() -> None:
    assert character_name("grave") == "Grave"
    assert character_name("grave,jaina") == "Grave, Jaina"
    assert character_name(["bbb", "degrey"]) == "BBB, DeGrey"
    assert character_name("nobody") == "nobody"
    assert character_name("") == ""


def test_the_replay_heading_names_the_characters(client, django_capture_on_commit_callbacks):
    match = versus(PlayerFactory(), PlayerFactory())
    with django_capture_on_commit_callbacks(execute=True):
        match_log_submit(match=match, submitted_by=side_user(match, 1),
                         log_bytes=log_won_by("P1", "grave", "jaina").encode())
    page = client.get(reverse("rooms:match-replay", args=[match.pk])).content.decode()
    assert "Grave (P1" in page and "Jaina (P2" in page
    assert "grave (P1" not in page
