"""Registering players: one at a time, or many lines at once."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .. import privacy


class PlayerForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Verein"), max_length=120, required=False)
    start_number = forms.IntegerField(label=_("Startnummer"), min_value=1, max_value=99_999, required=False,
                                      help_text=_("Leer lassen: die nächste freie Nummer."))


class PlayerEditForm(forms.Form):
    """A player's name and club, corrected; with what the form showed (a change meanwhile is noticed)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Verein"), max_length=120, required=False)
    member_number = forms.CharField(
        label=_("Mitgliedsnummer"), max_length=40, required=False,
        help_text=_("Freiwillig; macht den Spieler in jeder Rangliste eindeutig, unter welchem Namen und Verein er "
                    "auch spielt. Gilt für alle Turniere dieser Organisation (im Protokoll jedes Turniers vermerkt); "
                    "öffentlich nur, wenn die Organisation Mitgliedsnummern veröffentlicht."))
    categories = forms.MultipleChoiceField(label=_("Kategorien"), required=False, widget=forms.CheckboxSelectMultiple,
                                           help_text=_("Für die Preisliste und die Tabelle je Kategorie."))
    publication = forms.ChoiceField(
        label=_("Veröffentlichung"), choices=privacy.CHOICES, required=False,
        help_text=_("Was die Öffentlichkeit von diesem Spieler sieht, in jedem Turnier des Vereins: den vollen Namen, "
                    "die Initialen (mit Verein) oder „Spieler/in Nr. …“ ohne Verein. Die Turnierleitung sieht immer "
                    "den Namen."))
    loaded_name = forms.CharField(widget=forms.HiddenInput, max_length=120)
    loaded_club = forms.CharField(widget=forms.HiddenInput, max_length=120, required=False)


    def __init__(self, *args, categories: dict[str, str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        field = self.fields["categories"]
        assert isinstance(field, forms.MultipleChoiceField)
        field.choices = list((categories or {}).items())


class PlayerListForm(forms.Form):
    lines = forms.CharField(
        label=_("Mehrere Spieler"), max_length=200_000,
        widget=forms.Textarea(attrs={"rows": 8, "spellcheck": "false"}),
        help_text=_("Ein Spieler pro Zeile: „Name; Verein“ oder nur „Name“. Startnummern werden fortlaufend "
                    "vergeben."))
