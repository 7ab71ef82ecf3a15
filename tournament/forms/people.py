"""The forms of players across clubs (docs/hub.md): a player's correction request, a director's answer."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import CorrectionRequest
from ..services.corrections import MOST_ANSWER, MOST_CONTACT, MOST_TEXT


class CorrectionForm(forms.Form):
    tournament = forms.ChoiceField(label=_("Turnier"), choices=[])
    text = forms.CharField(
        label=_("Was ist falsch?"),
        max_length=MOST_TEXT,
        widget=forms.Textarea(attrs={"rows": 3}),
        error_messages={
            "required": _("Bitte schreiben Sie, was falsch ist."),
            "max_length": _("Bitte beschreiben Sie es in höchstens %(limit_value)d Zeichen."),
        },
    )
    contact = forms.CharField(
        label=_("Wie erreicht die Turnierleitung Sie? (freiwillig)"),
        required=False,
        max_length=MOST_CONTACT,
        help_text=_("Nur die Turnierleitung dieses Turniers sieht es."),
        error_messages={"max_length": _("Die Kontaktangabe hat höchstens %(limit_value)d Zeichen.")},
    )

    def __init__(self, data=None, *, tournaments: list[tuple[str, str]]):
        super().__init__(data)
        field = self.fields["tournament"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = lambda: tournaments  # read when checked: 300 choices made ready on every view cost ms
        field.error_messages["invalid_choice"] = _("Bitte wählen Sie eines Ihrer Turniere aus der Liste.")
        field.error_messages["required"] = _("Bitte wählen Sie das Turnier.")


class AnswerForm(forms.Form):
    status = forms.ChoiceField(
        label=_("Ergebnis"),
        choices=[
            (CorrectionRequest.Status.ANSWERED, _("erledigt / beantwortet")),
            (CorrectionRequest.Status.DECLINED, _("abgelehnt")),
        ],
        error_messages={
            "invalid_choice": _("Bitte wählen Sie: erledigt oder abgelehnt."),
            "required": _("Bitte wählen Sie: erledigt oder abgelehnt."),
        },
    )
    answer = forms.CharField(
        label=_("Antwort (ein Satz)"),
        max_length=MOST_ANSWER,
        error_messages={
            "required": _("Bitte schreiben Sie einen Satz als Antwort."),
            "max_length": _("Die Antwort hat höchstens %(limit_value)d Zeichen."),
        },
    )
