from __future__ import annotations

import pytest
from django.core.management import call_command

from tournaments.models import Event, Game, PlayerRating, RatingHistory, Set, Stage

pytestmark = pytest.mark.django_db


def _state():
    return (
        list(Event.objects.order_by("slug").values_list("slug", "mode", "status")),
        list(Stage.objects.order_by("pk").values_list("pk", "kind", "status")),
        list(Set.objects.order_by("pk").values_list("pk", "status", "winner", "score_a")),
        Game.objects.count(),
        list(RatingHistory.objects.order_by("pk").values_list("pk", "mu")),
    )


def test_seed_demo_covers_every_mode_and_format_and_is_idempotent():
    call_command("seed_demo")
    first = _state()
    call_command("seed_demo")
    assert _state() == first
    assert set(Event.objects.values_list("mode", flat=True)) == set(Event.Mode.values)
    assert set(Stage.objects.values_list("kind", flat=True)) == set(Stage.Kind.values)
    assert Event.objects.filter(status=Event.Status.FINISHED).count() >= 2
    assert Event.objects.filter(status=Event.Status.REGISTRATION).exists()
    assert PlayerRating.objects.count() > 0
