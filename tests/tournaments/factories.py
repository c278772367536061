"""factory-boy factories and small builders for tournament tests."""

from __future__ import annotations

from typing import Any

import factory
from factory.django import DjangoModelFactory

from matches.models import Player
from tests.matches.factories import PlayerFactory, UserFactory
from tournaments.models import Entrant, EntrantMember, Event, Stage


class EventFactory(DjangoModelFactory):
    class Meta:
        model = Event
        skip_postgeneration_save = True

    name = factory.Sequence(lambda n: f"Event {n}")
    slug = factory.Sequence(lambda n: f"event-{n}")
    mode = Event.Mode.VERSUS
    status = Event.Status.REGISTRATION
    best_of = 3

    @factory.post_generation
    def organizers(self, create: bool, extracted: Any, **kwargs: Any) -> None:
        if not create:
            return
        for user in extracted or [UserFactory()]:
            self.organizers.add(user)


class StageFactory(DjangoModelFactory):
    class Meta:
        model = Stage

    event = factory.SubFactory(EventFactory)
    name = "Main bracket"
    kind = Stage.Kind.SINGLE_ELIMINATION
    order = factory.Sequence(lambda n: n + 1)


def entrant_create(event: Event, players: list[Player] | None = None, **fields: Any) -> Entrant:
    players = players or [PlayerFactory()]
    entrant = Entrant.objects.create(
        event=event, name=fields.pop("name", " / ".join(p.display_name for p in players)), **fields
    )
    for i, p in enumerate(players):
        EntrantMember.objects.create(entrant=entrant, event=event, player=p, order=i)
    return entrant


def entrants_create(event: Event, n: int, *, team_size: int = 1) -> list[Entrant]:
    """``n`` registered entrants seeded 1..n."""
    return [
        entrant_create(event, [PlayerFactory() for _ in range(team_size)], seed=i)
        for i in range(1, n + 1)
    ]


def organizer_of(event: Event) -> Any:
    return event.organizers.first()
