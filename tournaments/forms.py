"""Forms for the event pages; they only shape input for the services."""

from __future__ import annotations

from typing import Any

from django import forms

from matches.models import Player
from tournaments.models import Event, Set
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

    def __init__(self, *args: Any, event: Event, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.event = event
        if max(event.roster_sizes) == 1:
            del self.fields["name"]
            del self.fields["teammates"]
        if event.mode != Event.Mode.TRIPLE_THREAT:
            del self.fields["lineup"]

    def clean_teammates(self) -> list[Player]:
        names = _names(self.cleaned_data.get("teammates", ""))
        players = list(Player.objects.filter(display_name__in=names))
        unknown = sorted(set(names) - {p.display_name for p in players})
        if unknown:
            raise forms.ValidationError(f"no player called {', '.join(unknown)}")
        return players

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
        for i in range(1, set.best_of + 1):
            self.fields[f"game_{i}_winner"] = forms.ChoiceField(
                choices=self.SIDES, required=False, label=f"Game {i} winner"
            )
            self.fields[f"game_{i}_a"] = forms.CharField(
                required=False, max_length=100, label="Side A characters"
            )
            self.fields[f"game_{i}_b"] = forms.CharField(
                required=False, max_length=100, label="Side B characters"
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
