"""Names as they are stored, shown and compared (`tournament/names.py`, docs/security.md): NFKC, the
characters that show nothing removed, whitespace collapsed; a name with nothing visible or with two
scripts in one word refused with a sentence, on every way a name comes in; nothing of a stored name
that a terminal would obey reaches `manage.py standings`."""

from __future__ import annotations

import copy
import io

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tournament import names
from tournament.errors import UserError
from tournament.models import Entry, Player, Registration, Series, Team, Tournament
from tournament.services import checkin, teams, tournaments
from tournament.services import rangliste as rangliste_services
from tournament.services import series as series_services
from tournament.services.importing import import_tournament

from ..factories import make_tournament
from ..transfer.test_transfer import CANONICAL, problems_of

pytestmark = pytest.mark.django_db

INVISIBLE = "Der Name enthält keine sichtbaren Zeichen."
MIXED = "„Mаx“ mischt Buchstaben verschiedener Schriften (lateinische und kyrillische)"
LOOKALIKES = ["Max\u200b Muster", "Ｍａｘ Ｍｕｓｔｅｒ", "\u202eMax Muster", "Max\u00ad Muster\u200d",
              "Max\u2060\tMuster"]
EMPTY_LOOKING = ["\u200b", "\u2800", "\u3164", "\u115f\u1160", "\uffa0", "\u200b \u2800\ufeff", "\u202e\u202c"]


@pytest.mark.parametrize("text", LOOKALIKES)
def test_clean_makes_lookalikes_the_name_they_look_like(text):
    assert names.clean(text) == "Max Muster"
    assert names.identity(text, "") == names.identity("max muster", "")
    assert names.problem(text) is None


@pytest.mark.parametrize("text", EMPTY_LOOKING)
def test_a_name_of_invisible_characters_is_empty_and_a_problem(text):
    assert names.clean(text) == "" and names.problem(text) == names.Problem("invisible")


@pytest.mark.parametrize(("text", "word"), [("Mаx Muster", "Mаx"), ("Max Μuster", "Μuster"), ("Аnnа Alt", "Аnnа"),
                                            ("Анна Alt", None)])
def test_two_scripts_in_one_word_are_a_problem(text, word):
    found = names.problem(text)
    assert found is None if word is None else found.word == word and len(found.scripts) == 2


@pytest.mark.parametrize("text", ["José Müller", "Anna-Мария", "Αννα Ζ", "山田 太郎", "やまだ太郎", "O'Neill",
                                  "Ørsted"])
def test_names_of_one_script_a_word_pass_and_clean_is_idempotent(text):
    assert names.problem(text) is None and names.clean(names.clean(text)) == names.clean(text)


def test_the_quick_clean_of_a_usual_name_is_the_rule_for_every_character():
    """`clean` takes a printable NFKC text without fillers at C speed: the same as the rule itself
    (`_cleaned_char_by_char`) around every character of the Basic Multilingual Plane, the emoji, the
    tags and the variation selectors, alone, doubled and between spaces."""
    planes = [*range(0x10000), *range(0x1F000, 0x1FB00), *range(0xE0000, 0xE01F0)]
    for code in planes:
        char = chr(code)
        if 0xD800 <= code < 0xE000:
            continue  # a lone surrogate is not a text a form or a file gives us
        for text in (f"Ab{char}c", f" {char}{char} Max  ", char + "\u0308", f"{char}  \u00e9"):
            assert names.clean(text) == names._cleaned_char_by_char(text), (hex(code), text)


# ---- every way a name comes in ------------------------------------------------------------------------

@pytest.fixture
def field(director):
    tournament = make_tournament(players=0, director=director, slug="namen")
    tournaments.register_player(tournament=tournament, name="Max Muster")
    return tournament


@pytest.mark.parametrize("text", LOOKALIKES)
def test_a_lookalike_of_a_registered_player_is_that_player(field, text):
    with pytest.raises(UserError, match="Max Muster ist schon angemeldet"):
        tournaments.register_player(tournament=field, name=text)


@pytest.mark.parametrize(("text", "sentence"), [*((t, INVISIBLE) for t in EMPTY_LOOKING[:3]), ("Mаx Muster", MIXED)])
def test_the_services_refuse_with_a_sentence(field, text, sentence):
    entry = field.entries.get()
    second = tournaments.register_player(tournament=field, name="Zweite")
    calls = [
        lambda: tournaments.register_player(tournament=field, name=text),
        lambda: tournaments.register_players(tournament=field, lines=f"Anna\n{text}; Verein"),
        lambda: tournaments.edit_player(entry=entry, name=text, club=""),
        lambda: checkin.add_walk_in(tournament=field, name=text),
        lambda: teams.create_team(tournament=field, name=text, members=[entry.pk, second.pk]),
        lambda: tournaments.create_tournament(name=text, date="2026-11-21"),
        lambda: series_services.create_series(name=text),
        lambda: rangliste_services.create_rangliste(settings=rangliste_services.Settings(name=text, slug="r")),
    ]
    for call in calls:
        with pytest.raises(UserError) as error:
            call()
        assert sentence in error.value.message
    with pytest.raises(UserError, match="Der Verein enthält keine sichtbaren Zeichen" if sentence == INVISIBLE
                       else "mischt Buchstaben"):
        tournaments.register_player(tournament=field, name="Anna", club=text)
    assert list(Player.objects.values_list("name", flat=True)) == ["Max Muster", "Zweite"]
    assert not Team.objects.exists() and not Series.objects.exists() and Tournament.objects.count() == 1


@pytest.mark.parametrize(("text", "sentence"), [("\u2800", INVISIBLE), ("Mаx Muster", MIXED)])
def test_the_pages_refuse_with_a_sentence(field, director, text, sentence):
    client = Client()
    client.force_login(director)
    slug = field.slug
    posts = [
        (reverse("tournament:players", args=[slug]), {"one-name": text, "one-club": ""}),
        (reverse("tournament:players", args=[slug]), {"many-lines": f"Anna\n{text}"}),
        (reverse("tournament:checkin", args=[slug]), {"name": text, "club": ""}),
        (reverse("tournament:teams", args=[slug]), {"new-name": text, "new-members": "1, Max Muster"}),
    ]
    for url, data in posts:
        response = client.post(url, data)
        assert sentence in response.content.decode(), url
    checkin.set_registration(tournament=field, open=True, limit=0)
    response = Client().post(reverse("tournament:registration", args=[slug]), {"name": text})
    assert response.status_code == 400 and sentence in response.content.decode()
    assert Entry.objects.count() == 1 and not Registration.objects.exists() and not Team.objects.exists()


def test_the_tournament_file_refuses_invisible_and_mixed_names_and_cleans_the_tournaments_name():
    data = copy.deepcopy(CANONICAL)
    data["players"][0]["name"] = "\u200b\u2800"
    data["players"][1]["club"] = "DK Nоrd"  # a Cyrillic о
    lines = problems_of(data)
    assert any(INVISIBLE in line for line in lines) and any("„Nоrd“ mischt Buchstaben" in line for line in lines)
    data = copy.deepcopy(CANONICAL)
    data["name"] = "\u202eHerbst\u200bturnier"
    tournament = import_tournament(data)
    assert tournament.name == "Herbstturnier"


# ---- the director's terminal --------------------------------------------------------------------------

def test_the_standings_command_passes_no_control_character(director):
    tournament = make_tournament(players=4, director=director, slug="terminal")
    Player.objects.filter(pk=tournament.entries.first().player_id).update(name="Max\x1b[2J\x1b]0;pwned\x07\r Muster")
    for format in ("text", "csv", "json"):
        out = io.StringIO()
        call_command("standings", "terminal", "--format", format, stdout=out, stderr=io.StringIO())
        text = out.getvalue()
        assert "\x1b" not in text and "\x07" not in text and "\r" not in text and "Max[2J]0;pwned Muster" in text


def test_the_file_refuses_an_invisible_team_and_the_teams_form_finds_members_as_names_are_compared(director):
    from ..transfer.test_transfer_teams import with_teams

    assert problems_of(with_teams(("\u3164", [1, 2]))) == ["Team 1: name: " + INVISIBLE]
    tournament = make_tournament(players=0, director=director, slug="form")
    for name in ("Max Muster", "Anna Alt"):
        tournaments.register_player(tournament=tournament, name=name)
    client = Client()
    client.force_login(director)
    response = client.post(reverse("tournament:teams", args=["form"]),
                           {"new-name": "Ｋｒｅｕｚ", "new-members": "ＭＡＸ ＭＵＳＴＥＲ, anna\u200b alt"})
    team = Team.objects.get()
    assert response.status_code == 302 and team.name == "Kreuz" and team.members.count() == 2
