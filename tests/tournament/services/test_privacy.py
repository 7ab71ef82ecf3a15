"""Privacy under the players' control (docs/privacy.md): a player's publication level (full
name, initials, not published) holds on every public page, export and PDF.

The walk: a tournament with a player at each level (and member numbers, in an organisation that does
not publish them), two rounds played and a third published, a penalty, a team and the club ranking,
registration open (a hidden registration registered, another on the waiting list), a series over it
and a second evening, and a Rangliste over the series. As anonymous, every URL pattern of
`tournament.urls` is requested (with each variant of its arguments and queries listed below; a pattern
without an entry fails `test_every_url_pattern_is_walked`), and no answer may hold, anywhere in its
bytes (PDFs: their text, through pypdf), a hidden player's name or a part of it, an initials
player's full name or a part of it, or any member number.
"""

from __future__ import annotations

import datetime
import io
import json
from dataclasses import dataclass, field

import pytest
from django.test import Client, override_settings
from django.urls import reverse
from pypdf import PdfReader

from tournament import privacy
from tournament import urls as tournament_urls
from tournament.models import Entry, Player, Rangliste, RanglisteStanding, Registration, Tournament
from tournament.selectors import rangliste as rangliste_selectors
from tournament.services import checkin, penalties, rangliste_refresh, seating, teams, tournaments
from tournament.services import privacy as privacy_services
from tournament.services import rangliste as rangliste_services
from tournament.services import series as series_services
from tournament.services.exporting import export_tournament
from tournament.services.file_checks import ImportProblems
from tournament.services.importing import import_tournament
from tournament.services.organisations import default_organisation
from tournament.web import caching

from ..factories import make_director, make_organisation, make_tournament, play_round, seat_ids

pytestmark = pytest.mark.django_db

HIDDEN_NAME, HIDDEN_CLUB = "Hildegard Verborgenmann", "DK Nord"
INITIALS_NAME = "Ingolf Kürzelberg"
REGISTERED_HIDDEN = "Regina Heimlichter"  # registers on the public page, not published
WAITING_HIDDEN = "Wilma Wartversteck"  # on the waiting list, not published
MEMBER_NUMBERS = {HIDDEN_NAME: "MN77104", INITIALS_NAME: "MN55207", "Anna Offen": "MN33301"}
# a piece of each name that must not show (`forbidden`), itself no forbidden word: a search for it
# would find the player if the search ignored their level
HIDDEN_PIECES = ["ldegar", "rborgenm", "ngol", "rzelb", "urzelb", "egin", "imlicht", "ilma", "rtversteck",
                 "Offen", "DK Nord"]
FULL_NAMES = ["Anna Offen", "Bernd Offen", "Carla Offen", "Dieter Offen", "Emil Offen", "Frieda Offen",
              "Gustav Offen", "Hanna Offen", "Ida Offen", "Jens Offen"]


@dataclass
class World:
    slug: str
    entries: dict[str, Entry]
    rangliste: Rangliste
    urls: list[str] = field(default_factory=list)


def build_world(*, publish_member_numbers: bool = False) -> World:
    organisation = default_organisation()
    organisation.publish_member_numbers = publish_member_numbers
    organisation.save()
    director = make_director()
    tournament = tournaments.create_tournament(name="Herbstturnier", date=datetime.date(2026, 11, 21),
                                               director=director, slug="herbst")
    for name in [HIDDEN_NAME, INITIALS_NAME, *FULL_NAMES]:  # 12 players: three tables of 4
        tournaments.register_player(tournament=tournament, name=name, club=HIDDEN_CLUB)
    entries = {e.player.name: e for e in tournament.entries.select_related("player")}
    for name, number in MEMBER_NUMBERS.items():
        rangliste_services.set_member_number(entry=entries[name], member_number=number)
    privacy_services.set_publication(entry=entries[HIDDEN_NAME], level=privacy.HIDDEN)
    privacy_services.set_publication(entry=entries[INITIALS_NAME], level=privacy.INITIALS)
    teams.set_team_options(tournament=tournament, team_count=None, club_count=0, teams_apart=False)
    teams.create_team(tournament=tournament, name="Kreuz",
                      members=[entries[HIDDEN_NAME].pk, entries[INITIALS_NAME].pk, entries["Anna Offen"].pk])
    play_round(tournament)
    round_2 = play_round(tournament)
    hidden_table = round_2.tables.get(seats__entry=entries[HIDDEN_NAME])
    assert entries[HIDDEN_NAME].pk in seat_ids(hidden_table)
    penalties.add_penalty(table=hidden_table, offender_id=entries[HIDDEN_NAME].pk, game_number=1, note="")
    round_3 = seating.create_round(tournament=tournament)
    seating.seat_round(round=round_3, seed="drei")
    seating.publish_round(round=round_3)
    checkin.set_registration(tournament=tournament, open=True, limit=13)
    checkin.register(tournament=tournament, name=REGISTERED_HIDDEN, club="SC Einzeln", publication=privacy.HIDDEN)
    checkin.register(tournament=tournament, name=WAITING_HIDDEN, club="SC Einzeln", publication=privacy.HIDDEN)

    # a second evening of the organisation: the same records, their levels with them
    winter = tournaments.create_tournament(name="Winterabend", date=datetime.date(2026, 12, 12),
                                           director=director, slug="winter")
    for name in [HIDDEN_NAME, INITIALS_NAME, *FULL_NAMES[:6]]:
        tournaments.register_player(tournament=winter, name=name, club=HIDDEN_CLUB)
    play_round(winter)
    series = series_services.create_series(name="Serie", director=director, slug="serie")
    for evening in (tournament, winter):
        series_services.add_tournament(series=series, tournament=evening, user=director)
    rangliste = rangliste_services.create_rangliste(settings=rangliste_services.Settings(
        name="Rangliste", slug="rl", source=Rangliste.Source.SERIES, series=series, minimum_rounds=1),
        director=director)
    # an association's Rangliste over the same tournaments, read as stored (docs/competitions.md)
    Tournament.objects.filter(pk__in=[tournament.pk, winter.pk]).update(counts_for_rangliste=True)
    association = rangliste_services.create_rangliste(settings=rangliste_services.Settings(
        name="Verband", slug="verband", source=Rangliste.Source.ASSOCIATION, members=(tournament.organisation,),
        minimum_players=0, minimum_tournament_rounds=0, minimum_rounds=1), director=director)
    rangliste_refresh.refresh_rangliste(rangliste=association)
    entries = {e.player.name: e for e in tournament.entries.select_related("player")}
    return World(slug=tournament.slug, entries=entries, rangliste=rangliste)


# ---- every URL pattern, with its variants ---------------------------------------------------------

def _round_table(w: World, round_number: int, name: str) -> dict:
    round = Entry.objects.get(pk=w.entries[name].pk).seats.get(round__number=round_number)
    return {"slug": w.slug, "round_number": round_number, "table_number": round.table.number}


def tournament_variants(w: World) -> list[tuple[dict, str]]:
    return [({"slug": w.slug}, "")]


def player_variants(w: World) -> list[tuple[dict, str]]:
    return [({"slug": w.slug, "entry_id": e.pk}, query) for e in w.entries.values() for query in ("", "?partial=1")]


def round_variants(w: World) -> list[tuple[dict, str]]:
    return [({"slug": w.slug, "round_number": n}, "") for n in (1, 2, 3)]


def table_variants(w: World) -> list[tuple[dict, str]]:
    return [(_round_table(w, n, name), "") for n in (1, 2, 3) for name in (HIDDEN_NAME, INITIALS_NAME)]


def none(w: World) -> list[tuple[dict, str]]:
    return [({}, "")]


def series_variants(w: World) -> list[tuple[dict, str]]:
    return [({"slug": "serie"}, "")]


def rangliste_variants(w: World) -> list[tuple[dict, str]]:
    return [({"slug": "rl"}, ""), ({"slug": "verband"}, "")]


def rangliste_people(w: World) -> list[tuple[dict, str]]:
    _lines, people, _count = rangliste_selectors.round_lines(w.rangliste)
    stored = RanglisteStanding.objects.filter(rangliste__slug="verband").values_list("link", flat=True)
    return [({"slug": "rl"}, f"?p={person.link}") for person in people.values()] + [
        ({"slug": "verband"}, f"?p={link}") for link in stored]


def standings_variants(w: World) -> list[tuple[dict, str]]:
    me = w.entries[HIDDEN_NAME].pk
    return [({"slug": w.slug}, query) for query in ("", "?all=1", "?round=1", "?partial=1", f"?partial=1&me={me}",
                                                    "?sort=name", "?kategorie=Damen")]


def log_variants(w: World) -> list[tuple[dict, str]]:
    return []  # (the director's pages below are requested too: anonymous gets the login page)


def director_player(w: World) -> list[tuple[dict, str]]:
    return [({"slug": w.slug, "entry_id": w.entries[HIDDEN_NAME].pk}, "")]


def draft(w: World) -> list[tuple[dict, str]]:
    return []


def wrong_secrets(w: World) -> list[tuple[dict, str]]:
    """The private links of the hidden registrations without their secret: the public never holds it
    (the holder sees their own name: test_registration_links.py)."""
    return [({"slug": w.slug, "registration_id": r.pk, "token": "x" * 24}, "")
            for r in Registration.objects.filter(tournament__slug=w.slug, name__in=[REGISTERED_HIDDEN, WAITING_HIDDEN])]


T, P, R, TB = tournament_variants, player_variants, round_variants, table_variants

# every pattern of tournament.urls -> its variants (keyword arguments, query). A director's page is
# requested as well (anonymous: the login page, which names nobody); one that needs an object the
# public cannot reach anyway (a draft, a log record) is listed with no variants and why.
VARIANTS = {
    "home": none, "help": none,
    # the hub's calendar and search (docs/hub.md), searched for a piece of every name that must not show
    # (a piece: the page repeats the search itself) and for what the public may find
    "calendar": lambda w: [({}, ""), ({}, "?month=2026-11"), ({}, "?month=2026-11&q=herbst")],
    "hub_search": lambda w: [({}, f"?q={piece}") for piece in HIDDEN_PIECES],
    # a person across clubs, by every record (hidden and initials: 404, never their name or number)
    "person": lambda w: [({"record": e.player_id}, "") for e in w.entries.values()],
    "identities": lambda w: [({"organisation_slug": "verein"}, "")],  # organisers only (anonymous: login)
    "corrections": T,  # the tournament's directors only (anonymous: the login page)
    "tournament_create": none, "overview": T, "settings": T, "players": T,
    "player_edit": director_player, "player_withdraw": director_player, "player_return": director_player,
    "registration": T, "registrations": T,
    "registration_own": wrong_secrets, "registration_cancel": wrong_secrets, "registration_checkin": wrong_secrets,
    "registration_poster": T,  # director only (anonymous: the login page)
    "self_checkin": T,  # a phone that registered nobody: no names
    "registration_edit": draft,  # director only (POST and GET: login page), no public variant
    "registration_withdraw": draft,  # director only, POST
    "registrations_withdraw": T,  # director only, POST (anonymous: the login page)
    "player_categories": T,  # director only (anonymous: the login page)
    "checkin": T, "checkin_mark": director_player, "checkin_withdraw": director_player, "round_create": T, "round": R,
    "round_draw": R, "round_swap": R, "round_move": R, "round_status": R, "round_clock": R, "board": R, "links": R,
    "links_action": R,
    "board_decide": draft,  # a draft game of a table's phone: none here; directors and helpers only
    "table": TB, "table_public": TB, "game_new": TB,
    "game_edit": lambda w: [({**kwargs, "number": 1}, "") for kwargs, _q in table_variants(w)],
    "game_delete": lambda w: [({**kwargs, "number": 1}, "") for kwargs, _q in table_variants(w)],
    "game_preview": lambda w: [({**kwargs, "number": 1}, "") for kwargs, _q in table_variants(w)],
    "penalty_add": TB,
    "penalty_delete": draft,  # the director's, POST only
    "table_totals": TB, "table_sign": TB, "table_end": TB,
    "restore": draft,  # the director's, POST only, a log record
    "log": T, "roles": T, "backup": T, "restore_backup": none,
    "publishing": T,  # director only (anonymous: the login page)
    # an organisation's keys: organisers only and only on a hub; names no player
    "publishing_keys": lambda w: [({"organisation_slug": "verein"}, "")],
    # an organisation's settings: organisers only; names no player
    "organisation_settings": lambda w: [({"organisation_slug": "verein"}, "")],
    "seat_notice": lambda w: [({"slug": w.slug}, f"?me={w.entries[HIDDEN_NAME].pk}"), ({"slug": w.slug}, "?me=x")],
    "standings": standings_variants, "projector": T, "standings_csv": lambda w: [({"slug": w.slug}, ""),
                                                                               ({"slug": w.slug}, "?round=1")],
    "standings_json": T, "teams": T, "team_options": T, "teams_take": draft, "team_edit": draft, "team_delete": draft,
    "team_standings": T, "team_standings_csv": T, "team_standings_json": T,
    "player": P, "prizes": lambda w: [({"slug": w.slug}, ""), ({"slug": w.slug}, "?plaetze=20")],
    "prizes_pdf": lambda w: [({"slug": w.slug}, "?plaetze=20")],
    "table_pdf": TB, "round_sheets_pdf": R, "round_seating_pdf": R, "standings_pdf": T,
    "series_create": none, "series": series_variants, "series_csv": series_variants, "series_pdf": series_variants,
    "series_league_csv": series_variants, "series_league_pdf": series_variants, "series_manage": series_variants,
    "series_tournament_add": series_variants,
    "series_tournament_remove": draft, "series_merge": series_variants, "series_unmerge": draft,
    "rangliste_create": none, "rangliste": rangliste_variants, "rangliste_edit": rangliste_variants,
    "rangliste_player": rangliste_people, "rangliste_csv": rangliste_variants, "rangliste_json": rangliste_variants,
}


def api_tables(w: World) -> list[tuple[dict, str]]:
    return [({**kwargs}, "") for kwargs, _query in table_variants(w)]


# every endpoint of the open read API (tournament/api/routes.py) -> its variants
API_VARIANTS = {
    "tournaments": lambda w: [({}, ""), ({}, "?organisation=verein")], "tournament": T, "round": R,
    "table_games": api_tables, "standings": lambda w: [({"slug": w.slug}, ""), ({"slug": w.slug}, "?round=1"),
                                                       ({"slug": w.slug}, "?limit=200")],
    "player": lambda w: [({"slug": w.slug, "entry_id": e.pk}, "") for e in w.entries.values()], "file": T,
    "ranglisten": none, "rangliste": lambda w: [({"slug": "rl"}, ""), ({"slug": "rl"}, "?limit=200"),
                                                ({"slug": "verband"}, "?limit=200")],
    # an association's Rangliste as stored, what does not count, a person across clubs by every record
    "rangliste_refused": lambda w: [({"slug": "verband"}, "")],
    "person": lambda w: [({"record": e.player_id}, "") for e in w.entries.values()],
    "openapi-json": none, "openapi-view": none, "api-root": none,
}


def test_every_api_endpoint_is_walked():
    from tournament.api.routes import api

    assert {pattern.name for pattern in api.urls[0]} == set(API_VARIANTS)


def test_every_url_pattern_is_walked():
    names = {pattern.name for pattern in tournament_urls.urlpatterns}
    assert names - set(VARIANTS) == set(), "a new URL: add its variants to VARIANTS"
    assert set(VARIANTS) - names == set()


# ---- what must not appear ---------------------------------------------------------------------------

def forbidden(*, member_numbers: bool = True) -> list[str]:
    """Every part of every name that must not show, and (unless published for a full-name player) every
    member number."""
    words = []
    for name in (HIDDEN_NAME, INITIALS_NAME, REGISTERED_HIDDEN, WAITING_HIDDEN):
        words += [name, *name.split()]
    words.append("Kuerzelberg")  # (an ASCII spelling or a slug of it)
    words += [number for name, number in MEMBER_NUMBERS.items() if member_numbers or name != "Anna Offen"]
    return words


def text_of(response) -> str:
    body = b"".join(response.streaming_content) if response.streaming else response.content
    if body.startswith(b"%PDF"):
        return "\n".join(page.extract_text() or "" for page in PdfReader(io.BytesIO(body)).pages)
    text = body.decode("utf-8", errors="replace")
    if response.get("Content-Type", "").startswith("application/json"):
        text += "\n" + json.dumps(json.loads(body), ensure_ascii=True)  # also as \\u escapes would write them
    return text


def walk(w: World) -> dict[str, str]:
    """url -> the text of its answer to an anonymous GET (and POST for the public forms' pages)."""
    client = Client()
    answers = {}
    for name, variants in VARIANTS.items():
        for kwargs, query in variants(w):
            url = reverse(f"tournament:{name}", kwargs=kwargs) + query
            answers[url] = text_of(client.get(url))
    for name, variants in API_VARIANTS.items():
        for kwargs, query in variants(w):
            url = reverse(f"api:{name}", kwargs=kwargs) + query
            answers[url] = text_of(client.get(url))
    # the registration page after a refused registration (the form shown again, the list below it)
    url = reverse("tournament:registration", kwargs={"slug": w.slug})
    answers[url + " POST"] = text_of(client.post(url, {"name": ""}))
    return answers


@pytest.fixture
def pdf_folder(tmp_path):
    with override_settings(PDF_CACHE_DIR=tmp_path / "pdf-cache", PDF_WORKERS=1):
        yield


def leaks(answers: dict[str, str], words: list[str]) -> list[tuple[str, str]]:
    folded = {url: text.casefold() for url, text in answers.items()}
    return [(url, word) for url, text in folded.items() for word in words if word.casefold() in text]


@pytest.mark.parametrize("published", [False, True], ids=["numbers not published", "numbers published"])
def test_no_hidden_name_anywhere_in_public_answers(pdf_folder, published):
    w = build_world(publish_member_numbers=published)
    answers = walk(w)
    assert len(answers) > 80
    assert leaks(answers, forbidden(member_numbers=not published)) == []
    # what the public does see instead
    standings = answers[reverse("tournament:standings", kwargs={"slug": w.slug}) + "?all=1"]
    number = w.entries[HIDDEN_NAME].start_number
    assert f"Spieler/in Nr. {number}" in standings and "I. K." in standings and "Bernd Offen" in standings
    for name in ("standings", "file"):  # the API says the same
        answer = answers[reverse(f"api:{name}", kwargs={"slug": w.slug})]
        assert f"Spieler/in Nr. {number}" in answer and "I. K." in answer and "Bernd Offen" in answer
    registration = answers[reverse("tournament:registration", kwargs={"slug": w.slug})]
    assert "Spieler/in Nr. 13" in registration and privacy.NO_NAME in registration
    if published:  # a full-name player's member number stays where the organisation publishes them
        assert any(MEMBER_NUMBERS["Anna Offen"] in text for url, text in answers.items() if "/r/rl/" in url)


def test_the_hubs_pages_name_no_hidden_player(pdf_folder, settings):
    """On a hub the start page is every club's calendar (docs/hub.md): the same walk there."""
    build_world()
    settings.DOKO_HUB = True
    client = Client()
    answers = {url: text_of(client.get(url)) for url in (
        "/", "/?q=herbst", "/kalender/?month=2026-11", *(f"/suche/?q={piece}" for piece in HIDDEN_PIECES))}
    assert leaks(answers, forbidden()) == []
    assert "Herbstturnier" in answers["/"]
    assert "Anna Offen" in answers["/suche/?q=Offen"]  # a full-name player is found (the search works)


def test_the_director_keeps_the_full_names(pdf_folder):
    w = build_world()
    client = Client()
    client.force_login(Entry.objects.get(pk=w.entries[HIDDEN_NAME].pk).tournament.directors.get())
    for name in ("standings", "standings_json", "standings_pdf"):
        assert HIDDEN_NAME in text_of(client.get(reverse(f"tournament:{name}", kwargs={"slug": w.slug})))
    table = _round_table(w, 2, HIDDEN_NAME)
    assert HIDDEN_NAME in text_of(client.get(reverse("tournament:table", kwargs=table)))
    assert HIDDEN_NAME in text_of(client.get(reverse("tournament:table_pdf", kwargs=table)))
    assert "Ingolf Kürzelberg" in text_of(client.get(reverse("tournament:rangliste_csv", kwargs={"slug": "rl"})))


# ---- the rule ----------------------------------------------------------------------------------------

def test_the_rule():
    assert privacy.shown_name("Anna Kreuz", privacy.FULL, 12) == "Anna Kreuz"
    assert privacy.shown_name("Anna Kreuz", privacy.INITIALS, 12) == "A. K."
    assert privacy.shown_name("Anna-Lena von Berg", privacy.INITIALS) == "A.-L. v. B."
    assert privacy.shown_name("Anna Kreuz", privacy.HIDDEN, 12) == "Spieler/in Nr. 12"
    assert privacy.shown_name("Anna Kreuz", privacy.HIDDEN) == "—"
    assert privacy.shown_club("DK Nord", privacy.INITIALS) == "DK Nord"
    assert privacy.shown_club("DK Nord", privacy.HIDDEN) == ""
    assert privacy.shown_member_number("4711", privacy.INITIALS) == ""
    assert privacy.strictest([privacy.FULL, privacy.INITIALS]) == privacy.INITIALS
    assert privacy.strictest([privacy.HIDDEN, privacy.FULL]) == privacy.HIDDEN
    assert privacy.strictest([]) == privacy.FULL


# ---- where it is set -----------------------------------------------------------------------------------

def two_evenings():
    """Two tournaments of the organisation with the same record of "Hildegard Verborgenmann"."""
    director = make_director()
    first = make_tournament(director=director, slug="erster", players=7)
    second = make_tournament(director=director, slug="zweiter", players=7)
    hidden = [tournaments.register_player(tournament=t, name=HIDDEN_NAME, club=HIDDEN_CLUB) for t in (first, second)]
    assert hidden[0].player_id == hidden[1].player_id
    return director, first, second, hidden


def test_the_director_sets_it_on_the_player_page_for_every_tournament_of_the_record(client):
    director, first, second, (entry, other) = two_evenings()
    client.force_login(director)
    page = client.get(reverse("tournament:player_edit", kwargs={"slug": first.slug, "entry_id": entry.pk}))
    assert 'name="publication"' in page.content.decode()
    counters = {t.pk: caching.change_counter(t) for t in (first, second)}
    response = client.post(reverse("tournament:player_edit", kwargs={"slug": first.slug, "entry_id": entry.pk}), {
        "name": HIDDEN_NAME, "club": HIDDEN_CLUB, "loaded_name": HIDDEN_NAME, "loaded_club": HIDDEN_CLUB,
        "member_number": "", "publication": privacy.HIDDEN})
    assert response.status_code == 302
    assert Player.objects.get(pk=entry.player_id).publication == privacy.HIDDEN
    for tournament in (first, second):  # logged in each tournament of the record, each counter moved
        assert caching.change_counter(tournament) > counters[tournament.pk]
        log = client.get(reverse("tournament:log", kwargs={"slug": tournament.slug})).content.decode()
        assert "Veröffentlichung geändert" in log and "nicht veröffentlicht" in log
    # a form without the field (an older page) leaves it as it is
    client.post(reverse("tournament:player_edit", kwargs={"slug": first.slug, "entry_id": entry.pk}), {
        "name": HIDDEN_NAME, "club": HIDDEN_CLUB, "loaded_name": HIDDEN_NAME, "loaded_club": HIDDEN_CLUB,
        "member_number": "4711"})
    assert Player.objects.get(pk=entry.player_id).publication == privacy.HIDDEN


def test_a_level_change_in_one_tournament_reaches_the_cached_pages_of_another(client):
    director, first, second, (entry, other) = two_evenings()
    standings = reverse("tournament:standings", kwargs={"slug": second.slug})
    assert HIDDEN_NAME in Client().get(standings).content.decode()  # cached for the public now
    privacy_services.set_publication(entry=entry, level=privacy.HIDDEN)  # from the first tournament
    assert HIDDEN_NAME not in Client().get(standings).content.decode()
    player = Client().get(reverse("tournament:player", kwargs={"slug": second.slug, "entry_id": other.pk}))
    assert f"Spieler/in Nr. {other.start_number}" in player.content.decode()


def test_a_correction_of_the_name_keeps_the_level():
    _director, first, _second, (entry, _other) = two_evenings()
    privacy_services.set_publication(entry=entry, level=privacy.INITIALS)
    entry = tournaments.edit_player(entry=entry, name="Hildegard Verborgenfrau", club=HIDDEN_CLUB)
    assert entry.player.name == "Hildegard Verborgenfrau" and entry.player.publication == privacy.INITIALS


def test_the_player_chooses_when_registering():
    director = make_director()
    tournament = make_tournament(director=director, slug="offen", players=4)
    checkin.set_registration(tournament=tournament, open=True, limit=5)
    url = reverse("tournament:registration", kwargs={"slug": tournament.slug})
    assert 'name="publication"' in Client().get(url).content.decode()
    assert Client().post(url, {"name": "Ina Initial", "publication": privacy.INITIALS}).status_code == 302
    assert Client().post(url, {"name": "Wilma Wartversteck", "publication": privacy.HIDDEN}).status_code == 302
    assert Client().post(url, {"name": "Volker Voll"}).status_code == 302  # (also waiting) the default: full
    levels = dict(tournament.registrations.values_list("name", "publication"))
    assert levels == {"Ina Initial": privacy.INITIALS, "Wilma Wartversteck": privacy.HIDDEN,
                      "Volker Voll": privacy.FULL}
    assert tournament.entries.get(player__name="Ina Initial").player.publication == privacy.INITIALS
    # the first on the waiting list moves up with the level they chose
    checkin.withdraw_registration(registration=tournament.registrations.get(name="Ina Initial"))
    assert tournament.entries.get(player__name="Wilma Wartversteck").player.publication == privacy.HIDDEN
    page = Client().get(url).content.decode()
    assert "I. I." not in page and "Wilma" not in page and "Volker Voll" in page


def test_a_registration_makes_an_existing_record_stricter_never_looser():
    director, first, second, (entry, _other) = two_evenings()
    third = make_tournament(director=director, slug="dritter", players=4)
    checkin.set_registration(tournament=third, open=True, limit=0)
    # the record is full; a registration of the same person that asks for "hidden" hides it everywhere
    counter = caching.change_counter(first)
    checkin.register(tournament=third, name=HIDDEN_NAME, club=HIDDEN_CLUB, publication=privacy.HIDDEN)
    assert Player.objects.get(pk=entry.player_id).publication == privacy.HIDDEN
    assert caching.change_counter(first) > counter
    # and one that asks for the full name does not publish it
    fourth = make_tournament(director=director, slug="vierter", players=4)
    checkin.set_registration(tournament=fourth, open=True, limit=0)
    checkin.register(tournament=fourth, name=HIDDEN_NAME, club=HIDDEN_CLUB, publication=privacy.FULL)
    assert Player.objects.get(pk=entry.player_id).publication == privacy.HIDDEN


def test_the_director_edits_a_registrations_level(client):
    director = make_director()
    tournament = make_tournament(director=director, slug="offen", players=4)
    checkin.set_registration(tournament=tournament, open=True, limit=0)
    registration = checkin.register(tournament=tournament, name="Ina Initial", publication=privacy.INITIALS)
    client.force_login(director)
    url = reverse("tournament:registration_edit", kwargs={"slug": tournament.slug, "registration_id": registration.pk})
    assert client.post(url, {"name": "Ina Initial", "publication": privacy.FULL}).status_code == 302
    assert Entry.objects.get(pk=registration.entry_id).player.publication == privacy.FULL
    assert client.post(url, {"name": "Ina Initial", "publication": privacy.HIDDEN}).status_code == 302
    assert client.post(url, {"name": "Ina Initial"}).status_code == 302  # not sent: unchanged
    registration.refresh_from_db()
    assert registration.publication == privacy.HIDDEN
    assert Entry.objects.get(pk=registration.entry_id).player.publication == privacy.HIDDEN


def test_the_tournament_file_carries_it():
    _director, first, _second, (entry, _other) = two_evenings()
    privacy_services.set_publication(entry=entry, level=privacy.HIDDEN)
    data = export_tournament(first, backup=False)
    listed = {item["name"]: item for item in data["players"]}
    assert listed[HIDDEN_NAME]["publication"] == "hidden" and "publication" not in listed["Anna"]
    # imported into another organisation: a new record, with the file's level
    elsewhere = make_organisation()
    copy = import_tournament(data, slug="kopie", organisation=elsewhere)
    assert copy.entries.get(player__name=HIDDEN_NAME).player.publication == privacy.HIDDEN
    # an older file (without the key) imports with the full name; a wrong value is a problem line
    older = {**data, "players": [{k: v for k, v in p.items() if k != "publication"} for p in data["players"]]}
    again = import_tournament(older, slug="aelter", organisation=make_organisation("Dritter", "dritter"))
    assert again.entries.get(player__name=HIDDEN_NAME).player.publication == privacy.FULL
    wrong = {**data, "players": [{**p, "publication": "geheim"} if p["name"] == HIDDEN_NAME else p
                                 for p in data["players"]]}
    with pytest.raises(ImportProblems) as problems:
        import_tournament(wrong, slug="falsch", organisation=make_organisation("Vierter", "vierter"))
    assert any("publication" in line for line in problems.value.lines)


def test_helpers_see_the_names_where_they_enter_results():
    director = make_director()
    tournament = make_tournament(director=director, slug="hilfe", players=7)
    hidden = tournaments.register_player(tournament=tournament, name=HIDDEN_NAME, club=HIDDEN_CLUB)
    privacy_services.set_publication(entry=hidden, level=privacy.HIDDEN)
    play_round(tournament)
    helper = make_director("helfer", organiser=False)
    tournament.helpers.add(helper)
    client = Client()
    client.force_login(helper)
    round_url = reverse("tournament:round", kwargs={"slug": tournament.slug, "round_number": 1})
    assert HIDDEN_NAME in client.get(round_url).content.decode()
    assert HIDDEN_NAME not in Client().get(round_url).content.decode()
