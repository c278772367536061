"""Events, entrants and their rosters, stages, sets and games, ratings.

Glossary
- *event*: what organizers run (a weekly, an invitational, a league season); it has one mode.
- *entrant*: who takes a place in the bracket: one player (Versus, Triple Threat with a
  3-character lineup) or a team (Tag Team: 2 players; Dramatic Battle: a side of 2 or of 1;
  Triple Threat: 3 players with one character each).
- *stage*: one format inside an event (groups, then a double-elimination playoff, ...).
- *set*: two sides playing best of N games; *game*: one game of Yomi inside a set.

Models hold data and invariants (``clean``); business flows live in ``services/`` and reads in
``selectors.py``.
"""

from __future__ import annotations

from django.conf import settings
from django.core.exceptions import ValidationError
from django.db import models

from matches.models import SOLO_MODES, Match, Player, VerificationBatch


def _validate_best_of(value: int) -> None:
    if value < 1 or value > 15 or value % 2 == 0:
        raise ValidationError(f"best of {value}: use an odd number from 1 to 15", code="best_of")


# The room clock an event may set (issue 22): seconds per decision, within these bounds.
ROOM_DECISION_SECONDS = (5, 3600)


def _validate_room_decision_seconds(value: int) -> None:
    low, high = ROOM_DECISION_SECONDS
    if not low <= value <= high:
        raise ValidationError(
            f"a decision clock of {value} seconds: use {low} to {high} seconds, or leave it "
            "empty for no clock", code="room_decision_seconds")


# events are played between players: every mode but the solo ones (Training, Survival)
EVENT_MODE_CHOICES = [(value, label) for value, label in Match.Mode.choices
                      if value not in SOLO_MODES]


class Event(models.Model):
    """A Yomi event run by its organizers in one of the rulebook's four modes."""

    # The rulebook's four modes, shared with the matches an event's sets are played in.
    Mode = Match.Mode

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        REGISTRATION = "registration", "Registration"
        CHECK_IN = "check_in", "Check-in"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    class CharacterRule(models.TextChoices):
        FREE = "free", "Double-blind pick every game"
        WINNER_LOCKED = "winner_locked", "Double-blind first game; winner locked, loser may switch"
        LOCKED = "locked", "Locked for the set"

    class ResultPolicy(models.TextChoices):
        LOG = "log", "Verified match logs"
        SELF_REPORT = "self_report", "Self-reported scores, confirmed by the opponent"

    # Roster sizes each mode accepts (an entrant's number of players).
    ROSTER_SIZES: dict[str, tuple[int, ...]] = {
        Mode.VERSUS: (1,),
        Mode.TRIPLE_THREAT: (1, 3),
        Mode.TAG_TEAM: (2,),
        Mode.DRAMATIC_BATTLE: (1, 2),
    }

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    description = models.TextField(blank=True)
    mode = models.CharField(max_length=20, default=Mode.VERSUS, choices=EVENT_MODE_CHOICES)
    ruleset = models.CharField(max_length=64, default="standard")
    best_of = models.PositiveSmallIntegerField(default=3, validators=[_validate_best_of])
    top_best_of = models.PositiveSmallIntegerField(default=5, validators=[_validate_best_of])
    top_rounds = models.PositiveSmallIntegerField(
        default=0, help_text="How many final rounds of each elimination bracket use top_best_of."
    )
    grand_final_best_of = models.PositiveSmallIntegerField(
        default=5, validators=[_validate_best_of]
    )
    character_rule = models.CharField(
        max_length=20, choices=CharacterRule.choices, default=CharacterRule.WINNER_LOCKED
    )
    # Self-reported results count once the opponent confirms them, marked unverified (no log).
    result_policy = models.CharField(
        max_length=12, choices=ResultPolicy.choices, default=ResultPolicy.LOG
    )
    # The per-decision clock of the match rooms of this event's sets (None: no clock); when a
    # decision's time runs out the room makes the default choice and logs it (docs/rooms.md).
    room_decision_seconds = models.PositiveIntegerField(
        null=True, blank=True, validators=[_validate_room_decision_seconds],
        help_text="Seconds per decision in the match rooms of this event. Empty: no clock.",
    )
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    max_entrants = models.PositiveIntegerField(null=True, blank=True)
    check_in_opens_at = models.DateTimeField(null=True, blank=True)
    check_in_closes_at = models.DateTimeField(null=True, blank=True)
    starts_at = models.DateTimeField(null=True, blank=True)
    organizers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organized_events")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name

    def clean(self) -> None:
        if self.max_entrants is not None and not 2 <= self.max_entrants <= 4096:
            raise ValidationError({"max_entrants": "an event takes 2 to 4,096 entrants"})
        if (
            self.check_in_opens_at
            and self.check_in_closes_at
            and self.check_in_closes_at <= self.check_in_opens_at
        ):
            raise ValidationError({"check_in_closes_at": "check-in must close after it opens"})

    @property
    def roster_sizes(self) -> tuple[int, ...]:
        return self.ROSTER_SIZES[self.mode]

    def is_organizer(self, user: object) -> bool:
        if not getattr(user, "is_authenticated", False):
            return False
        if getattr(user, "is_staff", False):
            return True
        return self.organizers.filter(pk=user.pk).exists()  # type: ignore[attr-defined]


class Entrant(models.Model):
    """A place in the event: one player or a team with its roster (see ``EntrantMember``)."""

    class Status(models.TextChoices):
        # A team registered by one of its players: the others have not all accepted yet.
        INVITED = "invited", "Waiting for teammates to accept"
        REGISTERED = "registered", "Registered"
        WAITLISTED = "waitlisted", "Waitlisted"
        WITHDRAWN = "withdrawn", "Withdrawn"
        REMOVED = "removed", "Removed (did not check in)"
        DISQUALIFIED = "disqualified", "Disqualified"

    ACTIVE_STATUSES = (Status.REGISTERED, Status.DISQUALIFIED)

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="entrants")
    name = models.CharField(max_length=120)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.REGISTERED)
    seed = models.PositiveIntegerField(null=True, blank=True)
    # Triple Threat solo entrants name three characters in order; others may leave it empty.
    lineup = models.JSONField(default=list, blank=True)
    registered_at = models.DateTimeField(auto_now_add=True)
    checked_in_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["event", "seed", "registered_at", "id"]
        constraints = [
            models.UniqueConstraint(
                fields=["event", "seed"], name="entrant_unique_seed_per_event",
                condition=models.Q(seed__isnull=False),
            ),
        ]

    def __str__(self) -> str:
        return self.name

    @property
    def is_checked_in(self) -> bool:
        return self.checked_in_at is not None


class EntrantMember(models.Model):
    """A player on an entrant's roster; a player is on at most one roster per event."""

    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="members")
    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="+")
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="entries")
    order = models.PositiveSmallIntegerField(default=0)
    character = models.CharField(max_length=32, blank=True)
    # False: invited by a teammate and not yet accepted (the player's consent is required; an
    # organizer's registration needs none). Only accepted places count as taken.
    is_accepted = models.BooleanField(default=True)

    class Meta:
        ordering = ["entrant", "order"]
        constraints = [
            models.UniqueConstraint(fields=["event", "player"], name="member_one_roster_per_event"),
        ]

    def __str__(self) -> str:
        return f"{self.player} in {self.entrant}"

    def clean(self) -> None:
        if self.entrant_id and self.event_id and self.entrant.event_id != self.event_id:
            raise ValidationError("a roster member belongs to its entrant's event")


class Stage(models.Model):
    """One format inside an event; stages run in ``order`` (groups, then playoffs, ...)."""

    class Kind(models.TextChoices):
        SINGLE_ELIMINATION = "single_elimination", "Single elimination"
        DOUBLE_ELIMINATION = "double_elimination", "Double elimination"
        ROUND_ROBIN = "round_robin", "Round robin (groups)"
        SWISS = "swiss", "Swiss"
        LEAGUE = "league", "League season"

    class Status(models.TextChoices):
        PENDING = "pending", "Not generated"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    ELIMINATION_KINDS = (Kind.SINGLE_ELIMINATION, Kind.DOUBLE_ELIMINATION)
    TABLE_KINDS = (Kind.ROUND_ROBIN, Kind.SWISS, Kind.LEAGUE)

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="stages")
    order = models.PositiveSmallIntegerField(default=1)
    name = models.CharField(max_length=80)
    kind = models.CharField(max_length=24, choices=Kind.choices)
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    third_place = models.BooleanField(default=False)
    grand_final_reset = models.BooleanField(default=True)
    group_count = models.PositiveSmallIntegerField(default=1)
    swiss_rounds = models.PositiveSmallIntegerField(null=True, blank=True)
    # How many entrants this stage hands to the next (per group for round robin); null = all.
    advance_count = models.PositiveIntegerField(null=True, blank=True)
    tiebreaks = models.JSONField(default=list, blank=True)
    # League seasons: round k's match window opens at starts_at + (k-1) * round_days.
    starts_at = models.DateTimeField(null=True, blank=True)
    round_days = models.PositiveSmallIntegerField(default=7)
    current_round = models.PositiveSmallIntegerField(default=0)

    class Meta:
        ordering = ["event", "order"]
        constraints = [
            models.UniqueConstraint(fields=["event", "order"], name="stage_unique_order"),
        ]

    def __str__(self) -> str:
        return f"{self.event}: {self.name}"

    def clean(self) -> None:
        if self.kind == self.Kind.SWISS and not self.swiss_rounds:
            raise ValidationError({"swiss_rounds": "a Swiss stage needs its number of rounds"})
        if self.group_count < 1:
            raise ValidationError({"group_count": "at least one group"})
        if self.kind == self.Kind.LEAGUE and self.starts_at is None:
            raise ValidationError({"starts_at": "a league season needs a start date"})

    @property
    def is_elimination(self) -> bool:
        return self.kind in self.ELIMINATION_KINDS


class StageEntry(models.Model):
    """An entrant's place in a stage: its seed there and, for round robin, its group."""

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="entries")
    entrant = models.ForeignKey(Entrant, on_delete=models.CASCADE, related_name="stage_entries")
    seed = models.PositiveIntegerField()
    group = models.PositiveSmallIntegerField(null=True, blank=True)

    class Meta:
        ordering = ["stage", "seed"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "entrant"], name="entry_unique_entrant"),
            models.UniqueConstraint(fields=["stage", "seed"], name="entry_unique_seed"),
        ]

    def __str__(self) -> str:
        return f"{self.entrant_id} seed {self.seed} in {self.stage_id}"


class Set(models.Model):
    """Two sides playing best of N games. Slots fill from seeds or from earlier sets."""

    class Bracket(models.TextChoices):
        WINNERS = "winners", "Winners"
        LOSERS = "losers", "Losers"
        GRAND_FINAL = "grand_final", "Grand final"
        THIRD_PLACE = "third_place", "Third place"
        ROUND_ROBIN = "round_robin", "Round robin"
        SWISS = "swiss", "Swiss"

    class Status(models.TextChoices):
        WAITING = "waiting", "Waiting for entrants"
        READY = "ready", "Ready"
        FINISHED = "finished", "Finished"
        SKIPPED = "skipped", "Not needed"

    class Outcome(models.TextChoices):
        PLAYED = "played", "Played"
        BYE = "bye", "Bye"
        FORFEIT = "forfeit", "Forfeit"
        DISQUALIFICATION = "dq", "Disqualification"
        DOUBLE_FORFEIT = "double_forfeit", "Double forfeit"

    stage = models.ForeignKey(Stage, on_delete=models.CASCADE, related_name="sets")
    key = models.CharField(max_length=32)
    bracket = models.CharField(max_length=12, choices=Bracket.choices)
    round = models.PositiveSmallIntegerField()
    round_name = models.CharField(max_length=40, blank=True)
    position = models.PositiveIntegerField()
    group = models.PositiveSmallIntegerField(null=True, blank=True)
    # Where each side comes from: {"kind": "seed"|"winner"|"loser"|"bye", "seed": .., "set_key": ..}
    source_a = models.JSONField(default=dict, blank=True)
    source_b = models.JSONField(default=dict, blank=True)
    winner_to_key = models.CharField(max_length=32, blank=True)
    winner_to_side = models.CharField(max_length=1, blank=True)
    loser_to_key = models.CharField(max_length=32, blank=True)
    loser_to_side = models.CharField(max_length=1, blank=True)
    is_conditional = models.BooleanField(default=False)
    entrant_a = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    entrant_b = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    is_bye_a = models.BooleanField(default=False)
    is_bye_b = models.BooleanField(default=False)
    best_of = models.PositiveSmallIntegerField(default=3, validators=[_validate_best_of])
    score_a = models.PositiveSmallIntegerField(default=0)
    score_b = models.PositiveSmallIntegerField(default=0)
    winner = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    loser = models.ForeignKey(
        Entrant, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.WAITING)
    outcome = models.CharField(max_length=16, choices=Outcome.choices, blank=True)
    window_opens_at = models.DateTimeField(null=True, blank=True)
    window_closes_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["stage", "bracket", "round", "position"]
        constraints = [
            models.UniqueConstraint(fields=["stage", "key"], name="set_unique_key"),
        ]
        indexes = [models.Index(fields=["stage", "status"])]

    def __str__(self) -> str:
        return f"{self.round_name or self.key}: {self.matchup}"

    @property
    def matchup(self) -> str:
        """The two sides, without the round's name (a page that names the round already)."""
        return f"{self.side_label('a')} vs {self.side_label('b')}"

    @property
    def wins_needed(self) -> int:
        return self.best_of // 2 + 1

    def side_label(self, side: str) -> str:
        entrant = self.entrant_a if side == "a" else self.entrant_b
        if entrant is not None:
            return entrant.name
        if self.is_bye_a if side == "a" else self.is_bye_b:
            return "bye"
        return "TBD"

    def clean(self) -> None:
        if self.status == self.Status.FINISHED and self.outcome == "":
            raise ValidationError("a finished set records its outcome")
        if self.winner_id and self.winner_id not in (self.entrant_a_id, self.entrant_b_id):
            raise ValidationError("the winner must be one of the set's sides")
        if max(self.score_a, self.score_b) > self.wins_needed:
            raise ValidationError(f"best of {self.best_of}: at most {self.wins_needed} wins")


class Game(models.Model):
    """One game of a set: the characters each side used and which side won.

    ``match`` is the verified match (log) that decided the game; empty when an organizer reported
    the result directly.
    """

    set = models.ForeignKey(Set, on_delete=models.CASCADE, related_name="games")
    number = models.PositiveSmallIntegerField()
    winner_side = models.CharField(max_length=1, choices=[("a", "Side A"), ("b", "Side B")])
    characters_a = models.JSONField(default=list, blank=True)
    characters_b = models.JSONField(default=list, blank=True)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    played_at = models.DateTimeField()
    match = models.OneToOneField(
        Match, null=True, blank=True, on_delete=models.SET_NULL, related_name="set_game"
    )

    class Meta:
        ordering = ["set", "number"]
        constraints = [
            models.UniqueConstraint(fields=["set", "number"], name="game_unique_number"),
        ]

    def __str__(self) -> str:
        return f"{self.set} game {self.number}"


class SetMatch(models.Model):
    """A match played for a set: once its result is final it becomes one of the set's games.

    The match names ``tournaments.tasks.set_match_result_record_task`` as its result callback,
    so a confirmed or overridden result flows into the set without matches importing us.
    """

    set = models.ForeignKey(Set, on_delete=models.CASCADE, related_name="set_matches")
    match = models.OneToOneField(Match, on_delete=models.CASCADE, related_name="set_link")
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    # True once the match's result was written to the set (a game, or a draw to replay).
    is_recorded = models.BooleanField(default=False)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["set", "created_at", "id"]

    def __str__(self) -> str:
        return f"match {self.match_id} for set {self.set_id}"


class EventVerification(models.Model):
    """An organizer's bulk re-verification of every match log of the event."""

    event = models.ForeignKey(Event, on_delete=models.CASCADE, related_name="verifications")
    batch = models.OneToOneField(VerificationBatch, on_delete=models.CASCADE, related_name="+")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"re-verification {self.batch_id} of {self.event}"


class SetResultChange(models.Model):
    """Audit row: who reported, corrected, forfeited or disqualified, and why."""

    set = models.ForeignKey(Set, on_delete=models.CASCADE, related_name="changes")
    changed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    action = models.CharField(max_length=24)
    reason = models.TextField(blank=True)
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    reset_set_keys = models.JSONField(default=list)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"{self.action} on set {self.set_id}"


class PlayerRating(models.Model):
    """A player's current OpenSkill rating (Plackett-Luce), rebuilt from finished games."""

    player = models.OneToOneField(Player, on_delete=models.CASCADE, related_name="rating")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField(db_index=True)
    games = models.PositiveIntegerField(default=0)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-ordinal"]

    def __str__(self) -> str:
        return f"player {self.player_id}: {self.ordinal:.2f}"


class RatingHistory(models.Model):
    """A player's rating after one game, in time order."""

    player = models.ForeignKey(Player, on_delete=models.CASCADE, related_name="rating_history")
    game = models.ForeignKey(Game, on_delete=models.CASCADE, related_name="+")
    mu = models.FloatField()
    sigma = models.FloatField()
    ordinal = models.FloatField()
    recorded_at = models.DateTimeField()

    class Meta:
        ordering = ["player", "recorded_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["player", "game"], name="rating_once_per_game"),
        ]

    def __str__(self) -> str:
        return f"player {self.player_id} after game {self.game_id}: {self.ordinal:.2f}"


class CharacterPick(models.Model):
    """A side's character for one game of a set, committed before the game is played.

    Blind picks (game 1, and every game under the free rule) stay hidden until both sides have
    locked: until then no page or API shows ``character``, and ``digest`` (SHA-256 of the set,
    game, side, character and a server-side nonce) lets anyone holding the reveal check that the
    pick was not changed after the other side's. Open picks (the loser's, after a game) are
    revealed when locked.
    """

    set = models.ForeignKey(Set, on_delete=models.CASCADE, related_name="picks")
    game_number = models.PositiveSmallIntegerField()
    side = models.CharField(max_length=1, choices=[("a", "Side A"), ("b", "Side B")])
    character = models.CharField(max_length=32)
    nonce = models.CharField(max_length=64)
    digest = models.CharField(max_length=64)
    is_blind = models.BooleanField(default=True)
    picked_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL, related_name="+"
    )
    locked_at = models.DateTimeField(auto_now_add=True)
    revealed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["set", "game_number", "side"]
        constraints = [
            models.UniqueConstraint(
                fields=["set", "game_number", "side"], name="pick_once_per_game_and_side"
            ),
        ]

    def __str__(self) -> str:
        return f"set {self.set_id} game {self.game_number} side {self.side}"

    @property
    def is_revealed(self) -> bool:
        return self.revealed_at is not None


class SetReport(models.Model):
    """A player's report of a set's score, waiting for the opponent (self-reporting events).

    Confirmed, it becomes the set's result (marked self-reported: no verified log); disputed,
    an organizer decides the set.
    """

    class Status(models.TextChoices):
        PENDING = "pending", "Waiting for the opponent"
        CONFIRMED = "confirmed", "Confirmed"
        DISPUTED = "disputed", "Disputed"
        SUPERSEDED = "superseded", "Superseded"

    set = models.ForeignKey(Set, on_delete=models.CASCADE, related_name="reports")
    side = models.CharField(max_length=1, choices=[("a", "Side A"), ("b", "Side B")])
    games = models.JSONField(default=list)
    forfeit = models.CharField(max_length=4, blank=True)
    reported_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, on_delete=models.SET_NULL, related_name="+"
    )
    status = models.CharField(max_length=12, choices=Status.choices, default=Status.PENDING)
    answered_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    reason = models.TextField(blank=True)
    created_at = models.DateTimeField(auto_now_add=True)
    answered_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"report by side {self.side} on set {self.set_id}"

    @property
    def score(self) -> tuple[int, int]:
        return (sum(1 for g in self.games if g.get("winner_side") == "a"),
                sum(1 for g in self.games if g.get("winner_side") == "b"))
