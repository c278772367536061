from __future__ import annotations

import pytest

from tests.tournaments.factories import StageFactory, entrants_create
from tests.tournaments.helpers import play_out, win
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Event, Set, Stage, StageEntry
from tournaments.services.advancement import set_result_report
from tournaments.services.generation import stage_generate

pytestmark = pytest.mark.django_db


def test_groups_hand_off_to_playoffs_by_final_standing(event, organizer):
    # given: 8 entrants in 2 groups of 4, top 2 of each group go on
    entrants_create(event, 8)
    groups = StageFactory(event=event, order=1, kind=Stage.Kind.ROUND_ROBIN, group_count=2,
                          advance_count=2)
    playoff = StageFactory(event=event, order=2, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=groups, actor=organizer)
    with pytest.raises(TournamentError) as error:
        stage_generate(stage=playoff, actor=organizer)
    assert error.value.code == TournamentErrorCode.STAGE_NOT_READY
    # when: the better seed wins every group set
    for s in Set.objects.filter(stage=groups):
        better = "a" if s.entrant_a.seed < s.entrant_b.seed else "b"
        set_result_report(set=s, actor=organizer, result=win(better))
    stage_generate(stage=playoff, actor=organizer)
    # then: group winners (seeds 1, 2) are playoff seeds 1-2, runners-up (4, 3) are 3-4
    seeds = list(
        StageEntry.objects.filter(stage=playoff).order_by("seed").values_list(
            "entrant__seed", flat=True
        )
    )
    assert seeds[:2] == [1, 2]
    assert sorted(seeds[2:]) == [3, 4]
    play_out(playoff, organizer)
    assert Event.objects.get(pk=event.pk).status == Event.Status.FINISHED
