"""The shared event fixtures (tests/support/event_fixtures.py)."""

from __future__ import annotations

from tests.support.event_fixtures import event, organizer, other_organizer, player

__all__ = ["event", "organizer", "other_organizer", "player"]
