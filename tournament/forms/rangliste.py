"""A Rangliste's settings (docs/competitions.md, "Rangliste in the app")."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Rangliste, Series
from .common import VersionField, add_organisation_field, choice_field


class RanglisteForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(label=_("Kurzname"), max_length=80, required=False,
                           help_text=_("Teil der Adresse /r/kurzname/; leer lassen: aus dem Namen gebildet."))
    source = forms.ChoiceField(label=_("Es zählen"), choices=Rangliste.Source.choices,
                               initial=Rangliste.Source.FLAGGED, widget=forms.RadioSelect)
    series = forms.ChoiceField(label=_("Serie"), required=False)
    months = forms.IntegerField(label=_("Zeitraum in Monaten"), min_value=1, max_value=120, initial=24)
    minimum_rounds = forms.IntegerField(label=_("Mindestzahl Runden"), min_value=0, max_value=999, initial=36,
                                        help_text=_("Wer weniger Runden im Zeitraum hat, steht getrennt darunter."))
    cut_lines = forms.CharField(
        label=_("Qualifikationslinien"), required=False, max_length=2000,
        widget=forms.Textarea(attrs={"rows": 3, "spellcheck": "false"}),
        help_text=_("Eine Linie pro Zeile: der letzte Platz, der sich qualifiziert, dann wofür, z. B. "
                    "„16 Deutsche Meisterschaft“."))
    public = forms.BooleanField(label=_("Rangliste öffentlich"), required=False, initial=True)
    version = VersionField()

    def __init__(self, *args, rangliste: Rangliste | None = None, organisations=(), **kwargs):
        """`rangliste`: the one edited (its organisation's series are offered); else a new one in one of
        `organisations` (the reader's), whose series are offered."""
        if rangliste is not None and not args and "initial" not in kwargs:
            kwargs["initial"] = {
                "name": rangliste.name, "slug": rangliste.slug, "source": rangliste.source,
                "series": str(rangliste.series_id or ""), "months": rangliste.months,
                "minimum_rounds": rangliste.minimum_rounds, "public": rangliste.public, "version": rangliste.version,
                "cut_lines": "\n".join(f"{place} {label}" for place, label in rangliste.cut_line_pairs())}
        super().__init__(*args, **kwargs)
        if rangliste is None:
            add_organisation_field(self, organisations)
            owners = [o.pk for o in organisations]
        else:
            owners = [rangliste.organisation_id]
        # only the series of its own organisation: another club's series are its own business
        self.series_offered = {s.pk: s for s in Series.objects.filter(organisation_id__in=owners).only(
            "id", "name", "organisation_id")}
        choice_field(self, "series").choices = [("", "–")] + [(str(pk), s.name) for pk, s in
                                                               self.series_offered.items()]

    def clean(self):
        data = super().clean() or {}
        series = self.series_offered.get(int(data["series"])) if data.get("series") else None
        if series is not None and "organisation" in data and series.organisation_id != data["organisation"]:
            self.add_error("series", _("Diese Serie gehört zu einer anderen Organisation."))
        return data

    def series_object(self) -> Series | None:
        pk = self.cleaned_data.get("series")
        return self.series_offered.get(int(pk)) if pk else None
