"""The game form, in the order a paper sheet is read out: game type, Re party, announcements,
Augen, tricks, Sonderpunkte. The scoring engine checks the content; this form only collects it and
puts the engine's messages next to the fields they concern."""

from django import forms
from django.utils.translation import gettext_lazy as _

import scoring
from scoring.game import SONDERPUNKT_LABEL

from ..models import Entry, Game

ANNOUNCE_RE = [("", "—"), ("re", "Re"), ("keine90", "keine 90"), ("keine60", "keine 60"), ("keine30", "keine 30"),
               ("schwarz", "schwarz")]
ANNOUNCE_KONTRA = [("", "—"), ("kontra", "Kontra")] + ANNOUNCE_RE[2:]
SOLO_LABELS = {"trumpf": _("Trumpfsolo"), "karo": _("Karosolo"), "kreuz": _("Kreuzsolo"), "pik": _("Piksolo"),
               "herz": _("Herzsolo"), "damen": _("Damensolo"), "buben": _("Bubensolo"),
               "fleischlos": _("Fleischloser"), "koehler": _("Köhler")}
# the engine's field names and the form's
ENGINE_FIELD = {"type": "type", "solo": "solo", "re": "re", "re_augen": "re_augen", "re_tricks": "re_tricks",
                "announcements.re": "announce_re", "announcements.kontra": "announce_kontra"}


class GameForm(forms.Form):
    type = forms.ChoiceField(label=_("Spielart"), choices=Game.Type.choices, initial=Game.Type.NORMAL)
    solo = forms.ChoiceField(label=_("Solo"), required=False)
    re = forms.TypedMultipleChoiceField(label=_("Re-Partei"), coerce=int, widget=forms.CheckboxSelectMultiple,
                                        help_text=_("Normalspiel, Hochzeit mit Partner, Armut: 2 Spieler; "
                                                    "Solo, stille Hochzeit, Hochzeit ohne Partner: 1"))
    announce_re = forms.ChoiceField(label=_("Ansage Re"), choices=ANNOUNCE_RE, required=False)
    announce_kontra = forms.ChoiceField(label=_("Ansage Kontra"), choices=ANNOUNCE_KONTRA, required=False)
    re_augen = forms.IntegerField(label=_("Augen Re"), help_text=_("Kontra hat 240 minus diese Augen"))
    re_tricks = forms.IntegerField(label=_("Stiche Re"), required=False,
                                   help_text=_("nur nötig, wenn eine Partei 0 Augen, aber einen Stich hat"))

    def __init__(self, *args, players: list[Entry], rules: scoring.Rules, **kwargs):
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.fields["re"].choices = [(e.id, e.player.name) for e in players]
        self.fields["solo"].choices = [("", "—")] + [(k, SOLO_LABELS[k]) for k in SOLO_LABELS if k in rules.solo_kinds]
        self.fields["re_augen"].widget.attrs.update(min=0, max=240, inputmode="numeric")
        self.fields["re_tricks"].widget.attrs.update(min=0, max=rules.tricks, inputmode="numeric")
        for kind in self.sonderpunkt_kinds():
            for party, party_label in (("re", "Re"), ("kontra", "Kontra")):
                field = forms.IntegerField(label=f"{SONDERPUNKT_LABEL[kind]} {party_label}", required=False,
                                           min_value=0, initial=0)
                field.widget.attrs.update(min=0, max=4, inputmode="numeric", size=2)
                self.fields[f"{party}_{kind}"] = field

    def sonderpunkt_kinds(self) -> list[str]:
        return [k for k in SONDERPUNKT_LABEL if k in self.rules.sonderpunkte]

    def sonderpunkt_rows(self):
        """(label, Re field, Kontra field) per Sonderpunkt, for the template."""
        return [(SONDERPUNKT_LABEL[k], self[f"re_{k}"], self[f"kontra_{k}"]) for k in self.sonderpunkt_kinds()]

    def game_data(self) -> dict:
        """The cleaned form as `services.results` takes it."""
        data = self.cleaned_data
        extras = {}
        for kind in self.sonderpunkt_kinds():
            for party in ("re", "kontra"):
                if data.get(f"{party}_{kind}"):
                    extras.setdefault(party, {})[kind] = data[f"{party}_{kind}"]
        return {
            "type": data["type"],
            "solo": data.get("solo") or None,
            "re": data["re"],
            "re_augen": data["re_augen"],
            "re_tricks": data.get("re_tricks"),
            "announcements": {"re": data.get("announce_re") or None, "kontra": data.get("announce_kontra") or None},
            "extras": extras,
        }

    @classmethod
    def initial_from(cls, data: dict) -> dict:
        """Form initial values from a stored game's data (services.results.game_data)."""
        initial = {
            "type": data["type"], "solo": data.get("solo") or "", "re": data["re"], "re_augen": data["re_augen"],
            "re_tricks": data.get("re_tricks"),
            "announce_re": data["announcements"].get("re") or "",
            "announce_kontra": data["announcements"].get("kontra") or "",
        }
        for party, counts in (data.get("extras") or {}).items():
            for kind, count in counts.items():
                initial[f"{party}_{kind}"] = count
        return initial

    def add_engine_problems(self, by_field: dict[str, list[str]]):
        """Puts the engine's messages next to the fields they name; the rest on top."""
        for engine_field, messages in by_field.items():
            name = ENGINE_FIELD.get(engine_field)
            if name is None and engine_field.startswith("extras."):
                _extras, party, kind = (engine_field.split(".") + ["", ""])[:3]
                name = f"{party}_{kind}" if f"{party}_{kind}" in self.fields else None
            for message in messages:
                self.add_error(name if name in self.fields else None, message)


class PenaltyForm(forms.Form):
    offender = forms.TypedChoiceField(label=_("Regelverstoß von"), coerce=int)
    game_number = forms.IntegerField(label=_("in Spiel"), required=False, min_value=1,
                                     help_text=_("am 5er-Tisch nötig: wer saß in dem Spiel aus?"))
    note = forms.CharField(label=_("Grund"), required=False, max_length=200)

    def __init__(self, *args, players: list[Entry], **kwargs):
        super().__init__(*args, **kwargs)
        self.fields["offender"].choices = [(e.id, e.player.name) for e in players]


class TotalsForm(forms.Form):
    """Final totals of a paper sheet already summed at the table: one number per player."""

    def __init__(self, *args, players: list[Entry], **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        for entry in players:
            self.fields[f"p{entry.id}"] = forms.IntegerField(label=entry.player.name)

    def totals(self) -> dict[int, int]:
        return {entry.id: self.cleaned_data[f"p{entry.id}"] for entry in self.players}


class SignForm(forms.Form):
    note = forms.CharField(label=_("Unterschrieben von"), required=False, max_length=300,
                           help_text=_("z. B. die Namen der Spieler, die unterschrieben haben"))
