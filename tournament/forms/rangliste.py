"""A Rangliste's settings (docs/competitions.md, "Rangliste in the app")."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Organisation, Rangliste, Series
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
    members = forms.MultipleChoiceField(
        label=_("Mitgliedsvereine"), required=False, widget=forms.CheckboxSelectMultiple,
        help_text=_("Nur bei einer Verbandsrangliste: die Vereine, deren veröffentlichte Ranglistenturniere zählen."))
    minimum_players = forms.IntegerField(label=_("Mindestzahl Spieler je Turnier"), min_value=0, max_value=9999,
                                         initial=32, required=False, help_text=_("Nur bei einer Verbandsrangliste."))
    minimum_tournament_rounds = forms.IntegerField(label=_("Mindestzahl Runden je Turnier"), min_value=0,
                                                   max_value=99, initial=3, required=False,
                                                   help_text=_("Nur bei einer Verbandsrangliste."))
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
                "members": [str(pk) for pk in rangliste.members.values_list("id", flat=True)],
                "minimum_players": rangliste.minimum_players,
                "minimum_tournament_rounds": rangliste.minimum_tournament_rounds,
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
        # an association counts clubs of the site: every organisation's published tournaments are public
        self.members_offered = {o.pk: o for o in Organisation.objects.only("id", "name").order_by("name")}
        members = self.fields["members"]
        assert isinstance(members, forms.MultipleChoiceField)
        members.choices = [(str(pk), o.name) for pk, o in self.members_offered.items()]

    def clean(self):
        data = super().clean() or {}
        series = self.series_offered.get(int(data["series"])) if data.get("series") else None
        if series is not None and "organisation" in data and series.organisation_id != data["organisation"]:
            self.add_error("series", _("Diese Serie gehört zu einer anderen Organisation."))
        return data

    def member_objects(self) -> tuple[Organisation, ...]:
        return tuple(self.members_offered[int(pk)] for pk in self.cleaned_data.get("members") or [])

    def series_object(self) -> Series | None:
        pk = self.cleaned_data.get("series")
        return self.series_offered.get(int(pk)) if pk else None
