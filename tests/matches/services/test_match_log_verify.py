"""Verification: verdicts are stored results, runs are idempotent, engine bugs are ours."""

from __future__ import annotations

import copy
import json

import pytest

from matches import engine
from matches.models import AuditEntry, Dispute, Match, VerificationRun
from matches.services import match_log_submit, match_log_verify, match_run_requeue
from tests.matches.factories import (
    log_bytes,
    self_play_log_text,
    side_user,
    submit_verified,
    versus_match,
    with_claimed_winner,
    with_extra_event,
)

pytestmark = pytest.mark.django_db
RS = VerificationRun.Status


def test_illegal_log_is_a_stored_verdict_with_position_and_rule__END_2(
    django_capture_on_commit_callbacks,
) -> None:
    legal = self_play_log_text()
    text = with_extra_event(legal)
    last_index = len(json.loads(legal)["events"])
    match = versus_match()
    run = submit_verified(match, 1, text, django_capture_on_commit_callbacks)
    assert run.status == RS.ILLEGAL
    error = run.verdict["first_error"]
    assert error["index"] == last_index
    assert error["rule_id"] == "END-2"
    assert error["json_path"] == f"$.events[{last_index}]"
    assert run.finished_at is not None and run.duration_ms is not None
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_LOG  # the players may send a corrected log


def test_claimed_result_that_differs_is_its_own_verdict(django_capture_on_commit_callbacks) -> None:
    legal = self_play_log_text()
    actual = json.loads(legal)["result"]["winner"]
    other = "P1" if actual == "P2" else "P2"
    match = versus_match()
    run = submit_verified(
        match, 1, with_claimed_winner(legal, other), django_capture_on_commit_callbacks
    )
    assert run.status == RS.RESULT_MISMATCH
    assert run.verdict["final"]["winner"] == actual
    assert run.verdict["claimed"]["winner"] == other


def test_verifying_a_finished_run_again_changes_nothing(django_capture_on_commit_callbacks) -> None:
    match = versus_match()
    run = submit_verified(match, 1, self_play_log_text(), django_capture_on_commit_callbacks)
    before = (run.status, run.attempts, run.finished_at, AuditEntry.objects.count())
    again = match_log_verify(run_id=run.pk)
    again.refresh_from_db()
    assert (again.status, again.attempts, again.finished_at, AuditEntry.objects.count()) == before


def test_a_run_left_running_by_a_dead_worker_is_replayed_once(
    django_capture_on_commit_callbacks,
) -> None:
    match = versus_match()
    with django_capture_on_commit_callbacks(execute=False):
        outcome = match_log_submit(
            match=match, submitted_by=side_user(match, 1), log_bytes=log_bytes(self_play_log_text())
        )
    # a worker marked it running, then died before storing a verdict
    VerificationRun.objects.filter(pk=outcome.run.pk).update(status=RS.RUNNING, attempts=1)
    run = match_log_verify(run_id=outcome.run.pk)
    assert run.status == RS.LEGAL
    assert run.attempts == 2


def test_engine_bug_is_stored_as_engine_error_not_blamed_on_the_player(
    django_capture_on_commit_callbacks, monkeypatch
) -> None:
    def broken(text: str) -> dict:
        raise KeyError("a bug in the engine")

    monkeypatch.setattr(engine, "log_judge", broken)
    match = versus_match()
    run = submit_verified(match, 1, self_play_log_text(), django_capture_on_commit_callbacks)
    assert run.status == RS.ERROR
    assert run.verdict["status"] == "engine_error"
    assert run.verdict["error"]["kind"] == "KeyError"
    assert "first_error" not in run.verdict


def test_two_different_legal_logs_open_a_dispute_at_the_first_difference(
    django_capture_on_commit_callbacks,
) -> None:
    match = versus_match()
    submit_verified(
        match, 1, self_play_log_text("grave", "jaina", 1), django_capture_on_commit_callbacks
    )
    submit_verified(
        match, 2, self_play_log_text("grave", "jaina", 2), django_capture_on_commit_callbacks
    )
    match.refresh_from_db()
    assert match.status == Match.Status.DISPUTED
    dispute = Dispute.objects.get(match=match)
    # same characters, other seed: the headers differ (draws), so no event index
    assert dispute.first_divergence_index is None
    assert dispute.divergence == {"header_keys": ["draws"]}


def test_first_divergence_names_the_first_differing_event() -> None:
    doc = json.loads(self_play_log_text())
    other = copy.deepcopy(doc)
    other["events"][5] = {"player": "P1", "action": "no_card"}
    index, detail = engine.logs_first_divergence(json.dumps(doc), json.dumps(other))
    assert index == 5
    assert detail == {"a": doc["events"][5], "b": {"player": "P1", "action": "no_card"}}


def test_first_divergence_when_one_log_stops_early() -> None:
    doc = json.loads(self_play_log_text())
    shorter = {**doc, "events": doc["events"][:7]}
    index, detail = engine.logs_first_divergence(json.dumps(doc), json.dumps(shorter))
    assert index == 7
    assert detail == {"a": doc["events"][7], "b": None}


def test_requeue_creates_a_new_run_and_records_who_asked(
    django_capture_on_commit_callbacks,
) -> None:
    match = versus_match()
    first = submit_verified(match, 1, self_play_log_text(), django_capture_on_commit_callbacks)
    organizer = side_user(match, 2)
    with django_capture_on_commit_callbacks(execute=True):
        second = match_run_requeue(log=first.log, requested_by=organizer)
    second.refresh_from_db()
    assert second.pk != first.pk
    assert second.status == RS.LEGAL
    assert (
        AuditEntry.objects.filter(match=match, action="reverify_requested", actor=organizer).count()
        == 1
    )
