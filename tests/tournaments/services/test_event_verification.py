"""Organizers re-verify all match logs of an event in bulk, in chunks, with progress."""

from __future__ import annotations

import pytest
from rest_framework.test import APIClient

from matches.models import VerificationBatch, VerificationRun
from matches.services import batch_progress, logs_reverify_bulk, match_log_submit
from tests.matches.factories import self_play_log_text, side_user
from tests.tournaments.factories import StageFactory, entrants_create
from tournaments.errors import TournamentError, TournamentErrorCode
from tournaments.models import EventVerification, Set, Stage
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open
from tournaments.services.verification import event_logs_reverify

pytestmark = pytest.mark.django_db


@pytest.fixture
def event_with_logs(event, organizer, django_capture_on_commit_callbacks):
    """An 8-entrant bracket whose four first-round sets each have one submitted log."""
    entrants_create(event, 8)
    stage = StageFactory(event=event, kind=Stage.Kind.SINGLE_ELIMINATION)
    stage_generate(stage=stage, actor=organizer)
    for i, s in enumerate(Set.objects.filter(stage=stage, round=1).order_by("position")):
        match = set_match_open(set=s, actor=organizer)
        with django_capture_on_commit_callbacks(execute=True):
            match_log_submit(
                match=match,
                submitted_by=side_user(match, 1),
                log_bytes=self_play_log_text("grave", "jaina", i + 1).encode(),
            )
    return event


def test_bulk_reverification_runs_every_log_again(
    event_with_logs, organizer, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        batch = event_logs_reverify(event=event_with_logs, actor=organizer)
    assert len(callbacks) == 1  # one group of chunks, sent after commit
    assert batch.total == 4
    assert EventVerification.objects.get(event=event_with_logs).batch == batch
    progress = batch_progress(batch)
    assert (progress.total, progress.finished, progress.percent, progress.is_done) == (
        4,
        4,
        100,
        True,
    )
    assert progress.by_status == {"legal": 4}
    assert VerificationRun.objects.filter(batch=batch, attempts=1).count() == 4


def test_logs_are_split_into_chunks(
    event_with_logs, organizer, django_capture_on_commit_callbacks, monkeypatch
) -> None:
    sent: list[list[int]] = []
    from matches.tasks import match_runs_verify_chunk_task

    real = match_runs_verify_chunk_task.run

    def spy(run_ids: list[int]) -> int:
        sent.append(list(run_ids))
        return real(run_ids)

    monkeypatch.setattr(match_runs_verify_chunk_task, "run", spy)
    from matches.models import MatchLog

    with django_capture_on_commit_callbacks(execute=True):
        batch = logs_reverify_bulk(logs=MatchLog.objects.all(), label="test", chunk_size=3)
    assert sorted(len(chunk) for chunk in sent) == [1, 3]
    assert sorted(run for chunk in sent for run in chunk) == sorted(
        batch.runs.values_list("pk", flat=True)
    )
    assert batch_progress(batch).is_done


def test_progress_counts_unfinished_runs(
    event_with_logs, organizer, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        batch = event_logs_reverify(event=event_with_logs, actor=organizer)
    progress = batch_progress(batch)
    assert (progress.finished, progress.percent, progress.is_done) == (0, 0, False)
    assert progress.by_status == {"pending": 4}


def test_only_organizers_start_a_reverification(event_with_logs, player) -> None:
    with pytest.raises(TournamentError) as caught:
        event_logs_reverify(event=event_with_logs, actor=player.user)
    assert caught.value.code == TournamentErrorCode.NOT_ORGANIZER
    assert VerificationBatch.objects.count() == 0


def test_page_asks_for_confirmation_then_shows_progress(
    client, event_with_logs, organizer, django_capture_on_commit_callbacks
) -> None:
    client.force_login(organizer)
    url = f"/events/{event_with_logs.slug}/verification/"
    page = client.get(url).content.decode()
    assert "4 match logs were submitted" in page
    refused = client.post(url, {}, follow=True).content.decode()
    assert "Tick the box to confirm" in refused
    assert VerificationBatch.objects.count() == 0
    with django_capture_on_commit_callbacks(execute=True):
        client.post(url, {"confirm": "yes"})
    page = client.get(url).content.decode()
    assert "<strong>4 of 4</strong> verified (100%)" in page
    assert 'http-equiv="refresh"' not in page


def test_page_refreshes_while_running(
    client, event_with_logs, organizer, django_capture_on_commit_callbacks
) -> None:
    with django_capture_on_commit_callbacks(execute=False):
        event_logs_reverify(event=event_with_logs, actor=organizer)
    client.force_login(organizer)
    page = client.get(f"/events/{event_with_logs.slug}/verification/").content.decode()
    assert 'http-equiv="refresh"' in page
    assert "<strong>0 of 4</strong>" in page


def test_page_is_for_organizers_only(client, event_with_logs, player) -> None:
    client.force_login(player.user)
    assert client.get(f"/events/{event_with_logs.slug}/verification/").status_code == 403


@pytest.mark.parametrize(
    ("who", "expected"),
    [("anonymous", 403), ("player", 403), ("other_organizer", 403), ("organizer", 202)],
)
def test_api_start_permissions(
    event_with_logs,
    organizer,
    player,
    other_organizer,
    who,
    expected,
    django_capture_on_commit_callbacks,
) -> None:
    client = APIClient()
    user = {
        "anonymous": None,
        "player": player.user,
        "other_organizer": other_organizer,
        "organizer": organizer,
    }[who]
    if user is not None:
        client.force_authenticate(user)
    with django_capture_on_commit_callbacks(execute=True):
        response = client.post(f"/api/events/{event_with_logs.slug}/verification/")
    assert response.status_code == expected
    assert VerificationBatch.objects.count() == (1 if expected == 202 else 0)
    if expected == 202:
        body = client.get(f"/api/events/{event_with_logs.slug}/verification/").json()
        assert (body["total"], body["finished"], body["is_done"], body["log_count"]) == (
            4,
            4,
            True,
            4,
        )
