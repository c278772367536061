"""The matches API: submit, status, confirm, override; permissions on every write."""

from __future__ import annotations

import json

import pytest
from django.core.files.uploadedfile import SimpleUploadedFile
from rest_framework.test import APIClient

from matches.models import AuditEntry, Match, MatchLog
from matches.services import MAX_LOG_BYTES
from tests.matches.factories import (
    PlayerFactory,
    UserFactory,
    self_play_log_text,
    side_user,
    versus_match,
)

pytestmark = pytest.mark.django_db


def client_for(user=None) -> APIClient:
    client = APIClient()
    if user is not None:
        client.force_authenticate(user)
    return client


@pytest.fixture
def match() -> Match:
    organizer = UserFactory(username="match-organizer")
    return versus_match(managers=[organizer])


def submit(client: APIClient, match: Match, **data):
    fmt = "multipart" if "log_file" in data else "json"
    return client.post(f"/api/matches/{match.pk}/logs/", data, format=fmt)


def test_submit_json_object_then_same_log_again(match, django_capture_on_commit_callbacks) -> None:
    client = client_for(side_user(match, 1))
    log = json.loads(self_play_log_text())
    with django_capture_on_commit_callbacks(execute=True):
        first = submit(client, match, log=log)
    assert first.status_code == 201, first.content
    assert first.json()["is_new"] is True
    assert first.json()["log"]["latest_run"]["status"] in {"pending", "legal"}
    second = submit(client, match, log=log)
    assert second.status_code == 200
    assert second.json()["is_new"] is False
    assert second.json()["log"]["id"] == first.json()["log"]["id"]


def test_submit_as_file_upload_keeps_the_bytes(match) -> None:
    raw = self_play_log_text().encode()
    upload = SimpleUploadedFile("game.yomilog.json", raw, content_type="application/json")
    response = submit(client_for(side_user(match, 1)), match, log_file=upload)
    assert response.status_code == 201, response.content
    assert MatchLog.objects.get(match=match).text.encode() == raw


def test_unreadable_log_is_a_400_naming_the_json_path(match) -> None:
    doc = json.loads(self_play_log_text())
    doc["events"][3]["player"] = "P3"
    response = submit(client_for(side_user(match, 1)), match, log_text=json.dumps(doc))
    assert response.status_code == 400
    body = response.json()
    assert body["code"] == "log_unreadable"
    assert body["json_path"] == "$.events[3].player"
    assert MatchLog.objects.count() == 0


def test_file_over_two_megabytes_is_a_413(match) -> None:
    upload = SimpleUploadedFile("big.json", b" " * (MAX_LOG_BYTES + 10))
    response = submit(client_for(side_user(match, 1)), match, log_file=upload)
    assert response.status_code == 413
    assert response.json()["code"] == "log_too_large"
    assert MatchLog.objects.count() == 0


def test_exactly_one_form_of_log_is_accepted(match) -> None:
    response = submit(client_for(side_user(match, 1)), match, log_text="{}", log={"a": 1})
    assert response.status_code == 400
    assert "exactly one of" in json.dumps(response.json())


@pytest.mark.parametrize("who", ["anonymous", "outsider", "other_organizer"])
def test_submit_is_refused_to_anyone_outside_the_match(match, who: str) -> None:
    user = {
        "anonymous": None,
        "outsider": PlayerFactory().user,
        "other_organizer": versus_match(managers=[UserFactory()]).managers.get(),
    }[who]
    response = submit(client_for(user), match, log_text=self_play_log_text())
    assert response.status_code == 403
    assert MatchLog.objects.filter(match=match).count() == 0


def test_organizer_may_submit(match) -> None:
    response = submit(client_for(match.managers.get()), match, log_text=self_play_log_text())
    assert response.status_code == 201


def test_confirm_and_status(match, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        submit(client_for(side_user(match, 1)), match, log_text=self_play_log_text())
    detail = client_for().get(f"/api/matches/{match.pk}/").json()
    assert detail["status"] == "awaiting_confirmation"
    assert detail["logs"][0]["latest_run"]["status"] == "legal"
    assert detail["logs"][0]["latest_run"]["verdict"]["final"]["turns"] > 0
    assert detail["logs"][0]["endorsed_by_sides"] == [1]
    response = client_for(side_user(match, 2)).post(f"/api/matches/{match.pk}/confirm/",
                                                    {"log": detail["logs"][0]["id"]},
                                                    format="json")
    assert response.status_code == 200
    assert response.json()["status"] == "confirmed"


@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 403), ("outsider", 403), ("submitter", 409)],
)
def test_confirm_is_refused(match, who, expected, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        submit(client_for(side_user(match, 1)), match, log_text=self_play_log_text())
    user = {"anonymous": None, "outsider": PlayerFactory().user, "submitter": side_user(match, 1)}[
        who
    ]
    log = match.logs.get()
    response = client_for(user).post(f"/api/matches/{match.pk}/confirm/", {"log": log.pk},
                                     format="json")
    assert response.status_code == expected
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_CONFIRMATION


@pytest.mark.parametrize(
    ("who", "expected"),
    [
        ("anonymous", 403),
        ("player", 403),
        ("other_organizer", 403),
        ("organizer", 200),
        ("staff", 200),
    ],
)
def test_override_permissions(match, who: str, expected: int) -> None:
    user = {
        "anonymous": None,
        "player": side_user(match, 1),
        "other_organizer": versus_match(managers=[UserFactory()]).managers.get(),
        "organizer": match.managers.get(),
        "staff": UserFactory(is_staff=True),
    }[who]
    response = client_for(user).post(
        f"/api/matches/{match.pk}/override/",
        {"winner_side": 2, "reason": "no-show"},
        format="json",
    )
    assert response.status_code == expected, response.content
    overridden = AuditEntry.objects.filter(match=match, action="result_overridden").exists()
    assert overridden is (expected == 200)


def test_override_without_reason_is_a_400(match) -> None:
    response = client_for(match.managers.get()).post(
        f"/api/matches/{match.pk}/override/", {"winner_side": 2}, format="json"
    )
    assert response.status_code == 400
    assert "reason" in response.json()


def test_matches_are_listed_and_filterable(match) -> None:
    versus_match()
    player_id = match.sides.get(side=1).player_id
    body = client_for().get("/api/matches/", {"player": player_id}).json()
    assert body["count"] == 1
    assert body["results"][0]["id"] == match.pk


def test_every_matches_endpoint_is_in_the_schema() -> None:
    schema = client_for().get("/api/schema/", {"format": "json"}).json()
    for path in [
        "/api/matches/",
        "/api/matches/{id}/",
        "/api/matches/{id}/logs/",
        "/api/matches/{id}/confirm/",
        "/api/matches/{id}/dispute/",
        "/api/matches/{id}/override/",
    ]:
        assert path in schema["paths"], path


@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 403), ("outsider", 403), ("submitter", 409), ("opponent", 201)],
)
def test_dispute_api(match, who, expected, django_capture_on_commit_callbacks) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        submit(client_for(side_user(match, 1)), match, log_text=self_play_log_text())
    user = {
        "anonymous": None,
        "outsider": PlayerFactory().user,
        "submitter": side_user(match, 1),
        "opponent": side_user(match, 2),
    }[who]
    response = client_for(user).post(
        f"/api/matches/{match.pk}/dispute/",
        {"reason": "not our game", "log": match.logs.get().pk}, format="json"
    )
    assert response.status_code == expected, response.content
    match.refresh_from_db()
    assert (match.status == Match.Status.DISPUTED) is (expected == 201)
    if expected == 201:
        assert response.json()["reason"] == "not our game"
        assert response.json()["log_b"] is None


def test_submission_response_is_read_in_three_queries(match, django_assert_max_num_queries) -> None:
    """The response (the log's newest run and endorsing sides, the match's sides and players)
    is prefetched: no query per side's player (the lazy serializers took five)."""
    client = client_for(side_user(match, 1))
    # the match's 404 check, who may submit (before the body is read), the service, the body
    with django_assert_max_num_queries(1 + 1 + 14 + 3):
        response = submit(client, match, log_text=self_play_log_text())
    assert response.status_code == 201, response.content
    body = response.json()
    assert body["log"]["latest_run"]["status"] == "pending"
    assert body["log"]["endorsed_by_sides"] == [1]
    sides = body["match"]["sides"]
    assert [s["side"] for s in sides] == [1, 2]
    assert [s["player"] for s in sides] == [
        side.player.display_name for side in match.sides.order_by("side", "order")
    ]
    assert body["match"]["status"] == Match.Status.VERIFYING
