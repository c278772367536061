"""What a log may hold and how much one match may store (issue 31, item 8): a repeated key or a
key that is not text (a lone surrogate) is refused with a clear 400 on the API and the page,
never a 500; a match stores at most MAX_LOGS_PER_MATCH logs."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from matches.models import MatchLog
from matches.services import submission
from tests.matches.factories import self_play_log_text, side_user, versus_match

pytestmark = pytest.mark.django_db


def _event_key_added(key_json: str) -> str:
    """The self-play log with an extra key in its first event, written as raw JSON text."""
    doc = json.loads(self_play_log_text())
    doc["events"][0]["PLACEHOLDER"] = 1
    return json.dumps(doc).replace('"PLACEHOLDER"', key_json, 1)


def _repeated_key() -> str:
    doc = json.loads(self_play_log_text())
    return _event_key_added(json.dumps(next(iter(doc["events"][0]))))


@pytest.mark.parametrize(("make", "says"), [
    (lambda: _event_key_added('"\\ud800"'), "lone surrogate"),
    (lambda: _event_key_added('"\\udfff\\ud800"'), "lone surrogate"),
    (_repeated_key, "appears twice"),
])
def test_a_key_no_log_may_hold_is_a_400_on_the_api_and_the_page(client, make, says) -> None:
    match = versus_match()
    text = make()
    api = APIClient()
    api.force_authenticate(side_user(match, 1))
    response = api.post(f"/api/matches/{match.pk}/logs/", {"log_text": text}, format="json")
    assert response.status_code == 400, response.content
    assert says in response.json()["message"]
    client.force_login(side_user(match, 1))
    page = client.post(f"/matches/{match.pk}/", {"log_text": text})
    assert page.status_code == 400
    assert says in page.content.decode()
    assert not MatchLog.objects.filter(match=match).exists()


def test_a_match_stores_a_bounded_number_of_logs(monkeypatch) -> None:
    monkeypatch.setattr(submission, "MAX_LOGS_PER_MATCH", 2)
    match = versus_match()
    api = APIClient()
    api.force_authenticate(side_user(match, 1))
    answers = [api.post(f"/api/matches/{match.pk}/logs/",
                        {"log_text": self_play_log_text(seed=seed)}, format="json")
               for seed in (1, 2, 3)]
    assert [a.status_code for a in answers] == [201, 201, 409]
    assert answers[2].json()["code"] == "match_storage_full"
    assert MatchLog.objects.filter(match=match).count() == 2
    # the same log again is still the same submission, not a new one
    again = api.post(f"/api/matches/{match.pk}/logs/", {"log_text": self_play_log_text(seed=1)},
                     format="json")
    assert again.status_code == 200
