"""Per-game facts of verified results and the aggregates the statistics pages read.

Glossary: a *game record* is one match whose final result is a verified log (``GameRecord``),
with one *side* per seat (``GameSide``: P1 is side 1, P2 side 2) and every combo that hit
(``ComboRecord``). A side row counts the match for its *players* (``for_players``: players'
records, head-to-head) and for its *character* (``for_characters``: character records, the
matchup chart, players' records per character). A Versus side does both. A team match has one
players' row per side and separate character rows (``stats.facts.CreditFacts``): Triple Threat
one per side and *bout* (character against character), Tag Team and Dramatic Battle one per
character that played (``member``), against no opponent character (``""``), so that they stay
out of the one-on-one matchup chart.

The pages never scan those rows: they read *aggregates*, rows keyed by a *scope* (mode, event,
month) that a task updates on each result and the rebuild recomputes.

A scope key uses sentinels for "all": ``mode == ""`` (every mode), ``event_key == 0`` (every
game, with or without an event), ``month == ALL_TIME`` (every month). Each game adds to every
combination of {its mode, all} x {its event, all} x {its month, all}, so any filter by mode,
event and period is a lookup of a few rows (a period sums its months).
"""

from __future__ import annotations

import datetime as dt

from django.db import models

from matches.models import Match, Player
from tournaments.models import Event

ALL_MODES = ""
ALL_EVENTS = 0
ALL_TIME = dt.date(1, 1, 1)
ALL_CHARACTERS = ""

# Counters one side of one game adds to its character's aggregates (GameSide has each).
OPTIONS = ("attack", "throw", "block", "dodge", "joker", "no_card")
SIDE_COUNTERS = (
    "turns",
    "damage_dealt",
    "combos",
    "combo_damage",
    "knockdowns",
    "gold_bursts",
    "rewinds",
    "power_up_jokers",
    "pump_jokers",
    "bluffs",
    *(f"option_{name}" for name in OPTIONS),
    "aces_spent",
    "comebacks",
    "deficit_overcome",
)


class GameRecord(models.Model):
    """One match whose final result is a verified log, with what stats need to place it."""

    match = models.OneToOneField(
        Match, primary_key=True, on_delete=models.CASCADE, related_name="+"
    )
    mode = models.CharField(max_length=20, choices=Match.Mode.choices)
    event = models.ForeignKey(
        Event, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    played_at = models.DateTimeField()
    month = models.DateField()
    turns = models.PositiveSmallIntegerField()
    how = models.CharField(max_length=32, blank=True)
    winner_seat = models.PositiveSmallIntegerField(null=True, blank=True)  # None: a draw
    # What the record was built from (log, verdict run, result, mode, event): an unchanged
    # fingerprint means a redelivered task has nothing to do.
    fingerprint = models.CharField(max_length=64)

    class Meta:
        ordering = ["-played_at", "-match_id"]
        indexes = [models.Index(fields=["month"])]

    def __str__(self) -> str:
        return f"stats of match {self.match_id}"


class SideCounters(models.Model):
    """The counters of one side of a game; aggregates carry the same fields as sums."""

    turns = models.PositiveIntegerField(default=0)
    damage_dealt = models.PositiveIntegerField(default=0)
    combos = models.PositiveIntegerField(default=0)
    combo_damage = models.PositiveIntegerField(default=0)
    knockdowns = models.PositiveIntegerField(default=0)
    gold_bursts = models.PositiveIntegerField(default=0)
    rewinds = models.PositiveIntegerField(default=0)
    power_up_jokers = models.PositiveIntegerField(default=0)
    pump_jokers = models.PositiveIntegerField(default=0)
    bluffs = models.PositiveIntegerField(default=0)
    option_attack = models.PositiveIntegerField(default=0)
    option_throw = models.PositiveIntegerField(default=0)
    option_block = models.PositiveIntegerField(default=0)
    option_dodge = models.PositiveIntegerField(default=0)
    option_joker = models.PositiveIntegerField(default=0)
    option_no_card = models.PositiveIntegerField(default=0)
    aces_spent = models.PositiveIntegerField(default=0)
    comebacks = models.PositiveIntegerField(default=0)  # won after trailing (deficit > 0)
    deficit_overcome = models.PositiveIntegerField(default=0)  # a game: the winner's deficit

    class Meta:
        abstract = True


class GameSide(SideCounters):
    """One seat of a game record (or, in a team match, one character's bout or appearance):
    who played which character against whom, and what they did."""

    class Result(models.TextChoices):
        WIN = "win", "Win"
        LOSS = "loss", "Loss"
        DRAW = "draw", "Draw"

    game = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="sides")
    seat = models.PositiveSmallIntegerField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    character = models.CharField(max_length=32)
    opponent_character = models.CharField(max_length=32)
    result = models.CharField(max_length=4, choices=Result.choices)
    # Team matches: Triple Threat's bout (1, 2, ...) of a character row, else 0; Tag Team and
    # Dramatic Battle's character (1, 2 in the side's seating order) of a character row, else 0.
    bout = models.PositiveSmallIntegerField(default=0)
    member = models.PositiveSmallIntegerField(default=0)
    # What the row counts for: the match for the players (one row per side), the character's
    # record (Versus: the same row; team modes: per bout or per character that played).
    for_players = models.BooleanField(default=True)
    for_characters = models.BooleanField(default=True)
    # The largest damage deficit this side faced at the end of a turn (life lost minus the
    # opponent's), whoever won: life totals differ by character, lost life does not.
    largest_deficit = models.PositiveIntegerField(default=0)
    # Denormalised from the game so that lists filter without a join.
    mode = models.CharField(max_length=20, choices=Match.Mode.choices)
    event_key = models.PositiveIntegerField(default=ALL_EVENTS)
    month = models.DateField()
    played_at = models.DateTimeField()

    class Meta:
        ordering = ["-played_at", "game_id", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["game", "seat", "bout", "member"],
                                    name="gameside_one_per_seat_bout_member"),
            models.CheckConstraint(condition=models.Q(seat__in=[1, 2]), name="gameside_seat"),
        ]
        indexes = [
            models.Index(fields=["player", "-played_at"]),
            models.Index(fields=["character", "-played_at"]),
            models.Index(fields=["character", "-deficit_overcome"]),
        ]

    def __str__(self) -> str:
        return f"{self.player_id} as {self.character} in match {self.game_id}"


class ComboRecord(models.Model):
    """A combo that hit, for the most damaging combos of a character (with filters)."""

    game = models.ForeignKey(GameRecord, on_delete=models.CASCADE, related_name="combo_records")
    seat = models.PositiveSmallIntegerField()
    turn = models.PositiveSmallIntegerField()
    character = models.CharField(max_length=32)
    opponent_character = models.CharField(max_length=32)
    cards = models.JSONField(default=list)
    damage = models.PositiveIntegerField()
    mode = models.CharField(max_length=20, choices=Match.Mode.choices)
    event_key = models.PositiveIntegerField(default=ALL_EVENTS)
    month = models.DateField()

    class Meta:
        ordering = ["-damage", "game_id", "turn"]
        indexes = [models.Index(fields=["character", "-damage"], name="combo_top_by_character")]

    def __str__(self) -> str:
        return f"{self.damage}-damage combo by {self.character} in match {self.game_id}"


class CharacterStat(SideCounters):
    """The games of ``character`` against ``opponent`` in one scope (sums of their character
    rows): Versus games and Triple Threat bouts one-on-one; Tag Team and Dramatic Battle
    appearances against ``opponent == ""`` (not in the matchup chart)."""

    mode = models.CharField(max_length=20, blank=True)
    event_key = models.PositiveIntegerField()
    month = models.DateField()
    character = models.CharField(max_length=32)
    opponent = models.CharField(max_length=32)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)

    KEY = ("mode", "event_key", "month", "character", "opponent")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["mode", "event_key", "month", "character", "opponent"],
                name="characterstat_one_per_key",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.character} vs {self.opponent}: {self.wins}/{self.games}"


class PlayerStat(models.Model):
    """A player's games in one scope, with one character or all (``character == ""``): all
    counts each match once; per character counts its rows (Triple Threat: bouts)."""

    mode = models.CharField(max_length=20, blank=True)
    event_key = models.PositiveIntegerField()
    month = models.DateField()
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    character = models.CharField(max_length=32, blank=True)
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)

    KEY = ("mode", "event_key", "month", "player_id", "character")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["mode", "event_key", "month", "player", "character"],
                name="playerstat_one_per_key",
            ),
        ]
        indexes = [
            models.Index(fields=["mode", "event_key", "month", "character", "-wins"],
                         name="playerstat_leaderboard"),
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} {self.character or 'all'}: {self.wins}/{self.games}"


class HeadToHead(models.Model):
    """A player's games against one opponent, in one mode or all (``mode == ""``)."""

    mode = models.CharField(max_length=20, blank=True)
    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    opponent = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="+")
    games = models.PositiveIntegerField(default=0)
    wins = models.PositiveIntegerField(default=0)
    draws = models.PositiveIntegerField(default=0)

    KEY = ("mode", "player_id", "opponent_id")

    class Meta:
        constraints = [
            models.UniqueConstraint(
                fields=["mode", "player", "opponent"], name="headtohead_one_per_key"
            ),
        ]
        indexes = [models.Index(fields=["player", "mode", "-games"])]

    def __str__(self) -> str:
        return f"{self.player_id} vs {self.opponent_id}: {self.wins}/{self.games}"


class StatsLock(models.Model):
    """One row locked by every aggregate change: updates and the rebuild never interleave."""

    id = models.PositiveSmallIntegerField(primary_key=True, default=1)
    rebuilt_at = models.DateTimeField(null=True, blank=True)

    def __str__(self) -> str:
        return "stats lock"
