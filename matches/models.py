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
