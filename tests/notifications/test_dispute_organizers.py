"""An event's organizers are told when a dispute opens on one of its matches (issue 31, item 8):
an event's match has no managers of its own, so nobody who decides disputes was told."""

from __future__ import annotations

import pytest

from matches.services import match_log_dispute
from notifications.models import Notification
from tests.matches.factories import self_play_log_text, side_user, submit_verified
from tests.tournaments.factories import EventFactory, StageFactory, UserFactory, entrants_create
from tournaments.models import Set
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open

pytestmark = pytest.mark.django_db


def test_the_events_organizers_are_told_of_a_dispute(django_capture_on_commit_callbacks) -> None:
    organizer = UserFactory(username="dispute-org")
    event = EventFactory(organizers=[organizer], best_of=1)
    entrants_create(event, 4)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    match = set_match_open(set=Set.objects.get(stage=stage, key="W1-1"), actor=organizer)
    submit_verified(match, 1, self_play_log_text(), django_capture_on_commit_callbacks)
    with django_capture_on_commit_callbacks(execute=True):
        dispute = match_log_dispute(match=match, user=side_user(match, 2),
                                    reason="not our game", log_id=match.logs.get().pk)
    told = Notification.objects.filter(kind=Notification.Kind.DISPUTE_OPENED,
                                       subject=f"dispute:{dispute.pk}")
    assert set(told.values_list("user", flat=True)) == {organizer.pk, side_user(match, 1).pk}
