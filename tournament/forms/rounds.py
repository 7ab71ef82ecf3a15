"""A round's seating: the draw, swapping two players, moving a player to another table."""

from __future__ import annotations

from django import forms
from django.utils.translation import gettext_lazy as _
from django.utils.translation import pgettext_lazy

from ..models import Round
from ..names import folded
from ..selectors import SeatedTable
from .common import choice_field


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
    separate_clubs = forms.BooleanField(label=_("Spieler desselben Vereins in Runde 1 trennen"), required=False)
    apart = forms.CharField(
        label=_("Nie an einen Tisch"), required=False, max_length=4000, widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("Ein Paar je Zeile: „Name A; Name B“; statt eines Namens geht auch die Startnummer. Gilt nur "
                    "für diese Auslosung und nur bei Zufall."))

    def __init__(self, *args, round: Round, **kwargs):
        kwargs.setdefault("initial", {"mode": round.mode, "seed": round.seed})
        super().__init__(*args, **kwargs)
        self.round = round
        if round.number == 1:  # nothing to order by yet
            choice_field(self, "mode").choices = [(Round.Mode.RANDOM, Round.Mode.RANDOM.label)]
            self.fields["mode"].initial = Round.Mode.RANDOM
        else:  # clubs are only kept apart in round 1
            del self.fields["separate_clubs"]

    def clean_apart(self) -> list[tuple[int, int]]:
        """The pairs as entry ids: a player by start number or by name (without case)."""
        lines = [(number, line.strip()) for number, line in enumerate(self.cleaned_data["apart"].splitlines(), 1)
                 if line.strip()]
        if not lines:
            return []
        entries = list(self.round.tournament.entries.select_related("player"))
        by_number = {str(entry.start_number): entry for entry in entries}
        by_name: dict[str, list] = {}
        for entry in entries:
            by_name.setdefault(folded(entry.player.name), []).append(entry)
        pairs, errors = [], []
        for number, line in lines:
            names = [part.strip() for part in line.split(";")]
            if len(names) != 2 or not all(names):
                errors.append(_("Zeile %(line)s: bitte zwei Spieler, getrennt durch „;“.") % {"line": number})
                continue
            found = []
            for name in names:
                matches = [by_number[name]] if name in by_number else by_name.get(folded(name), [])
                if len(matches) == 1:
                    found.append(matches[0])
                elif matches:
                    errors.append(_("Zeile %(line)s: „%(name)s“ gibt es mehrmals; bitte die Startnummer angeben.")
                                  % {"line": number, "name": name})
                else:
                    errors.append(_("Zeile %(line)s: „%(name)s“ spielt in diesem Turnier nicht mit.")
                                  % {"line": number, "name": name})
            if len(found) == 2:
                if found[0].id == found[1].id:
                    errors.append(_("Zeile %(line)s: zweimal derselbe Spieler.") % {"line": number})
                else:
                    pairs.append((found[0].id, found[1].id))
        if errors:
            raise forms.ValidationError(errors)
        return pairs


class SwapForm(forms.Form):
    first = forms.TypedChoiceField(label=pgettext_lazy("one player", "Spieler"), coerce=int)
    second = forms.TypedChoiceField(label=_("tauscht mit"), coerce=int)

    def __init__(self, *args, tables: list[SeatedTable], **kwargs):
        super().__init__(*args, **kwargs)
        choices = [("", "–")] + [(entry.id, seat_label(table, position, entry))
                                 for table in tables for position, entry in enumerate(table.entries, start=1)]
        choice_field(self, "first").choices = choices
        choice_field(self, "second").choices = choices

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
        movers: list[tuple[int | str, str]] = [(entry.id, seat_label(table, position, entry))
                  for table in tables if table.size == 5 for position, entry in enumerate(table.entries, start=1)]
        targets: list[tuple[int | str, str]] = [
            (table.table.number, _("Tisch %(table)s") % {"table": table.table.number})
            for table in tables if table.size == 4]
        choice_field(self, "entry").choices = [("", "–"), *movers]
        choice_field(self, "table").choices = [("", "–"), *targets]
        self.possible = bool(movers and targets)
