from __future__ import annotations

from collections import Counter

import pytest

from tests.tournaments.factories import StageFactory, entrants_create
from tests.tournaments.helpers import win
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Set, Stage
from tournaments.selectors import stage_standings
from tournaments.services.advancement import set_result_report
from tournaments.services.generation import stage_generate
from tournaments.services.swiss import stage_swiss_round_pair

pytestmark = pytest.mark.django_db


def _play_round(stage, organizer):
    for s in Set.objects.filter(stage=stage, status=Set.Status.READY):
        better = "a" if s.entrant_a.seed < s.entrant_b.seed else "b"
        set_result_report(set=s, actor=organizer, result=win(better))


def test_swiss_pairs_rounds_without_rematches_and_one_bye_each(event, organizer):
    # given: 7 entrants, 3 rounds
    entrants_create(event, 7)
    stage = StageFactory(event=event, kind=Stage.Kind.SWISS, swiss_rounds=3)
    stage_generate(stage=stage, actor=organizer)
    # when: every round is played (the next one is paired automatically)
    for _ in range(3):
        _play_round(stage, organizer)
    # then
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED and stage.current_round == 3
    sets = list(Set.objects.filter(stage=stage))
    pairs = [frozenset((s.entrant_a_id, s.entrant_b_id)) for s in sets if s.entrant_b_id]
    assert len(pairs) == len(set(pairs)) == 9
    byes = Counter(s.entrant_a_id for s in sets if s.is_bye_b)
    assert len(byes) == 3 and set(byes.values()) == {1}
    standings = stage_standings(stage)
    assert standings.lines[0].entrant.seed == 1
    assert standings.lines[0].points == 3
    assert "buchholz" in standings.tiebreak_names


def test_next_round_waits_for_the_current_one(event, organizer):
    entrants_create(event, 4)
    stage = StageFactory(event=event, kind=Stage.Kind.SWISS, swiss_rounds=2)
    stage_generate(stage=stage, actor=organizer)
    with pytest.raises(TournamentError) as error:
        stage_swiss_round_pair(stage=stage, actor=organizer)
    assert error.value.code == TournamentErrorCode.ROUND_NOT_FINISHED
    assert Set.objects.filter(stage=stage).count() == 2


def test_swiss_ends_early_when_no_pairing_is_left(event, organizer):
    # 4 entrants can meet each other in at most 3 rounds; ask for 5
    entrants_create(event, 4)
    stage = StageFactory(event=event, kind=Stage.Kind.SWISS, swiss_rounds=5)
    stage_generate(stage=stage, actor=organizer)
    for _ in range(3):
        _play_round(stage, organizer)
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    assert stage.swiss_rounds == 3
