from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tests.tournaments.factories import StageFactory, entrants_create
from tests.tournaments.helpers import sets_by_key
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Entrant, Event, Set, Stage, StageEntry
from tournaments.services.generation import stage_generate

pytestmark = pytest.mark.django_db


def test_single_elimination_of_5_gives_byes_to_the_top_3_seeds(event, organizer):
    # given
    entrants = entrants_create(event, 5)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    # when
    stage_generate(stage=stage, actor=organizer)
    # then
    sets = sets_by_key(stage)
    assert len(sets) == 7
    byes = {s.winner for s in sets.values() if s.outcome == Set.Outcome.BYE}
    assert byes == set(entrants[:3])
    semis = [s for s in sets.values() if s.round == 2]
    assert sorted(s.status for s in semis) == [Set.Status.READY, Set.Status.WAITING]
    stage.refresh_from_db()
    event.refresh_from_db()
    assert stage.status == Stage.Status.RUNNING
    assert event.status == Event.Status.RUNNING
    assert list(
        StageEntry.objects.filter(stage=stage).order_by("seed").values_list("entrant", flat=True)
    ) == [e.pk for e in entrants]


def test_seeds_1_and_2_can_only_meet_in_the_final(event, organizer):
    entrants = entrants_create(event, 8)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    sets = sets_by_key(stage)
    first_round = {frozenset((s.entrant_a.seed, s.entrant_b.seed)) for s in sets.values()
                   if s.round == 1}
    assert first_round == {frozenset(p) for p in [(1, 8), (4, 5), (3, 6), (2, 7)]}
    assert len(entrants) == 8


def test_double_elimination_of_8_has_winners_losers_and_grand_final(event, organizer):
    entrants_create(event, 8)
    stage = StageFactory(event=event, kind=Stage.Kind.DOUBLE_ELIMINATION, grand_final_reset=True)
    stage_generate(stage=stage, actor=organizer)
    sets = sets_by_key(stage)
    brackets = sorted({s.bracket for s in sets.values()})
    assert brackets == ["grand_final", "losers", "winners"]
    assert sets["GF2"].is_conditional is True
    assert sum(1 for s in sets.values() if s.status == Set.Status.READY) == 4


def test_top_sets_and_grand_final_use_their_own_set_length(event, organizer):
    event.best_of, event.top_best_of, event.top_rounds, event.grand_final_best_of = 3, 5, 1, 7
    event.save()
    entrants_create(event, 8)
    stage = StageFactory(event=event, kind=Stage.Kind.DOUBLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    sets = sets_by_key(stage)
    assert sets["W1-1"].best_of == 3
    assert sets["W3-1"].best_of == 5
    assert sets["GF1"].best_of == 7


def test_round_robin_groups_are_snake_seeded_and_everyone_meets_once(event, organizer):
    entrants_create(event, 8)
    stage = StageFactory(event=event, kind=Stage.Kind.ROUND_ROBIN, group_count=2)
    stage_generate(stage=stage, actor=organizer)
    groups = {
        g: sorted(StageEntry.objects.filter(stage=stage, group=g).values_list("seed", flat=True))
        for g in (1, 2)
    }
    assert groups == {1: [1, 4, 5, 8], 2: [2, 3, 6, 7]}
    sets = Set.objects.filter(stage=stage)
    assert sets.count() == 12
    pairs = {frozenset((s.entrant_a_id, s.entrant_b_id)) for s in sets}
    assert len(pairs) == 12


def test_league_rounds_get_match_windows(event, organizer):
    start = datetime(2027, 1, 4, tzinfo=UTC)
    entrants_create(event, 4)
    stage = StageFactory(event=event, kind=Stage.Kind.LEAGUE, starts_at=start, round_days=7)
    stage_generate(stage=stage, actor=organizer)
    windows = sorted({(s.round, s.window_opens_at, s.window_closes_at)
                      for s in Set.objects.filter(stage=stage)})
    assert windows == [
        (r, start + timedelta(days=7 * (r - 1)), start + timedelta(days=7 * r)) for r in (1, 2, 3)
    ]


def test_check_in_event_removes_entrants_who_did_not_check_in(event, organizer):
    entrants = entrants_create(event, 4)
    Entrant.objects.filter(pk__in=[e.pk for e in entrants[:3]]).update(
        checked_in_at=datetime(2027, 1, 1, tzinfo=UTC)
    )
    event.status = Event.Status.CHECK_IN
    event.save()
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    entrants[3].refresh_from_db()
    assert entrants[3].status == Entrant.Status.REMOVED
    assert StageEntry.objects.filter(stage=stage).count() == 3


def test_generating_twice_is_refused(event, organizer):
    entrants_create(event, 4)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    with pytest.raises(TournamentError) as error:
        stage_generate(stage=stage, actor=organizer)
    assert error.value.code == TournamentErrorCode.STAGE_STARTED
    assert Set.objects.filter(stage=stage).count() == 3


def test_too_few_entrants_writes_nothing(event, organizer):
    entrants_create(event, 1)
    stage = StageFactory(event=event)
    with pytest.raises(TournamentError) as error:
        stage_generate(stage=stage, actor=organizer)
    assert error.value.code == TournamentErrorCode.TOO_FEW_ENTRANTS
    assert Set.objects.count() == 0
    event.refresh_from_db()
    assert event.status == Event.Status.REGISTRATION


def test_only_organizers_generate(event, player):
    entrants_create(event, 4)
    stage = StageFactory(event=event)
    with pytest.raises(TournamentError) as error:
        stage_generate(stage=stage, actor=player.user)
    assert error.value.code == TournamentErrorCode.NOT_ORGANIZER
    assert Set.objects.count() == 0
