from __future__ import annotations

from typing import Any

import pytest

from tests.tournaments.factories import EventFactory, PlayerFactory, UserFactory


@pytest.fixture
def organizer() -> Any:
    return UserFactory(username="org")


@pytest.fixture
def event(organizer: Any) -> Any:
    return EventFactory(organizers=[organizer])


@pytest.fixture
def player() -> Any:
    return PlayerFactory()


@pytest.fixture
def other_organizer() -> Any:
    other = UserFactory(username="other-org")
    EventFactory(organizers=[other])
    return other
