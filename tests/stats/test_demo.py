"""The demo's verified games feed the statistics, as they do after `make run`.

The demo is seeded once for the module, committed as under `make run` (the statistics, ratings
and odds follow each result after its commit), by the `demo` fixture; each test then runs in
its own transaction, rolled back. When the module ends the fixture empties the tables, as a
``transaction=True`` test does after itself, so no other module sees the demo.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from django.core.management import call_command
from django.db.models import F
from django.urls import reverse
from pytest_django import DjangoDbBlocker

from matches.models import Match, VerificationRun
from stats.models import CharacterStat, GameRecord
from tests.stats.helpers import snapshot
from tournaments.models import Event


@pytest.fixture(scope="module")
def demo(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    # seed_demo runs only on a development or demo site (issue 31): it is told it is on one.
    # (DEBUG itself stays off: with it on, committing tests saw a verification run missing
    # after the commit; not investigated yet, see the issue 31 report.)
    with django_db_blocker.unblock(), pytest.MonkeyPatch.context() as patch:
        patch.setattr("tournaments.management.commands.seed_demo.settings",
                      SimpleNamespace(DEBUG=True))
        try:
            call_command("seed_demo", verbosity=0)  # commits: the on-commit work runs
            yield
        finally:
            # what a transaction=True test does after itself: every table emptied, the
            # sequences left where they are (flush resets them by default: later tests got
            # room ids used before in the process, and rooms/games.py's caches keyed by room
            # id gave them another room's seats)
            call_command("flush", interactive=False, verbosity=0, reset_sequences=False)


@pytest.fixture(autouse=True)
def _demo_site(monkeypatch) -> None:
    monkeypatch.setattr("tournaments.management.commands.seed_demo.settings",
                        SimpleNamespace(DEBUG=True))


pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo")]


def test_seed_demo_fills_the_statistics(client) -> None:
    from_logs = Match.objects.filter(status=Match.Status.CONFIRMED,
                                     result_source=Match.ResultSource.LOG)
    assert from_logs.count() > 10
    assert GameRecord.objects.count() == from_logs.count()
    weekly = Event.objects.get(slug="fantasy-strike-weekly")
    triple = Event.objects.get(slug="triple-threat-invitational")  # verified version-2 logs
    assert GameRecord.objects.filter(event=triple).exists()
    # Tag Team and Dramatic Battle: verified version-2 logs of four and three seats
    teams = list(Event.objects.filter(slug__in=["tag-team-tuesday", "dramatic-battle-night"]))
    assert all(GameRecord.objects.filter(event=e).exists() for e in teams)
    assert GameRecord.objects.filter(event__in=[weekly, triple, *teams]).count() \
        == from_logs.count()
    assert CharacterStat.objects.filter(event_key=weekly.pk).exists()
    counted = snapshot()
    call_command("seed_demo", verbosity=0)  # a second run changes nothing (and is quick)
    assert snapshot() == counted
    chart = client.get(reverse("stats:matchups")).context["chart"]
    # one-on-one: each Versus game and each Triple Threat bout, once for each character
    versus_games = GameRecord.objects.filter(mode=Match.Mode.VERSUS).count()
    bouts = sum(len(run.verdict["facts"]["bouts"]) for run in VerificationRun.objects.filter(
        log__match__mode=Match.Mode.TRIPLE_THREAT, status=VerificationRun.Status.LEGAL,
        log__match__result_log=F("log")))
    assert bouts > GameRecord.objects.filter(mode=Match.Mode.TRIPLE_THREAT).count()
    assert sum(r.games for r in chart.cells.values()) == 2 * (versus_games + bouts)


def test_demo_player_page_has_results_placements_and_rating(client) -> None:
    from django.db.models import Q

    from matches.models import Player
    from stats.models import GameSide
    from tournaments.models import Entrant, Set

    weekly = Event.objects.get(slug="fantasy-strike-weekly")
    entrant = Entrant.objects.filter(event=weekly).order_by("seed").first()
    player = Player.objects.get(entries__entrant=entrant)
    stats = client.get(reverse("stats:player", args=[player.pk])).context["stats"]
    assert stats.overall.games == GameSide.objects.filter(player=player,
                                                          for_players=True).count() > 0
    placement = next(p for p in stats.placements if p["event_slug"] == weekly.slug)
    assert 1 <= placement["rank"] <= placement["entrants"] == weekly.entrants.count()
    entrants = Entrant.objects.filter(members__player=player)
    finished = Set.objects.filter(status=Set.Status.FINISHED).filter(
        Q(entrant_a__in=entrants) | Q(entrant_b__in=entrants))
    assert len(stats.results) == min(10, finished.count()) > 0
    assert stats.rating is not None and len(stats.rating_history) == stats.rating.games

