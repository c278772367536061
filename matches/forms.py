"""Forms for the match pages; the services do the real checking."""

from __future__ import annotations

from typing import Any

from django import forms

from matches.services import MAX_LOG_BYTES


class LogSubmitForm(forms.Form):
    log_file = forms.FileField(required=False, label="Upload a log file")
    log_text = forms.CharField(
        required=False, label="…or paste the log", strip=False,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
    )

    def clean(self) -> dict[str, Any]:
        data = super().clean()
        has_file, has_text = bool(data.get("log_file")), bool(data.get("log_text"))
        if has_file == has_text:
            raise forms.ValidationError("Upload a file or paste the log (one of the two).")
        upload = data.get("log_file")
        if upload is not None and upload.size > MAX_LOG_BYTES:
            self.add_error(
                "log_file",
                f"The file is {upload.size:,} bytes; the limit is {MAX_LOG_BYTES:,} bytes (2 MB).",
            )
        return data

    def log_bytes(self) -> bytes:
        upload = self.cleaned_data.get("log_file")
        if upload is not None:
            return bytes(upload.read())
        return str(self.cleaned_data["log_text"]).encode("utf-8")


class ResultOverrideForm(forms.Form):
    RESULT_CHOICES = [("1", "Side 1 wins"), ("2", "Side 2 wins"), ("draw", "Draw")]

    result = forms.ChoiceField(choices=RESULT_CHOICES, widget=forms.RadioSelect)
    reason = forms.CharField(max_length=2000, widget=forms.Textarea(attrs={"rows": 3}))
    confirmed = forms.BooleanField(required=False, widget=forms.HiddenInput)

    def result_args(self) -> dict[str, Any]:
        result = self.cleaned_data["result"]
        if result == "draw":
            return {"winner_side": None, "is_draw": True}
        return {"winner_side": int(result), "is_draw": False}
