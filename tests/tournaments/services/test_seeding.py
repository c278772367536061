from __future__ import annotations

import pytest

from tests.tournaments.factories import StageFactory, entrant_create, entrants_create
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Entrant, PlayerRating
from tournaments.services.generation import stage_generate
from tournaments.services.seeding import event_seeding_set, seeding_preview

pytestmark = pytest.mark.django_db


def test_manual_seeding_is_previewed_then_fixed(event, organizer):
    entrants = [entrant_create(event) for _ in range(3)]
    order = [entrants[2].pk, entrants[0].pk, entrants[1].pk]
    preview = seeding_preview(event=event, method="manual", order=order)
    assert [e.pk for e in preview] == order
    assert set(Entrant.objects.values_list("seed", flat=True)) == {None}
    event_seeding_set(event=event, actor=organizer, method="manual", order=order)
    assert list(Entrant.objects.order_by("seed").values_list("pk", flat=True)) == order


def test_manual_seeding_must_list_everyone_once(event, organizer):
    entrants = [entrant_create(event) for _ in range(3)]
    with pytest.raises(TournamentError) as error:
        event_seeding_set(event=event, actor=organizer, method="manual",
                          order=[entrants[0].pk, entrants[0].pk, entrants[1].pk])
    assert error.value.code == TournamentErrorCode.SEEDING_INVALID
    assert error.value.extra["missing"] == [entrants[2].pk]
    assert set(Entrant.objects.values_list("seed", flat=True)) == {None}


def test_random_seeding_is_reproducible_with_its_seed(event, organizer):
    [entrant_create(event) for _ in range(8)]
    preview = seeding_preview(event=event, method="random", random_seed=42)
    fixed = event_seeding_set(event=event, actor=organizer, method="random", random_seed=42)
    assert [e.pk for e in fixed] == [e.pk for e in preview]


def test_rating_seeding_puts_the_highest_rating_first(event, organizer):
    entrants = [entrant_create(event) for _ in range(3)]
    for entrant, ordinal in zip(entrants, (1.0, 9.0, 5.0), strict=True):
        player = entrant.members.get().player
        PlayerRating.objects.create(player=player, mu=25, sigma=8, ordinal=ordinal)
    fixed = event_seeding_set(event=event, actor=organizer, method="rating")
    assert [e.pk for e in fixed] == [entrants[1].pk, entrants[2].pk, entrants[0].pk]


def test_seeding_is_refused_after_the_bracket_exists(event, organizer):
    entrants_create(event, 4)
    stage_generate(stage=StageFactory(event=event), actor=organizer)
    with pytest.raises(TournamentError) as error:
        event_seeding_set(event=event, actor=organizer, method="random", random_seed=1)
    assert error.value.code == TournamentErrorCode.STAGE_STARTED
    assert list(Entrant.objects.order_by("seed").values_list("seed", flat=True)) == [1, 2, 3, 4]
