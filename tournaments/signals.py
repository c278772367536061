"""Signals the tournaments app sends for apps above it (notifications) to react to."""

from django.dispatch import Signal

# Sent with ``entrant=`` when an entrant is moved off the waitlist into the event.
waitlist_promoted = Signal()
