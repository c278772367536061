"""An organizer's score report on a partly played set keeps the games confirmed matches recorded
(issue 31, item 8): the set never disagrees with the match that decided its game."""

from __future__ import annotations

import pytest

from tests.tournaments.factories import StageFactory, entrants_create
from tests.tournaments.services.test_set_matches import play_game_with_log
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Game, Set, Stage
from tournaments.services.advancement import GameInput, SetResult, set_result_report
from tournaments.services.generation import stage_generate

pytestmark = pytest.mark.django_db


def test_a_report_that_rewrites_a_match_recorded_game_is_refused_one_that_keeps_it_is_not(
    event, organizer, django_capture_on_commit_callbacks,
) -> None:
    entrants_create(event, 4)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage, key="W1-1")
    match = play_game_with_log(s, "P1", django_capture_on_commit_callbacks)  # side a wins game 1
    recorded = Game.objects.get(set=s, number=1)
    assert (recorded.match_id, recorded.winner_side) == (match.pk, "a")
    rewrite = SetResult(games=[GameInput(winner_side="b"), GameInput(winner_side="b")])
    with pytest.raises(TournamentError) as refused:
        set_result_report(set=s, actor=organizer, result=rewrite)
    assert refused.value.code == TournamentErrorCode.RESULT_INVALID
    assert f"match #{match.pk}" in refused.value.message
    s.refresh_from_db()
    assert s.status == Set.Status.READY
    keeps = SetResult(games=[GameInput(winner_side="a"), GameInput(winner_side="b"),
                             GameInput(winner_side="a")])
    set_result_report(set=s, actor=organizer, result=keeps)
    games = list(Game.objects.filter(set=s).order_by("number").values_list(
        "number", "winner_side", "match_id"))
    assert games == [(1, "a", match.pk), (2, "b", None), (3, "a", None)]
