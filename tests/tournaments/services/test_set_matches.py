"""Sets played with match logs: a confirmed log becomes a game; the bracket advances once."""

from __future__ import annotations

import pytest

from matches.models import Match
from matches.services import match_log_confirm, match_log_submit, match_result_override
from matches.services.matches import match_user_is_manager
from tests.matches.factories import UserFactory, self_play_log_won_by, side_user
from tests.tournaments.factories import StageFactory, entrants_create
from tests.tournaments.helpers import sets_by_key
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Game, Set, SetMatch, Stage
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import (
    RESULT_CALLBACK_TASK,
    set_match_open,
    set_match_result_record,
)

pytestmark = pytest.mark.django_db


@pytest.fixture
def bracket(event, organizer):
    """4 entrants, single elimination, best of 3: W1-1 is seed 1 v seed 4."""
    entrants = entrants_create(event, 4)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    return stage, entrants


def play_game_with_log(s: Set, winner: str, capture) -> Match:
    """Side 1 submits a legal log won by ``winner`` ("P1" = side a); side 2 confirms it."""
    match = set_match_open(set=s, actor=s.stage.event.organizers.first())
    with capture(execute=True):
        match_log_submit(
            match=match,
            submitted_by=side_user(match, 1),
            log_bytes=self_play_log_won_by(winner).encode(),
        )
    with capture(execute=True):
        match_log_confirm(match=match, user=side_user(match, 2))
    return match


def test_open_creates_a_match_between_the_rosters_with_the_organizers(bracket, organizer) -> None:
    stage, e = bracket
    s = Set.objects.get(stage=stage, key="W1-1")
    member = e[0].members.get().player.user
    match = set_match_open(set=s, actor=member)
    assert [x.player_id for x in match.sides.filter(side=1)] == [e[0].members.get().player_id]
    assert [x.player_id for x in match.sides.filter(side=2)] == [e[3].members.get().player_id]
    assert list(match.managers.all()) == []  # organizers are read from the event when they act
    assert match_user_is_manager(match, organizer)
    assert not match_user_is_manager(match, member)
    assert match.result_callback_task == RESULT_CALLBACK_TASK
    # the same open match is returned until its result is recorded
    assert set_match_open(set=s, actor=organizer).pk == match.pk
    assert SetMatch.objects.filter(set=s).count() == 1


def test_only_the_sets_players_or_organizers_open_a_match(bracket) -> None:
    stage, e = bracket
    s = Set.objects.get(stage=stage, key="W1-1")
    outsider = e[1].members.get().player.user  # plays in another set
    with pytest.raises(TournamentError) as caught:
        set_match_open(set=s, actor=outsider)
    assert caught.value.code == TournamentErrorCode.NOT_YOUR_ENTRANT
    assert SetMatch.objects.count() == 0


def test_waiting_set_has_no_game_to_play(bracket, organizer) -> None:
    stage, _ = bracket
    final = Set.objects.get(stage=stage, key="W2-1")
    with pytest.raises(TournamentError) as caught:
        set_match_open(set=final, actor=organizer)
    assert caught.value.code == TournamentErrorCode.SET_NOT_READY


def test_confirmed_logs_become_games_and_finish_the_set(
    bracket, django_capture_on_commit_callbacks
) -> None:
    stage, e = bracket
    s = Set.objects.get(stage=stage, key="W1-1")
    first = play_game_with_log(s, "P2", django_capture_on_commit_callbacks)
    s.refresh_from_db()
    assert (s.status, s.score_a, s.score_b) == (Set.Status.READY, 0, 1)
    game = Game.objects.get(set=s)
    assert (game.number, game.winner_side, game.match_id) == (1, "b", first.pk)
    assert (game.characters_a, game.characters_b) == (["Grave"], ["Jaina"])
    play_game_with_log(s, "P1", django_capture_on_commit_callbacks)
    play_game_with_log(s, "P1", django_capture_on_commit_callbacks)
    s.refresh_from_db()
    assert (s.status, s.score_a, s.score_b, s.winner_id) == (Set.Status.FINISHED, 2, 1, e[0].pk)
    assert sets_by_key(stage)["W2-1"].entrant_a == e[0]
    assert list(Game.objects.filter(set=s).values_list("number", "winner_side")) == [
        (1, "b"),
        (2, "a"),
        (3, "a"),
    ]


def test_recording_the_same_match_again_changes_nothing(
    bracket, django_capture_on_commit_callbacks
) -> None:
    stage, _ = bracket
    s = Set.objects.get(stage=stage, key="W1-1")
    match = play_game_with_log(s, "P1", django_capture_on_commit_callbacks)
    for _ in range(3):
        set_match_result_record(match_id=match.pk)
    assert Game.objects.filter(set=s).count() == 1
    s.refresh_from_db()
    assert (s.score_a, s.score_b) == (1, 0)


def test_override_of_a_deciding_game_resets_what_depended_on_it(
    bracket, organizer, django_capture_on_commit_callbacks
) -> None:
    stage, e = bracket
    s = Set.objects.get(stage=stage, key="W1-1")
    play_game_with_log(s, "P1", django_capture_on_commit_callbacks)
    deciding = play_game_with_log(s, "P1", django_capture_on_commit_callbacks)
    assert sets_by_key(stage)["W2-1"].entrant_a == e[0]
    # when the organizer overrides game 2 for side 2 (1-1: the set is open again)
    with django_capture_on_commit_callbacks(execute=True):
        match_result_override(
            match=deciding, actor=organizer, winner_side=2, reason="illegal deck found"
        )
    s.refresh_from_db()
    assert (s.status, s.score_a, s.score_b, s.winner_id) == (Set.Status.READY, 1, 1, None)
    assert sets_by_key(stage)["W2-1"].entrant_a is None
    assert s.changes.filter(action="game_override", changed_by=organizer).exists()
    # and a third game decides it
    play_game_with_log(s, "P2", django_capture_on_commit_callbacks)
    s.refresh_from_db()
    assert (s.status, s.winner_id) == (Set.Status.FINISHED, e[3].pk)
    assert sets_by_key(stage)["W2-1"].entrant_a == e[3]


def test_drawn_game_is_replayed(bracket, organizer, django_capture_on_commit_callbacks) -> None:
    stage, _ = bracket
    s = Set.objects.get(stage=stage, key="W1-1")
    match = set_match_open(set=s, actor=organizer)
    other = UserFactory(is_staff=True)
    with django_capture_on_commit_callbacks(execute=True):
        match_result_override(
            match=match, actor=other, winner_side=None, is_draw=True, reason="double KO"
        )
    assert Game.objects.filter(set=s).count() == 0
    assert set_match_open(set=s, actor=organizer).pk != match.pk
