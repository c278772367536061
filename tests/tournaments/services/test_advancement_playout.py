"""Play whole brackets of many sizes with random results, corrections included."""

from __future__ import annotations

import random

import pytest

from tests.tournaments.factories import EventFactory, StageFactory, UserFactory, entrants_create
from tests.tournaments.helpers import win
from tournaments.models import Set, Stage
from tournaments.selectors import stage_standings
from tournaments.services.advancement import set_result_correct, set_result_report
from tournaments.services.generation import stage_generate

pytestmark = pytest.mark.django_db


def _play_randomly(stage, organizer, rng):
    while True:
        ready = list(Set.objects.filter(stage=stage, status=Set.Status.READY).order_by("id"))
        if not ready:
            return
        s = rng.choice(ready)
        set_result_report(set=s, actor=organizer, result=win(rng.choice("ab"), s.best_of))


@pytest.mark.parametrize("kind", [Stage.Kind.SINGLE_ELIMINATION, Stage.Kind.DOUBLE_ELIMINATION])
@pytest.mark.parametrize("n", [2, 3, 5, 6, 7, 9, 12, 13, 17])
def test_random_play_with_a_correction_ends_with_one_champion(kind, n):
    # given
    rng = random.Random(n * 31 + len(kind))
    organizer = UserFactory(username=f"org-{kind}-{n}")
    event = EventFactory(organizers=[organizer])
    entrants_create(event, n)
    stage = StageFactory(event=event, kind=kind, third_place=n >= 4)
    stage_generate(stage=stage, actor=organizer)
    # when: half the bracket is played, one played set is corrected, then the rest is played
    _play_randomly(stage, organizer, rng)
    played = list(Set.objects.filter(stage=stage, status=Set.Status.FINISHED,
                                     outcome=Set.Outcome.PLAYED))
    target = rng.choice(played)
    flipped = "b" if target.winner_id == target.entrant_a_id else "a"
    set_result_correct(set=target, actor=organizer, result=win(flipped, target.best_of),
                       reason="test", confirm=True)
    _play_randomly(stage, organizer, rng)
    # then
    stage.refresh_from_db()
    assert stage.status == Stage.Status.FINISHED
    assert not Set.objects.filter(stage=stage, status__in=["waiting", "ready"]).exists()
    lines = stage_standings(stage).lines
    assert len(lines) == n
    assert [line.rank for line in lines].count(1) == 1
    champion = lines[0].entrant
    losses = {"single_elimination": 0, "double_elimination": 1}[kind]
    assert lines[0].losses <= losses
    assert champion.pk in set(
        Set.objects.filter(stage=stage).values_list("winner", flat=True)
    )
