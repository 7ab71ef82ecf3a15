"""Registration on the public page, the director's registration settings and the check-in's walk-in."""

from typing import cast

from django import forms
from django.utils.translation import gettext_lazy as _

from .. import privacy
from ..models import Entry, Registration
from ..validators import ID_MOST


class RegistrationForm(forms.Form):
    """The registration: on the public page (`categories` given) the category is one of the
    tournament's, chosen; the director's edit form keeps the text as typed (an older registration's)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Verein"), max_length=120, required=False)
    category = forms.CharField(label=_("Kategorie"), max_length=60, required=False,
                               help_text=_("z. B. Damen, Jugend, Senioren, Gast"))
    contact = forms.CharField(label=_("Kontakt (E-Mail oder Telefon)"), max_length=200, required=False,
                              help_text=_("Freiwillig; sieht nur die Turnierleitung."))
    publication = forms.ChoiceField(
        label=_("Name veröffentlichen"), choices=privacy.CHOICES, initial=privacy.FULL, required=False,
        help_text=_("Wie Ihr Name auf den öffentlichen Seiten, Ranglisten und Ausdrucken erscheint: voll, als "
                    "Initialen („A. K.“) oder gar nicht („Spieler/in Nr. 12“, dann auch ohne Verein)."))

    def clean_publication(self):
        return self.cleaned_data.get("publication") or privacy.FULL

    def __init__(self, *args, categories: list[str] | None = None, **kwargs):
        super().__init__(*args, **kwargs)
        if categories is not None:
            self.fields["category"] = forms.ChoiceField(
                label=_("Kategorie"), required=False,
                choices=[("", _("keine")), *((name, str(Entry.CATEGORIES.get(name, name))) for name in categories)])


class RegistrationSettingsForm(forms.Form):
    open = forms.BooleanField(label=_("Anmeldung online offen"), required=False)
    limit = forms.IntegerField(label=_("Plätze (0: unbegrenzt)"), min_value=0, max_value=5000)
    waiting = forms.IntegerField(label=_("Plätze auf der Warteliste"), min_value=0, max_value=5000, required=False,
                                 help_text=_("Leer: so viele wie Plätze, mindestens 10. Ist auch die Warteliste "
                                             "voll, wird jede weitere Anmeldung abgelehnt."))
    deadline = forms.DateTimeField(
        label=_("Anmeldeschluss"), required=False,
        widget=forms.DateTimeInput(attrs={"type": "datetime-local"}, format="%Y-%m-%dT%H:%M"),
        help_text=_("Freiwillig: Datum und Uhrzeit, ab der die Anmeldeseite niemanden mehr annimmt. Leer: bis Sie "
                    "die Anmeldung schließen."))
    self_checkin = forms.BooleanField(
        label=_("Selbst-Check-in per Handy"), required=False,
        help_text=_("Am Turniertag, bis Runde 1 ausgelost ist, checken sich Angemeldete mit ihrem persönlichen "
                    "Link (aus der Bestätigung) selbst ein; den QR-Code dafür gibt es unten und auf dem Aushang."))

    def clean_deadline(self):
        deadline = self.cleaned_data.get("deadline")
        if deadline is not None and not 2000 <= deadline.year <= 2999:
            raise forms.ValidationError(_("Bitte ein Datum zwischen den Jahren 2000 und 2999 angeben."))
        return deadline


class RowIdsField(forms.ModelMultipleChoiceField):
    """Ticked rows by their ids: a value that is no id a database can hold (a number beyond 64 bits
    makes SQLite raise) is an invalid choice before anything is looked up."""

    def _check_values(self, value):
        for pk in value:
            if not (isinstance(pk, str) and pk.isascii() and pk.isdigit() and 0 < int(pk) <= ID_MOST):
                raise forms.ValidationError(self.error_messages["invalid_choice"], code="invalid_choice",
                                            params={"value": pk})
        return super()._check_values(value)


class WithdrawRegistrationsForm(forms.Form):
    """The director's list: the registrations ticked to be struck at once."""

    registrations: forms.ModelMultipleChoiceField = RowIdsField(
        queryset=Registration.objects.none(), label=_("Anmeldungen"))

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["registrations"].queryset = tournament.registrations.exclude(
            status=Registration.Status.WITHDRAWN)


class WalkInForm(forms.Form):
    """A player at the door: name, club and the tournament's categories (`categories`: its names)."""

    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Verein"), max_length=120, required=False)
    categories = forms.MultipleChoiceField(label=_("Kategorien"), required=False, widget=forms.CheckboxSelectMultiple,
                                           help_text=_("Für die Preisliste; später auf der Spielerseite änderbar."))

    def __init__(self, *args, categories: list[str], **kwargs):
        super().__init__(*args, **kwargs)
        field = cast(forms.MultipleChoiceField, self.fields["categories"])
        field.choices = [(name, str(Entry.CATEGORIES.get(name, name))) for name in categories]
