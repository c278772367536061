from django.conf import settings
from django.db import models


class Event(models.Model):
    """A Yomi event run by its organizers in one of the rulebook's four modes."""

    class Mode(models.TextChoices):
        VERSUS = "versus", "Versus (1v1)"
        TRIPLE_THREAT = "triple_threat", "Triple Threat"
        TAG_TEAM = "tag_team", "Tag Team (2v2)"
        DRAMATIC_BATTLE = "dramatic_battle", "Dramatic Battle (2v1)"

    class Status(models.TextChoices):
        DRAFT = "draft", "Draft"
        REGISTRATION = "registration", "Registration"
        CHECK_IN = "check_in", "Check-in"
        RUNNING = "running", "Running"
        FINISHED = "finished", "Finished"

    name = models.CharField(max_length=120)
    slug = models.SlugField(max_length=140, unique=True)
    mode = models.CharField(max_length=20, choices=Mode.choices, default=Mode.VERSUS)
    status = models.CharField(max_length=20, choices=Status.choices, default=Status.DRAFT)
    organizers = models.ManyToManyField(settings.AUTH_USER_MODEL, related_name="organized_events")
    created_at = models.DateTimeField(auto_now_add=True)

    class Meta:
        ordering = ["-created_at"]

    def __str__(self) -> str:
        return self.name
