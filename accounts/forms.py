from __future__ import annotations

from typing import Any

from django import forms
from django.contrib.auth.forms import UserCreationForm
from django_countries import countries

from rules_engine.cards import characters

MAX_MAINS = 3


def character_choices() -> list[tuple[str, str]]:
    return sorted(((c.id, c.name) for c in characters().values()), key=lambda c: c[1])


class SignUpForm(UserCreationForm):  # type: ignore[type-arg]
    email = forms.EmailField(
        help_text="For the confirmation link, password resets and notifications."
    )
    display_name = forms.CharField(
        max_length=64, help_text="The name shown in brackets, standings and statistics."
    )

    class Meta(UserCreationForm.Meta):
        fields = ("username", "email", "display_name")


class ConfirmationResendForm(forms.Form):
    email = forms.EmailField(help_text="The address you signed up with.")


class ProfileForm(forms.Form):
    display_name = forms.CharField(max_length=64)
    country = forms.ChoiceField(choices=[("", "—")], required=False)
    main_characters = forms.MultipleChoiceField(
        choices=(), required=False, widget=forms.CheckboxSelectMultiple,
        help_text=f"Up to {MAX_MAINS}.",
    )
    email_notifications = forms.BooleanField(
        required=False, label="E-mail me notifications (the inbox keeps them either way)"
    )

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.fields["country"].choices = [("", "—"), *countries]
        self.fields["main_characters"].choices = character_choices()

    def clean_main_characters(self) -> list[str]:
        mains: list[str] = self.cleaned_data["main_characters"]
        if len(mains) > MAX_MAINS:
            raise forms.ValidationError(
                f"Pick at most {MAX_MAINS} main characters (you picked {len(mains)})."
            )
        return mains


class ApiTokenForm(forms.Form):
    name = forms.CharField(max_length=64, help_text="What the token is for, e.g. “stream overlay”.")
