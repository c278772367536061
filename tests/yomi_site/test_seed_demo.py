"""The demo data (`manage.py seed_demo`): every mode and format, a played double elimination
with verified logs, accounts that log in, pages that list it, and a second run changes nothing.

The demo is built once for this module (it takes seconds): the `demo` fixture seeds inside a
transaction that it rolls back when the module ends, and each test runs in its own savepoint
inside it (`django_db`), so no test sees another's writes and no later module sees the demo.
"""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from django.apps import apps
from django.core.management import call_command
from django.db import transaction
from django.test import override_settings
from pytest_django import DjangoDbBlocker

from matches.models import Match, VerificationRun
from tournaments.models import Event, Game, PlayerRating, RatingHistory, Set, Stage


@pytest.fixture(scope="module")
def demo(django_db_setup: None, django_db_blocker: DjangoDbBlocker) -> Iterator[None]:
    with django_db_blocker.unblock(), transaction.atomic(), override_settings(DEBUG=True):
        call_command("seed_demo", verbosity=0)
        yield
        transaction.set_rollback(True)


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
    # a second run adds, changes and removes nothing, in any table of the three apps
    call_command("seed_demo", verbosity=0)
    assert _row_counts() == first_counts
    assert _state() == first_state


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
