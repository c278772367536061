"""seed_demo is idempotent: a second run changes nothing."""

from __future__ import annotations

import pytest
from django.apps import apps
from django.core.management import call_command

pytestmark = pytest.mark.django_db


def row_counts() -> dict[str, int]:
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.app_label in {"auth", "matches", "tournaments"}
    }


def test_seed_demo_creates_data_and_is_idempotent() -> None:
    call_command("seed_demo", verbosity=0)
    first = row_counts()
    assert first["auth.User"] > 0
    assert first["matches.Player"] > 0
    assert first["tournaments.Event"] > 0
    call_command("seed_demo", verbosity=0)
    assert row_counts() == first


def test_demo_organizer_can_log_in(client) -> None:
    call_command("seed_demo", verbosity=0)
    assert client.login(username="organizer", password="yomi-demo")


def test_demo_double_elimination_is_played_with_verified_logs() -> None:
    from matches.models import Match, VerificationRun
    from tournaments.models import Event, Game

    call_command("seed_demo", verbosity=0)
    event = Event.objects.get(slug="fantasy-strike-weekly")
    assert event.status == Event.Status.FINISHED
    assert event.entrants.count() == 16
    games = Game.objects.filter(set__stage__event=event)
    assert games.count() > 0
    # every game came from a confirmed match whose log replayed as legal
    assert not games.filter(match__isnull=True).exists()
    for game in games.select_related("match__result_log"):
        assert game.match.status == Match.Status.CONFIRMED
        assert game.match.result_log.runs.latest("created_at").status == "legal"
    # and the demo keeps one illegal log with the rule it broke
    illegal = VerificationRun.objects.get(status=VerificationRun.Status.ILLEGAL)
    assert illegal.verdict["first_error"]["rule_id"] == "END-2"
    assert illegal.log.match.set_link.set.stage.event == event
