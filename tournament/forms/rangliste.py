"""A Rangliste's settings (docs/competitions.md, "Rangliste in the app")."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Rangliste, Series
from .common import VersionField, choice_field


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

    def __init__(self, *args, rangliste: Rangliste | None = None, **kwargs):
        if rangliste is not None and not args and "initial" not in kwargs:
            kwargs["initial"] = {
                "name": rangliste.name, "slug": rangliste.slug, "source": rangliste.source,
                "series": str(rangliste.series_id or ""), "months": rangliste.months,
                "minimum_rounds": rangliste.minimum_rounds, "public": rangliste.public, "version": rangliste.version,
                "cut_lines": "\n".join(f"{place} {label}" for place, label in rangliste.cut_line_pairs())}
        super().__init__(*args, **kwargs)
        choice_field(self, "series").choices = [("", "–")] + [(str(s.pk), s.name) for s in
                                                               Series.objects.only("id", "name")]

    def series_object(self) -> Series | None:
        pk = self.cleaned_data.get("series")
        return Series.objects.filter(pk=int(pk)).first() if pk else None
