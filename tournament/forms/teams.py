"""Teams: a team's name and members, and the tournament's team options (docs/competitions.md)."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext_lazy as _

from ..models import Tournament
from ..models.teams import MAX_MEMBERS
from ..names import folded
from .common import VersionField


class TeamForm(forms.Form):
    name = forms.CharField(label=_("Name des Teams"), max_length=80)
    members = forms.CharField(
        label=_("Mitglieder"), max_length=2000, widget=forms.Textarea(attrs={"rows": 3}),
        help_text=_("2 bis 6 Spieler, durch Komma oder Zeilenumbruch getrennt: Name oder Startnummer."))
    version = VersionField()

    def __init__(self, *args, tournament: Tournament, **kwargs):
        super().__init__(*args, **kwargs)
        self.tournament = tournament

    def clean_members(self) -> list[int]:
        """The members as entry ids: a player by start number or by name (compared as `names.folded`)."""
        parts = [p.strip() for p in re.split(r"[,\n;]", self.cleaned_data["members"]) if p.strip()]
        entries = list(self.tournament.entries.select_related("player"))
        by_number = {str(e.start_number): e for e in entries}
        by_name: dict[str, list] = {}
        for entry in entries:
            by_name.setdefault(folded(entry.player.name), []).append(entry)
        found, errors = [], []
        for part in parts:
            matches = [by_number[part]] if part in by_number else by_name.get(folded(part), [])
            if len(matches) == 1:
                found.append(matches[0].pk)
            elif matches:
                errors.append(_("„%(name)s“ gibt es mehrmals; bitte die Startnummer angeben.") % {"name": part})
            else:
                errors.append(_("„%(name)s“ spielt in diesem Turnier nicht mit.") % {"name": part})
        if errors:
            raise forms.ValidationError(errors)
        return found


def count_choices(most: int, none_label) -> list[tuple[str, str]]:
    return [("", none_label), *((str(k), _("die besten %(k)s") % {"k": k}) for k in range(1, most + 1))]


class TeamOptionsForm(forms.Form):
    team_count = forms.TypedChoiceField(label=_("In einem Team zählen"), required=False, coerce=int,
                                        empty_value=None, choices=())
    club_ranking = forms.ChoiceField(label=_("Vereinswertung"), choices=(
        ("none", _("keine")), ("all", _("alle Spieler eines Vereins zählen")), ("best", _("die besten k zählen"))),
        initial="none")
    club_best = forms.IntegerField(label=_("k (beste Spieler je Verein)"), min_value=1, max_value=99,
                                   required=False, initial=4)
    teams_apart = forms.BooleanField(label=_("Mitglieder eines Teams bei der Auslosung trennen"), required=False,
                                     help_text=_("Nur bei Zufall: Spieler eines Teams sitzen möglichst an "
                                                 "verschiedenen Tischen."))
    team_match = forms.BooleanField(
        label=_("Mannschaftskampf (Ligaspieltag)"), required=False,
        help_text=_("4 oder 5 Teams mit gleich vielen Spielern: an jedem Tisch sitzt einer je Team, und über die "
                    "Runden trifft jeder möglichst jeden Gegner einmal. Die Teamwertung zeigt dann Spielpunkte und "
                    "Siegpunkte (4/3/2/1)."))
    cup_advance = forms.IntegerField(
        label=_("Pokal: es kommen weiter"), required=False, min_value=1, max_value=99,
        help_text=_("Leer: kein Pokal. Sonst bilden die Teams eine Pokalgruppe (Summe der Spielpunkte aller "
                    "Spieler), und die besten so viele Teams kommen weiter."))
    season = forms.CharField(
        label=_("Saison (Kurzname auf dem Hub)"), required=False, max_length=80,
        help_text=_("Für eine Liga oder einen Pokal mehrerer Vereine: der Kurzname der Saison auf dem Hub, wie er "
                    "in ihrer Adresse steht (…/s/kurzname/). Wird das Turnier veröffentlicht, zählt dieser Spieltag "
                    "dort, wenn Ihr Verein zur Saison gehört. Leer: keine Saison."))
    version = VersionField()

    def __init__(self, *args, tournament: Tournament, **kwargs):
        club = tournament.club_count
        kwargs.setdefault("initial", {
            "team_count": "" if tournament.team_count is None else str(tournament.team_count),
            "club_ranking": "none" if club is None else ("all" if club == 0 else "best"),
            "club_best": club or 4, "teams_apart": tournament.teams_apart, "team_match": tournament.team_match,
            "cup_advance": tournament.cup_advance, "season": tournament.season, "version": tournament.version})
        super().__init__(*args, **kwargs)
        field = self.fields["team_count"]
        assert isinstance(field, forms.ChoiceField)
        field.choices = count_choices(MAX_MEMBERS, _("alle Mitglieder"))

    def clean(self):
        data = super().clean()
        if data.get("club_ranking") == "best" and not data.get("club_best"):
            self.add_error("club_best", _("Wie viele Spieler je Verein zählen? Bitte eine Zahl ab 1."))
        return data

    def club_count(self) -> int | None:
        ranking = self.cleaned_data["club_ranking"]
        return None if ranking == "none" else (0 if ranking == "all" else self.cleaned_data["club_best"])
