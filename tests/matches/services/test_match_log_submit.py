"""Submitting logs: stored exactly as sent, refused at once when unreadable, verified on commit."""

from __future__ import annotations

import hashlib
import json

import pytest

from matches.errors import MatchError, MatchErrorCode
from matches.models import AuditEntry, LogEndorsement, Match, MatchLog, VerificationRun
from matches.services import MAX_LOG_BYTES, match_log_submit
from tests.matches.factories import (
    PlayerFactory,
    UserFactory,
    log_bytes,
    self_play_log_text,
    side_user,
    versus_match,
)

pytestmark = pytest.mark.django_db


def assert_nothing_stored(match: Match) -> None:
    assert MatchLog.objects.filter(match=match).count() == 0
    assert VerificationRun.objects.filter(log__match=match).count() == 0
    assert AuditEntry.objects.filter(match=match).count() == 0
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_LOG


def test_log_is_stored_exactly_as_sent_and_verified_on_commit(
    django_capture_on_commit_callbacks,
) -> None:
    # given a match and the engine's own log of a game, with unusual but valid whitespace
    match = versus_match()
    raw = log_bytes(self_play_log_text()).replace(b'"events":[', b'"events" :  [', 1)
    # when side 1 submits it
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        outcome = match_log_submit(match=match, submitted_by=side_user(match, 1), log_bytes=raw)
    # then the bytes are kept, hashed, and a verification ran after commit
    assert outcome.is_new is True
    log = MatchLog.objects.get(match=match)
    assert log.text.encode("utf-8") == raw
    assert log.sha256 == hashlib.sha256(raw).hexdigest()
    assert log.size_bytes == len(raw)
    assert len(callbacks) == 1
    run = VerificationRun.objects.get(log=log)
    assert run.status == VerificationRun.Status.LEGAL
    assert run.verdict["final"]["winner"] == json.loads(raw)["result"]["winner"]
    assert run.attempts == 1
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_CONFIRMATION
    assert list(log.endorsements.values_list("side", "via")) == [(1, "submission")]


def test_same_log_sent_twice_by_the_same_player_is_one_submission(
    django_capture_on_commit_callbacks,
) -> None:
    match = versus_match()
    raw = log_bytes(self_play_log_text())
    user = side_user(match, 1)
    with django_capture_on_commit_callbacks(execute=True):
        first = match_log_submit(match=match, submitted_by=user, log_bytes=raw)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        second = match_log_submit(match=match, submitted_by=user, log_bytes=raw)
    assert second.is_new is False
    assert second.log.pk == first.log.pk
    assert second.run is None
    assert callbacks == []
    assert MatchLog.objects.filter(match=match).count() == 1
    assert VerificationRun.objects.filter(log__match=match).count() == 1


def test_opponent_sending_the_identical_log_confirms_the_result(
    django_capture_on_commit_callbacks,
) -> None:
    match = versus_match()
    raw = log_bytes(self_play_log_text())
    with django_capture_on_commit_callbacks(execute=True):
        match_log_submit(match=match, submitted_by=side_user(match, 1), log_bytes=raw)
    match_log_submit(match=match, submitted_by=side_user(match, 2), log_bytes=raw)
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert match.result_source == Match.ResultSource.LOG
    expected_winner = {"P1": 1, "P2": 2}[json.loads(raw)["result"]["winner"]]
    assert match.winner_side == expected_winner
    assert match.is_draw is False
    assert sorted(
        LogEndorsement.objects.filter(log__match=match).values_list("side", flat=True)
    ) == [1, 2]


def test_identical_logs_sent_before_verification_confirm_once_verified(
    django_capture_on_commit_callbacks,
) -> None:
    match = versus_match()
    raw = log_bytes(self_play_log_text())
    with django_capture_on_commit_callbacks(execute=False) as pending:
        match_log_submit(match=match, submitted_by=side_user(match, 1), log_bytes=raw)
        match_log_submit(match=match, submitted_by=side_user(match, 2), log_bytes=raw)
    match.refresh_from_db()
    assert match.status == Match.Status.VERIFYING
    for callback in pending:
        callback()
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert AuditEntry.objects.filter(match=match, action="result_confirmed").count() == 1


@pytest.mark.parametrize(
    ("raw", "json_path"),
    [
        pytest.param(b"{not json", "$", id="not_json_case"),
        pytest.param(b"\xff\xfe\x00", "$", id="not_utf8_case"),
        pytest.param(b"[]", "$", id="not_an_object_case"),
    ],
)
def test_unreadable_log_is_refused_at_once_naming_the_json_path(raw: bytes, json_path: str) -> None:
    match = versus_match()
    with pytest.raises(MatchError) as caught:
        match_log_submit(match=match, submitted_by=side_user(match, 1), log_bytes=raw)
    assert caught.value.code == MatchErrorCode.LOG_UNREADABLE
    assert caught.value.extra["json_path"] == json_path
    assert_nothing_stored(match)


def test_unknown_card_is_refused_with_its_path() -> None:
    match = versus_match()
    doc = json.loads(self_play_log_text())
    doc["events"][0]["card"] = "ZZ"
    with pytest.raises(MatchError) as caught:
        match_log_submit(
            match=match, submitted_by=side_user(match, 1), log_bytes=json.dumps(doc).encode()
        )
    assert caught.value.code == MatchErrorCode.LOG_UNREADABLE
    assert caught.value.extra["json_path"] == "$.events[0].card"
    assert "$.events[0].card" in caught.value.message
    assert_nothing_stored(match)


def test_log_over_two_megabytes_is_refused_with_the_limit() -> None:
    match = versus_match()
    raw = b" " * (MAX_LOG_BYTES + 1)
    with pytest.raises(MatchError) as caught:
        match_log_submit(match=match, submitted_by=side_user(match, 1), log_bytes=raw)
    assert caught.value.code == MatchErrorCode.LOG_TOO_LARGE
    assert caught.value.message == (
        "the log is 2,097,153 bytes; the limit is 2,097,152 bytes (2 MB)"
    )
    assert_nothing_stored(match)


def test_someone_outside_the_match_may_not_submit() -> None:
    match = versus_match()
    outsider = PlayerFactory().user
    with pytest.raises(MatchError) as caught:
        match_log_submit(
            match=match, submitted_by=outsider, log_bytes=log_bytes(self_play_log_text())
        )
    assert caught.value.code == MatchErrorCode.NOT_ALLOWED
    assert_nothing_stored(match)


@pytest.mark.parametrize("who", ["manager", "staff"])
def test_organizers_and_staff_may_submit_but_vouch_for_no_side(
    who: str, django_capture_on_commit_callbacks
) -> None:
    organizer = UserFactory(is_staff=(who == "staff"))
    match = versus_match(managers=[organizer] if who == "manager" else [])
    with django_capture_on_commit_callbacks(execute=True):
        match_log_submit(
            match=match, submitted_by=organizer, log_bytes=log_bytes(self_play_log_text())
        )
    assert list(LogEndorsement.objects.filter(log__match=match).values_list("side", flat=True)) == [
        None
    ]
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_CONFIRMATION


def test_confirmed_match_refuses_new_logs() -> None:
    match = versus_match()
    Match.objects.filter(pk=match.pk).update(status=Match.Status.CONFIRMED)
    with pytest.raises(MatchError) as caught:
        match_log_submit(
            match=match, submitted_by=side_user(match, 1), log_bytes=log_bytes(self_play_log_text())
        )
    assert caught.value.code == MatchErrorCode.MATCH_CLOSED
    assert MatchLog.objects.filter(match=match).count() == 0
