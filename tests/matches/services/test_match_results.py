"""Confirmation by the opponent, organizer overrides with an audit trail, the status tables."""

from __future__ import annotations

import pytest

from matches.errors import MatchError, MatchErrorCode
from matches.models import AuditEntry, Dispute, Match, VerificationRun
from matches.services import (
    match_log_confirm,
    match_log_dispute,
    match_log_submit,
    match_result_override,
)
from matches.status import match_status_change, run_status_change
from tests.matches.factories import (
    PlayerFactory,
    UserFactory,
    log_bytes,
    self_play_log_text,
    side_user,
    versus_match,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def awaiting_confirmation(django_capture_on_commit_callbacks) -> Match:
    match = versus_match()
    with django_capture_on_commit_callbacks(execute=True):
        match_log_submit(
            match=match, submitted_by=side_user(match, 1), log_bytes=log_bytes(self_play_log_text())
        )
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_CONFIRMATION
    return match


def test_opponent_confirmation_makes_the_verified_result_final(awaiting_confirmation) -> None:
    match = match_log_confirm(match=awaiting_confirmation, user=side_user(awaiting_confirmation, 2))
    assert match.status == Match.Status.CONFIRMED
    verdict = VerificationRun.objects.get(log__match=match).verdict
    assert match.winner_side == {"P1": 1, "P2": 2}[verdict["final"]["winner"]]
    assert match.result_log.pk == match.logs.get().pk
    assert AuditEntry.objects.filter(match=match, action="result_confirmed").count() == 1


def test_repeated_confirmation_is_applied_once(awaiting_confirmation) -> None:
    opponent = side_user(awaiting_confirmation, 2)
    match_log_confirm(match=awaiting_confirmation, user=opponent)
    again = match_log_confirm(match=awaiting_confirmation, user=opponent)
    assert again.status == Match.Status.CONFIRMED
    assert AuditEntry.objects.filter(match=again, action="result_confirmed").count() == 1


def test_submitter_cannot_confirm_their_own_log(awaiting_confirmation) -> None:
    with pytest.raises(MatchError) as caught:
        match_log_confirm(match=awaiting_confirmation, user=side_user(awaiting_confirmation, 1))
    assert caught.value.code == MatchErrorCode.NOTHING_TO_CONFIRM
    awaiting_confirmation.refresh_from_db()
    assert awaiting_confirmation.status == Match.Status.AWAITING_CONFIRMATION


def test_outsider_cannot_confirm(awaiting_confirmation) -> None:
    with pytest.raises(MatchError) as caught:
        match_log_confirm(match=awaiting_confirmation, user=PlayerFactory().user)
    assert caught.value.code == MatchErrorCode.NOT_ALLOWED


def test_nothing_to_confirm_before_a_log_is_verified() -> None:
    match = versus_match()
    with pytest.raises(MatchError) as caught:
        match_log_confirm(match=match, user=side_user(match, 2))
    assert caught.value.code == MatchErrorCode.NOTHING_TO_CONFIRM
    assert "awaiting a log" in caught.value.message


def test_organizer_override_is_recorded_with_who_what_and_why(awaiting_confirmation) -> None:
    organizer = UserFactory()
    awaiting_confirmation.managers.add(organizer)
    match = match_result_override(
        match=awaiting_confirmation, actor=organizer, winner_side=1, reason="P2 no-show in game 2"
    )
    assert (match.status, match.winner_side, match.result_source) == ("confirmed", 1, "override")
    entry = AuditEntry.objects.get(match=match, action="result_overridden")
    assert entry.actor == organizer
    assert entry.reason == "P2 no-show in game 2"
    assert entry.before["status"] == "awaiting_confirmation"
    assert entry.after["winner_side"] == 1


def test_override_resolves_open_disputes() -> None:
    match = versus_match()
    organizer = UserFactory(is_staff=True)
    log = match.logs.create(text="{}", sha256="0" * 64, size_bytes=2, submitted_by=organizer)
    Dispute.objects.create(match=match, log_a=log, log_b=log)
    Match.objects.filter(pk=match.pk).update(status=Match.Status.DISPUTED)
    match_result_override(
        match=match, actor=organizer, winner_side=None, is_draw=True, reason="split"
    )
    dispute = Dispute.objects.get(match=match)
    assert dispute.status == Dispute.Status.RESOLVED
    assert dispute.resolved_by == organizer
    assert dispute.resolution == "split"


@pytest.mark.parametrize("who", ["player", "outsider"])
def test_only_organizers_and_staff_may_override(who: str, awaiting_confirmation) -> None:
    user = side_user(awaiting_confirmation, 1) if who == "player" else UserFactory()
    with pytest.raises(MatchError) as caught:
        match_result_override(match=awaiting_confirmation, actor=user, winner_side=1, reason="x")
    assert caught.value.code == MatchErrorCode.NOT_ALLOWED
    assert AuditEntry.objects.filter(action="result_overridden").count() == 0


@pytest.mark.parametrize(
    ("winner_side", "is_draw", "reason", "code"),
    [
        pytest.param(1, False, "  ", MatchErrorCode.REASON_REQUIRED, id="blank_reason_case"),
        pytest.param(1, True, "x", MatchErrorCode.INVALID_RESULT, id="winner_and_draw_case"),
        pytest.param(None, False, "x", MatchErrorCode.INVALID_RESULT, id="neither_case"),
        pytest.param(3, False, "x", MatchErrorCode.INVALID_RESULT, id="side_3_case"),
    ],
)
def test_override_needs_a_reason_and_one_result(winner_side, is_draw, reason, code) -> None:
    match = versus_match()
    with pytest.raises(MatchError) as caught:
        match_result_override(
            match=match,
            actor=UserFactory(is_staff=True),
            winner_side=winner_side,
            is_draw=is_draw,
            reason=reason,
        )
    assert caught.value.code == code
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_LOG


def test_refused_match_status_change_names_both_statuses() -> None:
    match = Match(status=Match.Status.DISPUTED)
    with pytest.raises(MatchError) as caught:
        match_status_change(match, Match.Status.AWAITING_LOG)
    assert caught.value.message == "a match cannot go from disputed to awaiting_log"
    assert caught.value.extra == {"current": "disputed", "requested": "awaiting_log"}


def test_finished_run_cannot_go_back_to_running() -> None:
    run = VerificationRun(status=VerificationRun.Status.ILLEGAL)
    with pytest.raises(MatchError) as caught:
        run_status_change(run, VerificationRun.Status.RUNNING)
    assert caught.value.message == "a verification run cannot go from illegal to running"


def test_confirming_while_the_log_is_verified_again_is_refused_clearly(
    awaiting_confirmation,
) -> None:
    log = awaiting_confirmation.logs.get()
    VerificationRun.objects.create(log=log)  # a re-verification is pending
    with pytest.raises(MatchError) as caught:
        match_log_confirm(match=awaiting_confirmation, user=side_user(awaiting_confirmation, 2))
    assert caught.value.code == MatchErrorCode.NOTHING_TO_CONFIRM
    assert caught.value.message == "the log is being verified again; wait for the new verdict"


def test_opponent_disputes_the_log_instead_of_confirming(awaiting_confirmation) -> None:
    opponent = side_user(awaiting_confirmation, 2)
    dispute = match_log_dispute(
        match=awaiting_confirmation, user=opponent, reason="I blocked turn 4"
    )
    awaiting_confirmation.refresh_from_db()
    assert awaiting_confirmation.status == Match.Status.DISPUTED
    assert (dispute.log_a, dispute.log_b, dispute.opened_by) == (
        awaiting_confirmation.logs.get(),
        None,
        opponent,
    )
    assert dispute.reason == "I blocked turn 4"
    entry = AuditEntry.objects.get(match=awaiting_confirmation, action="dispute_opened")
    assert (entry.actor, entry.reason) == (opponent, "I blocked turn 4")


@pytest.mark.parametrize(
    ("who", "reason", "code"),
    [
        ("submitter", "wrong", MatchErrorCode.NOTHING_TO_CONFIRM),
        ("outsider", "wrong", MatchErrorCode.NOT_ALLOWED),
        ("opponent", "  ", MatchErrorCode.REASON_REQUIRED),
    ],
)
def test_dispute_is_refused(awaiting_confirmation, who, reason, code) -> None:
    user = {
        "submitter": side_user(awaiting_confirmation, 1),
        "outsider": PlayerFactory().user,
        "opponent": side_user(awaiting_confirmation, 2),
    }[who]
    with pytest.raises(MatchError) as caught:
        match_log_dispute(match=awaiting_confirmation, user=user, reason=reason)
    assert caught.value.code == code
    awaiting_confirmation.refresh_from_db()
    assert awaiting_confirmation.status == Match.Status.AWAITING_CONFIRMATION
    assert Dispute.objects.count() == 0
