"""Game records and aggregates follow final results exactly once; the rebuild agrees."""

from __future__ import annotations

import datetime as dt

import pytest

from matches.models import Match
from matches.services import match_result_override
from stats.models import (
    ALL_EVENTS,
    ALL_MODES,
    ALL_TIME,
    CharacterStat,
    ComboRecord,
    GameRecord,
    GameSide,
    HeadToHead,
    PlayerStat,
)
from stats.services import game_record_sync, month_of, stats_rebuild
from stats.tasks import game_record_sync_task
from tests.matches.factories import PlayerFactory, UserFactory
from tests.stats.helpers import confirm, log_won_by, snapshot, versus
from tests.tournaments.factories import EventFactory, StageFactory, entrants_create
from tournaments.models import Set
from tournaments.services.generation import stage_generate
from tournaments.services.set_matches import set_match_open

pytestmark = pytest.mark.django_db


def _all_time(character: str, opponent: str, **scope: object) -> CharacterStat:
    return CharacterStat.objects.get(
        mode=scope.get("mode", ALL_MODES), event_key=scope.get("event_key", ALL_EVENTS),
        month=scope.get("month", ALL_TIME), character=character, opponent=opponent,
    )


@pytest.fixture
def manager():
    return UserFactory(username="stats-manager")


@pytest.fixture
def played(django_capture_on_commit_callbacks, manager) -> Match:
    """Setsuki (side 1) beats Rook (side 2) in a confirmed Versus match."""
    match = versus(PlayerFactory(), PlayerFactory(), managers=[manager])
    return confirm(match, log_won_by("P1", "setsuki", "rook"), django_capture_on_commit_callbacks)


def test_a_confirmed_log_becomes_a_game_record_with_its_aggregates(played: Match) -> None:
    record = GameRecord.objects.get(match=played)
    assert record.winner_seat == 1 and record.mode == "versus" and record.event_id is None
    assert record.month == month_of(played.result_log.created_at)
    setsuki, rook = GameSide.objects.get(game=record, seat=1), GameSide.objects.get(game=record,
                                                                                   seat=2)
    assert (setsuki.character, setsuki.result, rook.result) == ("setsuki", "win", "loss")
    assert setsuki.player_id == played.sides.get(side=1).player_id
    assert setsuki.opponent_id == rook.player_id
    # all four scopes of the game (its mode or all, its month or all time) hold it once
    for mode in ("versus", ALL_MODES):
        for month in (record.month, ALL_TIME):
            row = _all_time("setsuki", "rook", mode=mode, month=month)
            assert (row.games, row.wins, row.draws) == (1, 1, 0)
            assert row.damage_dealt == setsuki.damage_dealt
            assert row.option_attack == setsuki.option_attack
            lost = _all_time("rook", "setsuki", mode=mode, month=month)
            assert (lost.games, lost.wins) == (1, 0)
    assert not CharacterStat.objects.exclude(event_key=ALL_EVENTS).exists()
    assert ComboRecord.objects.filter(game=record).count() == setsuki.combos + rook.combos
    winner = played.sides.get(side=1).player_id
    assert PlayerStat.objects.get(mode=ALL_MODES, event_key=ALL_EVENTS, month=ALL_TIME,
                                  player_id=winner, character="").wins == 1
    assert PlayerStat.objects.get(mode=ALL_MODES, event_key=ALL_EVENTS, month=ALL_TIME,
                                  player_id=winner, character="setsuki").games == 1
    assert HeadToHead.objects.get(mode=ALL_MODES, player_id=winner,
                                  opponent_id=rook.player_id).wins == 1


def test_redelivered_and_repeated_syncs_change_nothing(played: Match) -> None:
    before = snapshot()
    for _ in range(3):
        game_record_sync_task.delay(played.pk)
        game_record_sync(match_id=played.pk)
    assert snapshot() == before
    assert GameRecord.objects.count() == 1


def test_a_game_adds_to_the_rows_it_shares_in_a_few_queries(
    played: Match, manager, settings, django_capture_on_commit_callbacks,
    django_assert_max_num_queries,
) -> None:
    """A rematch adds to the aggregate rows the first game made (every scope of both sides):
    its sync's queries are a few a table, not one a row (17 here; 44 when each row was its
    own UPDATE, most of a sync's CPU), and the sums are the rebuild's."""
    sides = [played.sides.get(side=s).player for s in (1, 2)]
    rematch = versus(*sides, managers=[manager])
    settings.MATCH_RESULT_LISTENERS = []  # counted below, by hand
    confirm(rematch, log_won_by("P1", "setsuki", "rook"), django_capture_on_commit_callbacks)
    with django_assert_max_num_queries(20):
        assert game_record_sync(match_id=rematch.pk) is not None
    for mode in ("versus", ALL_MODES):
        row = _all_time("setsuki", "rook", mode=mode)
        assert (row.games, row.wins) == (2, 2)
    incremental = snapshot()
    stats_rebuild()
    assert snapshot() == incremental


def test_an_override_takes_the_game_out_and_restoring_the_log_puts_it_back_once(
    played: Match, manager, django_capture_on_commit_callbacks,
) -> None:
    counted = snapshot()
    with django_capture_on_commit_callbacks(execute=True):
        match_result_override(match=played, actor=manager, winner_side=2,
                              reason="rook's player showed the real game")
    assert not GameRecord.objects.filter(match=played).exists()
    assert not CharacterStat.objects.exists() and not PlayerStat.objects.exists()
    assert not HeadToHead.objects.exists() and not ComboRecord.objects.exists()
    with django_capture_on_commit_callbacks(execute=True):
        match_result_override(match=played, actor=manager, winner_side=1,
                              reason="the log was right after all", log=played.result_log)
    game_record_sync(match_id=played.pk)  # a late redelivery of the first callback
    assert snapshot() == counted


def test_an_override_that_keeps_a_log_but_not_its_result_does_not_count(
    played: Match, manager, django_capture_on_commit_callbacks,
) -> None:
    with django_capture_on_commit_callbacks(execute=True):
        match_result_override(match=played, actor=manager, winner_side=2,
                              reason="slow play penalty", log=played.result_log)
    assert not GameRecord.objects.exists() and not CharacterStat.objects.exists()


def test_an_event_game_counts_in_its_event_scope(django_capture_on_commit_callbacks) -> None:
    organizer = UserFactory(username="stats-organizer")
    event = EventFactory(organizers=[organizer], best_of=1)
    entrants_create(event, 2)
    stage = StageFactory(event=event)
    stage_generate(stage=stage, actor=organizer)
    final = Set.objects.get(stage=stage, round=1)
    match = set_match_open(set=final, actor=organizer)
    confirm(match, log_won_by("P2", "grave", "jaina"), django_capture_on_commit_callbacks)
    record = GameRecord.objects.get(match=match)
    assert record.event_id == event.pk and record.winner_seat == 2
    row = _all_time("jaina", "grave", event_key=event.pk)
    assert (row.games, row.wins) == (1, 1)
    assert _all_time("jaina", "grave").games == 1  # and among every game


def test_the_rebuild_gives_the_same_numbers(
    django_capture_on_commit_callbacks, manager,
) -> None:
    players = [PlayerFactory() for _ in range(4)]
    games = [
        (0, 1, log_won_by("P1", "setsuki", "rook")),
        (1, 0, log_won_by("P2", "setsuki", "rook")),
        (2, 3, log_won_by("P1", "grave", "grave")),  # a mirror match
        (0, 2, log_won_by("P2", "midori", "valerie")),
        (3, 1, log_won_by("P1", "lum", "geiger")),
    ]
    matches = []
    for a, b, text in games:
        match = versus(players[a], players[b], managers=[manager])
        matches.append(confirm(match, text, django_capture_on_commit_callbacks))
    Match.objects.filter(pk=matches[1].pk).update(mode=Match.Mode.TAG_TEAM)
    game_record_sync(match_id=matches[1].pk)  # a changed mode moves the game, once
    with django_capture_on_commit_callbacks(execute=True):
        match_result_override(match=matches[4], actor=manager, winner_side=2, reason="DQ")
    incremental = snapshot()
    assert GameRecord.objects.count() == 4
    assert _all_time("grave", "grave").games == 2  # both sides of the mirror
    assert _all_time("setsuki", "rook", mode="tag_team").games == 1
    summary = stats_rebuild()
    assert summary["games"] == 4
    assert snapshot() == incremental
    GameRecord.objects.filter(match=matches[0]).delete()
    CharacterStat.objects.all().delete()
    stats_rebuild(reextract=True)
    assert snapshot() == incremental


def test_records_are_placed_in_the_month_their_log_was_sent(played: Match) -> None:
    played.result_log.__class__.objects.filter(pk=played.result_log_id).update(
        created_at=dt.datetime(2025, 3, 9, 12, tzinfo=dt.UTC))
    GameRecord.objects.all().delete()
    CharacterStat.objects.all().delete()
    PlayerStat.objects.all().delete()
    HeadToHead.objects.all().delete()
    game_record_sync(match_id=played.pk)
    assert GameRecord.objects.get().month == dt.date(2025, 3, 1)
    assert _all_time("setsuki", "rook", month=dt.date(2025, 3, 1)).games == 1


def test_a_new_verdict_on_the_result_log_refreshes_the_record_once(
    played: Match, django_capture_on_commit_callbacks,
) -> None:
    from matches.models import VerificationRun
    from matches.services.verification import match_log_verify, match_run_requeue

    before = GameRecord.objects.get(match=played).fingerprint
    counted = snapshot()
    with django_capture_on_commit_callbacks(execute=False):
        run = match_run_requeue(log=played.result_log)
    game_record_sync(match_id=played.pk)  # pending: the last verdict still stands
    assert GameRecord.objects.get(match=played).fingerprint == before
    with django_capture_on_commit_callbacks(execute=True) as callbacks:
        match_log_verify(run_id=run.pk)
    assert VerificationRun.objects.get(pk=run.pk).status == "legal"
    assert len(callbacks) == 1  # the listeners only: the set's callback is not called again
    assert GameRecord.objects.get(match=played).fingerprint != before
    assert snapshot() == counted  # the same log, the same numbers, counted once


def test_the_rebuild_command_restores_lost_numbers(played: Match) -> None:
    from io import StringIO

    from django.core.management import call_command

    counted = snapshot()
    CharacterStat.objects.all().delete()
    PlayerStat.objects.filter(character="").delete()
    GameRecord.objects.all().delete()
    out = StringIO()
    call_command("stats_rebuild", "--reextract", stdout=out)
    assert snapshot() == counted
    assert "games: 1" in out.getvalue()


def test_a_queued_re_extraction_in_chunks_restores_the_records(
    django_capture_on_commit_callbacks, manager,
) -> None:
    from io import StringIO

    from django.core.management import call_command

    players = [PlayerFactory() for _ in range(3)]
    for a, b, winner in ((0, 1, "P1"), (1, 2, "P2"), (2, 0, "P1")):
        confirm(versus(players[a], players[b]), log_won_by(winner, "zane", "gwen"),
                django_capture_on_commit_callbacks)
    counted = snapshot()
    GameRecord.objects.order_by("match_id").first().delete()  # as if its sync never ran
    stats_rebuild()
    assert snapshot() != counted
    out = StringIO()
    call_command("stats_rebuild", "--reextract", "--queue", stdout=out)  # tasks run in-process
    assert "queued in 1 chunks" in out.getvalue()
    assert snapshot() == counted
