"""The demo's verified games feed the statistics, as they do after `make run`."""

from __future__ import annotations

import pytest
from django.core.management import call_command
from django.urls import reverse

from matches.models import Match
from stats.models import CharacterStat, GameRecord
from tests.stats.helpers import snapshot
from tournaments.models import Event

pytestmark = pytest.mark.django_db(transaction=True)  # commits, as under `make run`


def test_seed_demo_fills_the_statistics(client) -> None:
    call_command("seed_demo", verbosity=0)
    from_logs = Match.objects.filter(status=Match.Status.CONFIRMED,
                                     result_source=Match.ResultSource.LOG)
    assert from_logs.count() > 10
    assert GameRecord.objects.count() == from_logs.count()
    weekly = Event.objects.get(slug="fantasy-strike-weekly")
    assert GameRecord.objects.filter(event=weekly).count() == from_logs.count()
    assert CharacterStat.objects.filter(event_key=weekly.pk).exists()
    counted = snapshot()
    call_command("seed_demo", verbosity=0)
    assert snapshot() == counted
    chart = client.get(reverse("stats:matchups")).context["chart"]
    assert sum(r.games for r in chart.cells.values()) == 2 * GameRecord.objects.count()
