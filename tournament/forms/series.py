"""A series' settings, the evenings to add and the players to merge (docs/series.md)."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Series
from .common import VersionField, choice_field


class SeriesForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=200)
    slug = forms.SlugField(label=_("Kurzname"), max_length=80, required=False,
                           help_text=_("Teil der Adresse der Serie; leer lassen: aus dem Namen gebildet."))
    mode = forms.ChoiceField(label=_("Wertung"), choices=Series.Mode.choices, initial=Series.Mode.SUM)
    best_of = forms.IntegerField(label=_("beste Abende, die zählen"), min_value=0, max_value=99, required=False,
                                 help_text=_("Nur bei „Summe der besten Abende“: wie viele Abende je Spieler zählen."))
    public = forms.BooleanField(label=_("Serienwertung öffentlich"), required=False, initial=True)
    clubs = forms.CharField(
        label=_("Vereine der Saison"), required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 2}),
        help_text=_("Nur für eine Liga oder einen Pokal mehrerer Vereine: die Kurznamen der Vereine, deren "
                    "veröffentlichte Spieltage zählen, durch Komma getrennt. Ein Spieltag gehört zur Saison, wenn "
                    "seine Turnierleitung deren Kurznamen bei den Teams eingetragen hat."))
    version = VersionField()

    def __init__(self, *args, series: Series | None = None, **kwargs):
        if series is not None and not args and "initial" not in kwargs:
            kwargs["initial"] = {"name": series.name, "slug": series.slug, "mode": series.mode,
                                 "best_of": series.best_of or None, "public": series.public,
                                 "clubs": ", ".join(series.clubs), "version": series.version}
        super().__init__(*args, **kwargs)

    def arguments(self) -> dict:
        data = self.cleaned_data
        return {"name": data["name"], "slug": data["slug"], "mode": data["mode"], "best_of": data["best_of"] or 0,
                "public": data["public"], "clubs": data["clubs"]}


class AddTournamentForm(forms.Form):
    tournament = forms.ChoiceField(label=_("Turnier"))

    def __init__(self, *args, tournaments=(), **kwargs):
        super().__init__(*args, **kwargs)
        choice_field(self, "tournament").choices = [
            (str(t.pk), f"{t.name} ({t.date:%d.%m.%Y})") for t in tournaments]


class MergeForm(forms.Form):
    alias = forms.ChoiceField(label=_("Spieler"))
    same_as = forms.ChoiceField(label=_("ist dieselbe Person wie"))

    def __init__(self, *args, people=(), **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "–")] + list(people)
        choice_field(self, "alias").choices = choices
        choice_field(self, "same_as").choices = choices
