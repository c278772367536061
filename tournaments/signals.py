"""Signals the tournaments app sends for apps above it (notifications) to react to."""

from django.dispatch import Signal

# Sent with ``entrant=`` when an entrant is moved off the waitlist into the event.
waitlist_promoted = Signal()

# Sent with ``entrant=`` and ``invited=`` (players) when a player registers a team naming them:
# each must accept or decline their place.
team_invited = Signal()
