"""Verifying a log in a worker: idempotent, and safe when a worker dies half-way.

The run is marked RUNNING in its own transaction (so progress is visible), the engine replays the
log with no database access (and computes the analyses pages show: the timeline, the board before
an illegal event), and the verdict and analyses are stored with the match locked. A log this
engine release already analysed (an organizer's re-verification, a bulk batch of logs judged by
this release) is replayed for its verdict alone and keeps the analyses stored then, which the
same rules would compute again exactly (``_analyses_to_reuse``). A chunk of a
bulk re-verification goes through the same steps with bulk reads and writes. A redelivered task
whose run already finished does nothing; one whose run is still RUNNING (its worker died) replays
again. An illegal log is a stored result, never an exception to retry.
"""

from __future__ import annotations

import json
import logging
import time
import traceback
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from django.contrib.auth.models import AbstractBaseUser
from django.db import DataError, IntegrityError, connection, transaction
from django.db.models import F, JSONField, OuterRef, Q, QuerySet, Subquery, Value
from django.utils import timezone
from psycopg.types.json import Jsonb

from matches import engine
from matches.bulk import rows_update
from matches.dispatch import task_send_coalesced, task_send_on_commit
from matches.models import (
    AuditEntry,
    Match,
    MatchLog,
    TimelineChunk,
    VerdictChange,
    VerificationRun,
)
from matches.services.matches import match_authorize_manager
from matches.services.results import match_result_listeners_on_commit, match_settle_many
from matches.signals import logs_refused
from matches.status import match_status_change, run_status_change
from matches.storable import json_storable, json_storable_from
from matches.verdicts import verdict_view

logger = logging.getLogger(__name__)
RS = VerificationRun.Status
# A run started this many times without a verdict is given up (stored as an engine error).
MAX_ATTEMPTS = 5

VERDICT_STATUS_TO_RUN = {
    "legal": RS.LEGAL,
    "illegal": RS.ILLEGAL,
    "result_mismatch": RS.RESULT_MISMATCH,
    "unverifiable": RS.UNVERIFIABLE,
    "unreadable": RS.ILLEGAL,
    "engine_error": RS.ERROR,
}


def _engine_judgement(text: str) -> engine.Judgement:
    """The verdict and analyses of a log (one replay for most logs: ``engine.log_judge``)."""
    try:
        return engine.log_judge(text)
    except Exception as exc:  # the engine is pure: anything it raises is our bug
        logger.exception("rules engine failed on a log")
        verdict = {
            "status": "engine_error",
            "error": {
                "kind": exc.__class__.__name__,
                "message": str(exc),
                "traceback": traceback.format_exc(limit=20),
            },
            "engine_version": engine.ENGINE_VERSION,
        }
        return engine.Judgement(verdict, *engine.log_analysis(text, verdict))


def _storage_error_verdict(exc: BaseException) -> dict[str, Any]:
    return {
        "status": "engine_error",
        "error": {
            "kind": "storage_error",
            "message": json_storable(f"the verdict could not be stored: {exc.__class__.__name__}: "
                                     f"{str(exc)[:500]}"),
        },
        "engine_version": engine.ENGINE_VERSION,
    }


def _gave_up_verdict(attempts: int) -> dict[str, Any]:
    return {
        "status": "engine_error",
        "error": {
            "kind": "gave_up",
            "message": f"verification did not finish in {attempts} attempts (each worker died "
                       "or timed out); an organizer can re-verify the log",
        },
        "engine_version": engine.ENGINE_VERSION,
    }


@dataclass
class _Judged:
    """A run's verdict and stored analyses, computed outside any transaction. The timeline is
    ``timeline``, the JSON text of each of its ``TimelineChunk`` rows (``turn_count`` turns in
    all), or, when ``timeline_of`` names an earlier run of the same log and engine release,
    that run's stored timeline, copied in the database."""

    run: VerificationRun
    match_id: int
    verdict: dict[str, Any]
    duration_ms: int | None
    timeline: list[str] = field(default_factory=list)
    board: dict[str, Any] | None = None
    timeline_of: int | None = None
    turn_count: int = 0


def _timeline_encoded(turns: list[dict[str, Any]]) -> list[str]:
    """The JSON text of each ``TimelineChunk`` of a timeline, as ``JSONField`` would write it
    (``json.dumps``), made as soon as the log is judged: a chunk keeps one string per row
    until it is stored, not thousands of dicts a log, which the garbage collector's full
    collections walked again and again while the rest of the chunk was replayed."""
    size = TimelineChunk.TURNS_PER_CHUNK
    return [json.dumps(turns[i:i + size]) for i in range(0, len(turns), size)]


class _EncodedJSONField(JSONField):
    """A ``JSONField`` whose values are already JSON text (``_timeline_encoded``): sent as the
    field sends the text it encodes, a ``jsonb`` parameter on PostgreSQL, the text elsewhere."""

    def get_db_prep_value(self, value: Any, connection: Any, prepared: bool = False) -> Any:
        return Jsonb(value, dumps=str) if connection.vendor == "postgresql" else value


@dataclass(frozen=True)
class _Analysed:
    """What an earlier run of a log by this engine release stored: its status, the length of
    its timeline (``TimelineChunk`` rows) and its board."""

    run_id: int
    status: str
    turn_count: int
    board: dict[str, Any] | None


def _analyses_to_reuse(runs: list[VerificationRun]) -> dict[int, _Analysed]:
    """For each run's log, the newest other run this engine release finished with its analyses
    stored (one query). The timeline and the board are the log's replay by the release's rules,
    as its verdict is (either build gives the same, byte for byte: tests/rules_engine/
    builds_agree.py): judging the log again by the same release needs only the verdict, the
    replay without the timeline (about 40% of the engine's work, then the timeline's encoding
    and storing). An engine error is never reused (nothing was analysed); a newer release
    recomputes everything (``logs_reverify_stale``)."""
    if not runs:
        return {}
    release = engine.ENGINE_RELEASE
    rows = (VerificationRun.objects
            .filter(log_id__in={run.log_id for run in runs}, finished_at__isnull=False,
                    turn_count__isnull=False,
                    status__in=[s for s in VerificationRun.FINISHED_STATUSES if s != RS.ERROR])
            .filter(Q(engine_version=release) | Q(engine_version__startswith=f"{release}+"))
            .exclude(pk__in=[run.pk for run in runs])
            .order_by("log_id", "-finished_at", "-id")
            .values_list("log_id", "pk", "status", "turn_count", "board_before"))
    found: dict[int, _Analysed] = {}
    for log_id, pk, status, turn_count, board in rows:
        found.setdefault(log_id, _Analysed(pk, status, turn_count, board))
    return found


def _judge(run: VerificationRun, text: str, match_id: int,
           analysed: _Analysed | None = None) -> _Judged:
    if run.attempts > MAX_ATTEMPTS:
        return _Judged(run, match_id, _gave_up_verdict(run.attempts - 1), None)
    started = time.perf_counter()
    if analysed is not None:
        verdict = _engine_verdict(text)
        # the same release cannot judge the log otherwise; if it somehow did, nothing is
        # reused: the full judgement below stores analyses that match the new verdict
        if verdict is not None and VERDICT_STATUS_TO_RUN.get(
                verdict.get("status", "")) == analysed.status:
            return _Judged(run, match_id, json_storable_from(text, verdict),
                           round((time.perf_counter() - started) * 1000),
                           board=analysed.board, timeline_of=analysed.run_id,
                           turn_count=analysed.turn_count)
    judgement = _engine_judgement(text)
    duration_ms = round((time.perf_counter() - started) * 1000)
    turns = json_storable_from(text, judgement.turns)
    try:
        timeline = _timeline_encoded(turns)
    except ValueError as exc:  # not storable JSON: what storing it would have ended in
        return _Judged(run, match_id, _storage_error_verdict(exc), duration_ms)
    return _Judged(run, match_id, json_storable_from(text, judgement.verdict), duration_ms,
                   timeline, json_storable_from(text, judgement.board), turn_count=len(turns))


def _engine_verdict(text: str) -> dict[str, Any] | None:
    """The verdict alone (``engine.log_verdict``: no timeline, no board); None when the engine
    fails (the full judgement then records the engine error)."""
    try:
        return engine.log_verdict(text)
    except Exception:  # the engine is pure: our bug, logged by the full judgement's replay
        return None


def _timeline_chunks(run_id: int, timeline: list[str]) -> list[TimelineChunk]:
    # Each chunk's turns as an expression: ``bulk_create`` then writes plain VALUES rows.
    # Its UNNEST form (literal values, Django 5.2 on PostgreSQL) sends the JSON inside a text
    # array, escaping every quote with a Python regex: slower than the replay itself.
    return [TimelineChunk(run_id=run_id, number=number,
                          turns=Value(text, output_field=_EncodedJSONField()))
            for number, text in enumerate(timeline)]


def _timelines_copy(copies: list[tuple[int, int]]) -> None:
    """Give each new run (first of a pair) the stored timeline of an earlier run (second), as
    one INSERT ... SELECT: the turns go from row to row inside the database, never through
    Python."""
    if not copies:
        return
    table = TimelineChunk._meta.db_table
    with connection.cursor() as cursor:
        cursor.execute(
            f"INSERT INTO {table} (run_id, number, turns) "
            f"SELECT CASE run_id {' '.join(['WHEN %s THEN %s'] * len(copies))} END, "
            f"number, turns FROM {table} WHERE run_id IN ({', '.join(['%s'] * len(copies))})",
            [value for new, old in copies for value in (old, new)]
            + [old for _, old in copies])


def _previous_runs(runs: list[VerificationRun]) -> dict[int, VerificationRun]:
    """For each run's log, the newest other finished run (one query)."""
    if not runs:
        return {}
    newest = (VerificationRun.objects.filter(log_id=OuterRef("log_id"), finished_at__isnull=False)
              .exclude(pk__in=[r.pk for r in runs]).order_by("-finished_at", "-id"))
    previous = (VerificationRun.objects.filter(log_id__in=[r.log_id for r in runs])
                .annotate(newest=Subquery(newest.values("pk")[:1])).filter(pk=F("newest"))
                .only("pk", "log_id", "status", "verdict"))
    return {run.log_id: run for run in previous}


def _runs_update(runs: list[VerificationRun], fields: list[str]) -> None:
    """One UPDATE for the runs: a plain one for a single run (a submission's verification),
    one from a VALUES list for a chunk (``rows_update``: no CASE built per run and field)."""
    if len(runs) == 1:
        VerificationRun.objects.filter(pk=runs[0].pk).update(
            **{name: getattr(runs[0], name) for name in fields})
    elif runs:
        rows_update(runs, fields)


def _verdicts_store(judged: list[_Judged]) -> list[VerificationRun]:
    """Store the verdicts and analyses of runs (of one or many matches) in one transaction with
    bulk writes, then settle each match that can still change. A run a duplicate delivery
    finished first is left alone. Locks: matches, then runs, each in id order (no deadlock)."""
    with transaction.atomic():
        match_ids = sorted({j.match_id for j in judged})
        matches = {m.pk: m for m in Match.objects.select_for_update().filter(pk__in=match_ids)
                   .order_by("pk")}
        open_ids = set(
            VerificationRun.objects.select_for_update().filter(pk__in=[j.run.pk for j in judged])
            .exclude(status__in=VerificationRun.FINISHED_STATUSES)
            .order_by("pk").values_list("pk", flat=True)
        )
        stored = [j for j in judged if j.run.pk in open_ids]
        now = timezone.now()
        chunks: list[TimelineChunk] = []
        for j in stored:
            run = j.run
            run_status_change(run, VERDICT_STATUS_TO_RUN.get(j.verdict.get("status", ""),
                                                             RS.ERROR))
            run.verdict = j.verdict
            run.engine_version = engine.ENGINE_VERSION  # the release and the build that judged
            run.duration_ms = j.duration_ms
            run.finished_at = now
            run.turn_count = j.turn_count
            run.board_before = j.board
            chunks += _timeline_chunks(run.pk, j.timeline)
        _runs_update([j.run for j in stored], ["status", "verdict", "engine_version",
                                               "duration_ms", "finished_at", "turn_count",
                                               "board_before"])
        TimelineChunk.objects.bulk_create(chunks)
        _timelines_copy([(j.run.pk, j.timeline_of) for j in stored if j.timeline_of is not None])
        refused = [j.run.pk for j in stored if j.run.status == RS.ILLEGAL]
        if refused:
            logs_refused.send(sender=VerificationRun, run_ids=refused)
        previous = _previous_runs([j.run for j in stored
                                   if matches[j.match_id].status == Match.Status.CONFIRMED])
        final = {pk for pk, match in matches.items() if match.status == Match.Status.CONFIRMED}
        # each match that can still change, settled once (reads and writes for all at once;
        # nothing to do for a disputed or cancelled match)
        match_settle_many([matches[pk] for pk in sorted({j.match_id for j in stored})
                           if pk not in final])
        for j in stored:
            match = matches[j.match_id]
            if j.match_id in final and match.result_log_id == j.run.log_id:
                # A final result's log judged again (a newer engine, an organizer's
                # re-verification): listeners hear of it and a changed verdict is recorded;
                # the result itself never moves.
                match_result_listeners_on_commit(match)
                verdict_change_record(match=match, run=j.run,
                                      previous=previous.get(j.run.log_id, ...))
    return [j.run for j in stored]


def _outcome(status: str, verdict: dict[str, Any]) -> dict[str, Any]:
    """What a verdict says about a result: its status, the winner it gives, and in words."""
    final = verdict.get("final") or {}
    return {"status": status, "winner": final.get("winner"),
            "engine_version": verdict.get("engine_version"),
            "summary": verdict_view(verdict).headline}


def verdict_change_record(*, match: Match, run: VerificationRun,
                          previous: Any = ...) -> VerdictChange | None:
    """A final result's log got a new verdict (a newer engine, an organizer's re-verification):
    if it says something else than the verdict the result stands on (another status or
    winner), record it for the organizers and in the audit log. The result itself is never
    changed here: a bracket moves only by an organizer's override (match locked by the caller).
    ``previous``: the log's run before this one when the caller has read it already (None: there
    is none), else it is read here.
    """
    if previous is ...:
        previous = (
            VerificationRun.objects.filter(log_id=run.log_id, status__in=RS.values)
            .exclude(pk=run.pk)
            .filter(finished_at__isnull=False)
            .order_by("-finished_at", "-id")
            .first()
        )
    if previous is None:
        return None
    before, after = _outcome(previous.status, previous.verdict), _outcome(run.status, run.verdict)
    if (before["status"], before["winner"]) == (after["status"], after["winner"]):
        return None
    change = VerdictChange.objects.create(match=match, log_id=run.log_id, run=run,
                                          before=json_storable(before),
                                          after=json_storable(after))
    AuditEntry.objects.create(match=match, action=AuditEntry.Action.VERDICT_CHANGED,
                              before=change.before, after=change.after)
    return change


def verdict_change_review(*, change: VerdictChange, user: AbstractBaseUser,
                          note: str = "") -> VerdictChange:
    """An organizer has looked at a verdict change (and overridden the result, or kept it)."""
    with transaction.atomic():
        change = VerdictChange.objects.select_for_update().select_related("match").get(
            pk=change.pk)
        match_authorize_manager(change.match, user, "review a verdict change")
        if change.reviewed_at is None:
            change.reviewed_by, change.reviewed_at = user, timezone.now()
            change.review_note = note
            change.save(update_fields=["reviewed_by", "reviewed_at", "review_note"])
            AuditEntry.objects.create(match=change.match, actor=user,
                                      action=AuditEntry.Action.VERDICT_CHANGE_REVIEWED,
                                      reason=note, after={"change": change.pk})
    return change


def match_log_verify(*, run_id: int) -> VerificationRun:
    """Replay the run's log and store the verdict; a finished run is returned unchanged."""
    runs = match_runs_verify(run_ids=[run_id])
    return runs[0] if runs else VerificationRun.objects.get(pk=run_id)


def match_runs_verify(*, run_ids: Sequence[int]) -> list[VerificationRun]:
    """Replay the logs of runs (one submission, or a chunk of a bulk re-verification) and store
    their verdicts and analyses; finished runs are skipped. Returns the runs judged here.

    A constant number of queries for the whole chunk (mark running and read the texts, lock,
    bulk-write the verdicts and timelines) plus the settling of matches that can still change:
    re-verifying final results costs no per-log query beyond the verdict-change check.

    Whatever happens, each run ends finished: a verdict the database refuses (a data error, not
    an outage) is stored as an ``engine_error`` verdict instead, and a run that was started
    ``MAX_ATTEMPTS`` times without finishing (its workers kept dying) is given up as one.
    Outages (the database unreachable or refusing writes) propagate: the task retries what
    Celery can, and the sweeper sends the still-unfinished runs again later.
    """
    return match_runs_judge(_runs_start(
        _runs_to_start(VerificationRun.objects.select_for_update(of=("self",)))
        .filter(pk__in=run_ids).exclude(status__in=VerificationRun.FINISHED_STATUSES)))


def _runs_to_start(locked: QuerySet[VerificationRun]) -> QuerySet[VerificationRun]:
    """The runs ``locked`` locks, with their logs' texts (only the runs are locked), in id
    order."""
    return locked.select_related("log").defer("verdict", "board_before").order_by("pk")


def _runs_start(runs_query: QuerySet[VerificationRun]) -> list[VerificationRun]:
    """Mark the runs the query locks RUNNING (one more attempt) in their own transaction, so
    progress is visible and a run whose worker dies is seen unfinished; returns them."""
    with transaction.atomic():
        runs = list(runs_query)
        now = timezone.now()
        for run in runs:
            run_status_change(run, RS.RUNNING)
            run.attempts += 1
            run.started_at = now
        if runs:  # one plain UPDATE (the runs are locked): every run gets the same values
            VerificationRun.objects.filter(pk__in=[run.pk for run in runs]).update(
                status=RS.RUNNING, attempts=F("attempts") + 1, started_at=now)
    return runs


def match_runs_claim(*, limit: int) -> list[VerificationRun]:
    """Start up to ``limit`` PENDING runs of single submissions (not a bulk batch's: its chunks
    carry them) that no other worker is claiming (``FOR UPDATE SKIP LOCKED``), oldest first:
    the shared "verify what is pending" work (``match_runs_judge`` then judges them)."""
    return _runs_start(_runs_to_start(
        VerificationRun.objects.select_for_update(of=("self",), skip_locked=True))
                       .filter(status=RS.PENDING, batch__isnull=True)[:limit])


def match_runs_judge(runs: list[VerificationRun]) -> list[VerificationRun]:
    """Replay the logs of started runs and store their verdicts (the second half of
    ``match_runs_verify``)."""
    if not runs:
        return []
    analysed = _analyses_to_reuse(runs)
    judged = [_judge(run, run.log.text, run.log.match_id, analysed.get(run.log_id))
              for run in runs]
    try:
        return _verdicts_store(judged)
    except (DataError, IntegrityError, ValueError):  # refused data: a retry cannot help
        logger.warning("a verdict of runs %s was refused; storing them one by one",
                       [j.run.pk for j in judged])
    # Only the refused run becomes an engine error: the others are stored as judged.
    return [run for j in judged for run in _verdicts_store_one(j)]


def _verdicts_store_one(j: _Judged) -> list[VerificationRun]:
    j.run.status = RS.RUNNING  # as in the database: the failed transaction was rolled back
    try:
        return _verdicts_store([j])
    except (DataError, IntegrityError, ValueError) as exc:
        logger.exception("verdict of run %s refused by the database", j.run.pk)
        j.run.status = RS.RUNNING
        return _verdicts_store([_Judged(j.run, j.match_id, _storage_error_verdict(exc),
                                        j.duration_ms)])


# The shared verification of pending runs: at most one drain task waits in the queue at a time
# (a Redis flag, matches.dispatch.task_send_coalesced); each claims up to DRAIN_BATCH runs.
DRAIN_BATCH = 50
DRAIN_FLAG_SECONDS = 60


def runs_drain_flag() -> str:
    from celery import current_app

    return f"yomi:verify-drain:{current_app.conf.task_default_queue}"


def runs_drain_request(what: str) -> bool:
    """Make sure a drain task will look for pending runs (send one unless one is waiting)."""
    from matches.tasks import match_runs_drain_task

    return task_send_coalesced(what, runs_drain_flag(), match_runs_drain_task.delay,
                               DRAIN_FLAG_SECONDS)


def match_run_requeue(
    *, log: MatchLog, requested_by: AbstractBaseUser | None = None
) -> VerificationRun:
    """A new verification run for a log (organizers' re-verification); queued on commit."""
    from matches.tasks import match_log_verify_task

    with transaction.atomic():
        match = Match.objects.select_for_update().get(pk=log.match_id)
        run = VerificationRun.objects.create(
            log=log, requested_by=requested_by, enqueued_at=timezone.now()
        )
        if match.status in (Match.Status.AWAITING_LOG, Match.Status.AWAITING_CONFIRMATION):
            match_status_change(match, Match.Status.VERIFYING)
            match.save(update_fields=["status", "updated_at"])
        AuditEntry.objects.create(
            match=match, actor=requested_by, action=AuditEntry.Action.REVERIFY_REQUESTED,
            after={"log": log.pk, "run": run.pk},
        )
        task_send_on_commit(f"verification of run {run.pk}",
                            lambda: match_log_verify_task.delay(run.pk))
    return run
