from __future__ import annotations

import pytest

from tests.tournaments.factories import PlayerFactory, StageFactory, entrant_create
from tests.tournaments.helpers import report
from tournaments.models import Event, PlayerRating, RatingHistory, Stage
from tournaments.services.generation import stage_generate
from tournaments.services.ratings import ratings_recompute

pytestmark = pytest.mark.django_db


def test_ratings_follow_games_in_time_order(event, organizer):
    a, b = PlayerFactory(), PlayerFactory()
    entrant_create(event, [a], seed=1)
    entrant_create(event, [b], seed=2)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    report(stage, "W1-1", "a", organizer)
    assert ratings_recompute() == 2
    ra, rb = PlayerRating.objects.get(player=a), PlayerRating.objects.get(player=b)
    assert ra.mu > 25 > rb.mu
    assert ra.games == rb.games == 2
    history = list(RatingHistory.objects.filter(player=a).values_list("mu", flat=True))
    assert len(history) == 2 and history[0] < history[1]


def test_a_two_versus_one_game_rates_teams_natively(event, organizer):
    event.mode = Event.Mode.DRAMATIC_BATTLE
    event.best_of = 1
    event.save()
    duo, boss = [PlayerFactory(), PlayerFactory()], PlayerFactory()
    entrant_create(event, duo, seed=1)
    entrant_create(event, [boss], seed=2)
    # Dramatic Battle stages are round robins of lone players against pairs: (lone, pair)
    stage = StageFactory(event=event, kind=Stage.Kind.ROUND_ROBIN)
    stage_generate(stage=stage, actor=organizer)
    report(stage, "G1R1P1", "a", organizer)
    ratings_recompute()
    mus = {p.pk: PlayerRating.objects.get(player=p).mu for p in [*duo, boss]}
    assert mus[boss.pk] > 25
    assert mus[duo[0].pk] == mus[duo[1].pk] < 25


def test_recompute_is_idempotent(event, organizer):
    test_ratings_follow_games_in_time_order(event, organizer)
    before = list(PlayerRating.objects.order_by("player").values_list("mu", "sigma"))
    ratings_recompute()
    assert list(PlayerRating.objects.order_by("player").values_list("mu", "sigma")) == before
    assert RatingHistory.objects.count() == 4


def test_results_schedule_one_rating_rebuild_after_commit(
    event, organizer, django_capture_on_commit_callbacks
):
    a, b = PlayerFactory(), PlayerFactory()
    entrant_create(event, [a], seed=1)
    entrant_create(event, [b], seed=2)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        report(stage, "W1-1", "a", organizer)
    assert len(callbacks) == 1
    assert PlayerRating.objects.get(player=a).games == 2
