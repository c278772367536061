"""Forms for the event pages; they only shape input for the services."""

from __future__ import annotations

from typing import Any

from django import forms

from matches.models import Player
from tournaments.models import Event, Set, Stage
from tournaments.services.advancement import GameInput, SetResult
from tournaments.services.seeding import METHODS


def _names(value: str) -> list[str]:
    return [part.strip() for part in value.split(",") if part.strip()]


class RegisterForm(forms.Form):
    """Register yourself; team modes name the team and the teammates (display names)."""

    name = forms.CharField(max_length=120, required=False, label="Team name")
    teammates = forms.CharField(
        required=False, help_text="Display names of your teammates, separated by commas."
    )
    lineup = forms.CharField(
        required=False, label="Lineup",
        help_text="Triple Threat alone: your 3 characters in order, separated by commas.",
    )

    characters = forms.CharField(
        required=False, label="Characters",
        help_text="Team modes: each player's character, you first, then your teammates in the "
        "order above, separated by commas (or leave empty).",
    )

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.event = event
        if max(event.roster_sizes) == 1:
            del self.fields["name"]
            del self.fields["teammates"]
            # Versus picks characters game by game (double-blind); nothing to declare.
            del self.fields["characters"]
        if event.mode != Event.Mode.TRIPLE_THREAT:
            del self.fields["lineup"]
        else:
            # A Triple Threat player usually plays alone with a lineup: the team fields are
            # the exception, and say so (issue 35: the form read as if a team were needed).
            self.fields["lineup"].help_text = (
                "Your 3 characters in the order you declare them, separated by commas.")
            self.fields["name"].label = "Team name (a team of three only)"
            self.fields["teammates"].label = "Teammates (a team of three only)"
            self.fields["teammates"].help_text = (
                "Leave empty to play alone. A team of three: your two teammates' display "
                "names, separated by commas (each plays one character; then name the "
                "characters below instead of a lineup).")
            self.fields["characters"].label = "Characters (a team of three only)"

    def clean_characters(self) -> list[str]:
        return _names(self.cleaned_data.get("characters", ""))

    def clean_teammates(self) -> list[Player]:
        names = _names(self.cleaned_data.get("teammates", ""))
        by_name = {p.display_name: p for p in Player.objects.filter(display_name__in=names)}
        unknown = sorted(set(names) - set(by_name))
        if unknown:
            raise forms.ValidationError(f"no player called {', '.join(unknown)}")
        return [by_name[n] for n in names]  # in the order given: characters follow it

    def clean_lineup(self) -> list[str]:
        return _names(self.cleaned_data.get("lineup", ""))


class SetResultForm(forms.Form):
    """One row per possible game (winner side and characters), or a forfeit."""

    SIDES = [("", "—"), ("a", "Side A"), ("b", "Side B")]
    forfeit = forms.ChoiceField(
        required=False,
        choices=[("", "No forfeit"), ("a", "Side A forfeits"), ("b", "Side B forfeits"),
                 ("both", "Both forfeit")],
    )

    def __init__(self, *args: Any, set: Set, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.set = set
        # The rows are a table without a <label> per cell: each control names itself
        # (aria-label), or a screen reader hears "combo box" twelve times (issue 35, axe).
        side_a = set.entrant_a.name if set.entrant_a_id and set.entrant_a else "Side A"
        side_b = set.entrant_b.name if set.entrant_b_id and set.entrant_b else "Side B"
        for i in range(1, set.best_of + 1):
            self.fields[f"game_{i}_winner"] = forms.ChoiceField(
                choices=self.SIDES, required=False, label=f"Game {i} winner",
                widget=forms.Select(attrs={"aria-label": f"Game {i} winner"}),
            )
            self.fields[f"game_{i}_a"] = forms.CharField(
                required=False, max_length=100, label="Side A characters",
                widget=forms.TextInput(attrs={
                    "aria-label": f"Game {i}: side A ({side_a}) characters"}),
            )
            self.fields[f"game_{i}_b"] = forms.CharField(
                required=False, max_length=100, label="Side B characters",
                widget=forms.TextInput(attrs={
                    "aria-label": f"Game {i}: side B ({side_b}) characters"}),
            )

    def game_rows(self) -> list[tuple[int, Any, Any, Any]]:
        return [
            (i, self[f"game_{i}_winner"], self[f"game_{i}_a"], self[f"game_{i}_b"])
            for i in range(1, self.set.best_of + 1)
        ]

    def to_result(self) -> SetResult:
        games = []
        for i in range(1, self.set.best_of + 1):
            winner = self.cleaned_data.get(f"game_{i}_winner")
            if not winner:
                continue
            games.append(GameInput(
                winner_side=winner,
                characters_a=_names(self.cleaned_data.get(f"game_{i}_a", "")),
                characters_b=_names(self.cleaned_data.get(f"game_{i}_b", "")),
            ))
        return SetResult(games=games, forfeit=self.cleaned_data.get("forfeit") or "")


class CorrectionForm(SetResultForm):
    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=500)


class SeedingForm(forms.Form):
    method = forms.ChoiceField(choices=[(m, m.capitalize()) for m in METHODS])
    random_seed = forms.IntegerField(required=False, min_value=0, max_value=2**31)


class _DateTimeInput(forms.DateTimeInput):
    input_type = "datetime-local"

    def __init__(self, **kwargs: Any) -> None:
        super().__init__(format="%Y-%m-%dT%H:%M", **kwargs)


class EventForm(forms.ModelForm):  # type: ignore[type-arg]
    """An event's settings (the fields ``events.EVENT_FIELDS`` lets organizers change)."""

    class Meta:
        model = Event
        fields = [
            "name", "description", "mode", "best_of", "top_rounds", "top_best_of",
            "grand_final_best_of", "character_rule", "result_policy", "max_entrants",
            "check_in_opens_at", "check_in_closes_at", "starts_at", "room_decision_seconds",
        ]
        labels = {
            "room_decision_seconds": "Match room clock (seconds per decision)",
            "best_of": "Best of (each set)",
            "top_rounds": "Final rounds played longer",
            "top_best_of": "Best of (those final rounds)",
            "grand_final_best_of": "Best of (grand final)",
            "character_rule": "Character pick rule",
            "result_policy": "Results",
            "max_entrants": "Registration cap",
        }
        help_texts = {
            "top_rounds": "How many final rounds of each elimination bracket use the longer "
            "best-of (e.g. 1 with best of 5: Bo5 finals).",
            "max_entrants": "Past the cap, entrants join the waitlist. Empty: no cap.",
            "room_decision_seconds": "When a decision's time runs out in a match room, its "
            "default choice is made (pass, stop, no card, keep, accept). Empty: no clock.",
        }
        widgets = {
            "description": forms.Textarea(attrs={"rows": 3}),
            "check_in_opens_at": _DateTimeInput(),
            "check_in_closes_at": _DateTimeInput(),
            "starts_at": _DateTimeInput(),
        }

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        instance = kwargs.get("instance")
        if instance is not None and instance.pk and instance.status != Event.Status.DRAFT:
            # The mode is what entrants signed up for (events.FROZEN_AFTER_DRAFT).
            self.fields["mode"].disabled = True

    def _post_clean(self) -> None:
        # The services validate (and save); skip ModelForm's model validation and
        # construction so nothing is written to the instance before the service runs.
        pass

    def changes(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.Meta.fields
                if name in self.cleaned_data}


class StageForm(forms.ModelForm):  # type: ignore[type-arg]
    """A stage to add after the event's existing ones (groups, then playoffs, ...)."""

    class Meta:
        model = Stage
        fields = [
            "name", "kind", "group_count", "advance_count", "swiss_rounds", "third_place",
            "grand_final_reset", "starts_at", "round_days",
        ]
        labels = {
            "group_count": "Groups (round robin)",
            "advance_count": "Entrants who advance (per group)",
            "swiss_rounds": "Swiss rounds",
            "starts_at": "League: first match window opens",
            "round_days": "League: days per round's match window",
        }
        widgets = {"starts_at": _DateTimeInput()}

    def _post_clean(self) -> None:
        pass

    def changes(self) -> dict[str, Any]:
        return {name: self.cleaned_data[name] for name in self.Meta.fields
                if name in self.cleaned_data}


class OrganizerAddForm(forms.Form):
    username = forms.CharField(max_length=150, label="Co-organizer's username")

    def clean_username(self) -> Any:
        from django.contrib.auth import get_user_model

        name = self.cleaned_data["username"].strip()
        user = get_user_model().objects.filter(username=name).first()
        if user is None:
            raise forms.ValidationError(f"no user called {name}")
        return user


class EntrantAddForm(forms.Form):
    """An organizer registers an entrant: display names of its players (no consent needed)."""

    players = forms.CharField(help_text="Display names, separated by commas (a team: all of them).")
    name = forms.CharField(max_length=120, required=False, label="Team name")
    lineup = forms.CharField(
        required=False, help_text="Triple Threat alone: 3 characters in order, separated by commas."
    )

    def clean_players(self) -> list[Player]:
        names = _names(self.cleaned_data.get("players", ""))
        by_name = {p.display_name: p for p in Player.objects.filter(display_name__in=names)}
        unknown = [n for n in names if n not in by_name]
        if unknown:
            raise forms.ValidationError(f"no player called {', '.join(unknown)}")
        return [by_name[n] for n in names]

    def clean_lineup(self) -> list[str]:
        return _names(self.cleaned_data.get("lineup", ""))


class ReasonForm(forms.Form):
    """Why an organizer disqualifies or reopens: kept in the set's history."""

    reason = forms.CharField(widget=forms.Textarea(attrs={"rows": 2}), max_length=500)
