"""Simulation jobs and what they store.

Glossary: a *matchup job* plays ``games_per_pair`` self-play games for every ordered pair of its
characters (P1, P2), mirrors included, with one bot. Its work is cut into *chunks*: one ordered
pair and one range of seeds. A chunk's result is one ``MatchupChunk`` row, written in one
transaction once its games are played; the unique constraint on (job, p1, p2, index) means a
redelivered chunk can never be counted twice, and the job's progress is read from these rows.
"""

from __future__ import annotations

import math
from collections.abc import Iterator

from django.conf import settings
from django.db import models


class MatchupJob(models.Model):
    class Status(models.TextChoices):
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    bot = models.CharField(max_length=32)
    games_per_pair = models.PositiveIntegerField()
    chunk_size = models.PositiveIntegerField()
    characters = models.JSONField()  # character ids, in chart order
    base_seed = models.BigIntegerField(default=0)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.RUNNING)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    # When the missing chunks were last handed to the broker (the sweeper waits after it).
    enqueued_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"matchup job {self.pk} ({self.bot}, {self.games_per_pair}/pair)"

    @property
    def chunks_per_pair(self) -> int:
        return math.ceil(self.games_per_pair / self.chunk_size)

    @property
    def chunks_total(self) -> int:
        return len(self.characters) ** 2 * self.chunks_per_pair

    @property
    def games_total(self) -> int:
        return len(self.characters) ** 2 * self.games_per_pair

    def chunk_keys(self) -> Iterator[tuple[str, str, int]]:
        for p1 in self.characters:
            for p2 in self.characters:
                for index in range(self.chunks_per_pair):
                    yield p1, p2, index

    def chunk_seeds(self, index: int) -> range:
        start = index * self.chunk_size
        return range(self.base_seed + start,
                      self.base_seed + min(self.games_per_pair, start + self.chunk_size))


class MatchupChunk(models.Model):
    """The games of one chunk: P1's wins, P2's wins and draws, stored once."""

    job = models.ForeignKey(MatchupJob, on_delete=models.CASCADE, related_name="chunks")
    p1 = models.CharField(max_length=32)
    p2 = models.CharField(max_length=32)
    index = models.PositiveIntegerField()
    games = models.PositiveIntegerField()
    p1_wins = models.PositiveIntegerField()
    p2_wins = models.PositiveIntegerField()
    draws = models.PositiveIntegerField()
    seconds = models.FloatField()  # time spent playing the games
    # The same counts for the chunk's games of odd seed offset (seed - base_seed odd): one
    # half of the chart's seeds, for its split-half reliability. None: stored before these
    # were kept (that job's chart has no split-half figure).
    odd_games = models.PositiveIntegerField(null=True)
    odd_p1_wins = models.PositiveIntegerField(null=True)
    odd_p2_wins = models.PositiveIntegerField(null=True)
    odd_draws = models.PositiveIntegerField(null=True)
    finished_at = models.DateTimeField(auto_now_add=True, db_index=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["job", "p1", "p2", "index"],
                                    name="simulations_chunk_once"),
        ]

    def __str__(self) -> str:
        return f"job {self.job_id}: {self.p1} v {self.p2} #{self.index}"


class StageOdds(models.Model):
    """Simulated odds of one stage's entrants: the *current* odds (recomputed after every
    result) and the *initial* ones (the first computed before any result, kept for calibration).

    ``data``: ``{"columns": [round names], "rows": [{"entrant": id, "name", "reach": {column:
    p}, "top8": p, "win": p, "expected_place": x}], "model": {...}}``.
    """

    class Kind(models.TextChoices):
        CURRENT = "current", "Current"
        INITIAL = "initial", "Before the first result"

    stage = models.ForeignKey("tournaments.Stage", on_delete=models.CASCADE, related_name="+")
    kind = models.CharField(max_length=8, choices=Kind.choices)
    runs = models.PositiveIntegerField()
    results_seen = models.PositiveIntegerField()  # finished sets the simulation followed
    last_change = models.BigIntegerField(default=0)  # the newest SetResultChange id it followed
    seconds = models.FloatField()
    data = models.JSONField()
    computed_at = models.DateTimeField(auto_now=True)

    class Meta:
        constraints = [
            models.UniqueConstraint(fields=["stage", "kind"], name="simulations_stage_odds_once"),
        ]

    def __str__(self) -> str:
        return f"{self.kind} odds of stage {self.stage_id}"
