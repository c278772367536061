from __future__ import annotations

import pytest

from tests.tournaments.factories import StageFactory, entrants_create
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import Event, Stage
from tournaments.services.events import (
    event_create,
    event_status_change,
    event_update,
    stage_create,
    stage_update,
)
from tournaments.services.generation import stage_generate

pytestmark = pytest.mark.django_db


def test_the_creator_becomes_organizer(player):
    event = event_create(actor=player.user, name="Yomi Weekly #1", best_of=5)
    assert event.slug == "yomi-weekly-1"
    assert event.status == Event.Status.DRAFT
    assert list(event.organizers.all()) == [player.user]
    second = event_create(actor=player.user, name="Yomi Weekly #1")
    assert second.slug == "yomi-weekly-1-2"


def test_even_set_lengths_are_refused(player):
    with pytest.raises(TournamentError) as error:
        event_create(actor=player.user, name="Bad", best_of=4)
    assert error.value.code == TournamentErrorCode.INVALID
    assert "best_of" in error.value.extra["fields"]
    assert Event.objects.count() == 0


def test_status_follows_the_transition_table(event, organizer):
    event_status_change(event=event, actor=organizer, status=Event.Status.CHECK_IN)
    with pytest.raises(TournamentError) as error:
        event_status_change(event=event, actor=organizer, status=Event.Status.FINISHED)
    assert error.value.code == TournamentErrorCode.INVALID_TRANSITION
    assert error.value.message == "an event cannot go from check_in to finished"
    assert Event.objects.get(pk=event.pk).status == Event.Status.CHECK_IN


def test_stages_chain_in_order(event, organizer):
    groups = stage_create(event=event, actor=organizer, name="Groups",
                          kind=Stage.Kind.ROUND_ROBIN, group_count=2, advance_count=2)
    playoff = stage_create(event=event, actor=organizer, name="Top 4",
                           kind=Stage.Kind.DOUBLE_ELIMINATION)
    assert (groups.order, playoff.order) == (1, 2)


def test_a_swiss_stage_needs_its_rounds(event, organizer):
    with pytest.raises(TournamentError) as error:
        stage_create(event=event, actor=organizer, name="Swiss", kind=Stage.Kind.SWISS)
    assert "swiss_rounds" in error.value.extra["fields"]
    assert Stage.objects.count() == 0


def test_settings_are_frozen_once_started(event, organizer):
    entrants_create(event, 2)
    stage_generate(stage=StageFactory(event=event), actor=organizer)
    with pytest.raises(TournamentError) as error:
        event_update(event=event, actor=organizer, best_of=5)
    assert error.value.code == TournamentErrorCode.STAGE_STARTED
    assert Event.objects.get(pk=event.pk).best_of == 3


def test_only_organizers_change_an_event(event, player, other_organizer):
    for actor in (player.user, other_organizer):
        with pytest.raises(TournamentError) as error:
            event_update(event=event, actor=actor, name="Hijacked")
        assert error.value.code == TournamentErrorCode.NOT_ORGANIZER
    assert Event.objects.get(pk=event.pk).name != "Hijacked"


def test_a_generated_stage_can_no_longer_be_configured(event, organizer):
    entrants_create(event, 2)
    stage = StageFactory(event=event)
    stage_update(stage=stage, actor=organizer, third_place=True)
    stage_generate(stage=stage, actor=organizer)
    with pytest.raises(TournamentError) as error:
        stage_update(stage=stage, actor=organizer, kind=Stage.Kind.SWISS, swiss_rounds=3)
    assert error.value.code == TournamentErrorCode.STAGE_STARTED
    assert Stage.objects.get(pk=stage.pk).kind == Stage.Kind.SINGLE_ELIMINATION
