"""Dramatic Battle stages always pair a lone player against a pair."""

from __future__ import annotations

import itertools

import pytest

from tests.tournaments.factories import PlayerFactory, StageFactory, entrant_create
from tournaments.errors import TournamentError
from tournaments.formats.round_robin import lone_against_pair_schedule
from tournaments.models import Event, Set, Stage
from tournaments.services.events import stage_create
from tournaments.services.generation import stage_generate

pytestmark = pytest.mark.django_db


@pytest.mark.parametrize(("lone", "pairs"), [(3, 4), (4, 3), (2, 2), (1, 5)])
def test_schedule_meets_every_couple_once_and_never_twice_a_round(lone, pairs) -> None:
    lone_ids, pair_ids = list(range(lone)), list(range(100, 100 + pairs))
    rounds = lone_against_pair_schedule(lone_ids, pair_ids)
    games = [g for r in rounds for g in r]
    assert sorted(games) == sorted(itertools.product(lone_ids, pair_ids))
    for r in rounds:
        seen = [x for g in r for x in g]
        assert len(seen) == len(set(seen))
    assert all(a in lone_ids and b in pair_ids for a, b in games)


@pytest.fixture
def dramatic(event) -> Event:
    event.mode = Event.Mode.DRAMATIC_BATTLE
    event.save()
    for _ in range(4):
        entrant_create(event, [PlayerFactory(), PlayerFactory()])
    for _ in range(3):
        entrant_create(event, [PlayerFactory()])
    return event


def test_round_robin_pairs_lone_players_against_pairs(dramatic, organizer) -> None:
    stage = StageFactory(event=dramatic, kind=Stage.Kind.ROUND_ROBIN, group_count=2)
    stage_generate(stage=stage, actor=organizer)
    sets = list(Set.objects.filter(stage=stage).prefetch_related("entrant_a__members",
                                                                 "entrant_b__members"))
    assert len(sets) == 12
    for s in sets:
        assert (s.entrant_a.members.count(), s.entrant_b.members.count()) == (1, 2)


@pytest.mark.parametrize("kind", [Stage.Kind.SWISS, Stage.Kind.SINGLE_ELIMINATION,
                                  Stage.Kind.DOUBLE_ELIMINATION])
def test_other_formats_are_refused_with_a_reason(dramatic, organizer, kind) -> None:
    with pytest.raises(TournamentError, match="lone player against a pair"):
        stage_create(event=dramatic, actor=organizer, name="X", kind=kind, swiss_rounds=3)
    stage = StageFactory(event=dramatic, kind=kind, swiss_rounds=3)
    with pytest.raises(TournamentError, match="lone player against a pair"):
        stage_generate(stage=stage, actor=organizer)


def test_needs_both_lone_players_and_pairs(event, organizer) -> None:
    event.mode = Event.Mode.DRAMATIC_BATTLE
    event.save()
    for _ in range(3):
        entrant_create(event, [PlayerFactory(), PlayerFactory()])
    stage = StageFactory(event=event, kind=Stage.Kind.ROUND_ROBIN)
    with pytest.raises(TournamentError, match="0 lone player"):
        stage_generate(stage=stage, actor=organizer)
