"""The public form that asks for research access."""

from __future__ import annotations

from typing import Any

from django import forms

from research.exports.filters import InvalidFilter, refuse_admin_only_flags
from research.models import AccessRequest

# A field people never see (the page hides it) and bots fill in: a request
# that fills it is answered as if accepted and not stored.
HONEYPOT_FIELD = "website"


class AccessRequestForm(forms.ModelForm):
    website = forms.CharField(
        required=False,
        label="Leave this field empty",
        widget=forms.TextInput(attrs={"autocomplete": "off", "tabindex": "-1"}),
    )

    class Meta:
        model = AccessRequest
        fields = ["name", "email", "institution", "purpose"]
        labels = {
            "name": "Your name",
            "email": "E-mail address",
            "institution": "Institution",
            "purpose": "What you want to study with the data",
        }
        widgets = {"purpose": forms.Textarea(attrs={"rows": 6})}

    def clean(self) -> dict[str, Any]:
        cleaned = super().clean() or {}
        for name in ("name", "institution"):
            value = cleaned.get(name)
            if isinstance(value, str) and not value.isprintable():
                self.add_error(name, "Must not contain control characters.")
        return cleaned

    @property
    def is_spam(self) -> bool:
        return bool(self.data.get(HONEYPOT_FIELD, "").strip())


class GameBrowseForm(forms.Form):
    """The filters of the research games' browse page (all optional, read from the query)."""

    player = forms.RegexField(
        required=False,
        regex=r"^[0-9a-fA-F]{24}$",
        label="Player pseudonym",
        error_messages={"invalid": "A pseudonym is 24 hexadecimal characters, as in the exports."},
        widget=forms.TextInput(attrs={"autocomplete": "off", "spellcheck": "false"}),
    )
    rules = forms.ChoiceField(required=False, label="Rule set")
    ended_from = forms.DateField(
        required=False, label="Ended from", widget=forms.DateInput(attrs={"type": "date"})
    )
    ended_to = forms.DateField(
        required=False, label="Ended to", widget=forms.DateInput(attrs={"type": "date"})
    )
    score_min = forms.IntegerField(required=False, min_value=0, label="Score from")
    score_max = forms.IntegerField(required=False, min_value=0, label="Score to")

    def __init__(self, *args: Any, rule_sets: list[str], **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        rules = self.fields["rules"]
        if isinstance(rules, forms.ChoiceField):
            rules.choices = [("", "Any"), *((key, key) for key in rule_sets)]

    def clean_player(self) -> str:
        return str(self.cleaned_data.get("player") or "").lower()

    def clean(self) -> dict[str, Any]:
        data = super().clean() or {}
        try:
            # The page lists research data only: a flag that would widen it is refused
            # with 400, as the exports refuse it, never silently ignored.
            refuse_admin_only_flags(self.data)
        except InvalidFilter as exc:
            self.add_error(None, exc.message)
        start, end = data.get("ended_from"), data.get("ended_to")
        if start and end and start > end:
            self.add_error("ended_to", "The end of the date range is before its start.")
        low, high = data.get("score_min"), data.get("score_max")
        if low is not None and high is not None and low > high:
            self.add_error("score_max", "The highest score is below the lowest.")
        return data
