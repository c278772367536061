"""Writes of the stats app: record a match's verified result, keep the aggregates, rebuild.

``game_record_sync`` is the one place that decides whether a match counts and what it adds: a
match counts while its final result is a verified log (confirmed, ``result_log`` set, that
log's newest verification run legal, and the match's winner the one the verdict gives). An
organizer's override to another result (or one without a log) takes the game out; an override
back to the log's result puts it in again. The record keeps a fingerprint of what it was built
from, and every aggregate change happens under one lock row, subtracting exactly what the old
record added and adding what the new one adds: a redelivered task, a retry or two tasks racing
change the numbers once. A team match adds one players' row per side and its characters' rows
(``stats.models`` says which row counts for what). ``stats_rebuild`` recomputes every
aggregate from the records (and, with ``reextract``, every record from its log) and gives the
same numbers.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from collections import defaultdict
from collections.abc import Iterable, Iterator
from typing import Any

from django.db import connection, models, transaction
from django.utils import timezone

from matches.models import SOLO_MODES, Match, VerificationRun
from stats.facts import GameFacts, game_facts_extract
from stats.models import (
    ALL_CHARACTERS,
    ALL_EVENTS,
    ALL_MODES,
    ALL_TIME,
    SIDE_COUNTERS,
    CharacterStat,
    ComboRecord,
    GameRecord,
    GameSide,
    HeadToHead,
    PlayerStat,
    StatsLock,
)
from tournaments.models import SetMatch

logger = logging.getLogger(__name__)

Key = tuple[Any, ...]
Deltas = dict[type[models.Model], dict[Key, dict[str, int]]]


def month_of(when: dt.datetime) -> dt.date:
    return timezone.localtime(when).date().replace(day=1)


def _lock() -> StatsLock:
    """Take the one lock row (created race-free on first use: INSERT ... ON CONFLICT DO NOTHING;
    once it exists, one query a sync)."""
    lock = StatsLock.objects.select_for_update().filter(pk=1).first()
    if lock is None:
        StatsLock.objects.bulk_create([StatsLock(pk=1)], ignore_conflicts=True)
        lock = StatsLock.objects.select_for_update().get(pk=1)
    return lock


# ------------------------------------------------------------------------- what counts


def _source(match: Match) -> tuple[VerificationRun, int | None] | None:
    """The legal run behind the match's final result, or None when the match does not count."""
    if match.status != Match.Status.CONFIRMED or match.result_log_id is None:
        return None
    if match.mode in SOLO_MODES:  # against the bot: Training pages, not player-vs-player stats
        return None
    # The newest finished run: a re-verification still pending leaves the last verdict standing.
    run = (
        VerificationRun.objects.filter(log_id=match.result_log_id,
                                       status__in=VerificationRun.FINISHED_STATUSES)
        .order_by("-created_at", "-id").first()
    )
    if run is None or run.status != VerificationRun.Status.LEGAL:
        return None
    winner = (run.verdict.get("final") or {}).get("winner")
    verdict_side = {"P1": 1, "P2": 2}.get(winner) if winner else None
    if match.is_draw != (verdict_side is None) or (
        verdict_side is not None and match.winner_side != verdict_side
    ):
        return None  # an organizer's result, not the log's
    return run, verdict_side


# What a record holds changed (2: team matches' character rows): a changed fingerprint makes
# ``stats_rebuild --reextract`` rebuild every stored record.
RECORD_VERSION = 2


def _fingerprint(match: Match, run: VerificationRun, event_id: int | None) -> str:
    parts = [RECORD_VERSION, match.result_log_id, run.pk, run.engine_version, match.winner_side,
             match.is_draw, match.mode, event_id]
    return hashlib.sha256(repr(parts).encode()).hexdigest()


# ------------------------------------------------------------------------- contributions


def _scopes(mode: str, event_key: int, month: dt.date) -> Iterator[tuple[str, int, dt.date]]:
    events = {event_key, ALL_EVENTS}
    for m in (mode, ALL_MODES):
        for e in events:
            for mo in (month, ALL_TIME):
                yield m, e, mo


def _side_deltas(side: dict[str, Any], sign: int, out: Deltas) -> None:
    """What one side row adds to (sign 1) or takes from (sign -1) every aggregate: a character
    row to the character's (and the player's per character), a players' row to the player's
    overall record and head-to-head."""
    won = int(side["result"] == GameSide.Result.WIN)
    drawn = int(side["result"] == GameSide.Result.DRAW)
    base = {"games": sign, "wins": sign * won, "draws": sign * drawn}
    counters = {name: sign * side[name] for name in SIDE_COUNTERS}
    for mode, event_key, month in _scopes(side["mode"], side["event_key"], side["month"]):
        characters = []
        if side["for_characters"]:
            key = (mode, event_key, month, side["character"], side["opponent_character"])
            row = out[CharacterStat][key]
            for name, value in {**base, **counters}.items():
                row[name] = row.get(name, 0) + value
            characters.append(side["character"])
        if side["for_players"]:
            characters.append(ALL_CHARACTERS)
        for character in characters:
            row = out[PlayerStat][(mode, event_key, month, side["player_id"], character)]
            for name, value in base.items():
                row[name] = row.get(name, 0) + value
    if not side["for_players"]:
        return
    for mode in (side["mode"], ALL_MODES):
        row = out[HeadToHead][(mode, side["player_id"], side["opponent_id"])]
        for name, value in base.items():
            row[name] = row.get(name, 0) + value


def _new_deltas() -> Deltas:
    return {model: defaultdict(dict) for model in (CharacterStat, PlayerStat, HeadToHead)}


def _apply(deltas: Deltas) -> None:
    """Add the deltas to the aggregate rows (caller holds the stats lock): read, add, write."""
    for model, by_key in deltas.items():
        if not by_key:
            continue
        fields: tuple[str, ...] = model.KEY  # type: ignore[attr-defined]
        lookup = {f"{name}__in": {key[i] for key in by_key} for i, name in enumerate(fields)}
        existing = {
            tuple(getattr(row, name) for name in fields): row
            for row in model.objects.filter(**lookup)
        }
        to_create, to_update, to_delete = [], [], []
        changed: set[str] = set()
        for key, delta in by_key.items():
            row = existing.get(key)
            if row is None:
                row = model(**dict(zip(fields, key, strict=True)))
            for name, value in delta.items():
                setattr(row, name, getattr(row, name) + value)
                changed.add(name)
            if row.games < 0 or any(getattr(row, n) < 0 for n in delta):
                raise RuntimeError(f"stats went negative at {model.__name__} {key}: rebuild")
            if row.games == 0:
                if row.pk:
                    to_delete.append(row.pk)
            elif row.pk:
                to_update.append(row)
            else:
                to_create.append(row)
        if to_delete:
            model.objects.filter(pk__in=to_delete).delete()
        if to_update:
            _rows_write(model, to_update, sorted(changed))
        if to_create:
            model.objects.bulk_create(to_create)


def _rows_write(model: type[models.Model], rows: list[models.Model], names: list[str]) -> None:
    """Write the counters ``names`` of rows read under the stats lock back to them: one
    ``UPDATE ... WHERE id = %s`` sent once for all the rows (``executemany``: PostgreSQL and
    SQLite alike). A plain ``update()`` a row was most of a game's sync (about 50 rows a Versus
    game, each its own query built); ``bulk_update`` (a CASE of a WHEN per row and counter)
    and an upsert through ``bulk_create`` (every column of every row prepared by its field)
    cost more Python than the database's work."""
    q = connection.ops.quote_name
    meta = model._meta
    assert meta.pk is not None
    sql = (f"UPDATE {q(meta.db_table)} SET {', '.join(f'{q(name)} = %s' for name in names)} "
           f"WHERE {q(meta.pk.column)} = %s")
    with connection.cursor() as cursor:
        cursor.executemany(sql, [[getattr(row, name) for name in names] + [row.pk]
                                 for row in rows])


def _side_values(record: GameRecord) -> list[dict[str, Any]]:
    return list(GameSide.objects.filter(game=record).values())


def _side_row(side: GameSide) -> dict[str, Any]:
    """A side just written, as ``_side_values`` reads it back (without a query)."""
    return {f.attname: getattr(side, f.attname) for f in GameSide._meta.concrete_fields}


# ------------------------------------------------------------------------- the record


def _record_create(
    match: Match, facts: GameFacts, *, event_id: int | None, fingerprint: str,
    played_at: dt.datetime,
) -> tuple[GameRecord, list[GameSide]]:
    """The record and its sides (and combos), written."""
    month = month_of(played_at)
    record = GameRecord.objects.create(
        match=match, mode=match.mode, event_id=event_id, played_at=played_at, month=month,
        turns=facts.turns, how=facts.how, winner_seat=facts.winner_seat,
        fingerprint=fingerprint,
    )
    players: dict[int, int] = {}
    for seat, player_id in match.sides.order_by("side", "order").values_list("side", "player_id"):
        players.setdefault(seat, player_id)  # a team's first player speaks for the side
    team = bool(facts.credits)  # a team match: its characters have rows of their own
    event_key = event_id or ALL_EVENTS
    sides = []
    for seat, side in facts.sides.items():
        other = facts.sides[3 - seat]
        if facts.winner_seat is None:
            result = GameSide.Result.DRAW
        else:
            result = GameSide.Result.WIN if facts.winner_seat == seat else GameSide.Result.LOSS
        sides.append(GameSide(
            game=record, seat=seat, player_id=players[seat], opponent_id=players[3 - seat],
            character=side.character, opponent_character=other.character, result=result,
            largest_deficit=side.largest_deficit, mode=match.mode,
            event_key=event_key, month=month, played_at=played_at,
            for_characters=not team, **side.counters,
        ))
    for credit in facts.credits:
        sides.append(GameSide(
            game=record, seat=credit.seat, bout=credit.bout, member=credit.member,
            for_players=False, player_id=players[credit.seat],
            opponent_id=players[3 - credit.seat], character=credit.character,
            opponent_character=credit.opponent_character, result=credit.result,
            largest_deficit=credit.largest_deficit, mode=match.mode, event_key=event_key,
            month=month, played_at=played_at, **credit.counters,
        ))
    GameSide.objects.bulk_create(sides)
    ComboRecord.objects.bulk_create(
        ComboRecord(
            game=record, seat=c.seat, turn=c.turn,
            character=c.character or facts.sides[c.seat].character,
            opponent_character=c.opponent_character if c.character
            else facts.sides[3 - c.seat].character, cards=c.cards,
            damage=c.damage, mode=match.mode, event_key=event_id or ALL_EVENTS, month=month,
        )
        for c in facts.combos
    )
    return record, sides


def game_record_sync(*, match_id: int) -> GameRecord | None:
    """Bring the match's game record and the aggregates in line with its final result.

    Returns the record (None when the match does not count). Safe to call any number of
    times, concurrently too: only a change of what the record is built from changes numbers.
    """
    with transaction.atomic():
        # The match row lock keeps its result still while its log is replayed.
        match = (
            Match.objects.select_for_update(of=("self",)).select_related("result_log")
            .filter(pk=match_id).first()
        )
        if match is None:
            return None
        existing = GameRecord.objects.filter(match_id=match_id).first()
        source = _source(match)
        event_id = (
            SetMatch.objects.filter(match_id=match_id)
            .values_list("set__stage__event_id", flat=True).first()
        )
        fingerprint = _fingerprint(match, source[0], event_id) if source else ""
        if existing is not None and existing.fingerprint == fingerprint:
            return existing
        if existing is None and source is None:
            return None
        facts = None
        if source is not None:
            assert match.result_log is not None
            facts = game_facts_extract(log_text=match.result_log.text, verdict=source[0].verdict)
        _lock()
        deltas = _new_deltas()
        if existing is not None:
            for side in _side_values(existing):
                _side_deltas(side, -1, deltas)
            existing.delete()
        record = None
        if facts is not None:
            assert match.result_log is not None
            record, sides = _record_create(
                match, facts, event_id=event_id, fingerprint=fingerprint,
                played_at=match.result_log.created_at,
            )
            for side in sides:
                _side_deltas(_side_row(side), 1, deltas)
        _apply(deltas)
        return record


# ------------------------------------------------------------------------- the rebuild


def _insert_grouped(
    model: type[models.Model], *, scope: dict[str, Any], group: dict[str, str],
    sums: Iterable[str], where: str,
) -> int:
    """``INSERT INTO <aggregate> SELECT ... FROM stats_gameside GROUP BY ...``: one statement per
    scope combination, so the rebuild never brings the rows through Python.

    ``scope`` maps an aggregate column to a constant (the "all" sentinel) or None (take it from
    the side's column of the same name); ``group`` maps further aggregate columns to side columns.
    """
    q = connection.ops.quote_name
    columns: list[str] = []
    selects: list[str] = []
    params: list[Any] = []
    group_by: list[str] = []
    for column, constant in scope.items():
        columns.append(q(column))
        if constant is None:
            selects.append(q(column))
            group_by.append(q(column))
        else:
            selects.append("%s")
            params.append(constant)
    for column, source in group.items():
        columns.append(q(column))
        selects.append(q(source))
        group_by.append(q(source))
    columns += [q("games"), q("wins"), q("draws")]
    selects += [
        "COUNT(*)",
        f"SUM(CASE WHEN {q('result')} = %s THEN 1 ELSE 0 END)",
        f"SUM(CASE WHEN {q('result')} = %s THEN 1 ELSE 0 END)",
    ]
    params += [GameSide.Result.WIN.value, GameSide.Result.DRAW.value]
    for name in sums:
        columns.append(q(name))
        selects.append(f"SUM({q(name)})")
    sql = (
        f"INSERT INTO {q(model._meta.db_table)} ({', '.join(columns)}) "
        f"SELECT {', '.join(selects)} FROM {q(GameSide._meta.db_table)} WHERE {where} "
        f"GROUP BY {', '.join(group_by)}"
    )
    with connection.cursor() as cursor:
        cursor.execute(sql, params)
        return int(cursor.rowcount)


def _rebuild_aggregates() -> dict[str, int]:
    CharacterStat.objects.all().delete()
    PlayerStat.objects.all().delete()
    HeadToHead.objects.all().delete()
    created = {"character": 0, "player": 0, "head_to_head": 0}
    q = connection.ops.quote_name
    for_characters, for_players = q("for_characters"), q("for_players")  # boolean columns
    for all_modes in (False, True):
        for all_events in (False, True):
            for all_time in (False, True):
                scope = {
                    "mode": ALL_MODES if all_modes else None,
                    "event_key": ALL_EVENTS if all_events else None,
                    "month": ALL_TIME if all_time else None,
                }
                # a game without an event counts only among every game
                where = "1 = 1" if all_events else f"{q('event_key')} <> {ALL_EVENTS:d}"
                created["character"] += _insert_grouped(
                    CharacterStat, scope=scope,
                    group={"character": "character", "opponent": "opponent_character"},
                    sums=SIDE_COUNTERS, where=f"{where} AND {for_characters}",
                )
                created["player"] += _insert_grouped(
                    PlayerStat, scope=scope,
                    group={"player_id": "player_id", "character": "character"},
                    sums=(), where=f"{where} AND {for_characters}",
                )
                created["player"] += _insert_grouped(
                    PlayerStat, scope={**scope, "character": ALL_CHARACTERS},
                    group={"player_id": "player_id"}, sums=(), where=f"{where} AND {for_players}",
                )
    for all_modes in (False, True):
        created["head_to_head"] += _insert_grouped(
            HeadToHead, scope={"mode": ALL_MODES if all_modes else None},
            group={"player_id": "player_id", "opponent_id": "opponent_id"}, sums=(),
            where=for_players,
        )
    return created


def _candidates() -> list[int]:
    """Every match that counts or did: confirmed with a log, or holding a record."""
    return sorted(
        set(Match.objects.filter(status=Match.Status.CONFIRMED, result_log__isnull=False)
            .values_list("pk", flat=True))
        | set(GameRecord.objects.values_list("match_id", flat=True))
    )


def stats_reextract_enqueue(*, chunk_size: int = 200) -> int:
    """Queue every match's record to be brought in line with its log, in chunks across the
    workers; each sync adds and subtracts its own numbers, so no final step is needed.
    Returns the number of chunks queued."""
    from stats.tasks import game_records_sync_chunk_task

    ids = _candidates()
    chunks = [ids[i:i + chunk_size] for i in range(0, len(ids), chunk_size)]
    for chunk in chunks:
        game_records_sync_chunk_task.delay(chunk)
    return len(chunks)


def stats_rebuild(*, reextract: bool = False) -> dict[str, int]:
    """Recompute every aggregate from the game records; with ``reextract``, first bring every
    match's record in line with its result and log (replaying the logs).

    Returns how many records and aggregate rows there are afterwards.
    """
    summary: dict[str, int] = {}
    if reextract:
        candidates = _candidates()
        for match_id in candidates:
            game_record_sync(match_id=match_id)
        summary["matches_checked"] = len(candidates)
    with transaction.atomic():
        lock = _lock()
        summary.update(_rebuild_aggregates())
        lock.rebuilt_at = timezone.now()
        lock.save(update_fields=["rebuilt_at"])
    summary["games"] = GameRecord.objects.count()
    return summary
