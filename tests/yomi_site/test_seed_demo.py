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
