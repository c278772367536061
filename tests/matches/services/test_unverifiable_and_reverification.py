"""Issue 10 in the site: "not verifiable yet" is no illegal verdict, and a newer engine's
verdict reaches the organizers without rewriting a result by itself."""

from __future__ import annotations

import pytest
from django.core.management import call_command

from matches import engine
from matches.errors import MatchError
from matches.models import AuditEntry, Match, VerdictChange, VerificationRun
from matches.services import (
    logs_judged_by_older_engine,
    logs_reverify_stale,
    match_log_confirm,
    match_result_override,
    verdict_change_review,
)
from tests.matches.factories import (
    UserFactory,
    self_play_log_text,
    side_user,
    submit_verified,
    versus_match,
    with_claimed_winner,
    with_extra_event,
)

pytestmark = pytest.mark.django_db
RS = VerificationRun.Status
MS = Match.Status


def _unverifiable_text() -> tuple[str, str]:
    """A log between two characters the engine plays by card stats only, claiming the other
    winner: a result mismatch the engine cannot judge. Returns it and the claimed winner."""
    legal = self_play_log_text("zane", "setsuki", 4)
    import json

    actual = json.loads(legal)["result"]["winner"]
    claimed = "P1" if actual != "P1" else "P2"
    return with_claimed_winner(legal, claimed), claimed


def test_a_log_the_engine_cannot_judge_is_not_verifiable_yet_and_can_be_confirmed(
    django_capture_on_commit_callbacks, monkeypatch,
) -> None:
    from rules_engine import characters as chars

    for cid in ("zane", "setsuki"):  # every character is implemented now: take two out
        monkeypatch.delitem(chars.IMPLEMENTED, cid, raising=False)
    text, claimed = _unverifiable_text()
    match = versus_match()
    run = submit_verified(match, 1, text, django_capture_on_commit_callbacks)
    assert run.status == RS.UNVERIFIABLE and run.is_finished
    assert run.verdict["unverifiable"]["characters"] == ["zane", "setsuki"]
    match.refresh_from_db()
    assert match.status == MS.AWAITING_CONFIRMATION  # not illegal: the other side may confirm
    with django_capture_on_commit_callbacks(execute=True):
        match_log_confirm(match=match, user=side_user(match, 2))
    match.refresh_from_db()
    assert match.status == MS.CONFIRMED
    assert match.result_source == Match.ResultSource.UNVERIFIED_LOG
    assert match.winner_side == {"P1": 1, "P2": 2}[claimed]  # the claimed result counts


def test_an_organizer_settles_a_log_that_is_not_verifiable_yet(
    django_capture_on_commit_callbacks,
) -> None:
    text, _ = _unverifiable_text()
    organizer = UserFactory()
    match = versus_match()
    match.managers.add(organizer)
    submit_verified(match, 1, text, django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        match_result_override(match=match, actor=organizer, winner_side=2, is_draw=False,
                              reason="agreed on the phone")
    match.refresh_from_db()
    assert (match.status, match.winner_side, match.result_source) == (
        MS.CONFIRMED, 2, Match.ResultSource.OVERRIDE)


def _age(run: VerificationRun, version: str = "0.1.0") -> None:
    """Pretend an older engine reached this verdict."""
    VerificationRun.objects.filter(pk=run.pk).update(engine_version=version)


def test_logs_judged_by_an_older_engine_are_found_and_verified_again(
    django_capture_on_commit_callbacks,
) -> None:
    fresh = versus_match()
    submit_verified(fresh, 1, self_play_log_text(), django_capture_on_commit_callbacks)
    old = versus_match()
    old_run = submit_verified(
        old, 1, self_play_log_text(seed=2), django_capture_on_commit_callbacks
    )
    _age(old_run)
    assert list(logs_judged_by_older_engine().values_list("match_id", flat=True)) == [old.pk]
    with django_capture_on_commit_callbacks(execute=True):
        batch = logs_reverify_stale()
    assert batch is not None and batch.total == 1
    newest = old_run.log.runs.order_by("-created_at", "-id").first()
    assert newest is not None and newest.pk != old_run.pk
    assert (newest.status, newest.engine_version) == (RS.LEGAL, engine.ENGINE_VERSION)
    assert not logs_judged_by_older_engine().exists()
    assert logs_reverify_stale() is None  # nothing left: no empty batch


def test_a_changed_verdict_on_a_final_result_is_recorded_for_the_organizers_not_applied(
    django_capture_on_commit_callbacks,
) -> None:
    # given a Grave-Jaina log that goes on after the end, confirmed by both sides while an
    # older engine could not judge it (its run stored as "not verifiable yet")
    organizer, outsider = UserFactory(), UserFactory()
    match = versus_match()
    match.managers.add(organizer)
    text = with_extra_event(self_play_log_text(seed=3))
    run = submit_verified(match, 1, text, django_capture_on_commit_callbacks)
    assert run.status == RS.ILLEGAL
    VerificationRun.objects.filter(pk=run.pk).update(
        status=RS.UNVERIFIABLE, engine_version="0.1.0",
        verdict={**run.verdict, "status": "unverifiable", "engine_version": "0.1.0",
                 "unverifiable": {"characters": ["jaina"], "mode": None, "reason": "old"}})
    Match.objects.filter(pk=match.pk).update(status=MS.AWAITING_CONFIRMATION)
    match.refresh_from_db()
    with django_capture_on_commit_callbacks(execute=True):
        match_log_confirm(match=match, user=side_user(match, 2))
    match.refresh_from_db()
    before = (match.status, match.winner_side, match.is_draw, match.result_source)
    assert before[0] == MS.CONFIRMED and before[3] == Match.ResultSource.UNVERIFIED_LOG
    # when the new engine verifies it again
    with django_capture_on_commit_callbacks(execute=True):
        logs_reverify_stale()
    # then the result is untouched, and the change waits for the organizers
    match.refresh_from_db()
    assert (match.status, match.winner_side, match.is_draw, match.result_source) == before
    change = VerdictChange.objects.get(match=match)
    assert change.before["status"] == RS.UNVERIFIABLE and change.after["status"] == RS.ILLEGAL
    assert "END-2" in change.after["summary"]
    assert AuditEntry.objects.filter(match=match,
                                     action=AuditEntry.Action.VERDICT_CHANGED).exists()
    # and only an organizer may mark it reviewed
    with pytest.raises(MatchError):
        verdict_change_review(change=change, user=outsider)
    verdict_change_review(change=change, user=organizer, note="the players agree")
    change.refresh_from_db()
    assert not change.is_open and change.reviewed_by == organizer


def test_the_same_verdict_again_records_no_change(django_capture_on_commit_callbacks) -> None:
    match = versus_match()
    run = submit_verified(match, 1, self_play_log_text(seed=5), django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        match_log_confirm(match=match, user=side_user(match, 2))
    _age(run)
    with django_capture_on_commit_callbacks(execute=True):
        logs_reverify_stale()
    assert not VerdictChange.objects.exists()


def test_the_command_counts_then_reverifies(django_capture_on_commit_callbacks, capsys) -> None:  # type: ignore[no-untyped-def]
    match = versus_match()
    _age(submit_verified(match, 1, self_play_log_text(seed=6), django_capture_on_commit_callbacks))
    call_command("reverify_stale", "--dry-run")
    assert "1 log(s) judged by an older engine" in capsys.readouterr().out
    assert logs_judged_by_older_engine().count() == 1
    # the chunks are queued on commit: in this test's transaction they run when the capture
    # ends, so the command does not wait for them here
    with django_capture_on_commit_callbacks(execute=True):
        call_command("reverify_stale", "--no-wait")
    out = capsys.readouterr().out
    assert "batch" in out and logs_judged_by_older_engine().count() == 0
    call_command("reverify_stale")  # nothing left: it says so and returns
    assert "0 log(s) judged by an older engine" in capsys.readouterr().out


def test_beat_runs_the_stale_reverification() -> None:
    from django.conf import settings

    tasks = {entry["task"] for entry in settings.CELERY_BEAT_SCHEDULE.values()}
    assert "matches.tasks.logs_reverify_stale_task" in tasks
