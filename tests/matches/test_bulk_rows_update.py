"""``rows_update`` stores what ``bulk_update`` stores (one UPDATE from a VALUES list), and a
value its column refuses is still refused, never cut."""

from __future__ import annotations

import pytest
from django.db import DataError, connection, transaction
from django.test.utils import CaptureQueriesContext
from django.utils import timezone

from matches.bulk import rows_update
from matches.models import MatchLog, VerificationRun
from tests.matches.factories import log_bytes, self_play_log_text, side_user, versus_match

pytestmark = pytest.mark.django_db
FIELDS = ["status", "verdict", "engine_version", "duration_ms", "finished_at", "turn_count",
          "board_before"]


def _runs(n: int) -> list[VerificationRun]:
    match = versus_match()
    text = self_play_log_text()
    log = MatchLog.objects.create(match=match, sha256="x" * 64, text=text,
                                  size_bytes=len(log_bytes(text)),
                                  submitted_by=side_user(match, 1))
    return [VerificationRun.objects.create(log=log) for _ in range(n)]


def test_rows_update_stores_each_rows_values_in_one_query() -> None:
    runs = _runs(3)
    now = timezone.now()
    for i, run in enumerate(runs):
        run.status = [VerificationRun.Status.LEGAL, VerificationRun.Status.ILLEGAL,
                      VerificationRun.Status.ERROR][i]
        run.verdict = {"status": run.status, "n": i, "nested": [{"a": None}, "é"]}
        run.engine_version, run.duration_ms, run.finished_at = f"v{i}", i * 10, now
        run.turn_count = None if i == 2 else i
        run.board_before = None if i == 0 else {"index": i}
    with CaptureQueriesContext(connection) as queries:
        assert rows_update(runs, FIELDS) == 3
    assert len(queries) == 1
    for i, stored in enumerate(VerificationRun.objects.filter(
            pk__in=[r.pk for r in runs]).order_by("pk")):
        assert stored.status == runs[i].status and stored.verdict == runs[i].verdict
        assert (stored.engine_version, stored.duration_ms, stored.finished_at,
                stored.turn_count, stored.board_before) == (
            f"v{i}", i * 10, now, runs[i].turn_count, runs[i].board_before)
    # rows not named are untouched
    other = _runs(1)[0]
    rows_update(runs[:2], ["status"])
    other.refresh_from_db()
    assert other.status == VerificationRun.Status.PENDING


def test_a_value_too_long_for_its_column_is_refused_not_cut() -> None:
    runs = _runs(2)
    runs[0].engine_version = "x" * 40  # the column holds 32
    with pytest.raises(DataError), transaction.atomic():
        rows_update(runs, ["engine_version"])


def test_more_values_than_a_statement_takes_go_in_several(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    # PostgreSQL's limit (65,535 parameters) lowered to 6: two runs of (id, two fields) each
    runs = _runs(5)
    for i, run in enumerate(runs):
        run.engine_version, run.duration_ms = f"v{i}", i
    monkeypatch.setattr("matches.bulk.MAX_PARAMETERS", 6)
    with CaptureQueriesContext(connection) as queries:
        assert rows_update(runs, ["engine_version", "duration_ms"]) == 5
    assert len(queries) == (3 if connection.vendor == "postgresql" else 1)
    stored = VerificationRun.objects.filter(pk__in=[r.pk for r in runs]).order_by("pk")
    assert [(r.engine_version, r.duration_ms) for r in stored] == [(f"v{i}", i) for i in range(5)]
