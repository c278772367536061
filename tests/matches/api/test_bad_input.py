"""Bad input gets a 400 naming what and where, never a 500 (issue 11, item 10)."""

from __future__ import annotations

import json

import pytest
from rest_framework.test import APIClient

from matches.models import Match, MatchLog, VerificationRun
from matches.services import match_create
from matches.services.verification import match_log_verify
from tests.matches.factories import (
    PlayerFactory,
    UserFactory,
    self_play_log_text,
    side_user,
    versus_match,
)

pytestmark = pytest.mark.django_db


def client_for(user) -> APIClient:
    client = APIClient()
    client.force_authenticate(user)
    client.raise_request_exception = True  # a 500 fails the test with its traceback
    return client


def deep_json(depth: int) -> str:
    return "[" * depth + "]" * depth


@pytest.mark.parametrize(
    "path_case",
    ["/api/events/", "/api/matches/{match}/logs/", "/api/matches/{match}/dispute/",
     "/api/matches/{match}/override/"],
)
def test_json_nested_990_deep_is_a_400_on_every_json_endpoint(path_case: str) -> None:
    match = versus_match()
    user = side_user(match, 1)
    user.is_staff = True
    user.save()
    for body in (deep_json(990), '{"log": ' + deep_json(990) + "}"):
        response = client_for(user).post(
            path_case.format(match=match.pk), body, content_type="application/json"
        )
        assert response.status_code == 400, response.content
        assert "nested deeper than 64 levels" in response.json()["detail"]


def test_a_lone_surrogate_anywhere_in_a_json_body_is_a_400_naming_its_path() -> None:
    user = UserFactory(username="surrogate")
    body = '{"name": "Weekly \\ud800", "mode": "versus"}'
    response = client_for(user).post("/api/events/", body, content_type="application/json")
    assert response.status_code == 400
    assert response.json()["detail"] == "$.name: a lone UTF-16 surrogate is not text"
    # inside a log sent as JSON, as a key of an event
    match = versus_match()
    doc = json.loads(self_play_log_text())
    text = json.dumps(doc).replace('"action"', '"act\\ud800ion"', 1)
    response = client_for(side_user(match, 1)).post(
        f"/api/matches/{match.pk}/logs/", '{"log": ' + text + "}",
        content_type="application/json",
    )
    assert response.status_code == 400
    assert "$.log.events[0]: a key holds a lone UTF-16 surrogate" in response.json()["detail"]
    assert not MatchLog.objects.exists()


def test_a_log_the_engine_reads_but_its_schema_refuses_is_unreadable() -> None:
    match = versus_match()
    doc = json.loads(self_play_log_text())
    doc["players"]["P1"]["team"] = "not in the schema"
    response = client_for(side_user(match, 1)).post(
        f"/api/matches/{match.pk}/logs/", {"log": doc}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "log_unreadable"
    assert body["json_path"] == "$.players.P1"
    assert "does not match the log schema" in body["reason"]
    assert not MatchLog.objects.exists()


def test_a_log_stored_before_the_schema_check_is_unreadable_when_verified() -> None:
    match = versus_match()
    doc = json.loads(self_play_log_text())
    doc["comment"] = "extra top-level key the engine ignores"
    log = MatchLog.objects.create(
        match=match, text=json.dumps(doc), sha256="0" * 64, size_bytes=1,
        submitted_by=side_user(match, 1),
    )
    run = match_log_verify(run_id=VerificationRun.objects.create(log=log).pk)
    assert run.status == VerificationRun.Status.ILLEGAL
    assert run.verdict["status"] == "unreadable"
    assert run.verdict["first_error"]["json_path"] == "$"


def test_a_versus_log_is_refused_by_a_triple_threat_match() -> None:
    match = match_create(mode=Match.Mode.TRIPLE_THREAT, side_1=[PlayerFactory()],
                         side_2=[PlayerFactory()])
    response = client_for(side_user(match, 1)).post(
        f"/api/matches/{match.pk}/logs/", {"log_text": self_play_log_text()}, format="json"
    )
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "log_mode_mismatch"
    assert body["json_path"] == "$.mode"
    assert (body["log_mode"], body["match_mode"]) == ("versus", "triple_threat")
    assert not MatchLog.objects.exists()
