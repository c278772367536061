"""Demo data for `make run`: idempotent, so running it again changes nothing.

It grows as features land; each feature adds its own `seed_*` step below.
"""

from __future__ import annotations

from typing import Any

from django.contrib.auth import get_user_model
from django.core.management.base import BaseCommand
from django.db import transaction

from matches.models import Player
from tournaments.models import Event

DEMO_PASSWORD = "yomi-demo"  # documented in README; demo accounts only exist in `make run` data
DEMO_PLAYERS = [
    ("sirlin_fan", "Sirlin Fan", "NA East"),
    ("mindgames", "Mind Games", "NA West"),
    ("gold_burst", "Gold Burst", "Europe"),
    ("rewind_time", "Rewind Time", "Europe"),
    ("knockdown", "Knockdown", "Asia"),
    ("chain_combo", "Chain Combo", "Oceania"),
    ("dragonheart", "Dragonheart", "NA East"),
    ("unstable_power", "Unstable Power", "South America"),
]
DEMO_EVENTS = [
    ("Fantasy Strike Weekly", "fantasy-strike-weekly", Event.Mode.VERSUS),
    ("Triple Threat Invitational", "triple-threat-invitational", Event.Mode.TRIPLE_THREAT),
    ("Tag Team Tuesday", "tag-team-tuesday", Event.Mode.TAG_TEAM),
    ("Dramatic Battle Night", "dramatic-battle-night", Event.Mode.DRAMATIC_BATTLE),
]


class Command(BaseCommand):
    help = "Create demo users, players and events (safe to run repeatedly)."

    @transaction.atomic
    def handle(self, *args: Any, **options: Any) -> None:
        User = get_user_model()
        organizer, created = User.objects.get_or_create(
            username="organizer", defaults={"email": "organizer@example.com"}
        )
        if created:
            organizer.set_password(DEMO_PASSWORD)
            organizer.save()
        for username, display_name, region in DEMO_PLAYERS:
            user, created = User.objects.get_or_create(username=username)
            if created:
                user.set_password(DEMO_PASSWORD)
                user.save()
            Player.objects.get_or_create(
                user=user, defaults={"display_name": display_name, "region": region}
            )
        for name, slug, mode in DEMO_EVENTS:
            event, _ = Event.objects.get_or_create(slug=slug, defaults={"name": name, "mode": mode})
            event.organizers.add(organizer)
        self.stdout.write(
            self.style.SUCCESS(
                f"Demo data ready: {Player.objects.count()} players, "
                f"{Event.objects.count()} events. Log in as 'organizer' / '{DEMO_PASSWORD}'."
            )
        )
