from django.conf import settings
from django.db import models


class Player(models.Model):
    """A person who plays Yomi on this site; linked to the user account that acts for them."""

    user = models.OneToOneField(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="player"
    )
    display_name = models.CharField(max_length=64, unique=True)
    region = models.CharField(max_length=64, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["display_name"]

    def __str__(self) -> str:
        return self.display_name


class Match(models.Model):
    """A game of Yomi between two sides, standalone or played for an event's set.

    The event's set points here, never the reverse (docs/architecture.md). ``managers`` are the
    users who may act for the match besides its players: the tournaments app sets them to the
    event's organizers.
    """

    class Mode(models.TextChoices):
        VERSUS = "versus", "Versus (1v1)"
        TRIPLE_THREAT = "triple_threat", "Triple Threat"
        TAG_TEAM = "tag_team", "Tag Team (2v2)"
        DRAMATIC_BATTLE = "dramatic_battle", "Dramatic Battle (2v1)"
        # Solo play against the rulebook's bot (RULES.md §12): one player, side 2 is the bot
        TRAINING = "training", "Training (against the bot)"
        SURVIVAL = "survival", "Survival (a run of bots)"

    class Status(models.TextChoices):
        AWAITING_LOG = "awaiting_log", "Awaiting a log"
        VERIFYING = "verifying", "Verifying"
        AWAITING_CONFIRMATION = "awaiting_confirmation", "Awaiting confirmation"
        DISPUTED = "disputed", "Disputed"
        CONFIRMED = "confirmed", "Confirmed"
        # Its owner no longer wants it (the event's set got other entrants): nothing to play.
        CANCELLED = "cancelled", "Cancelled"

    class ResultSource(models.TextChoices):
        NONE = "", "No result"
        LOG = "log", "Verified log"
        # Both sides confirmed a log the engine cannot verify yet (a character or mode it does
        # not play): the claimed result counts, and a later engine's verdict is shown to the
        # organizers (VerdictChange), never applied by itself.
        UNVERIFIED_LOG = "unverified", "Log not verifiable yet, confirmed by both sides"
        OVERRIDE = "override", "Organizer override"

    mode = models.CharField(max_length=20, choices=Mode.choices, default=Mode.VERSUS)
    status = models.CharField(max_length=24, choices=Status.choices, default=Status.AWAITING_LOG)
    managers = models.ManyToManyField(
        settings.AUTH_USER_MODEL, blank=True, related_name="managed_matches"
    )
    created_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    # The result: side 1 or 2 won, or a draw (winner_side None with is_draw).
    winner_side = models.PositiveSmallIntegerField(null=True, blank=True)
    is_draw = models.BooleanField(default=False)
    result_source = models.CharField(
        max_length=10, choices=ResultSource.choices, default=ResultSource.NONE, blank=True
    )
    result_log = models.ForeignKey(
        "MatchLog", null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    # The app that owns the match (tournaments, for an event's set) names a Celery task to run
    # with the match id after each result change: the result flows up without an upward import.
    result_callback_task = models.CharField(max_length=200, blank=True)
    # Outbox mark: set with each result change in the same transaction, cleared once the callback
    # ran. A broker outage only delays the callback: the sweeper re-sends what stays marked.
    result_callback_pending_since = models.DateTimeField(null=True, blank=True, db_index=True)
    created_at = models.DateTimeField(auto_now_add=True)
    updated_at = models.DateTimeField(auto_now=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "matches"
        constraints = [
            models.CheckConstraint(
                condition=models.Q(winner_side__isnull=True) | models.Q(winner_side__in=[1, 2]),
                name="match_winner_side_1_or_2",
            ),
            models.CheckConstraint(
                condition=~(models.Q(is_draw=True) & models.Q(winner_side__isnull=False)),
                name="match_draw_has_no_winner",
            ),
        ]

    def __str__(self) -> str:
        return f"Match {self.pk}"

    @property
    def has_result(self) -> bool:
        return self.is_draw or self.winner_side is not None


#: Modes one person plays against the engine's bot: side 2 has no player (the bot), and the
#: player's endorsement alone makes a verified log the result.
SOLO_MODES = frozenset({Match.Mode.TRAINING.value, Match.Mode.SURVIVAL.value})


class MatchSide(models.Model):
    """A player on side 1 or 2 of a match (Versus: one each; team modes: the roster)."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="sides")
    side = models.PositiveSmallIntegerField(choices=[(1, "Side 1"), (2, "Side 2")])
    player = models.ForeignKey(Player, on_delete=models.PROTECT, related_name="match_sides")
    order = models.PositiveSmallIntegerField(default=0)
    character = models.CharField(max_length=32, blank=True)

    class Meta:
        ordering = ["match", "side", "order"]
        constraints = [
            models.UniqueConstraint(fields=["match", "player"], name="matchside_player_once"),
        ]

    def __str__(self) -> str:
        return f"{self.player} (side {self.side})"


class MatchLog(models.Model):
    """A match log stored exactly as submitted; one row per distinct content per match."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="logs")
    text = models.TextField()
    sha256 = models.CharField(max_length=64)
    size_bytes = models.PositiveIntegerField()
    submitted_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+"
    )
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["match", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["match", "sha256"], name="matchlog_unique_content"),
        ]

    def __str__(self) -> str:
        return f"log {self.sha256[:12]} for match {self.match_id}"


class LogEndorsement(models.Model):
    """Someone vouching for a log: by submitting it (again) or by confirming it.

    A legal log becomes the match result once every side has a player endorsing it.
    """

    class Via(models.TextChoices):
        SUBMISSION = "submission", "Submitted it"
        CONFIRMATION = "confirmation", "Confirmed it"
        # The site's match room recorded the game as it was played (issue 22): each side's
        # player made their own choices there, so the record stands for both sides' word.
        ROOM = "room", "Played it in the match room"

    log = models.ForeignKey(MatchLog, on_delete=models.CASCADE, related_name="endorsements")
    user = models.ForeignKey(settings.AUTH_USER_MODEL, on_delete=models.PROTECT, related_name="+")
    side = models.PositiveSmallIntegerField(null=True, blank=True)  # None: organizer or staff
    via = models.CharField(max_length=12, choices=Via.choices)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["log", "created_at", "id"]
        constraints = [
            models.UniqueConstraint(fields=["log", "user"], name="endorsement_once_per_user"),
        ]

    def __str__(self) -> str:
        return f"{self.user} {self.get_via_display().lower()} log {self.log_id}"


class VerificationBatch(models.Model):
    """Many logs verified again at once (an organizer's bulk re-verification), in chunks."""

    label = models.CharField(max_length=200)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    total = models.PositiveIntegerField(default=0)
    chunk_size = models.PositiveIntegerField(default=50)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "verification batches"

    def __str__(self) -> str:
        return f"batch {self.pk}: {self.label}"


class VerificationRun(models.Model):
    """One replay of a log by the rules engine, with its verdict."""

    class Status(models.TextChoices):
        PENDING = "pending", "Pending"
        RUNNING = "running", "Running"
        LEGAL = "legal", "Legal"
        ILLEGAL = "illegal", "Illegal"
        RESULT_MISMATCH = "result_mismatch", "Result mismatch"
        # A problem the engine cannot judge yet (a character or mode it does not play): not
        # illegal, not final; verified again when the engine version changes.
        UNVERIFIABLE = "unverifiable", "Not verifiable yet"
        ERROR = "error", "Engine error"

    FINISHED_STATUSES = (Status.LEGAL, Status.ILLEGAL, Status.RESULT_MISMATCH,
                         Status.UNVERIFIABLE, Status.ERROR)
    # A log whose newest run has one of these may become the result when both sides vouch.
    ENDORSABLE_STATUSES = (Status.LEGAL, Status.UNVERIFIABLE)

    log = models.ForeignKey(MatchLog, on_delete=models.CASCADE, related_name="runs")
    batch = models.ForeignKey(
        VerificationBatch, null=True, blank=True, on_delete=models.SET_NULL, related_name="runs"
    )
    status = models.CharField(max_length=16, choices=Status.choices, default=Status.PENDING)
    verdict = models.JSONField(default=dict, blank=True)
    engine_version = models.CharField(max_length=32, blank=True)
    duration_ms = models.PositiveIntegerField(null=True, blank=True)
    attempts = models.PositiveSmallIntegerField(default=0)
    requested_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    created_at = models.DateTimeField(auto_now_add=True)
    started_at = models.DateTimeField(null=True, blank=True)
    finished_at = models.DateTimeField(null=True, blank=True)
    # When a task for this run was last handed to the broker (or tried to be): the sweeper
    # re-sends an unfinished run only once it has waited past its deadline since then.
    enqueued_at = models.DateTimeField(null=True, blank=True)
    # Stored analyses, computed in the worker with the verdict by the same engine (a newer
    # release's re-verification computes them again; the same release's keeps the earlier run's,
    # which it would give exactly): pages read these and never replay a log. ``turn_count``
    # is the timeline's length (its turns are TimelineChunk rows); None means not analysed yet
    # (a run finished before analyses were stored: the page says "analysis pending" and
    # ``reverify_stale`` fills it in).
    turn_count = models.PositiveIntegerField(null=True, blank=True)
    # The position before the first illegal event (illegal and not-verifiable-yet verdicts).
    board_before = models.JSONField(null=True, blank=True)

    class Meta:
        ordering = ["log", "-created_at", "-id"]
        indexes = [models.Index(fields=["status"])]

    def __str__(self) -> str:
        return f"run {self.pk} of {self.log}: {self.status}"

    @property
    def is_finished(self) -> bool:
        return self.status in self.FINISHED_STATUSES


class TimelineChunk(models.Model):
    """Consecutive turns of a run's timeline (``TURNS_PER_CHUNK`` each): a page of the match
    page's timeline is one row, so a 17,000-turn log never loads all its turns at once."""

    TURNS_PER_CHUNK = 50

    run = models.ForeignKey(VerificationRun, on_delete=models.CASCADE,
                            related_name="timeline_chunks")
    number = models.PositiveIntegerField()  # turns [number * TURNS_PER_CHUNK, ...) of the list
    turns = models.JSONField(default=list)

    class Meta:
        ordering = ["run", "number"]
        constraints = [
            models.UniqueConstraint(fields=["run", "number"], name="timelinechunk_once"),
        ]

    def __str__(self) -> str:
        return f"timeline chunk {self.number} of run {self.run_id}"


class Dispute(models.Model):
    """Two different legal logs for the same match, or a log its opponent contests; an organizer
    settles it with an override."""

    class Status(models.TextChoices):
        OPEN = "open", "Open"
        RESOLVED = "resolved", "Resolved"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="disputes")
    log_a = models.ForeignKey(MatchLog, on_delete=models.PROTECT, related_name="+")
    # Empty when a player contests the other side's log without sending one of their own.
    log_b = models.ForeignKey(
        MatchLog, null=True, blank=True, on_delete=models.PROTECT, related_name="+"
    )
    opened_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    reason = models.TextField(blank=True)
    # Index of the first event where the two logs differ (None: they differ before the events).
    first_divergence_index = models.PositiveIntegerField(null=True, blank=True)
    divergence = models.JSONField(default=dict, blank=True)
    status = models.CharField(max_length=10, choices=Status.choices, default=Status.OPEN)
    opened_at = models.DateTimeField(auto_now_add=True)
    resolved_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    resolution = models.TextField(blank=True)
    resolved_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-opened_at", "-id"]

    def __str__(self) -> str:
        return f"dispute {self.pk} on match {self.match_id} ({self.status})"


class AuditEntry(models.Model):
    """Who changed what on a match, why and when (overrides, dispute rulings, re-verification)."""

    class Action(models.TextChoices):
        LOG_SUBMITTED = "log_submitted", "Log submitted"
        LOG_ROOM_RECORDED = "log_room_recorded", "Log recorded by the match room"
        LOG_ROOM_REFUSED = "log_room_refused", "The match room's log was refused"
        LOG_CONFIRMED = "log_confirmed", "Log confirmed"
        RESULT_CONFIRMED = "result_confirmed", "Result confirmed"
        DISPUTE_OPENED = "dispute_opened", "Dispute opened"
        RESULT_OVERRIDDEN = "result_overridden", "Result overridden"
        REVERIFY_REQUESTED = "reverify_requested", "Re-verification requested"
        MATCH_CANCELLED = "match_cancelled", "Match cancelled"
        VERDICT_CHANGED = "verdict_changed", "Verdict changed by a newer engine"
        VERDICT_CHANGE_REVIEWED = "verdict_reviewed", "Verdict change reviewed"

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="audit_entries")
    actor = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    action = models.CharField(max_length=24, choices=Action.choices)
    reason = models.TextField(blank=True)
    before = models.JSONField(default=dict, blank=True)
    after = models.JSONField(default=dict, blank=True)
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at", "-id"]
        verbose_name_plural = "audit entries"

    def __str__(self) -> str:
        return f"{self.action} on match {self.match_id}"


class VerdictChange(models.Model):
    """A newer engine's verdict on the log that decided a final result differs from the one the
    result stands on. The result is left as it is: an organizer reviews the change and either
    overrides the result (the override page previews what that changes) or keeps it."""

    match = models.ForeignKey(Match, on_delete=models.CASCADE, related_name="verdict_changes")
    log = models.ForeignKey(MatchLog, on_delete=models.CASCADE, related_name="+")
    run = models.OneToOneField(VerificationRun, on_delete=models.CASCADE, related_name="+")
    # {"status", "winner", "engine_version", "summary"} before and after
    before = models.JSONField(default=dict)
    after = models.JSONField(default=dict)
    created_at = models.DateTimeField(auto_now_add=True)
    reviewed_by = models.ForeignKey(
        settings.AUTH_USER_MODEL, null=True, blank=True, on_delete=models.SET_NULL,
        related_name="+",
    )
    reviewed_at = models.DateTimeField(null=True, blank=True)
    review_note = models.TextField(blank=True)

    class Meta:
        ordering = ["-created_at", "-id"]

    def __str__(self) -> str:
        return f"verdict change on match {self.match_id}: {self.before.get('status')} -> " \
               f"{self.after.get('status')}"

    @property
    def is_open(self) -> bool:
        return self.reviewed_at is None
