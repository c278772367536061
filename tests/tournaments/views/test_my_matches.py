"""The "my matches" page and the header badge: each open set's next step for the player."""

from __future__ import annotations

from datetime import timedelta

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from matches.models import LogEndorsement, Match, MatchLog
from tests.tournaments.factories import StageFactory, entrant_create, entrants_create
from tournaments import selectors
from tournaments.models import Entrant, Event, Set, Stage
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open

pytestmark = pytest.mark.django_db


@pytest.fixture
def ready_set(event, organizer) -> Set:
    entrants_create(event, 4)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    return Set.objects.get(stage=stage, key="W1-1")


def _user(entrant: Entrant):
    return entrant.members.get().player.user


def _submit(match: Match, user, side: int) -> None:
    """A log submitted and verified legal (the state, not the verification, is under test)."""
    log = MatchLog.objects.create(match=match, text="x", sha256="0" * 64, size_bytes=1,
                                  submitted_by=user)
    LogEndorsement.objects.create(log=log, user=user, side=side,
                                  via=LogEndorsement.Via.SUBMISSION)
    match.status = Match.Status.AWAITING_CONFIRMATION
    match.save(update_fields=["status"])


def test_anonymous_is_sent_to_log_in(client) -> None:
    response = client.get("/my-matches/")
    assert response.status_code == 302
    assert response["Location"].startswith("/accounts/login/")


def test_ready_set_offers_to_start_the_first_game_and_counts_in_the_badge(
    client, ready_set
) -> None:
    from tournaments.services.picks import character_pick_lock

    user = _user(ready_set.entrant_a)
    client.force_login(user)
    page = client.get("/my-matches/").content.decode()
    assert f"vs {ready_set.entrant_b.name}" in page
    assert "Pick your character for game 1" in page
    character_pick_lock(set=ready_set, actor=user, character="Grave")
    character_pick_lock(set=ready_set, actor=_user(ready_set.entrant_b), character="Jaina")
    page = client.get("/my-matches/").content.decode()
    assert "Start game 1" in page
    assert f'action="/events/{ready_set.stage.event.slug}/sets/{ready_set.pk}/match/"' in page
    # the header badge: one ready set
    assert 'aria-label="1 open set"' in page


def test_the_steps_follow_the_match(client, ready_set) -> None:
    a, b = _user(ready_set.entrant_a), _user(ready_set.entrant_b)
    match = set_match_open(set=ready_set, actor=a)
    client.force_login(a)
    page = client.get("/my-matches/").content.decode()
    assert "Play game 1 and submit its log" in page
    assert f'href="/matches/{match.pk}/"' in page
    _submit(match, a, side=1)
    page = client.get("/my-matches/").content.decode()
    assert "Waiting for your opponent to confirm game 1" in page
    client.force_login(b)
    page = client.get("/my-matches/").content.decode()
    assert "confirm or dispute it" in page
    assert "Your turn" in page
    match.status = Match.Status.DISPUTED
    match.save(update_fields=["status"])
    assert "disputed: an organizer decides" in client.get("/my-matches/").content.decode()


def test_someone_else_sees_nothing_and_no_badge(client, ready_set, player) -> None:
    client.force_login(player.user)
    page = client.get("/my-matches/").content.decode()
    assert "Nothing to do right now" in page
    assert "open set" not in page
    assert selectors.user_open_set_count(player.user) == 0


def test_finished_sets_leave_the_page(client, ready_set, organizer) -> None:
    from tests.tournaments.helpers import win
    from tournaments.services.advancement import set_result_report

    set_result_report(set=ready_set, actor=organizer, result=win("a"))
    client.force_login(_user(ready_set.entrant_b))  # the loser: out of the event
    assert "Nothing to do right now" in client.get("/my-matches/").content.decode()


def test_check_in_while_open(client, event) -> None:
    (entrant,) = entrants_create(event, 1)
    event.status = Event.Status.CHECK_IN
    event.save()
    client.force_login(_user(entrant))
    page = client.get("/my-matches/").content.decode()
    assert f"Check {entrant.name} in" in page
    client.post(f"/events/{event.slug}/entrants/{entrant.pk}/check-in/")
    entrant.refresh_from_db()
    assert entrant.is_checked_in
    assert "Check " not in client.get("/my-matches/").content.decode()


def test_league_set_waits_for_its_window(client, event, organizer) -> None:
    entrants_create(event, 2)
    start = timezone.now() + timedelta(days=3)
    stage = StageFactory(event=event, kind=Stage.Kind.LEAGUE, starts_at=start)
    stage_generate(stage=stage, actor=organizer)
    s = Set.objects.get(stage=stage)
    client.force_login(_user(s.entrant_a))
    page = client.get("/my-matches/").content.decode()
    assert "Match window opens" in page
    assert "Start game 1" not in page


def test_team_invitation_is_a_step(client, event, player) -> None:
    from tests.tournaments.factories import PlayerFactory

    event.mode = Event.Mode.TAG_TEAM
    event.save()
    teammate = PlayerFactory()
    entrant = entrant_create(event, [teammate, player], status=Entrant.Status.INVITED)
    entrant.members.filter(player=player).update(is_accepted=False)
    client.force_login(player.user)
    page = client.get("/my-matches/").content.decode()
    assert f"{entrant.name} invites you to its roster" in page


def test_badge_is_one_query(ready_set) -> None:
    user = _user(ready_set.entrant_a)
    with CaptureQueriesContext(connection) as queries:
        assert selectors.user_open_set_count(user) == 1
    assert len(queries) == 1
