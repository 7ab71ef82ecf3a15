"""The hub's calendar filters and search (GET parameters; docs/hub.md). A value that does not fit is
not used, and the page says which and why; nothing is ever refused with an error page."""

from __future__ import annotations

import datetime
import re

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Region
from ..selectors.calendar import KINDS, Filters
from .common import choice_field

MONTH = re.compile(r"(\d{4})-(\d{2})")
LONGEST_SEARCH = 100


class CalendarFilters(forms.Form):
    q = forms.CharField(label=_("Suche"), required=False, max_length=LONGEST_SEARCH, strip=True,
                        error_messages={"max_length": _("Eine Suche hat höchstens %(limit_value)d Zeichen.")})
    region = forms.ChoiceField(label=_("Region"), required=False,
                               choices=[("", _("alle Regionen")), *Region.choices])
    club = forms.ChoiceField(label=_("Verein"), required=False, choices=[])
    month = forms.CharField(label=_("Monat"), required=False, max_length=7,
                            widget=forms.TextInput(attrs={"type": "month", "placeholder": "2027-03"}))
    kind = forms.ChoiceField(label=_("Art"), required=False,
                             choices=[("", _("alle Arten")), *((key, label) for key, (label, _q) in KINDS.items())])

    def __init__(self, data, *, clubs: list[tuple[str, str]]):
        super().__init__(data)
        choice_field(self, "club").choices = [("", _("alle Vereine")), *clubs]
        for field in self.fields.values():
            field.error_messages["invalid_choice"] = _("Diese Auswahl gibt es nicht; sie wird nicht berücksichtigt.")

    def clean_month(self) -> datetime.date | None:
        text = self.cleaned_data.get("month") or ""
        if not text:
            return None
        found = MONTH.fullmatch(text)
        if not found or not (1 <= int(found.group(2)) <= 12) or not (1900 <= int(found.group(1)) <= 2999):
            raise forms.ValidationError(_("Einen Monat bitte als Jahr und Monat angeben, z. B. 2027-03."))
        return datetime.date(int(found.group(1)), int(found.group(2)), 1)

    def filters(self) -> Filters:
        """What the reader chose, without the values that did not fit (`errors` says which)."""
        self.is_valid()
        cleaned = getattr(self, "cleaned_data", {})
        return Filters(region=cleaned.get("region") or "", club=cleaned.get("club") or "",
                       month=cleaned.get("month"), kind=cleaned.get("kind") or "", q=cleaned.get("q") or "")
