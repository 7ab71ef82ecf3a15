"""Registration on the public page, the director's registration settings and the check-in's walk-in."""

from django import forms
from django.utils.translation import gettext_lazy as _

from .. import privacy
from ..models import Registration


class RegistrationForm(forms.Form):
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


class RegistrationSettingsForm(forms.Form):
    open = forms.BooleanField(label=_("Anmeldung online offen"), required=False)
    limit = forms.IntegerField(label=_("Plätze (0: unbegrenzt)"), min_value=0, max_value=5000)
    waiting = forms.IntegerField(label=_("Plätze auf der Warteliste"), min_value=0, max_value=5000, required=False,
                                 help_text=_("Leer: so viele wie Plätze. Ist auch die Warteliste voll, wird jede "
                                             "weitere Anmeldung abgelehnt."))


class WithdrawRegistrationsForm(forms.Form):
    """The director's list: the registrations ticked to be struck at once."""

    registrations: forms.ModelMultipleChoiceField = forms.ModelMultipleChoiceField(
        queryset=Registration.objects.none(), label=_("Anmeldungen"))

    def __init__(self, *args, tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["registrations"].queryset = tournament.registrations.exclude(
            status=Registration.Status.WITHDRAWN)


class WalkInForm(forms.Form):
    name = forms.CharField(label=_("Name"), max_length=120)
    club = forms.CharField(label=_("Verein"), max_length=120, required=False)
