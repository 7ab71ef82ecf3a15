"""A round's seating: the draw, swapping two players, moving a player to another table."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ..models import Round
from ..selectors import SeatedTable


def seat_label(table: SeatedTable, position: int, entry) -> str:
    return _("Tisch %(table)s, Platz %(seat)s: %(name)s (Nr. %(number)s)") % {
        "table": table.table.number, "seat": position, "name": entry.player.name, "number": entry.start_number}


class DrawForm(forms.Form):
    mode = forms.ChoiceField(label=_("Auslosung"), choices=Round.Mode.choices, initial=Round.Mode.RANDOM,
                             widget=forms.RadioSelect)
    seed = forms.CharField(
        label=_("Startwert"), max_length=40, required=False,
        help_text=_("Derselbe Startwert mit denselben Spielern ergibt dieselben Tische. Leer lassen für einen "
                    "neuen Startwert."))

    def __init__(self, *args, round: Round, **kwargs):
        kwargs.setdefault("initial", {"mode": round.mode, "seed": round.seed})
        super().__init__(*args, **kwargs)
        if round.number == 1:  # nothing to order by yet
            self.fields["mode"].choices = [(Round.Mode.RANDOM, Round.Mode.RANDOM.label)]
            self.fields["mode"].initial = Round.Mode.RANDOM


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label=pgettext_lazy("one player", "Spieler"), coerce=int)
    second = forms.TypedChoiceField(label=_("tauscht mit"), coerce=int)

    def __init__(self, *args, tables: list[SeatedTable], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "–")] + [(entry.id, seat_label(table, position, entry))
                                 for table in tables for position, entry in enumerate(table.entries, start=1)]
        self.fields["first"].choices = choices
        self.fields["second"].choices = choices

    def clean(self):
        data = super().clean()
        if data.get("first") is not None and data.get("first") == data.get("second"):
            raise forms.ValidationError(_("Bitte zwei verschiedene Spieler wählen."))
        return data


class MoveForm(forms.Form):
    entry = forms.TypedChoiceField(label=_("Spieler vom 5er-Tisch"), coerce=int)
    table = forms.TypedChoiceField(label=_("an den 4er-Tisch"), coerce=int)

    def __init__(self, *args, tables: list[SeatedTable], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["entry"].choices = [("", "–")] + [
            (entry.id, seat_label(table, position, entry))
            for table in tables if table.size == 5 for position, entry in enumerate(table.entries, start=1)]
        self.fields["table"].choices = [("", "–")] + [
            (table.table.number, _("Tisch %(table)s") % {"table": table.table.number})
            for table in tables if table.size == 4]

    @property
    def possible(self) -> bool:
        return len(self.fields["entry"].choices) > 1 and len(self.fields["table"].choices) > 1
