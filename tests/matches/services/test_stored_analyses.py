"""Issue 17, part 3: verdicts, timelines and boards are computed once per log, in the worker, and
stored; the match page reads them and never replays a log. Part 2: a chunk of a bulk
re-verification is read and written in bulk (a constant number of queries per chunk)."""

from __future__ import annotations

import pytest
from django.db import connection
from django.test.utils import CaptureQueriesContext

from matches import engine
from matches.models import Match, MatchLog, TimelineChunk, VerificationRun
from matches.services import logs_judged_by_older_engine, logs_reverify_stale, match_log_submit
from matches.services.verification import match_runs_verify
from tests.matches.factories import (
    log_bytes,
    self_play_log_text,
    side_user,
    submit_verified,
    versus_match,
    with_extra_event,
)

pytestmark = pytest.mark.django_db
RS = VerificationRun.Status


def _stored_turns(run: VerificationRun) -> list[dict[str, object]]:
    chunks = TimelineChunk.objects.filter(run=run).order_by("number")
    return [turn for chunk in chunks for turn in chunk.turns]


def test_verification_stores_the_timeline_in_chunks(django_capture_on_commit_callbacks) -> None:
    text = self_play_log_text()
    run = submit_verified(versus_match(), 1, text, django_capture_on_commit_callbacks)
    expected = engine.log_timeline(text)
    assert run.status == RS.LEGAL and run.turn_count == len(expected) > 0
    assert _stored_turns(run) == expected
    assert all(len(c.turns) <= TimelineChunk.TURNS_PER_CHUNK for c in run.timeline_chunks.all())
    assert run.board_before is None


def test_an_illegal_log_stores_the_board_before_its_error(
    django_capture_on_commit_callbacks,
) -> None:
    text = with_extra_event(self_play_log_text())
    run = submit_verified(versus_match(), 1, text, django_capture_on_commit_callbacks)
    assert run.status == RS.ILLEGAL
    index = run.verdict["first_error"]["index"]
    assert run.board_before == engine.log_board_before(text, index)
    assert run.board_before is not None


def _no_engine(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*args: object, **kwargs: object) -> None:
        raise AssertionError("a page replayed a log")

    for name in ("log_verdict", "log_judge", "log_timeline", "log_board_before", "log_analysis"):
        monkeypatch.setattr(engine, name, refuse)


def test_the_match_page_reads_stored_analyses_only(
    client, django_capture_on_commit_callbacks, monkeypatch, django_assert_max_num_queries,
) -> None:
    legal = self_play_log_text()
    match = versus_match()
    submit_verified(match, 1, legal, django_capture_on_commit_callbacks)
    illegal_match = versus_match()
    submit_verified(illegal_match, 1, with_extra_event(legal), django_capture_on_commit_callbacks)
    _no_engine(monkeypatch)
    with django_assert_max_num_queries(12):
        html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Turn by turn" in html and "Every step is legal" in html
    html = client.get(f"/matches/{illegal_match.pk}/").content.decode()
    assert "The board before event" in html


def test_a_run_verified_before_analyses_were_stored_says_pending_and_is_backfilled(
    client, django_capture_on_commit_callbacks, monkeypatch,
) -> None:
    match = versus_match()
    run = submit_verified(match, 1, self_play_log_text(), django_capture_on_commit_callbacks)
    # as a run stored before this change: a verdict, no analyses
    TimelineChunk.objects.filter(run=run).delete()
    VerificationRun.objects.filter(pk=run.pk).update(turn_count=None)
    assert list(logs_judged_by_older_engine()) == [run.log]
    with monkeypatch.context() as patched:
        _no_engine(patched)
        html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "analysis pending" in html and "Turn by turn" not in html
    with django_capture_on_commit_callbacks(execute=True):
        batch = logs_reverify_stale()
    assert batch is not None and batch.total == 1
    newest = VerificationRun.objects.filter(log=run.log).order_by("-id").first()
    assert newest is not None and newest.turn_count and newest.status == RS.LEGAL
    assert not logs_judged_by_older_engine().exists()
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "Turn by turn" in html and "analysis pending" not in html


def test_the_timeline_is_paged(client, django_capture_on_commit_callbacks) -> None:
    match = versus_match()
    run = submit_verified(match, 1, self_play_log_text(), django_capture_on_commit_callbacks)
    # a long game, as stored: 120 turns in three chunks (the page shows 50 at a time)
    turns = _stored_turns(run)
    long = [dict(turns[i % len(turns)], turn=i + 1) for i in range(120)]
    TimelineChunk.objects.filter(run=run).delete()
    TimelineChunk.objects.bulk_create(
        TimelineChunk(run=run, number=n, turns=long[n * 50:(n + 1) * 50]) for n in range(3))
    VerificationRun.objects.filter(pk=run.pk).update(turn_count=120)
    log_pk = run.log_id
    html = client.get(f"/matches/{match.pk}/").content.decode()
    assert "120 turns; turns 1\u201350" in html and f"?turns-{log_pk}=2" in html
    html = client.get(f"/matches/{match.pk}/?turns-{log_pk}=3").content.decode()
    assert "turns 101\u2013120" in html and "Page 3 of 3" in html


def _stale_runs(n: int, capture) -> list[int]:  # type: ignore[no-untyped-def]
    """``n`` confirmed matches (both sides sent the same log), then one new run each."""
    text = self_play_log_text()
    run_ids = []
    for _ in range(n):
        match = versus_match()
        submit_verified(match, 1, text, capture)
        with capture(execute=True):
            match_log_submit(match=match, submitted_by=side_user(match, 2),
                             log_bytes=log_bytes(text))
        match.refresh_from_db()
        assert match.status == Match.Status.CONFIRMED
        log = MatchLog.objects.get(match=match)
        run_ids.append(VerificationRun.objects.create(log=log).pk)
    return run_ids


def test_a_chunk_costs_the_same_queries_for_2_or_10_logs(django_capture_on_commit_callbacks):
    counts = []
    for n in (2, 10):
        run_ids = _stale_runs(n, django_capture_on_commit_callbacks)
        with CaptureQueriesContext(connection) as queries:
            runs = match_runs_verify(run_ids=run_ids)
        assert len(runs) == n and {r.status for r in runs} == {RS.LEGAL}
        counts.append(len(queries))
    assert counts[0] == counts[1] <= 14, counts
    assert VerificationRun.objects.filter(pk__in=run_ids, turn_count__gt=0).count() == 10
    # finished runs are skipped: a redelivered chunk does nothing
    assert match_runs_verify(run_ids=run_ids) == []


def test_a_chunk_of_matches_in_flight_costs_the_same_queries_for_2_or_10_logs(
    django_capture_on_commit_callbacks,
) -> None:
    """Fresh submissions verified as one chunk: the matches are settled together (their logs,
    runs and endorsements read at once, one UPDATE), so the count does not grow per log."""
    text = self_play_log_text()
    counts = []
    for n in (2, 10):
        matches = [versus_match() for _ in range(n)]
        run_ids = []
        for match in matches:
            with django_capture_on_commit_callbacks(execute=False):  # no worker: verified below
                outcome = match_log_submit(match=match, submitted_by=side_user(match, 1),
                                           log_bytes=log_bytes(text))
            assert outcome.run is not None
            run_ids.append(outcome.run.pk)
        with CaptureQueriesContext(connection) as queries:
            runs = match_runs_verify(run_ids=run_ids)
        assert len(runs) == n and {r.status for r in runs} == {RS.LEGAL}
        counts.append(len(queries))
        statuses = set(Match.objects.filter(pk__in=[m.pk for m in matches])
                       .values_list("status", flat=True))
        assert statuses == {Match.Status.AWAITING_CONFIRMATION}
    assert counts[0] == counts[1] <= 16, counts  # 11 + 4 per log before


def _judged_again(run: VerificationRun) -> VerificationRun:
    again = VerificationRun.objects.create(log_id=run.log_id)
    (judged,) = match_runs_verify(run_ids=[again.pk])
    return judged


def _count_full_judgements(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    calls: list[str] = []
    judge = engine.log_judge

    def counted(text: str) -> engine.Judgement:
        calls.append(text)
        return judge(text)

    monkeypatch.setattr(engine, "log_judge", counted)
    return calls


@pytest.mark.parametrize("illegal", [False, True])
def test_judged_again_by_the_same_release_the_log_keeps_its_stored_analyses(
    illegal: bool, django_capture_on_commit_callbacks, monkeypatch,
) -> None:
    """A re-verification by the release that analysed the log replays it for the verdict alone:
    the timeline and board stored then are what the same rules give again, and the new run
    holds them (copied in the database, the page reads the new run's rows)."""
    text = self_play_log_text()
    text = with_extra_event(text) if illegal else text
    first = submit_verified(versus_match(), 1, text, django_capture_on_commit_callbacks)
    full = _count_full_judgements(monkeypatch)
    again = _judged_again(first)
    assert full == []  # no timeline computed
    again.refresh_from_db()
    assert again.status == first.status == (RS.ILLEGAL if illegal else RS.LEGAL)
    assert again.verdict == engine.log_verdict(text)
    assert again.turn_count == first.turn_count == len(engine.log_timeline(text)) > 0
    assert _stored_turns(again) == _stored_turns(first) == engine.log_timeline(text)
    assert again.board_before == first.board_before
    assert (again.board_before is not None) is illegal
    # the earlier run's rows are its own still
    assert TimelineChunk.objects.filter(run=first).count() == \
        TimelineChunk.objects.filter(run=again).count() > 0


@pytest.mark.parametrize("earlier", ["another release", "engine error", "another status"])
def test_analyses_are_computed_again_unless_the_same_release_gave_the_same_verdict(
    earlier: str, django_capture_on_commit_callbacks, monkeypatch,
) -> None:
    text = self_play_log_text()
    first = submit_verified(versus_match(), 1, text, django_capture_on_commit_callbacks)
    changed = {"another release": {"engine_version": "0.0.1"},
               "engine error": {"status": RS.ERROR},
               # not a verdict this release gives this log: its analyses are not trusted
               "another status": {"status": RS.ILLEGAL}}[earlier]
    VerificationRun.objects.filter(pk=first.pk).update(**changed)
    TimelineChunk.objects.filter(run=first).update(turns=[])  # would show if copied
    full = _count_full_judgements(monkeypatch)
    again = _judged_again(first)
    assert full == [text]
    again.refresh_from_db()
    assert again.status == RS.LEGAL
    assert _stored_turns(again) == engine.log_timeline(text)
    assert again.turn_count == len(engine.log_timeline(text))
