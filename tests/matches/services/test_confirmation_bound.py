"""A confirmation is bound to the log the confirmer read (issue 31, item 4): a log the submitter
swaps in after the other side opened the page is not confirmed by their click."""

from __future__ import annotations

import pytest

from matches.errors import MatchError, MatchErrorCode
from matches.models import Match
from tests.matches.factories import (
    self_play_log_text,
    self_play_log_won_by,
    side_user,
    submit_verified,
    versus_match,
)

pytestmark = pytest.mark.django_db


def test_a_log_swapped_in_after_the_page_opened_is_not_confirmed_by_the_click(
    client, django_capture_on_commit_callbacks,
) -> None:
    match = versus_match()
    submit_verified(match, 1, self_play_log_won_by("P2"), django_capture_on_commit_callbacks)
    client.force_login(side_user(match, 2))
    page = client.get(f"/matches/{match.pk}/").content.decode()
    read = match.logs.get()
    assert f'name="log" value="{read.pk}"' in page  # the form carries the log shown
    # the submitter sends another legal log (one their side wins) before the click
    submit_verified(match, 1, self_play_log_won_by("P1"), django_capture_on_commit_callbacks)
    response = client.post(f"/matches/{match.pk}/confirm/", {"log": read.pk}, follow=True)
    assert "changed since you read it" in response.content.decode()
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_CONFIRMATION


def test_the_api_confirms_only_the_named_log(django_capture_on_commit_callbacks) -> None:
    from rest_framework.test import APIClient

    match = versus_match()
    submit_verified(match, 1, self_play_log_text(), django_capture_on_commit_callbacks)
    log = match.logs.get()
    client = APIClient()
    client.force_authenticate(side_user(match, 2))
    unnamed = client.post(f"/api/matches/{match.pk}/confirm/", {}, format="json")
    assert unnamed.status_code == 409 and unnamed.json()["code"] == "log_changed"
    assert unnamed.json()["log"] == log.pk
    wrong = client.post(f"/api/matches/{match.pk}/confirm/", {"log": log.pk + 1000},
                        format="json")
    assert wrong.status_code == 409
    with django_capture_on_commit_callbacks(execute=True):
        right = client.post(f"/api/matches/{match.pk}/confirm/", {"log": log.pk},
                            format="json")
    assert right.status_code == 200 and right.json()["status"] == "confirmed"


def test_a_dispute_is_bound_too() -> None:
    from matches.services import match_log_dispute

    match = versus_match()
    with pytest.raises(MatchError) as refused:
        match_log_dispute(match=match, user=side_user(match, 2), reason="x", log_id=1)
    assert refused.value.code == MatchErrorCode.NOTHING_TO_CONFIRM  # nothing waits yet
