from __future__ import annotations

from django.conf import settings
from django.db import models


class Notification(models.Model):
    """One message in a user's inbox (and, unless they opted out, in their e-mail)."""

    class Kind(models.TextChoices):
        SET_READY = "set_ready", "Your set is ready"
        LOG_SUBMITTED = "log_submitted", "Your opponent submitted a log"
        DISPUTE_OPENED = "dispute_opened", "A dispute was opened"
        WAITLIST_PROMOTED = "waitlist_promoted", "You were moved off the waitlist"
        SCORE_REPORTED = "score_reported", "Your opponent reported a score"
        SCORE_DISPUTED = "score_disputed", "A reported score was disputed"
        TEAM_INVITATION = "team_invitation", "You were invited to a team"
        LOG_REFUSED = "log_refused", "A match log was refused"
        VERDICT_CHANGED = "verdict_changed", "A result's verdict changed"
        RESULT_NOT_APPLIED = "result_not_applied", "A match result was not credited to its set"

    user = models.ForeignKey(
        settings.AUTH_USER_MODEL, on_delete=models.CASCADE, related_name="notifications"
    )
    kind = models.CharField(max_length=32, choices=Kind.choices)
    text = models.CharField(max_length=300)
    url = models.CharField(max_length=300, blank=True)
    # What it is about ("set:12"), so a set saved again while ready is announced once.
    subject = models.CharField(max_length=64)
    created_at = models.DateTimeField(auto_now_add=True)
    read_at = models.DateTimeField(null=True, blank=True)
    emailed_at = models.DateTimeField(null=True, blank=True)

    class Meta:
        ordering = ["-created_at", "-pk"]
        indexes = [models.Index(fields=["user", "read_at"], name="notification_unread")]
        constraints = [
            models.UniqueConstraint(
                fields=["user", "kind", "subject"], name="notification_once_per_subject"
            ),
        ]

    def __str__(self) -> str:
        return self.text

    @property
    def is_read(self) -> bool:
        return self.read_at is not None
