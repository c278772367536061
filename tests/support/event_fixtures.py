"""The people and the event that the accounts, notifications and tournaments tests share.

Each of those packages' ``conftest.py`` imports these fixtures by name (pytest finds a fixture
through the conftest module's namespace), so there is one definition of who organises the
event, who plays in it and who organises another event.
"""

from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.factories import EventFactory, PlayerFactory, UserFactory


@pytest.fixture
def organizer() -> Any:
    """A user who organises :func:`event`."""
    return UserFactory(username="org")


@pytest.fixture
def event(organizer: Any) -> Any:
    """An event organised by :func:`organizer`."""
    return EventFactory(organizers=[organizer])


@pytest.fixture
def player() -> Any:
    """A player with no role in organising any event."""
    return PlayerFactory()


@pytest.fixture
def other_organizer() -> Any:
    """A user who organises a different event (not :func:`event`)."""
    other = UserFactory(username="other-org")
    EventFactory(organizers=[other])
    return other
