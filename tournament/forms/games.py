"""The game form, in the order a paper sheet is read out and at the speed it is typed: game type,
Re party as the sheet writes it (seat numbers: "13" or "1+3"), announcements, Augen, tricks only when
needed, Sonderpunkte in the sheet's short notation ("kf": Kontra caught a Fuchs). The scoring engine
checks the content; this form collects it and puts the engine's messages next to the fields they
concern."""

from __future__ import annotations

import re

from django import forms
from django.utils.translation import gettext as _t
from django.utils.translation import gettext_lazy as _

import scoring
from seating.dealing import Deal

from .. import engine, vocabulary
from ..models import Entry, Game
from ..vocabulary import PARTIES, SOLOS, SONDERPUNKT_KEY, SONDERPUNKT_KEYS, SONDERPUNKTE
from .common import KeyField, VersionField, choice_field

# the engine's field names and the form's
ENGINE_FIELD = {"type": "type", "solo": "solo", "pflichtsolo": "pflichtsolo", "re": "re_seats", "re_augen": "re_augen",
                "re_tricks": "re_tricks", "announcements.re": "announcements", "announcements.kontra": "announcements"}
ANNOUNCE_TOKEN = re.compile(r"(kontra|ko|re|r|k)(90|9|60|6|30|3|0|sw|s)?")
ANNOUNCE_LEVEL = {None: "", "90": "keine90", "9": "keine90", "60": "keine60", "6": "keine60", "30": "keine30",
                  "3": "keine30", "0": "schwarz", "sw": "schwarz", "s": "schwarz"}
ANNOUNCE_KEY = {"keine90": "9", "keine60": "6", "keine30": "3", "schwarz": "s"}
# a solo's mark in a list with Pflichtsoli, as the form sends it ("": as the rule gives it)
PFLICHTSOLO_VALUE = {"": None, "pflicht": True, "lust": False}
# how a party is written in the notation, longest first: "ko" and "kontra" before "k"
PARTY_WORDS = [("kontra", "kontra"), ("re", "re"), ("ko", "kontra"), ("r", "re"), ("k", "kontra")]
EXTRAS_ITEMS = re.compile(r"(?:\d?[a-z])+")
EXTRAS_ITEM = re.compile(r"(\d?)([a-z])")


def seats_text(positions: list[int]) -> str:
    return "".join(str(p) for p in sorted(positions))


def announcements_text(announcements: dict) -> str:
    """The announcements in the short notation: {"re": "keine90", "kontra": "kontra"} -> "r9 k"."""
    words = []
    for party, key in (("re", "r"), ("kontra", "k")):
        said = (announcements or {}).get(party)
        if said:
            words.append(key + ANNOUNCE_KEY.get(said, ""))
    return " ".join(words)


def extras_text(extras: dict) -> str:
    """Sonderpunkte in the short notation: {"re": {"doppelkopf": 2}, "kontra": {"fuchs": 1}} -> "rdd kf"."""
    groups = []
    for party, key in (("re", "r"), ("kontra", "k")):
        counts = (extras or {}).get(party) or {}
        letters = "".join(SONDERPUNKT_KEY[kind] * count for kind, count in counts.items() if kind in SONDERPUNKT_KEY)
        if letters:
            groups.append(key + letters)
    return " ".join(groups)


class GameForm(forms.Form):
    version = VersionField()
    type = forms.ChoiceField(label=_("Spielart"), choices=Game.Type.choices, initial=Game.Type.NORMAL)
    solo = forms.ChoiceField(label=_("Solo"), required=False)
    # only in a tournament with Pflichtsoli (removed otherwise)
    pflichtsolo = forms.ChoiceField(
        label=_("Pflicht- oder Lustsolo"), required=False,
        help_text=_("Von selbst: das erste Solo eines Spielers in der Liste ist sein Pflichtsolo, jedes weitere ein "
                    "Lustsolo."))
    re_seats = forms.CharField(
        label=_("Re-Partei (Plätze)"), max_length=20,
        help_text=_("Wie auf dem Zettel: die Plätze der Re-Partei, z. B. 13 oder 1+3 (Solo: einer). Oder die "
                    "Namen antippen."))
    announcements = forms.CharField(
        label=_("Ansagen"), required=False, max_length=20,
        help_text=_("Wie auf dem Zettel, die höchste Ansage jeder Partei: r = Re, k = Kontra, dahinter 9, 6 oder 3 "
                    "für keine 90/60/30 und s für schwarz. Z. B. r, k, r9, r k6."))
    # no bounds here: the engine checks the numbers and says what is wrong in the game's terms
    re_augen = forms.IntegerField(label=_("Augen Re"), help_text=_("Kontra hat 240 minus diese Augen"))
    re_tricks = forms.IntegerField(label=_("Stiche Re"), required=False,
                                   help_text=_("nur nötig, wenn eine Partei 0 Augen, aber einen Stich hat"))
    extras = forms.CharField(
        label=_("Sonderpunkte"), required=False, max_length=40,
        help_text=_("Erst die Partei (r = Re, k = Kontra), dann je Sonderpunkt ein Buchstabe: f Fuchs gefangen, "
                    "d Doppelkopf, k Karlchen, g Karlchen gefangen, h Herzstich. Z. B. kf (Kontra hat einen Fuchs "
                    "gefangen), rdd kf."))

    def __init__(self, *args, players: list[Entry], seats: list[Entry], rules: scoring.Rules,
                 deal: Deal | None = None, pflichtsoli: bool = False, **kwargs):
        """`seats`: the table's players in seat order; `players`: the four who play this game;
        `deal`: who deals it; `pflichtsoli`: the tournament plays lists with Pflichtsoli."""
        super().__init__(*args, **kwargs)
        self.rules = rules
        self.seats = seats
        self.players = players
        solos = [(k, SOLOS[k]) for k in SOLOS if k in rules.solo_kinds]
        choice_field(self, "solo").choices = [("", "—"), *solos]
        if pflichtsoli:
            choice_field(self, "pflichtsolo").choices = [
                ("", _t("von selbst")), ("pflicht", vocabulary.label("pflichtsolo", "pflicht")),
                ("lust", vocabulary.label("pflichtsolo", "lust"))]
            # the seats whose Pflichtsolo is still open before this game: the script shows what "von selbst" gives
            open_ = set(deal.open_pflichtsoli) if deal is not None else set()
            self.fields["pflichtsolo"].widget.attrs["data-open-seats"] = " ".join(
                str(position) for position, entry in enumerate(seats, start=1) if entry.id in open_)
        else:
            del self.fields["pflichtsolo"]
        self.fields["re_seats"].widget.attrs.update(inputmode="numeric", autocomplete="off", size=6,
                                                    **{"data-seats": "1"})
        self.fields["re_augen"].widget.attrs.update(min=0, max=240, inputmode="numeric")
        self.fields["re_tricks"].widget.attrs.update(min=0, max=rules.tricks, inputmode="numeric", tabindex="-1")
        for name in ("announcements", "extras"):
            self.fields[name].widget.attrs.update(autocomplete="off", size=10, spellcheck="false",
                                                  autocapitalize="off")

    def sonderpunkt_kinds(self) -> list[str]:
        return [k for k in SONDERPUNKTE if k in self.rules.sonderpunkte]

    def seat_choices(self) -> list[tuple[int, Entry, bool]]:
        """(seat number, player, plays this game) for the template's name buttons."""
        playing = {e.id for e in self.players}
        return [(position, entry, entry.id in playing) for position, entry in enumerate(self.seats, start=1)]

    def clean_re_seats(self) -> list[int]:
        text = self.cleaned_data["re_seats"]
        positions = [int(d) for d in re.findall(r"\d", text)]
        if not positions:
            raise forms.ValidationError(_t("Bitte die Plätze der Re-Partei angeben, z. B. 13."))
        if len(set(positions)) != len(positions):
            raise forms.ValidationError(_t("Ein Platz steht zweimal in der Re-Partei."))
        playing = {e.id for e in self.players}
        ids = []
        for position in positions:
            if not 1 <= position <= len(self.seats):
                raise forms.ValidationError(_t("Platz %(n)s gibt es an diesem Tisch nicht (Plätze 1 bis %(last)s).")
                                            % {"n": position, "last": len(self.seats)})
            entry = self.seats[position - 1]
            if entry.id not in playing:
                raise forms.ValidationError(_t("Platz %(n)s (%(name)s) gibt in diesem Spiel und sitzt aus.")
                                            % {"n": position, "name": entry.player.name})
            ids.append(entry.id)
        return ids

    def clean_announcements(self) -> dict:
        """The short notation: per party its highest announcement ("r", "k", "r9", "k6", "rs", "r9 k")."""
        text = re.sub(r"[\s,+/]", "", self.cleaned_data["announcements"].lower())
        said: dict[str, str | None] = {"re": None, "kontra": None}
        position = 0
        while position < len(text):
            token = ANNOUNCE_TOKEN.match(text, position)
            if token is None:
                raise forms.ValidationError(_t("„%(rest)s“ ist unklar: r = Re, k = Kontra, dahinter 9, 6, 3 (keine "
                                               "90/60/30) oder s (schwarz), z. B. r9 k.") % {"rest": text[position:]})
            party = "re" if token.group(1) in ("r", "re") else "kontra"
            if said[party] is not None:
                raise forms.ValidationError(_t("Für jede Partei nur ihre höchste Ansage angeben."))
            said[party] = ANNOUNCE_LEVEL[token.group(2)] or party
            position = token.end()
        return said

    def clean_extras(self) -> dict:
        """The short notation: a party (r, re, k, ko, kontra) then its Sonderpunkte, one letter each
        with an optional count ("kf", "rdd", "r2d", "k f", "Re D, Ko F")."""
        text = self.cleaned_data["extras"].lower().replace(",", " ").replace("+", " ")
        extras: dict[str, dict[str, int]] = {}
        party = None
        for word in text.split():
            for name, key in PARTY_WORDS:
                if word.startswith(name) and (word == name or EXTRAS_ITEMS.fullmatch(word[len(name):])):
                    party, word = key, word[len(name):]
                    break
            if not word:
                continue
            if party is None or not EXTRAS_ITEMS.fullmatch(word):
                raise forms.ValidationError(
                    _t("„%(word)s“ ist unklar: erst die Partei (r oder k), dann die Sonderpunkte, z. B. kf oder rdd.")
                    % {"word": word})
            for count, key in EXTRAS_ITEM.findall(word):
                kind = SONDERPUNKT_KEYS.get(key)
                if kind is None or kind not in self.rules.sonderpunkte:
                    known = ", ".join(f"{k} {SONDERPUNKTE[SONDERPUNKT_KEYS[k]]}" for k in "fdkgh"
                                      if SONDERPUNKT_KEYS[k] in self.rules.sonderpunkte)
                    raise forms.ValidationError(_t("„%(key)s“ ist in diesem Regelwerk kein Sonderpunkt; es gibt: "
                                                   "%(known)s.") % {"key": key, "known": known})
                counts = extras.setdefault(party, {})
                counts[kind] = counts.get(kind, 0) + int(count or 1)
        return extras

    def game_data(self) -> dict:
        """The cleaned form as `services.results` takes it."""
        data = self.cleaned_data
        return {
            "type": data["type"],
            "solo": data.get("solo") or None,
            "pflichtsolo": PFLICHTSOLO_VALUE.get(data.get("pflichtsolo") or "") if data["type"] == "solo" else None,
            "re": data["re_seats"],
            "re_augen": data["re_augen"],
            "re_tricks": data.get("re_tricks"),
            "announcements": data.get("announcements") or {"re": None, "kontra": None},
            "extras": data.get("extras") or {},
        }

    @classmethod
    def initial_from(cls, game: Game, seats: list[Entry]) -> dict:
        """Form initial values from a stored game, with the version it is loaded from."""
        data = engine.data_of(game)
        position = {e.id: i for i, e in enumerate(seats, start=1)}
        return {
            "version": game.version, "type": data["type"], "solo": data.get("solo") or "",
            "pflichtsolo": {True: "pflicht", False: "lust", None: ""}[data["pflichtsolo"]],
            "re_seats": seats_text([position[e] for e in data["re"] if e in position]),
            "re_augen": data["re_augen"], "re_tricks": data.get("re_tricks"),
            "announcements": announcements_text(data["announcements"]),
            "extras": extras_text(data.get("extras") or {}),
        }

    @classmethod
    def initial_from_deal(cls, deal: Deal, seats: list[Entry]) -> dict:
        """Form initial values of a new game: in a list's last games, the Pflichtsolo of the player
        vorgeführt in it."""
        initial: dict = {"version": 0}
        if deal.vorgefuehrt is not None:
            position = next(i for i, e in enumerate(seats, start=1) if e.id == deal.vorgefuehrt)
            initial.update(type=Game.Type.SOLO, re_seats=str(position), pflichtsolo="pflicht")
        return initial

    def add_engine_problems(self, by_field: dict[str, list[str]]):
        """Puts the engine's messages next to the fields they name; the rest on top."""
        for engine_field, messages in by_field.items():
            name = "extras" if engine_field.startswith("extras") else ENGINE_FIELD.get(engine_field)
            prefix = ""
            parts = engine_field.split(".")
            if len(parts) == 3 and parts[1] in PARTIES and parts[2] in SONDERPUNKTE:  # extras.<party>.<kind>
                prefix = f"{PARTIES[parts[1]]}, {SONDERPUNKTE[parts[2]]}: "
            for message in messages:
                self.add_error(name if name in self.fields else None, prefix + message)

    def first_error_field(self) -> str | None:
        """The first field in the form's order that has an error (the cursor goes there)."""
        return next((name for name in self.fields if name in self.errors), None)


class PenaltyForm(forms.Form):
    key = KeyField()
    offender = forms.TypedChoiceField(label=_("Regelverstoß von"), coerce=int)
    game_number = forms.IntegerField(label=_("in Spiel"), required=False, min_value=1, max_value=99,
                                     help_text=_("am 5er-Tisch nötig: wer saß in dem Spiel aus?"))
    note = forms.CharField(label=_("Grund"), required=False, max_length=200)

    def __init__(self, *args, players: list[Entry], **kwargs):
        super().__init__(*args, **kwargs)
        choice_field(self, "offender").choices = [(e.id, e.player.name) for e in players]


class TotalsForm(forms.Form):
    """Final totals of a paper sheet already summed at the table: one number per player, each
    within what the rules allow at that table (`scores.most_total`)."""

    version = VersionField()

    def __init__(self, *args, players: list[Entry], most: int, **kwargs):
        super().__init__(*args, **kwargs)
        self.players = players
        for entry in players:
            self.fields[f"p{entry.id}"] = forms.IntegerField(label=entry.player.name, min_value=-most, max_value=most)

    def totals(self) -> dict[int, int]:
        return {entry.id: self.cleaned_data[f"p{entry.id}"] for entry in self.players}


class SignForm(forms.Form):
    version = VersionField()
    note = forms.CharField(label=_("Unterschrieben von"), required=False, max_length=300,
                           help_text=_("z. B. die Namen der Spieler, die unterschrieben haben"))
