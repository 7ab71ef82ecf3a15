"""Creating a tournament and changing its settings."""

from __future__ import annotations

import json

from django import forms
from django.utils import timezone
from django.utils.translation import gettext_lazy as _

import scoring

from .. import vocabulary
from ..models import Tournament
from ..models.tournaments import own_categories, prize_texts, prizes_text
from ..ranking import TIE_BREAKERS
from .common import VersionField, choice_field

# "t/new/" is the page that creates a tournament: no tournament may be called that
RESERVED_SLUGS = {"new"}
# a new tournament's lists with Pflichtsoli "as the ruleset has it": the DDV's rules play lists of 24
# games at a table of 4 (30 at a table of 5), each with one Pflichtsolo per player (docs/pflichtsolo.md)
PFLICHTSOLI_BY_PRESET = {"ddv": Tournament.Pflichtsoli.SAME_DEALER}
LIST_GAMES = {4: 24, 5: 30}


def preset_choices():
    return [(preset_id, vocabulary.ruleset_title(rules)) for preset_id, rules in scoring.PRESETS.items()]


def split_rules(spec) -> tuple[str, dict]:
    """A stored ruleset (a preset id or {"preset": id, option: value, …}) as (preset id, changed options)."""
    if isinstance(spec, dict):
        changes = dict(spec)
        return changes.pop("preset", scoring.DEFAULT_PRESET), changes
    return spec or scoring.DEFAULT_PRESET, {}


def join_rules(preset: str, changes: dict):
    return {"preset": preset, **changes} if changes else preset


class TournamentForm(forms.Form):
    """The fields a tournament is created with; the settings page has these and more."""

    name = forms.CharField(label=_("Name"), max_length=200)
    date = forms.DateField(label=_("Datum"), widget=forms.DateInput(attrs={"type": "date"}, format="%Y-%m-%d"),
                           initial=timezone.localdate)  # most tournaments are created on the evening
    place = forms.CharField(label=_("Ort"), max_length=200, required=False)
    slug = forms.SlugField(
        label=_("Kurzname"), max_length=80, required=False,
        help_text=_("Für die Adresse /t/kurzname/; leer lassen, dann wird er aus dem Namen gebildet."))
    preset = forms.ChoiceField(label=_("Regelwerk"), choices=preset_choices, initial=scoring.DEFAULT_PRESET)
    rounds_planned = forms.IntegerField(label=_("Runden"), min_value=1, max_value=30, initial=3)
    games_at_table_of_4 = forms.IntegerField(label=_("Spiele am 4er-Tisch"), min_value=1, max_value=99, initial=8)
    games_at_table_of_5 = forms.IntegerField(label=_("Spiele am 5er-Tisch"), min_value=1, max_value=99, initial=10)
    round_minutes = forms.IntegerField(label=_("Spielzeit je Runde (Minuten)"), min_value=0, max_value=600,
                                       initial=100, required=False, help_text=_("Für die Rundenuhr; 0: keine Uhr."))
    pflichtsoli = forms.ChoiceField(
        label=_("Pflichtsoli"), required=False, initial="auto", widget=forms.RadioSelect,
        choices=[("auto", _("wie das Regelwerk (beim DDV-Regelwerk mit Pflichtsoli)")),
                 *Tournament.Pflichtsoli.choices],
        help_text=_("Eine Liste: die Normalspiele und je Spieler ein Pflichtsolo; wer es bis zum Ende der "
                    "Normalspiele nicht gespielt hat, wird vorgeführt. Der DDV spielt 24 Spiele am 4er-Tisch "
                    "(20 Normalspiele und 4 Pflichtsoli), hier 30 am 5er-Tisch; mit „wie das Regelwerk“ und "
                    "unveränderten Spielzahlen werden es diese."))

    ranking = forms.ChoiceField(
        label=_("Wertung nach"), required=False, initial=Tournament.Ranking.POINTS, widget=forms.RadioSelect,
        choices=Tournament.Ranking.choices,
        help_text=_("Tischpunkte: in jeder Runde nach dem Platz am Tisch +3/+1/−1/−3, am Fünfertisch "
                    "+4/+2/0/−2/−4; wer gleich viele Punkte hat, teilt sich die Plätze und bekommt ihren "
                    "Durchschnitt. Durchschnitt: für Felder, in denen nicht alle jede Runde spielen. "
                    "Jederzeit änderbar; Rangliste, Exporte und Spielerseiten folgen sofort."))

    def __init__(self, *args, tournament: Tournament | None = None, **kwargs):
        self.tournament = tournament
        super().__init__(*args, **kwargs)

    def clean_ranking(self):
        """Not chosen (an older page): as it was (summed game points for a new tournament)."""
        value = self.cleaned_data["ranking"]
        if not value:
            return self.tournament.ranking if self.tournament is not None else Tournament.Ranking.POINTS
        return value

    def clean_round_minutes(self):
        """Left empty: as it was (100 for a new tournament)."""
        value = self.cleaned_data["round_minutes"]
        if value is None:
            return self.tournament.round_minutes if self.tournament is not None else 100
        return value

    def clean_slug(self):
        slug = self.cleaned_data["slug"].strip().lower()
        if slug in RESERVED_SLUGS:
            raise forms.ValidationError(_("Den Kurznamen %(slug)s kann kein Turnier haben."), params={"slug": slug})
        others = Tournament.objects.filter(slug=slug)
        if self.tournament is not None:
            others = others.exclude(pk=self.tournament.pk)
        if slug and others.exists():
            raise forms.ValidationError(_("Den Kurznamen %(slug)s hat schon ein anderes Turnier."),
                                        params={"slug": slug})
        return slug

    def create_arguments(self) -> dict:
        """The keyword arguments of services.tournaments.create_tournament. Lists with Pflichtsoli
        "as the ruleset has it" are the DDV's list for the DDV's rules (with its numbers of games, when
        the form's were not changed), else none."""
        data = dict(self.cleaned_data)
        data.pop("organisation", None)  # chosen by the view (forms.common.add_organisation_field)
        data["rules"] = data.pop("preset")
        if data.get("pflichtsoli", "auto") in ("auto", None):
            data["pflichtsoli"] = PFLICHTSOLI_BY_PRESET.get(data["rules"], Tournament.Pflichtsoli.NONE)
            plain = (self.fields["games_at_table_of_4"].initial, self.fields["games_at_table_of_5"].initial)
            if data["pflichtsoli"] and (data["games_at_table_of_4"], data["games_at_table_of_5"]) == plain:
                data["games_at_table_of_4"], data["games_at_table_of_5"] = LIST_GAMES[4], LIST_GAMES[5]
        return data


PUBLIC_SWITCHES = ("public_overview", "public_seating", "public_standings", "public_players", "rating_shown",
                   "rating_forecast")


class SettingsForm(TournamentForm):
    """A tournament's settings: the fields it was created with, changed rule options, tie-breakers."""

    version = VersionField()
    slug = forms.SlugField(label=_("Kurzname"), max_length=80,
                           help_text=_("Die Adresse des Turniers: /t/kurzname/."))
    rule_changes = forms.CharField(
        label=_("Geänderte Regeloptionen"), required=False, max_length=5000,
        widget=forms.Textarea(attrs={"rows": 4, "spellcheck": "false", "class": "code"}),
        help_text=_('Optionen, die vom Regelwerk abweichen, als JSON-Objekt, z. B. {"penalty_points": 3}. '
                    "Leer lassen für das Regelwerk wie vorgegeben."))
    tie_breakers = forms.MultipleChoiceField(
        label=_("Bei Punktgleichheit entscheidet"), required=False, widget=forms.CheckboxSelectMultiple,
        choices=lambda: list(TIE_BREAKERS.items()),
        help_text=_("In dieser Reihenfolge; wer dann noch gleich steht, teilt sich den Platz."))

    confirmation = forms.ChoiceField(
        label=_("Spiele, die ein Tisch auf dem Handy einträgt, bestätigt"), choices=Tournament.Confirmation.choices,
        widget=forms.RadioSelect, required=False,
        help_text=_("Bis dahin zählen sie nirgends; die Live-Übersicht der Runde zeigt, was wartet."))

    public_overview = forms.BooleanField(label=_("Übersicht"), required=False)
    public_seating = forms.BooleanField(label=_("Tischeinteilung der veröffentlichten Runden"), required=False)
    public_standings = forms.BooleanField(label=_("Tabelle (mit CSV und JSON)"), required=False)
    public_players = forms.BooleanField(label=_("Spielerseiten mit allen Spielen"), required=False)
    rating_shown = forms.BooleanField(label=_("Wertungszahl (Spielstärke aus allen Spielen)"), required=False)
    rating_forecast = forms.BooleanField(
        label=_("Erwartung je Tisch vor der Runde (aus den Wertungszahlen)"), required=False,
        help_text=_("Nur für Turniere, die nicht für die Rangliste zählen, und nur mit der Wertungszahl."))
    counts_for_rangliste = forms.BooleanField(
        label=_("zählt für die Rangliste"), required=False,
        help_text=_("Die Ergebnisse zählen in jeder Rangliste über alle Turniere, die dafür zählen."))

    categories = forms.CharField(
        label=_("Eigene Kategorien"), required=False, max_length=500,
        help_text=_("Neben Damen, Jugend, Senioren und Gast, durch Kommas getrennt, z. B. „Ü70, Vereinsmeister“."))

    prizes = forms.CharField(
        label=_("Preise"), required=False, max_length=5000, widget=forms.Textarea(attrs={"rows": 4}),
        help_text=_("Was jeder Platz gewinnt, je Zeile eine Liste: „Gesamt“ oder eine Kategorie, ein Doppelpunkt, "
                    "dann die Preise der Plätze mit Semikolon getrennt, z. B. „Gesamt: 50 €; 30 €; 20 €“ und "
                    "„Damen: Präsentkorb“. Die Preisliste zeigt sie und so viele Plätze, wie Preise eingetragen sind."))

    def __init__(self, *args, tournament: Tournament, **kwargs):
        preset, changes = split_rules(tournament.rules)
        kwargs.setdefault("initial", {
            "version": tournament.version, "name": tournament.name, "date": tournament.date,
            "place": tournament.place, "slug": tournament.slug,
            "preset": preset, "rule_changes": json.dumps(changes, ensure_ascii=False) if changes else "",
            "rounds_planned": tournament.rounds_planned, "games_at_table_of_4": tournament.games_at_table_of_4,
            "games_at_table_of_5": tournament.games_at_table_of_5, "tie_breakers": tournament.tie_breakers,
            "round_minutes": tournament.round_minutes, "pflichtsoli": tournament.pflichtsoli,
            "confirmation": tournament.confirmation, "ranking": tournament.ranking,
            "counts_for_rangliste": tournament.counts_for_rangliste, "categories": ", ".join(tournament.categories),
            "prizes": prizes_text(tournament.prizes, tournament.category_names()),
            **{name: getattr(tournament, name) for name in PUBLIC_SWITCHES},
        })
        super().__init__(*args, tournament=tournament, **kwargs)
        pflichtsoli = choice_field(self, "pflichtsoli")
        pflichtsoli.choices = Tournament.Pflichtsoli.choices  # the settings say what it is, no "as the ruleset"
        pflichtsoli.help_text = _("Eine Liste: die Normalspiele und je Spieler ein Pflichtsolo; wer es bis zum Ende "
                                  "der Normalspiele nicht gespielt hat, wird vorgeführt (der DDV spielt 24 Spiele am "
                                  "4er-Tisch). Änderbar, solange noch kein Spiel eingetragen ist.")

    def clean_rule_changes(self):
        text = self.cleaned_data["rule_changes"].strip()
        if not text:
            return {}
        try:
            changes = json.loads(text)
        except json.JSONDecodeError as error:
            raise forms.ValidationError(_("Kein gültiges JSON (Zeile %(line)s, Zeichen %(column)s)."),
                                        params={"line": error.lineno, "column": error.colno}) from None
        except RecursionError:
            raise forms.ValidationError(_("Die Regeloptionen sind zu tief verschachtelt.")) from None
        if not isinstance(changes, dict):
            raise forms.ValidationError(_('Erwartet ist ein JSON-Objekt in geschweiften Klammern, z. B. '
                                          '{"penalty_points": 3}.'))
        changes.pop("preset", None)  # the preset is chosen above
        return changes

    def clean_categories(self):
        """The tournament's own categories from "Ü70, Vereinsmeister" (commas or lines): cleaned, each
        once, the usual ones left out (they are always there)."""
        return own_categories(self.cleaned_data["categories"].replace("\n", ",").split(","))

    def clean(self):
        """The prizes name the tournament's categories as this form leaves them (`prize_texts`); a page
        that does not send them (an older one) keeps them as they are."""
        cleaned = super().clean()
        if "prizes" not in self.data:
            cleaned["prizes"] = self.tournament.prizes
        elif "prizes" in cleaned:
            own = cleaned.get("categories", self.tournament.categories)
            try:
                cleaned["prizes"] = prize_texts(cleaned["prizes"], [*Tournament.category_names_of(own)])
            except forms.ValidationError as error:
                self.add_error("prizes", error)
        return cleaned

    def clean_pflichtsoli(self):
        """Not sent (an older page): as it was."""
        if "pflichtsoli" not in self.data:
            return self.tournament.pflichtsoli
        return self.cleaned_data["pflichtsoli"]

    def clean_confirmation(self):
        return self.cleaned_data["confirmation"] or self.tournament.confirmation

    def clean_tie_breakers(self):
        chosen = set(self.cleaned_data["tie_breakers"])
        return [name for name in TIE_BREAKERS if name in chosen]

    def rules(self):
        """The ruleset as stored: a preset id, or the preset with the changed options."""
        return join_rules(self.cleaned_data["preset"], self.cleaned_data["rule_changes"])

    def public_fields(self):
        return [self[name] for name in PUBLIC_SWITCHES]

    def tournament_fields(self):
        return [self[name] for name in TournamentForm.base_fields if name not in ("preset", "ranking")]

    def plain_fields(self) -> dict:
        """Everything but the ruleset, as model field values."""
        names = ("name", "date", "place", "slug", "rounds_planned", "games_at_table_of_4", "games_at_table_of_5",
                 "round_minutes", "pflichtsoli", "tie_breakers", "confirmation", "ranking",
                 "counts_for_rangliste", "categories", "prizes") + PUBLIC_SWITCHES
        return {name: self.cleaned_data[name] for name in names}


class RoleForm(forms.Form):
    """Make an existing account a co-director or helper of the tournament, or take that away."""

    username = forms.CharField(label=_("Benutzername"), max_length=150)
    role = forms.ChoiceField(label=_("Rolle"), choices=[("director", _("Turnierleitung")),
                                                        ("helper", _("Turnierhelfer"))])
    change = forms.ChoiceField(choices=[("add", _("hinzufügen")), ("remove", _("entfernen"))],
                               widget=forms.HiddenInput, initial="add")


class HelperAccountForm(forms.Form):
    """A new account for a helper at the venue, who then helps at this tournament only."""

    username = forms.CharField(label=_("Benutzername"), max_length=150)
    password = forms.CharField(label=_("Passwort"), max_length=128, widget=forms.PasswordInput(render_value=False),
                               help_text=_("Mindestens 8 Zeichen, nicht nur Ziffern."))

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("auto_id", "helper_%s")  # its ids differ from RoleForm's on the same page
        super().__init__(*args, **kwargs)
