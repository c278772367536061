"""Results credited only to who played them; authority read from the event; honest overrides."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from matches.errors import MatchError, MatchErrorCode
from matches.models import AuditEntry, Dispute, Match
from matches.services import match_log_confirm, match_log_submit, match_result_override
from tests.matches.factories import UserFactory, self_play_log_won_by, side_user
from tests.tournaments.factories import StageFactory, entrants_create
from tournaments.models import Game, Set, SetMatch, SetResultChange, Stage
from tournaments.services.advancement import (
    GameInput,
    SetResult,
    set_result_correct,
    set_result_report,
)
from tournaments.services.events import event_organizer_add
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open

pytestmark = pytest.mark.django_db


@pytest.fixture
def bracket(event, organizer):
    """4 entrants, single elimination, best of 1: W1-1 seed 1 v 4, W1-2 seed 2 v 3."""
    event.best_of = 1
    event.save(update_fields=["best_of"])
    entrants = entrants_create(event, 4)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    return stage, entrants


def win(s: Set, side: str, actor) -> None:
    set_result_report(set=s, actor=actor, result=SetResult(games=[GameInput(side)]))


def submit_and_confirm(match: Match, winner: str, capture, *, deliver: bool = True) -> None:
    with capture(execute=True):
        match_log_submit(match=match, submitted_by=side_user(match, 1),
                         log_bytes=self_play_log_won_by(winner).encode())
    with capture(execute=deliver):
        match_log_confirm(match=match, user=side_user(match, 2))


def player_ids(match: Match, side: int) -> list[int]:
    return list(match.sides.filter(side=side).values_list("player_id", flat=True))


def member_id(entrant) -> int:
    return entrant.members.get().player_id


def test_a_correction_cancels_the_later_sets_open_match_and_reopens_it_for_the_new_entrant(
    bracket, organizer, django_capture_on_commit_callbacks
) -> None:
    stage, e = bracket
    w11, w12 = (Set.objects.get(stage=stage, key=k) for k in ("W1-1", "W1-2"))
    win(w11, "a", organizer)  # seed 1 goes to the final
    win(w12, "a", organizer)  # seed 2 too
    final = Set.objects.get(stage=stage, key="W2-1")
    stale = set_match_open(set=final, actor=organizer)
    assert player_ids(stale, 1) == [member_id(e[0])]
    # when the organizer corrects W1-1: seed 4 won it after all
    set_result_correct(set=w11, actor=organizer, result=SetResult(games=[GameInput("b")]),
                       reason="score sheet misread", confirm=True)
    # then the match between the old finalists is cancelled and cannot take a log
    stale.refresh_from_db()
    assert stale.status == Match.Status.CANCELLED
    assert SetMatch.objects.get(match=stale).is_recorded  # handled: the set moves on
    with pytest.raises(MatchError) as refused:
        match_log_submit(match=stale, submitted_by=side_user(stale, 1),
                         log_bytes=self_play_log_won_by("P1").encode())
    assert refused.value.code == MatchErrorCode.MATCH_CLOSED
    # and the final's match opens afresh between its current entrants, whose result counts
    fresh = set_match_open(set=final, actor=organizer)
    assert fresh.pk != stale.pk
    assert player_ids(fresh, 1) == [member_id(e[3])]
    submit_and_confirm(fresh, "P1", django_capture_on_commit_callbacks)
    final.refresh_from_db()
    assert final.winner_id == e[3].pk
    assert [g.match_id for g in final.games.all()] == [fresh.pk]


def test_a_result_confirmed_before_a_correction_is_never_credited_to_the_new_entrant(
    bracket, organizer, django_capture_on_commit_callbacks
) -> None:
    stage, e = bracket
    w11, w12 = (Set.objects.get(stage=stage, key=k) for k in ("W1-1", "W1-2"))
    win(w11, "a", organizer)
    win(w12, "a", organizer)
    final = Set.objects.get(stage=stage, key="W2-1")
    old = set_match_open(set=final, actor=organizer)
    # the old finalists confirm their game, but the callback has not run yet
    submit_and_confirm(old, "P1", django_capture_on_commit_callbacks, deliver=False)
    assert Match.objects.get(pk=old.pk).status == Match.Status.CONFIRMED
    set_result_correct(set=w11, actor=organizer, result=SetResult(games=[GameInput("b")]),
                       reason="score sheet misread", confirm=True)
    # when the callback finally arrives, the set refuses it: seed 4 gets no game
    from matches.services.results import match_result_callback_run

    assert match_result_callback_run(match_id=old.pk) is True
    final.refresh_from_db()
    assert final.entrant_a_id == e[3].pk
    assert not Game.objects.filter(set=final).exists()
    assert final.status == Set.Status.READY
    assert SetResultChange.objects.filter(set=final, action="match_not_applied").count() == 1


def test_organizer_authority_is_read_from_the_event_at_the_time_of_the_action(
    bracket, organizer, event, django_capture_on_commit_callbacks
) -> None:
    stage, _ = bracket
    match = set_match_open(set=Set.objects.get(stage=stage, key="W1-1"), actor=organizer)
    submit_and_confirm(match, "P1", django_capture_on_commit_callbacks)
    late = UserFactory(username="late-org")
    event_organizer_add(event=event, actor=organizer, user=late)
    event.organizers.remove(organizer)
    # the organizer removed after the match opened can no longer override it
    with pytest.raises(MatchError) as refused:
        match_result_override(match=match, actor=organizer, winner_side=2, reason="x")
    assert refused.value.code == MatchErrorCode.NOT_ALLOWED
    # and the one added later can
    with django_capture_on_commit_callbacks(execute=True):
        match_result_override(match=match, actor=late, winner_side=2, reason="wrong log")
    assert Match.objects.get(pk=match.pk).winner_side == 2
    assert Game.objects.get(match=match).winner_side == "b"


def override_api(user, match: Match, **body) -> tuple[int, dict]:
    client = APIClient()
    client.force_authenticate(user)
    response = client.post(f"/api/matches/{match.pk}/override/",
                           {"reason": "ruling", **body}, format="json")
    return response.status_code, response.json()


def test_override_of_a_match_whose_set_was_reported_by_hand_is_refused_not_ignored(
    bracket, organizer, django_capture_on_commit_callbacks
) -> None:
    stage, _ = bracket
    w11 = Set.objects.get(stage=stage, key="W1-1")
    match = set_match_open(set=w11, actor=organizer)
    # the organizer reports the set by hand while its match is still open
    win(w11, "a", organizer)
    match.refresh_from_db()
    assert match.status == Match.Status.CANCELLED
    status, body = override_api(organizer, match, winner_side=2)
    assert status == 409
    assert body["code"] == "invalid_transition"
    # a match confirmed before the hand report (its game never recorded) is refused by the set
    w12 = Set.objects.get(stage=stage, key="W1-2")
    other = set_match_open(set=w12, actor=organizer)
    submit_and_confirm(other, "P1", django_capture_on_commit_callbacks, deliver=False)
    win(w12, "b", organizer)
    status, body = override_api(organizer, other, winner_side=2)
    assert status == 409, body
    assert body["code"] == "result_not_applicable"
    assert "finished" in body["message"]
    other.refresh_from_db()
    assert other.result_source == Match.ResultSource.LOG
    assert not AuditEntry.objects.filter(match=other, action="result_overridden").exists()


def test_override_to_a_draw_after_the_game_was_recorded_is_refused(
    bracket, organizer, django_capture_on_commit_callbacks
) -> None:
    stage, _ = bracket
    match = set_match_open(set=Set.objects.get(stage=stage, key="W1-1"), actor=organizer)
    submit_and_confirm(match, "P1", django_capture_on_commit_callbacks)
    assert Game.objects.get(match=match).winner_side == "a"
    status, body = override_api(organizer, match, is_draw=True)
    assert status == 409
    assert body["code"] == "result_not_applicable"
    assert "cannot become a draw" in body["message"]
    match.refresh_from_db()
    assert (match.winner_side, match.is_draw) == (1, False)
    assert Game.objects.get(match=match).winner_side == "a"
    # an override that changes the winner works, and moves the set with it
    status, _ = override_api(organizer, match, winner_side=2)
    assert status == 200
    assert Game.objects.get(match=match).winner_side == "b"


def test_one_player_sending_two_different_legal_logs_cannot_force_a_dispute(
    django_capture_on_commit_callbacks,
) -> None:
    from tests.matches.factories import versus_match

    match = versus_match()
    first, second = self_play_log_won_by("P1"), self_play_log_won_by("P2")
    with django_capture_on_commit_callbacks(execute=True):
        match_log_submit(match=match, submitted_by=side_user(match, 1), log_bytes=first.encode())
    with django_capture_on_commit_callbacks(execute=True):
        match_log_submit(match=match, submitted_by=side_user(match, 1), log_bytes=second.encode())
    match.refresh_from_db()
    assert match.status == Match.Status.AWAITING_CONFIRMATION
    assert not Dispute.objects.filter(match=match).exists()
    # the other side confirms the newest claim, which becomes the result
    with django_capture_on_commit_callbacks(execute=True):
        match_log_confirm(match=match, user=side_user(match, 2))
    match.refresh_from_db()
    assert match.status == Match.Status.CONFIRMED
    assert match.winner_side == 2
    # while different logs from the two sides still open a dispute, between their newest claims
    third = self_play_log_won_by("P1", p1="jaina", p2="grave")
    other = versus_match()
    with django_capture_on_commit_callbacks(execute=True):
        match_log_submit(match=other, submitted_by=side_user(other, 1), log_bytes=first.encode())
        match_log_submit(match=other, submitted_by=side_user(other, 1), log_bytes=third.encode())
        match_log_submit(match=other, submitted_by=side_user(other, 2), log_bytes=second.encode())
    assert Match.objects.get(pk=other.pk).status == Match.Status.DISPUTED
    dispute = Dispute.objects.get(match=other)
    assert (dispute.log_a.text, dispute.log_b.text) == (third, second)
