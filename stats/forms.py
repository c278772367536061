"""The filters every statistics page and endpoint takes: mode, event and period (months)."""

from __future__ import annotations

import datetime as dt
import re
from typing import Any

from django import forms

from rules_engine.cards import characters
from stats.selectors import VERSUS_STATS_MODES, Scope
from tournaments.models import Event

MONTH = re.compile(r"^(\d{4})-(\d{2})$")


def _month(value: str, name: str) -> dt.date | None:
    if not value:
        return None
    m = MONTH.match(value.strip())
    if not m or not 1 <= int(m.group(2)) <= 12 or int(m.group(1)) < 1900:
        raise forms.ValidationError(f"{name} must be a month as YYYY-MM, such as 2026-03")
    return dt.date(int(m.group(1)), int(m.group(2)), 1)


class ScopeForm(forms.Form):
    """Query parameters: ``mode``, ``event`` (slug), ``since`` and ``until`` (YYYY-MM)."""

    mode = forms.ChoiceField(
        required=False, choices=[("", "All modes"), *VERSUS_STATS_MODES],
        error_messages={"invalid_choice": "mode must be one of "
                        + ", ".join(m for m, _ in VERSUS_STATS_MODES) + " (or empty for all)"},
    )
    event = forms.SlugField(required=False, max_length=140)
    since = forms.CharField(required=False, max_length=7, help_text="YYYY-MM")
    until = forms.CharField(required=False, max_length=7, help_text="YYYY-MM")

    def clean_event(self) -> Event | None:
        slug = self.cleaned_data.get("event")
        if not slug:
            return None
        event = Event.objects.filter(slug=slug).only("id", "name", "slug").first()
        if event is None:
            raise forms.ValidationError(f"no event with slug {slug!r}")
        return event

    def clean_since(self) -> dt.date | None:
        return _month(self.cleaned_data.get("since") or "", "since")

    def clean_until(self) -> dt.date | None:
        return _month(self.cleaned_data.get("until") or "", "until")

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        since, until = data.get("since"), data.get("until")
        if since and until and since > until:
            self.add_error("until", "until must not be before since")
        return data

    def scope(self) -> Scope:
        data = self.cleaned_data
        return Scope(mode=data.get("mode") or "", event=data.get("event"),
                     since=data.get("since"), until=data.get("until"))

    def error_text(self) -> str:
        """One line naming each wrong parameter and what is wrong with it."""
        return "; ".join(f"{field}: {' '.join(errors)}" for field, errors in self.errors.items())


class CharacterField(forms.CharField):
    """A character id (``grave``); refused with the list of ids when unknown."""

    def clean(self, value: Any) -> str:
        value = super().clean(value)
        if value and value not in characters():
            raise forms.ValidationError(
                f"unknown character {value!r}; one of " + ", ".join(sorted(characters()))
            )
        return str(value or "")


class LeaderboardForm(ScopeForm):
    character = CharacterField(required=False, max_length=32)
    min_games = forms.IntegerField(required=False, min_value=1, max_value=10_000)
