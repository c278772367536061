"""Match rooms (issue 22): a game played on the site, recorded choice by choice.

The room's events (``RoomEvent``) are the source of truth: the game is the engine's replay of
them from the room's seed, so a restart or another process loses nothing.
"""

from __future__ import annotations

from django.conf import settings
from django.db import models


class Room(models.Model):
    """One game played on the site: for a match (an event's set, or a standalone match) or for
    practice against a bot (no match)."""

    class Status(models.TextChoices):
        PICKING = "picking", "Picking characters"
        PLAYING = "playing", "Playing"
        FINISHED = "finished", "Finished"

    match = models.OneToOneField(
        "matches.Match", null=True, blank=True, on_delete=models.CASCADE, related_name="room"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.PICKING)
    # The game's mode, as the engine and the log name it (rules_engine.team.Mode): versus,
    # triple_threat (a match's mode), training or survival (practice against the rulebook's bot).
    mode = models.CharField(max_length=20, default="versus")
    # How many events are stored: read with the locked row, it tells whether a process's cached
    # game is current without counting the events.
    version = models.PositiveIntegerField(default=0)
    # Chosen by the server, kept secret until the game ends (then written into the log): a
    # player who knew it could predict every draw. None: a tabletop game played with physical
    # cards, whose draws the players enter (recorded draws).
    seed = models.PositiveBigIntegerField(null=True, blank=True)
    # A tabletop game recorded on one device (its opener's, ``created_by``): the device enters
    # both sides' decisions in turn.
    one_device = models.BooleanField(default=False)
    # The per-decision clock, in seconds (None: no clock). When a decision has been open that
    # long, the seat's default choice is made for it and logged (rooms.services.DEFAULT_KINDS).
    decision_seconds = models.PositiveIntegerField(null=True, blank=True)
    # When the decision now open was opened (the last stored event, or the start).
    decision_since = models.DateTimeField(null=True, blank=True)
    # The seats whose players made at least one choice themselves (not the clock's default):
    # a casual match's room result is vouched for only by the sides that played it.
    chose = models.JSONField(default=list, blank=True)
    # The written log once the game ended (also stored in the match, when there is one).
    log_text = models.TextField(blank=True)
    match_log = models.ForeignKey(
        "matches.MatchLog", null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # {"winner": "P1" | "P2" | None, "how": ..., "turns": n}; empty while playing
    outcome = models.JSONField(default=dict, blank=True)
    # Why the result did not go to the match (it closed meanwhile), if it did not.
    result_problem = models.TextField(blank=True)
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"room {self.pk}"

    @property
    def is_tabletop(self) -> bool:
        return self.seed is None


class RoomSeat(models.Model):
    """A seat of the game (P1, P2, ...): a person, or a bot by its engine name."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="seats")
    seat = models.CharField(max_length=4)  # the engine's PlayerId name: "P1", "P2"
    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.PROTECT,
        related_name="room_seats",
    )
    name = models.CharField(max_length=64)
    bot = models.CharField(max_length=32, blank=True)  # rules_engine.bots.make_bot kind
    # Blank until picked; a pick stays hidden from the others until every seat has picked.
    # A team mode's lineup is its characters in declared order, comma-separated
    # ("grave,jaina,midori"); Survival's bot seat: its run of opponents.
    character = models.CharField(max_length=200, blank=True)
    # The match side (1 or 2) the seat plays for; 0: by its name (P1 and P3 side 1, P2 and P4
    # side 2). A Dramatic Battle's pair may be either side (DB-1).
    side = models.PositiveSmallIntegerField(default=0)
    # The other players of the seat's side (user ids) who may choose for it too: a Triple
    # Threat side of three players controls its one seat together.
    partners = models.JSONField(default=list, blank=True)

    class Meta:
        ordering = ["room", "seat"]
        constraints = [
            models.UniqueConstraint(fields=["room", "seat"], name="roomseat_once"),
            models.CheckConstraint(
                condition=models.Q(user__isnull=False) | ~models.Q(bot=""),
                name="roomseat_person_or_bot",
            ),
        ]

    def __str__(self) -> str:
        return f"{self.seat} of {self.room}: {self.name}"

    @property
    def side_number(self) -> int:
        return self.side or (1 if self.seat in ("P1", "P3") else 2)


class RoomEvent(models.Model):
    """One choice applied by the engine, in order: the log's events."""

    room = models.ForeignKey(Room, on_delete=models.CASCADE, related_name="events")
    index = models.PositiveIntegerField()
    player = models.CharField(max_length=4)
    action = models.JSONField()  # Action.to_json()
    # The character acting (a version-2 log names it); blank for a pick (TT-2, TT-4).
    character = models.CharField(max_length=32, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["room", "index"]
        constraints = [
            models.UniqueConstraint(fields=["room", "index"], name="roomevent_index_once"),
        ]

    def __str__(self) -> str:
        return f"{self.room} #{self.index}: {self.player} {self.action.get('action')}"
