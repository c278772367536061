"""Team matches in the statistics: Triple Threat bouts are one-on-one games of their two
characters (character records and the matchup chart); Tag Team and Dramatic Battle credit the
team's result to every character that played and stay out of the chart; players count each
match once; Versus rows are as they were; syncing again changes nothing; the rebuild agrees."""

from __future__ import annotations

from functools import cache

import pytest
from django.urls import reverse

from matches.models import Match, VerificationRun
from matches.services import match_create
from rules_engine.selfplay import play_match
from rules_engine.team import Mode
from stats.facts import _bout_winner
from stats.models import (
    ALL_CHARACTERS,
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
from stats.services import game_record_sync, stats_rebuild
from tests.matches.factories import PlayerFactory
from tests.stats.helpers import confirm, log_won_by, snapshot, versus

pytestmark = pytest.mark.django_db

TT_TEAMS = (("grave", "jaina", "rook"), ("lum", "troq", "gwen"))
TAG_TEAMS = (("grave", "jaina"), ("lum", "troq"))


@cache
def _log(mode: Mode, team1: tuple[str, ...], team2: tuple[str, ...], seed: int = 1) -> str:
    return play_match(mode, team1, team2, seed)[1].dumps()


def _played(mode: str, engine_mode: Mode, teams: tuple[tuple[str, ...], ...], capture
            ) -> tuple[Match, dict]:
    a, b = PlayerFactory(), PlayerFactory()
    match = match_create(mode=mode, side_1=[a], side_2=[b])
    confirm(match, _log(engine_mode, *teams), capture)
    run = VerificationRun.objects.filter(log_id=match.result_log_id).latest("created_at")
    return match, run.verdict


def _stat(character: str, opponent: str, mode: str = ALL_MODES) -> CharacterStat | None:
    return CharacterStat.objects.filter(mode=mode, event_key=ALL_EVENTS, month=ALL_TIME,
                                        character=character, opponent=opponent).first()


def _expected_bouts(verdict: dict) -> list[tuple[str, str, str | None]]:
    """(side A's character, side B's, who won: "A", "B" or None) from the verdict's bouts,
    read directly: the character knocked out lost (the engine's words, not the stats')."""
    out = []
    for bout in verdict["facts"]["bouts"]:
        a, b = bout["characters"]
        defeated = bout["defeated"]
        assert len(defeated) == 1 and a != b  # this seed: single knockouts, no mirror
        out.append((a, b, "B" if defeated == [a] else "A"))
    return out


def test_triple_threat_bouts_count_for_both_characters_and_in_the_chart(
        client, django_capture_on_commit_callbacks) -> None:
    match, verdict = _played(Match.Mode.TRIPLE_THREAT, Mode.TRIPLE_THREAT, TT_TEAMS,
                             django_capture_on_commit_callbacks)
    bouts = _expected_bouts(verdict)
    assert len(bouts) >= 3
    expected: dict[tuple[str, str], list[int]] = {}
    for a, b, won in bouts:
        expected.setdefault((a, b), [0, 0])
        expected.setdefault((b, a), [0, 0])
        expected[(a, b)][0] += 1
        expected[(b, a)][0] += 1
        expected[(a, b) if won == "A" else (b, a)][1] += 1
    for (character, opponent), (games, wins) in expected.items():
        for mode in (ALL_MODES, Match.Mode.TRIPLE_THREAT):
            row = _stat(character, opponent, mode)
            assert row is not None and (row.games, row.wins) == (games, wins), \
                (character, opponent, mode)
    assert CharacterStat.objects.filter(mode=ALL_MODES, event_key=ALL_EVENTS,
                                        month=ALL_TIME).count() == len(expected)
    # the chart: every bout once for each character
    chart = client.get(reverse("stats:matchups")).context["chart"]
    assert sum(r.games for r in chart.cells.values()) == 2 * len(bouts)
    for (character, opponent), (games, wins) in expected.items():
        assert (chart.cell(character, opponent).games,
                chart.cell(character, opponent).wins) == (games, wins)
    # the bout's counters add up to the side's over the match (the verdict's)
    for seat, name in ((1, "P1"), (2, "P2")):
        rows = GameSide.objects.filter(game_id=match.pk, seat=seat, for_characters=True)
        assert sorted(rows.values_list("bout", flat=True)) == list(range(1, len(bouts) + 1))
        p = verdict["facts"]["players"][name]
        assert sum(r.damage_dealt for r in rows) == sum(p["damage_dealt"].values())
        assert sum(r.knockdowns for r in rows) == p["knockdowns_inflicted"]
        assert sum(r.combos for r in rows) == p["combos"]
        assert sum(r.turns for r in rows) == verdict["final"]["turns"]
    # combos belong to the bout's characters
    bout_of = {b["bout"]: b for b in verdict["facts"]["bouts"]}
    for combo in ComboRecord.objects.filter(game_id=match.pk):
        bout = next(b for b in bout_of.values()
                    if b["turns"][0] <= combo.turn <= (b["turns"][1] or 10**6))
        assert combo.character == bout["characters"][combo.seat - 1]
        assert combo.opponent_character == bout["characters"][2 - combo.seat]
    # the players: the match once (won by the verdict's winner), head-to-head once
    winner = 1 if verdict["final"]["winner"] == "P1" else 2
    for side in match.sides.all():
        overall = PlayerStat.objects.get(mode=ALL_MODES, event_key=ALL_EVENTS, month=ALL_TIME,
                                         player=side.player, character=ALL_CHARACTERS)
        assert (overall.games, overall.wins) == (1, int(side.side == winner))
        h2h = HeadToHead.objects.get(mode=ALL_MODES, player=side.player)
        assert (h2h.games, h2h.wins) == (1, int(side.side == winner))
        # per character, the player's bouts (as on the character pages)
        per_character = PlayerStat.objects.filter(
            mode=ALL_MODES, event_key=ALL_EVENTS, month=ALL_TIME, player=side.player,
        ).exclude(character=ALL_CHARACTERS)
        assert sum(r.games for r in per_character) == len(bouts)
        assert sum(r.wins for r in per_character) == sum(
            1 for _, _, won in bouts if won == ("A" if side.side == 1 else "B"))


def test_tag_team_credits_every_character_and_adds_nothing_to_the_chart(
        client, django_capture_on_commit_callbacks) -> None:
    match, verdict = _played(Match.Mode.TAG_TEAM, Mode.TAG_TEAM, TAG_TEAMS,
                             django_capture_on_commit_callbacks)
    winner = verdict["final"]["winner"]
    assert winner in ("P1", "P2")  # this seed is not a draw
    for side, team in zip(("P1", "P2"), TAG_TEAMS, strict=True):
        for character in team:
            for mode in (ALL_MODES, Match.Mode.TAG_TEAM):
                row = _stat(character, "", mode)
                assert row is not None and (row.games, row.wins) == (1, int(side == winner))
            assert _stat(character, "", Match.Mode.VERSUS) is None  # mode-filtered
            page = client.get(reverse("stats:character", args=[character]),
                              {"mode": "tag_team"}).context["stats"]
            assert (page.overall.games, page.overall.wins) == (1, int(side == winner))
            assert all(m.record.games == 0 for m in page.matchups)  # no one-on-one opponent
    assert CharacterStat.objects.exclude(opponent="").count() == 0
    chart = client.get(reverse("stats:matchups")).context["chart"]
    assert sum(r.games for r in chart.cells.values()) == 0
    assert "Versus games and Triple Threat bouts" in client.get(
        reverse("stats:matchups")).content.decode()
    for side in match.sides.all():
        overall = PlayerStat.objects.get(mode=ALL_MODES, event_key=ALL_EVENTS, month=ALL_TIME,
                                         player=side.player, character=ALL_CHARACTERS)
        assert overall.games == 1
    assert HeadToHead.objects.filter(mode=ALL_MODES).count() == 2


def test_dramatic_battle_credits_the_lone_character_and_the_pair(
        django_capture_on_commit_callbacks) -> None:
    teams = (("grave",), ("lum", "troq"))
    _, verdict = _played(Match.Mode.DRAMATIC_BATTLE, Mode.DRAMATIC_BATTLE, teams,
                         django_capture_on_commit_callbacks)
    winner = verdict["final"]["winner"]
    for side, team in zip(("P1", "P2"), teams, strict=True):
        for character in team:
            row = _stat(character, "", Match.Mode.DRAMATIC_BATTLE)
            assert row is not None and (row.games, row.wins) == (1, int(side == winner))
    assert CharacterStat.objects.exclude(opponent="").count() == 0


def test_versus_rows_are_unchanged(django_capture_on_commit_callbacks) -> None:
    """A Versus game: one row per seat, counting for the players and the characters."""
    a, b = PlayerFactory(), PlayerFactory()
    match = confirm(versus(a, b), log_won_by("P1", "setsuki", "rook"),
                    django_capture_on_commit_callbacks)
    rows = list(GameSide.objects.filter(game_id=match.pk).order_by("seat")
                .values_list("seat", "bout", "member", "for_players", "for_characters",
                             "character", "opponent_character", "result"))
    assert rows == [(1, 0, 0, True, True, "setsuki", "rook", "win"),
                    (2, 0, 0, True, True, "rook", "setsuki", "loss")]
    assert (_stat("setsuki", "rook").games, _stat("setsuki", "rook").wins) == (1, 1)
    per_character = PlayerStat.objects.get(mode=ALL_MODES, event_key=ALL_EVENTS,
                                           month=ALL_TIME, player=a, character="setsuki")
    assert (per_character.games, per_character.wins) == (1, 1)


def test_sync_again_and_rebuild_change_nothing(django_capture_on_commit_callbacks) -> None:
    tt, _ = _played(Match.Mode.TRIPLE_THREAT, Mode.TRIPLE_THREAT, TT_TEAMS,
                    django_capture_on_commit_callbacks)
    tag, _ = _played(Match.Mode.TAG_TEAM, Mode.TAG_TEAM, TAG_TEAMS,
                     django_capture_on_commit_callbacks)
    counted = snapshot()
    rows = GameSide.objects.count()
    for _ in range(2):
        game_record_sync(match_id=tt.pk)
        game_record_sync(match_id=tag.pk)
    assert snapshot() == counted and GameSide.objects.count() == rows
    stats_rebuild()
    assert snapshot() == counted
    stats_rebuild(reextract=True)
    assert snapshot() == counted and GameSide.objects.count() == rows


def test_reextract_backfills_a_team_record_stored_before_the_character_rows(
        django_capture_on_commit_callbacks) -> None:
    """A record stored before: one row per side counting for both (the last characters), an
    older fingerprint. ``stats_rebuild --reextract`` brings it to the bouts."""
    tt, _ = _played(Match.Mode.TRIPLE_THREAT, Mode.TRIPLE_THREAT, TT_TEAMS,
                    django_capture_on_commit_callbacks)
    counted = snapshot()
    GameSide.objects.filter(game_id=tt.pk, for_players=False).delete()
    GameSide.objects.filter(game_id=tt.pk).update(for_characters=True)
    GameRecord.objects.filter(pk=tt.pk).update(fingerprint="before")
    stats_rebuild()
    assert snapshot() != counted
    assert CharacterStat.objects.filter(mode=ALL_MODES, event_key=ALL_EVENTS,
                                        month=ALL_TIME).count() == 2  # the last pair only
    stats_rebuild(reextract=True)
    assert snapshot() == counted


@pytest.mark.parametrize(("bouts", "match_winner", "expected"), [
    ([{"characters": ["a", "b"], "defeated": ["a", "b"], "defeated_sides": ["P1", "P2"]}], 1,
     [None]),  # a double knockout
    ([{"characters": ["a", "b"], "defeated": [], "defeated_sides": []}], 2, [2]),  # a time-out
    ([{"characters": ["a", "b"], "defeated": [], "defeated_sides": []}], None, [None]),  # drawn
    # a mirror bout: the two characters share an id, the side the game recorded says who fell
    ([{"characters": ["a", "a"], "defeated": ["a"], "defeated_sides": ["P2"]},
      {"characters": ["a", "c"], "defeated": ["c"], "defeated_sides": ["P2"]}], None, [1, 1]),
    ([{"characters": ["a", "a"], "defeated": ["a"], "defeated_sides": ["P1"]}], 2, [2]),
])
def test_bout_winner(bouts: list[dict], match_winner: int | None, expected: list) -> None:
    assert [_bout_winner(bouts, i, match_winner) for i in range(len(bouts))] == expected
