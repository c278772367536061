from __future__ import annotations

import pytest

from tests.tournaments.factories import StageFactory, entrants_create
from tests.tournaments.helpers import play_out, report, sets_by_key, win
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Entrant, Event, Game, Set, SetResultChange, Stage
from tournaments.selectors import stage_standings
from tournaments.services.advancement import (
    GameInput,
    SetResult,
    entrant_disqualify,
    set_correction_preview,
    set_result_correct,
    set_result_report,
)
from tournaments.services.generation import stage_generate

pytestmark = pytest.mark.django_db


def _stage(event, organizer, n, kind=Stage.Kind.SINGLE_ELIMINATION, **kwargs):
    entrants = entrants_create(event, n)
    stage = StageFactory(event=event, kind=kind, **kwargs)
    stage_generate(stage=stage, actor=organizer)
    return stage, entrants


def test_reporting_advances_the_winner_and_records_games(event, organizer):
    # given: 4 entrants, semifinals 1v4 and 2v3
    stage, e = _stage(event, organizer, 4)
    # when
    s = report(stage, "W1-1", "b", organizer)
    # then
    sets = sets_by_key(stage)
    assert s.winner == e[3] and s.loser == e[0]
    assert (s.score_a, s.score_b) == (0, 2)
    assert list(Game.objects.filter(set=s).values_list("number", "winner_side")) == [
        (1, "b"), (2, "b"),
    ]
    final = sets["W2-1"]
    assert final.entrant_a == e[3]
    assert final.entrant_b is None
    assert final.status == Set.Status.WAITING
    assert SetResultChange.objects.filter(set=s, action="report").count() == 1


def test_reporting_a_finished_set_again_is_refused_and_changes_nothing(event, organizer):
    stage, _ = _stage(event, organizer, 4)
    report(stage, "W1-1", "a", organizer)
    with pytest.raises(TournamentError) as error:
        report(stage, "W1-1", "b", organizer)
    assert error.value.code == TournamentErrorCode.SET_ALREADY_FINISHED
    s = Set.objects.get(stage=stage, key="W1-1")
    assert (s.score_a, s.score_b, s.winner.seed) == (2, 0, 1)
    assert Game.objects.filter(set=s).count() == 2


@pytest.mark.parametrize(
    ("games", "message"),
    [
        pytest.param([], "report at least one game", id="no_games_case"),
        pytest.param(["a"], "a side needs 2 wins", id="undecided_case"),
        pytest.param(["a", "a", "b"], "decided before game 3", id="extra_game_case"),
        pytest.param(["a", "c"], "the winner is side 'a' or 'b'", id="bad_side_case"),
    ],
)
def test_invalid_results_are_refused_and_nothing_is_written(event, organizer, games, message):
    stage, _ = _stage(event, organizer, 4)
    s = Set.objects.get(stage=stage, key="W1-1")
    with pytest.raises(TournamentError) as error:
        set_result_report(
            set=s, actor=organizer,
            result=SetResult(games=[GameInput(winner_side=g) for g in games]),
        )
    assert error.value.code == TournamentErrorCode.RESULT_INVALID
    assert message in error.value.message
    assert Game.objects.count() == 0
    assert Set.objects.get(pk=s.pk).status == Set.Status.READY


def test_winner_locked_character_rule_is_enforced(event, organizer):
    stage, _ = _stage(event, organizer, 2)
    s = Set.objects.get(stage=stage, key="W1-1")
    result = SetResult(games=[
        GameInput("a", ["Grave"], ["Jaina"]),
        GameInput("a", ["Setsuki"], ["Rook"]),
    ])
    with pytest.raises(TournamentError) as error:
        set_result_report(set=s, actor=organizer, result=result)
    assert "side a won game 1 and is locked" in error.value.message
    ok = SetResult(
        games=[GameInput("a", ["Grave"], ["Jaina"]), GameInput("a", ["Grave"], ["Rook"])]
    )
    assert set_result_report(set=s, actor=organizer, result=ok).status == Set.Status.FINISHED


def test_a_single_elimination_plays_out_to_a_champion_and_placements(event, organizer):
    stage, _e = _stage(event, organizer, 6, third_place=True)
    play_out(stage, organizer)
    stage.refresh_from_db()
    event.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    assert event.status == Event.Status.FINISHED
    ranks = {line.entrant.seed: line.rank for line in stage_standings(stage).lines}
    # side a always wins: 1 champion, 2 second; the third-place match is 4 (side a, loser of
    # the 1-4 semifinal) against 3, so 4 is third.
    assert ranks[1] == 1 and ranks[2] == 2 and ranks[4] == 3 and ranks[3] == 4
    assert ranks[5] == ranks[6] == 5


def test_grand_final_reset_is_skipped_when_the_winners_side_wins(event, organizer):
    stage, e = _stage(event, organizer, 4, kind=Stage.Kind.DOUBLE_ELIMINATION)
    play_out(stage, organizer, side="a")
    sets = sets_by_key(stage)
    assert sets["GF1"].winner == e[0]
    assert sets["GF2"].status == Set.Status.SKIPPED
    assert Stage.objects.get(pk=stage.pk).status == Stage.Status.FINISHED
    ranks = {line.entrant.seed: line.rank for line in stage_standings(stage).lines}
    # side a always wins: 4 beats 3 and then 2 in the losers bracket.
    assert ranks == {1: 1, 4: 2, 2: 3, 3: 4}


def test_grand_final_reset_appears_when_the_losers_side_wins(event, organizer):
    stage, e = _stage(event, organizer, 4, kind=Stage.Kind.DOUBLE_ELIMINATION)
    for key in ("W1-1", "W1-2", "W2-1", "L1-1", "L2-1"):
        report(stage, key, "a", organizer)
    gf1 = report(stage, "GF1", "b", organizer)
    sets = sets_by_key(stage)
    assert sets["GF2"].status == Set.Status.READY
    assert {sets["GF2"].entrant_a, sets["GF2"].entrant_b} == {gf1.winner, gf1.loser}
    report(stage, "GF2", "b", organizer)
    ranks = {line.entrant.pk: line.rank for line in stage_standings(stage).lines}
    assert ranks[gf1.winner.pk] == 1 and ranks[e[0].pk] == 2


def test_correction_resets_every_dependent_set_and_refills(event, organizer):
    # given: 4 entrants; seeds 1 and 2 won the semis and seed 1 won the final
    stage, e = _stage(event, organizer, 4)
    report(stage, "W1-1", "a", organizer)
    report(stage, "W1-2", "a", organizer)
    report(stage, "W2-1", "a", organizer)
    semi = Set.objects.get(stage=stage, key="W1-1")
    # when: the preview says what will change
    plan = set_correction_preview(set=semi, actor=organizer, result=win("b"))
    assert plan.winner_changes is True
    assert [s.key for s in plan.cleared_results] == ["W2-1"]
    assert Set.objects.get(stage=stage, key="W2-1").status == Set.Status.FINISHED
    # and the organizer confirms
    set_result_correct(set=semi, actor=organizer, result=win("b"), reason="score swap",
                       confirm=True)
    # then
    sets = sets_by_key(stage)
    assert sets["W1-1"].winner == e[3]
    assert sets["W2-1"].status == Set.Status.READY
    assert {sets["W2-1"].entrant_a, sets["W2-1"].entrant_b} == {e[3], e[1]}
    assert Game.objects.filter(set=sets["W2-1"]).count() == 0
    assert Stage.objects.get(pk=stage.pk).status == Stage.Status.RUNNING
    assert Event.objects.get(pk=event.pk).status == Event.Status.RUNNING
    change = SetResultChange.objects.get(action="correct")
    assert change.reason == "score swap" and change.reset_set_keys == ["W2-1"]


def test_correction_without_confirmation_writes_nothing(event, organizer):
    stage, e = _stage(event, organizer, 4)
    report(stage, "W1-1", "a", organizer)
    semi = Set.objects.get(stage=stage, key="W1-1")
    with pytest.raises(TournamentError) as error:
        set_result_correct(set=semi, actor=organizer, result=win("b"), reason="x", confirm=False)
    assert error.value.code == TournamentErrorCode.CONFIRMATION_REQUIRED
    semi.refresh_from_db()
    assert semi.winner == e[0]
    assert SetResultChange.objects.filter(action="correct").count() == 0


def test_correction_keeping_the_winner_only_changes_the_score(event, organizer):
    stage, _e = _stage(event, organizer, 4)
    report(stage, "W1-1", "a", organizer)
    report(stage, "W1-2", "a", organizer)
    report(stage, "W2-1", "a", organizer)
    semi = Set.objects.get(stage=stage, key="W1-1")
    result = SetResult(games=[GameInput("b"), GameInput("a"), GameInput("a")])
    plan = set_result_correct(set=semi, actor=organizer, result=result, reason="r", confirm=True)
    assert plan.winner_changes is False and plan.reset_sets == []
    sets = sets_by_key(stage)
    assert (sets["W1-1"].score_a, sets["W1-1"].score_b) == (2, 1)
    assert sets["W2-1"].status == Set.Status.FINISHED


def test_correction_in_double_elimination_resets_losers_bracket_too(event, organizer):
    stage, e = _stage(event, organizer, 4, kind=Stage.Kind.DOUBLE_ELIMINATION)
    play_out(stage, organizer)
    w11 = Set.objects.get(stage=stage, key="W1-1")
    plan = set_correction_preview(set=w11, actor=organizer, result=win("b"))
    assert {s.key for s in plan.reset_sets} == {"W2-1", "L1-1", "L2-1", "GF1", "GF2"}
    set_result_correct(set=w11, actor=organizer, result=win("b"), reason="r", confirm=True)
    sets = sets_by_key(stage)
    assert sets["L1-1"].status == Set.Status.READY
    assert sets["L1-1"].entrant_a == e[0] or sets["L1-1"].entrant_b == e[0]
    assert sets["GF2"].status == Set.Status.WAITING
    play_out(stage, organizer)
    assert Stage.objects.get(pk=stage.pk).status == Stage.Status.FINISHED


def test_forfeit_advances_the_other_side_without_games(event, organizer):
    stage, e = _stage(event, organizer, 4)
    s = Set.objects.get(stage=stage, key="W1-1")
    s = set_result_report(set=s, actor=organizer, result=SetResult(forfeit="a"))
    assert s.winner == e[3] and s.outcome == Set.Outcome.FORFEIT
    assert Game.objects.count() == 0


def test_double_forfeit_sends_a_bye_on(event, organizer):
    stage, e = _stage(event, organizer, 4)
    s = Set.objects.get(stage=stage, key="W1-1")
    set_result_report(set=s, actor=organizer, result=SetResult(forfeit="both"))
    report(stage, "W1-2", "a", organizer)
    sets = sets_by_key(stage)
    final = sets["W2-1"]
    assert final.status == Set.Status.FINISHED
    assert final.outcome == Set.Outcome.BYE and final.winner == e[1]


def test_disqualification_forfeits_open_and_future_sets(event, organizer):
    stage, e = _stage(event, organizer, 4)
    entrant_disqualify(entrant=e[0], actor=organizer, reason="no-show")
    sets = sets_by_key(stage)
    assert sets["W1-1"].outcome == Set.Outcome.DISQUALIFICATION
    assert sets["W1-1"].winner == e[3]
    assert Entrant.objects.get(pk=e[0].pk).status == Entrant.Status.DISQUALIFIED


def test_round_robin_standings_after_play(event, organizer):
    stage, _e = _stage(event, organizer, 4, kind=Stage.Kind.ROUND_ROBIN)
    for s in Set.objects.filter(stage=stage):
        better = "a" if s.entrant_a.seed < s.entrant_b.seed else "b"
        set_result_report(set=s, actor=organizer, result=win(better))
    standings = stage_standings(stage)
    assert [(line.entrant.seed, line.rank, line.wins) for line in standings.lines] == [
        (1, 1, 3), (2, 2, 2), (3, 3, 1), (4, 4, 0),
    ]
    assert Stage.objects.get(pk=stage.pk).status == Stage.Status.FINISHED


def test_only_organizers_report(event, organizer, player, other_organizer):
    stage, _ = _stage(event, organizer, 4)
    s = Set.objects.get(stage=stage, key="W1-1")
    for actor in (player.user, other_organizer):
        with pytest.raises(TournamentError) as error:
            set_result_report(set=s, actor=actor, result=win("a"))
        assert error.value.code == TournamentErrorCode.NOT_ORGANIZER
    assert Set.objects.get(pk=s.pk).status == Set.Status.READY


def test_disqualification_in_round_robin_forfeits_every_remaining_set(event, organizer):
    stage, e = _stage(event, organizer, 4, kind=Stage.Kind.ROUND_ROBIN)
    entrant_disqualify(entrant=e[0], actor=organizer)
    sets = Set.objects.filter(stage=stage).filter(entrant_a=e[0]) | Set.objects.filter(
        stage=stage, entrant_b=e[0]
    )
    assert sorted(s.outcome for s in sets) == [Set.Outcome.DISQUALIFICATION] * 3
    assert all(s.winner_id != e[0].pk for s in sets)
    line = next(x for x in stage_standings(stage).lines if x.entrant.pk == e[0].pk)
    assert (line.wins, line.losses) == (0, 3)


def test_correcting_a_round_robin_set_changes_standings_only(event, organizer):
    stage, e = _stage(event, organizer, 3, kind=Stage.Kind.ROUND_ROBIN)
    for s in Set.objects.filter(stage=stage):
        better = "a" if s.entrant_a.seed < s.entrant_b.seed else "b"
        set_result_report(set=s, actor=organizer, result=win(better))
    s = Set.objects.get(stage=stage, entrant_a__in=[e[0], e[1]], entrant_b__in=[e[0], e[1]])
    flipped = "b" if s.winner_id == s.entrant_a_id else "a"
    plan = set_result_correct(set=s, actor=organizer, result=win(flipped), reason="r",
                              confirm=True)
    assert plan.reset_sets == []
    assert "Standings are recomputed" in plan.notes[0]
    ranks = {line.entrant.pk: line.wins for line in stage_standings(stage).lines}
    assert ranks == {e[0].pk: 1, e[1].pk: 2, e[2].pk: 0}
