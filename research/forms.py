"""The public form that asks for research access."""

from __future__ import annotations

from typing import Any

from django import forms

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
