"""The demo data (`manage.py seed_demo`): every mode and format, a played double elimination
with verified logs, accounts that log in, pages that list it, its verified games feed the
statistics, and a second run changes nothing.

The demo is seeded ONCE for the suite, here (a seed costs about a minute of CPU: the statistics'
checks and the site's checks of the demo lived in two files, each seeding it, and under
pytest-xdist's ``--dist loadfile`` two files need not share a process, so they are one file).
The `demo` fixture seeds it committed, as under `make run` (the statistics, ratings and odds
follow each result after its commit); each test then runs in its own transaction, rolled back,
so no test sees another's writes. When the module ends the fixture empties the tables, as a
``transaction=True`` test does after itself (sequences NOT reset: a process keeps caches keyed
by ids, rooms/games.py's, and an id given again would find another room's seats), so no other
module sees the demo.
"""

from __future__ import annotations

from collections.abc import Iterator
from types import SimpleNamespace

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db.models import F
from django.urls import reverse
from pytest_django import DjangoDbBlocker

from matches.models import Match, VerificationRun
from stats.models import CharacterStat, GameRecord
from tests.stats.helpers import snapshot
from tournaments.models import Event, Game, PlayerRating, RatingHistory, Set, Stage


def _seed_demo() -> None:
    """seed_demo as on a development or demo site (issue 31: it runs only there): it is told it
    is on one. (DEBUG itself stays off: with it on, committing tests saw a verification run
    missing after the commit; not investigated yet, see the issue 31 report.)"""
    with pytest.MonkeyPatch.context() as patch:
        patch.setattr("tournaments.management.commands.seed_demo.settings",
                      SimpleNamespace(DEBUG=True))
        call_command("seed_demo", verbosity=0)


@pytest.fixture(scope="module")
def demo(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    with django_db_blocker.unblock():
        try:
            _seed_demo()  # commits: the on-commit work runs
            yield
        finally:
            # what a transaction=True test does after itself: every table emptied, the
            # sequences left where they are
            call_command("flush", interactive=False, verbosity=0, reset_sequences=False)


pytestmark = [pytest.mark.django_db, pytest.mark.usefixtures("demo")]


def _row_counts() -> dict[str, int]:
    return {
        model._meta.label: model.objects.count()
        for model in apps.get_models()
        if model._meta.app_label in {"auth", "matches", "tournaments"}
    }


def _state() -> tuple[object, ...]:
    return (
        list(Event.objects.order_by("slug").values_list("slug", "mode", "status")),
        list(Stage.objects.order_by("pk").values_list("pk", "kind", "status")),
        list(Set.objects.order_by("pk").values_list("pk", "status", "winner", "score_a")),
        list(RatingHistory.objects.order_by("pk").values_list("pk", "mu")),
    )


def test_seed_demo_covers_every_mode_and_format_and_is_idempotent() -> None:
    first_counts, first_state = _row_counts(), _state()
    assert first_counts["auth.User"] > 0
    assert first_counts["matches.Player"] > 0
    assert first_counts["tournaments.Game"] > 0
    # every mode an event can be played in (not the solo modes, Training and Survival)
    event_modes = {value for value, _ in Event._meta.get_field("mode").choices}
    assert event_modes == {"versus", "triple_threat", "tag_team", "dramatic_battle"}
    assert set(Event.objects.values_list("mode", flat=True)) == event_modes
    assert set(Stage.objects.values_list("kind", flat=True)) == set(Stage.Kind.values)
    assert Event.objects.filter(status=Event.Status.FINISHED).count() >= 2
    assert Event.objects.filter(status=Event.Status.REGISTRATION).exists()
    assert PlayerRating.objects.count() > 0
    # a second run adds, changes and removes nothing, in any table of the three apps, nor in
    # the statistics
    counted = snapshot()
    _seed_demo()
    assert _row_counts() == first_counts
    assert _state() == first_state
    assert snapshot() == counted


def test_demo_organizer_can_log_in(client) -> None:
    assert client.login(username="organizer", password="yomi-demo")


def test_demo_organizer_and_superuser_can_use_the_admin(client) -> None:
    assert client.login(username="organizer", password="yomi-demo")
    page = client.get("/admin/")
    assert page.status_code == 200 and b"Events" in page.content
    assert client.get("/admin/tournaments/event/").status_code == 200
    assert client.get("/admin/auth/user/").status_code == 403  # event data only
    client.logout()
    assert client.login(username="admin", password="yomi-demo")
    assert client.get("/admin/auth/user/").status_code == 200


def test_demo_double_elimination_is_played_with_verified_logs() -> None:
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


def test_seeded_events_and_players_are_listed(client) -> None:
    events = client.get("/events/").content.decode()
    assert "Fantasy Strike Weekly" in events
    assert "No events yet." not in events
    assert "Sirlin Fan" in client.get("/players/").content.decode()


def test_writes_are_rolled_back_after_each_test_first() -> None:
    assert Event.objects.filter(slug="fantasy-strike-weekly").update(name="Renamed") == 1
    assert Event.objects.filter(name="Renamed").exists()


def test_writes_are_rolled_back_after_each_test_then() -> None:
    # the test just before (file order) renamed the event inside its own savepoint
    assert not Event.objects.filter(name="Renamed").exists()
    assert Event.objects.get(slug="fantasy-strike-weekly").name == "Fantasy Strike Weekly"


def test_demo_dramatic_battle_pairs_a_lone_player_against_a_pair() -> None:
    sets = Set.objects.filter(stage__event__mode=Event.Mode.DRAMATIC_BATTLE).exclude(
        entrant_a=None).exclude(entrant_b=None).prefetch_related(
        "entrant_a__members", "entrant_b__members")
    sizes = {
        tuple(sorted((s.entrant_a.members.count(), s.entrant_b.members.count()))) for s in sets
    }
    assert sizes == {(1, 2)}


@pytest.mark.parametrize(("slug", "mode", "seats"), [
    ("tag-team-tuesday", "tag_team", 4), ("dramatic-battle-night", "dramatic_battle", 3)])
def test_demo_team_events_are_played_with_verified_logs(client, slug, mode, seats) -> None:
    """Tag Team and Dramatic Battle: a finished event whose every game is a confirmed match
    with a legal version-2 log of the entrants' lineups; the match page shows the seats."""
    event = Event.objects.get(slug=slug)
    assert event.mode == mode
    assert event.status == Event.Status.FINISHED
    games = Game.objects.filter(set__stage__event=event).select_related("match__result_log")
    assert games.count() > 0 and not games.filter(match__isnull=True).exists()
    for game in games:
        assert game.match.status == Match.Status.CONFIRMED
        run = game.match.result_log.runs.latest("created_at")
        assert run.status == "legal" and run.verdict["facts"]["mode"] == mode
        assert len(run.verdict["final"]["life"]) == seats
    html = client.get(f"/matches/{games[0].match.pk}/").content.decode()
    assert "Seats at the table" in html and f"<td>P{seats}</td>" in html


def test_demo_games_are_spread_over_weeks_like_a_season() -> None:
    """Issue 35: every demo game had one timestamp, so "rating over time" spanned seconds.
    The events are played over the weeks before today: games, their logs and the ratings
    carry those dates, each event's games from its start, none in the future."""
    from datetime import timedelta

    from django.db.models import Max, Min
    from django.utils import timezone

    from matches.models import MatchLog

    span = Game.objects.aggregate(first=Min("played_at"), last=Max("played_at"))
    assert span["last"] - span["first"] >= timedelta(weeks=5)
    assert span["last"] <= timezone.now()
    days = {g.date() for g in Game.objects.values_list("played_at", flat=True)}
    assert len(days) >= 15  # played on many days, not in one burst
    for event in Event.objects.exclude(starts_at=None).filter(stages__sets__games__isnull=False):
        first = Game.objects.filter(set__stage__event=event).aggregate(m=Min("played_at"))["m"]
        assert first >= event.starts_at, event.slug
    history = RatingHistory.objects.aggregate(first=Min("recorded_at"), last=Max("recorded_at"))
    assert history["last"] - history["first"] >= timedelta(weeks=5)
    logs = MatchLog.objects.aggregate(first=Min("created_at"), last=Max("created_at"))
    assert logs["last"] - logs["first"] >= timedelta(weeks=4)


def test_seed_demo_refuses_to_run_with_debug_off(settings) -> None:
    from django.contrib.auth import get_user_model
    from django.core.management.base import CommandError

    settings.DEBUG = False
    users = get_user_model().objects.count()
    with pytest.raises(CommandError, match="only with DEBUG=1"):
        call_command("seed_demo", verbosity=0)
    assert get_user_model().objects.count() == users


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

