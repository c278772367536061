"""A submission's answer says "stored" exactly when the log was stored (issue 31, item 7): the
database failing on the commit's answer or while the stored log is read back is not a 503
"nothing was stored"; failing before the commit is."""

from __future__ import annotations

import pytest
from django.db import OperationalError
from rest_framework.test import APIClient

from matches import services
from matches.api import views
from matches.models import MatchLog
from tests.matches.factories import PlayerFactory, self_play_log_text, side_user, versus_match

pytestmark = pytest.mark.django_db


def _post(match, user, text):
    client = APIClient()
    client.force_authenticate(user)
    return client.post(f"/api/matches/{match.pk}/logs/", {"log_text": text}, format="json")


def test_reading_the_stored_log_back_failing_still_answers_stored(monkeypatch) -> None:
    match = versus_match()

    def lost(outcome):
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(views, "_submission_body", lost)
    response = _post(match, side_user(match, 1), self_play_log_text())
    assert response.status_code == 201
    body = response.json()
    assert (body["code"], body["stored"]) == ("stored", True)
    log = MatchLog.objects.get(match=match)
    assert body["log"] == {"id": log.pk, "sha256": log.sha256}


def test_the_commits_answer_lost_after_the_commit_answers_stored(monkeypatch) -> None:
    match = versus_match()
    real = services.match_log_submit

    def committed_then_lost(**kwargs):
        real(**kwargs)
        raise OperationalError("server closed the connection unexpectedly")

    monkeypatch.setattr(services, "match_log_submit", committed_then_lost)
    response = _post(match, side_user(match, 1), self_play_log_text())
    assert response.status_code == 201 and response.json()["stored"] is True
    assert MatchLog.objects.filter(match=match).count() == 1


def test_failing_before_the_commit_answers_nothing_stored(monkeypatch) -> None:
    match = versus_match()

    def refused(**kwargs):
        raise OperationalError("could not connect to server")

    monkeypatch.setattr(services, "match_log_submit", refused)
    response = _post(match, side_user(match, 1), self_play_log_text())
    assert response.status_code == 503
    assert (response.json()["code"], response.json()["stored"]) == ("unavailable", False)
    assert not MatchLog.objects.filter(match=match).exists()


def test_a_stranger_is_refused_before_the_log_is_read(monkeypatch) -> None:
    match = versus_match()
    read = []
    monkeypatch.setattr(views, "_log_bytes", lambda validated: read.append(1) or b"{}")
    response = _post(match, PlayerFactory().user, self_play_log_text())
    assert response.status_code == 403 and not read
