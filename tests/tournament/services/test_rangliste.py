"""A Rangliste across tournaments, the Django side (docs/competitions.md, "Rangliste in the app"):
who is who across tournaments (member number, else name and club, the series' merges), the rounds
handed to `scoring.rangliste`, the services and the change log, the pages and the export."""

from __future__ import annotations

import csv
import datetime
import html
import io
import json
import re

import pytest
from django.test import Client
from django.urls import reverse

from tournament import selectors
from tournament.errors import Conflict, UserError
from tournament.log import audit
from tournament.models import Entry, Organisation, Rangliste
from tournament.selectors import rangliste as rangliste_selectors
from tournament.services import penalties, tournaments
from tournament.services import rangliste as services

from ..factories import make_director, play_round, seat_ids
from .test_series import JANUARY, MARCH, NORD, WEST, evening, make_series, merge_dieter

pytestmark = pytest.mark.django_db

TODAY = datetime.date(2026, 6, 30)


def flagged(director, name, date, players, *, slug):
    tournament = evening(director, name, date, players, slug=slug)
    tournament.counts_for_rangliste = True
    tournament.save(update_fields=["counts_for_rangliste"])
    return tournament


def make_rangliste(director, **settings):
    return services.create_rangliste(settings=services.Settings(name="Rangliste Nord", slug="nord", **settings),
                                     director=director)


def number(tournament, name, member_number):
    entry = tournament.entries.get(player__name=name)
    return services.set_member_number(entry=entry, member_number=member_number)


def ranked(view):
    return [(r.row.place, r.person.name, r.row.rounds, r.row.points) for r in view.rows]


def below(view):
    return [(r.person.name, r.row.rounds, r.row.points) for r in view.below]


# ---- who is who --------------------------------------------------------------------------------------

def test_a_member_number_makes_one_person_of_two_names(director):
    january = flagged(director, "Januar", datetime.date(2026, 1, 9), JANUARY, slug="januar")
    march = flagged(director, "März", datetime.date(2026, 3, 13), MARCH, slug="maerz")
    # Dieter changed clubs: two people by name and club, one by his member number (spaces, case aside)
    number(january, "Dieter", "DDV 4711")
    number(march, "Dieter", "ddv4711")
    view = rangliste_selectors.rangliste_view(make_rangliste(director, minimum_rounds=2), until=TODAY)
    assert ranked(view) == [(1, "Anna", 2, 20), (2, "Carla", 2, 10), (3, "Dieter", 2, -10), (4, "Bernd", 2, -20)]
    assert view.rows[2].person.club == WEST  # as written at his latest tournament
    assert view.rows[2].person.member_number == ""  # the club does not publish member numbers
    Organisation.objects.filter(pk=january.organisation_id).update(publish_member_numbers=True)
    rangliste = Rangliste.objects.get(slug="nord")
    view = rangliste_selectors.rangliste_view(rangliste, until=TODAY)
    assert view.rows[2].person.member_number == "ddv4711"
    assert below(view) == []


def test_without_member_numbers_players_are_recognised_as_in_series_with_its_merges(director):
    evenings = [evening(director, "Januar", datetime.date(2026, 1, 9), JANUARY, slug="januar"),
                evening(director, "März", datetime.date(2026, 3, 13), MARCH, slug="maerz")]
    series = make_series(director, evenings)
    rangliste = make_rangliste(director, source=Rangliste.Source.SERIES, series=series, minimum_rounds=2)
    view = rangliste_selectors.rangliste_view(rangliste, until=TODAY)
    assert ranked(view) == [(1, "Anna", 2, 20), (2, "Carla", 2, 10), (3, "Bernd", 2, -20)]
    assert below(view) == [("Dieter", 1, 15), ("Dieter", 1, -25)]  # of DK Nord and of SG West: two
    merge_dieter(series)
    view = rangliste_selectors.rangliste_view(rangliste, until=TODAY)
    assert ranked(view) == [(1, "Anna", 2, 20), (2, "Carla", 2, 10), (3, "Dieter", 2, -10), (4, "Bernd", 2, -20)]
    assert below(view) == []


def test_only_flagged_tournaments_count_and_only_results_the_public_sees(director):
    january = flagged(director, "Januar", datetime.date(2026, 1, 9), JANUARY, slug="januar")
    evening(director, "März", datetime.date(2026, 3, 13), MARCH, slug="maerz")  # not flagged
    rangliste = make_rangliste(director, minimum_rounds=1)
    assert [r.row.rounds for r in rangliste_selectors.rangliste_view(rangliste, until=TODAY).rows] == [1, 1, 1, 1]
    january.rounds.update(results_hidden=True)
    assert rangliste_selectors.rangliste_view(rangliste, until=TODAY).rows == []


def test_the_window_and_cut_lines_come_from_the_rangliste(director):
    flagged(director, "Januar", datetime.date(2024, 1, 9), JANUARY, slug="januar")
    flagged(director, "März", datetime.date(2026, 3, 13), MARCH, slug="maerz")
    rangliste = make_rangliste(director, minimum_rounds=1, months=24, cut_lines=((2, "Endrunde"),))
    view = rangliste_selectors.rangliste_view(rangliste, until=TODAY)  # January 2024 is out of the window
    assert ranked(view) == [(1, "Carla", 1, 25), (2, "Dieter", 1, 15), (3, "Anna", 1, -10), (4, "Bernd", 1, -30)]
    assert [r.row.qualifies for r in view.rows] == ["Endrunde", "Endrunde", None, None]
    assert list(view.cut_after) == [1]
    assert {line.tournament_slug for line in view.lines} == {"maerz"}


# ---- the records -------------------------------------------------------------------------------------

def test_a_round_line_holds_table_games_points_penalties_and_the_pflichtsolo(director):
    tournament = tournaments.create_tournament(name="Liste", date=datetime.date(2026, 5, 2), director=director,
                                               slug="liste", pflichtsoli="same_dealer", games_at_table_of_4=24,
                                               games_at_table_of_5=30)
    for name in ("A", "B", "C", "D"):
        tournaments.register_player(tournament=tournament, name=name, club=NORD)
    tournament.counts_for_rangliste = True
    tournament.save()
    round = play_round(tournament, games=2)
    table = round.tables.get()
    penalties.add_penalty(table=table, offender_id=seat_ids(table)[0], game_number=1, note="")
    lines, _people, _n = rangliste_selectors.round_lines(make_rangliste(director))
    offender = tournament.entries.get(pk=seat_ids(table)[0]).player.name
    line = next(line for line in lines if line.name == offender)
    assert (line.tournament, line.round, line.table, line.games) == ("Liste", 1, 1, 2)
    assert line.penalties < 0 and line.pflichtsolo is False
    assert sum(line.points for line in lines) == 0
    standings = {row.name: row.points for row in selectors.standings(tournament)}
    assert {line.name: line.points for line in lines} == standings


@pytest.mark.parametrize("players", [8, 16])
def test_the_rangliste_reads_in_four_queries_whatever_the_size(director, django_assert_num_queries, players):
    for month in (1, 2):
        tournament = tournaments.create_tournament(name=f"T{month}", date=datetime.date(2026, month, 1),
                                                   director=director, slug=f"t{month}")
        for index in range(players):
            tournaments.register_player(tournament=tournament, name=f"Spieler {index}", club=NORD)
        tournament.counts_for_rangliste = True
        tournament.save()
        play_round(tournament, games=1)
        play_round(tournament, games=1)
    rangliste = make_rangliste(director, minimum_rounds=3)
    with django_assert_num_queries(4):
        view = rangliste_selectors.rangliste_view(rangliste, until=TODAY)
    assert len(view.rows) == players and len(view.lines) == 4 * players
    link = view.rows[0].person.link
    with django_assert_num_queries(4):
        history = rangliste_selectors.player_history(rangliste, link=link, until=TODAY)
    assert history is not None and history.history.rounds == 4


# ---- services ------------------------------------------------------------------------------------------

def test_creating_and_changing_a_rangliste_is_checked_versioned_and_kept_in_its_history(director):
    with pytest.raises(UserError) as error:
        make_rangliste(director, source=Rangliste.Source.SERIES)
    assert error.value.field == "series"
    with pytest.raises(UserError):
        make_rangliste(director, months=0)
    rangliste = make_rangliste(director)
    assert (rangliste.months, rangliste.minimum_rounds, rangliste.cut_lines) == (24, 36, [])
    assert rangliste.directors.get() == director
    changed = services.update_rangliste(rangliste=rangliste, version=1, settings=services.Settings(
        name="Rangliste 2027", months=12, minimum_rounds=10, cut_lines=services.parse_cut_lines(
            "48 Regionalmeisterschaft\n16  Deutsche Meisterschaft")))
    assert changed.cut_line_pairs() == [(16, "Deutsche Meisterschaft"), (48, "Regionalmeisterschaft")]
    with pytest.raises(Conflict):
        services.update_rangliste(rangliste=rangliste, version=1, settings=services.Settings(name="Alt"))
    assert [h.log_action for h in Rangliste.history.filter(id=rangliste.pk).order_by("history_id")] == [
        "rangliste_created", "rangliste_changed"]
    assert {"rangliste_created", "rangliste_changed", "member_number_changed"} <= set(audit.ACTIONS)


@pytest.mark.parametrize("text", ["Deutsche Meisterschaft", "0 Null", "16", "16 A\n16 B", "x16 A", "١٦ A"])
def test_bad_cut_lines_say_which_line(text):
    with pytest.raises(UserError) as error:
        services.parse_cut_lines(text)
    assert error.value.field == "cut_lines"


def test_a_member_number_is_in_the_tournaments_change_log_and_unique_in_a_tournament(director):
    january = evening(director, "Januar", datetime.date(2026, 1, 9), JANUARY, slug="januar")
    number(january, "Anna", " 12 34 ")
    assert january.entries.get(player__name="Anna").player.member_number == "1234"
    assert Entry.history.filter(log_tournament=january.pk, log_action="member_number_changed").count() == 1
    with pytest.raises(UserError) as error:
        number(january, "Bernd", "1234")
    assert error.value.field == "member_number" and "Anna" in error.value.message


# ---- pages and the export --------------------------------------------------------------------------------

def test_the_pages_show_the_ranking_the_players_below_the_minimum_the_cut_line_and_a_history(director):
    flagged(director, "Januar", datetime.date(2026, 1, 9), JANUARY, slug="januar")
    flagged(director, "März", datetime.date(2026, 3, 13), MARCH, slug="maerz")
    rangliste = make_rangliste(director, minimum_rounds=2, cut_lines=((1, "Endrunde"),))
    client = Client()
    page = client.get(reverse("tournament:rangliste", kwargs={"slug": "nord"}), {"bis": "2026-06-30"})
    text = page.content.decode()
    assert page.status_code == 200
    assert text.index("Anna") < text.index("bis Platz 1: Endrunde") < text.index("Carla") < text.index(
        "Noch nicht gewertet") < text.index("Dieter")
    key = rangliste_selectors.player_key(name="Anna", club=NORD, member_number="")
    history = client.get(reverse("tournament:rangliste_player", kwargs={"slug": "nord"}),
                         {"p": rangliste_selectors.public_key(key), "bis": "2026-06-30"})
    assert history.status_code == 200 and "Januar" in history.content.decode() and "März" in history.content.decode()
    assert client.get(reverse("tournament:rangliste_player", kwargs={"slug": "nord"}), {"p": "x"}).status_code == 404
    # the link does not carry who the player is: the key itself finds nobody
    assert client.get(reverse("tournament:rangliste_player", kwargs={"slug": "nord"}), {"p": key}).status_code == 404
    link = re.search(r'href="(/r/nord/spieler/\?p=[^"]+)">Dieter', text).group(1)  # a key with a line break
    assert "Dieter" in client.get(html.unescape(link)).content.decode()
    rangliste.public = False
    rangliste.save()
    assert client.get(reverse("tournament:rangliste", kwargs={"slug": "nord"})).status_code == 404


def test_the_export_has_one_plain_line_per_player_and_round_in_csv_and_json(director):
    january = flagged(director, "Januar", datetime.date(2026, 1, 9), JANUARY, slug="januar")
    number(january, "Anna", "4711")
    make_rangliste(director, minimum_rounds=2)
    client = Client()
    answer = client.get(reverse("tournament:rangliste_json", kwargs={"slug": "nord"}), {"bis": "2026-06-30"})
    # the club does not publish member numbers (docs/security.md): none in the export
    assert "4711" not in answer.content.decode()
    assert json.loads(answer.content)["rounds"][0]["member_number"] == ""
    Organisation.objects.filter(pk=january.organisation_id).update(publish_member_numbers=True)
    answer = client.get(reverse("tournament:rangliste_json", kwargs={"slug": "nord"}), {"bis": "2026-06-30"})
    data = json.loads(answer.content)
    assert data["fields"] == ["player", "member_number", "club", "tournament", "tournament_slug", "date", "round",
                              "table", "games", "points", "penalties", "pflichtsolo",
                              "rating", "rating_sigma", "rating_games"]  # (the carried rating: last)
    # (a table entered as totals only has no games: nobody is rated)
    assert data["rounds"][0] == {"player": "Anna", "member_number": "4711", "club": NORD, "tournament": "Januar",
                                 "tournament_slug": "januar", "date": "2026-01-09", "round": 1, "table": 1,
                                 "games": 8, "points": 30, "penalties": 0, "pflichtsolo": None,
                                 "rating": None, "rating_sigma": None, "rating_games": None}
    answer = client.get(reverse("tournament:rangliste_csv", kwargs={"slug": "nord"}), {"bis": "2026-06-30"})
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig")), delimiter=";"))
    assert rows[0][:3] == ["Spieler", "Mitgliedsnummer", "Verein"] and len(rows) == 5
    assert rows[1][:3] == ["Anna", "4711", NORD] and rows[1][9] == "30"
    # a tournament whose seating is not public: no table in the export (who sat with whom stays private)
    january.public_seating = False
    january.save()
    answer = client.get(reverse("tournament:rangliste_json", kwargs={"slug": "nord"}), {"bis": "2026-06-30"})
    assert {line["table"] for line in json.loads(answer.content)["rounds"]} == {None}
    answer = client.get(reverse("tournament:rangliste_csv", kwargs={"slug": "nord"}), {"bis": "2026-06-30"})
    rows = list(csv.reader(io.StringIO(answer.content.decode("utf-8-sig")), delimiter=";"))
    assert {row[7] for row in rows[1:]} == {""}


def test_an_organiser_creates_a_rangliste_and_a_bad_cut_line_is_named_not_saved(client):
    director = make_director("orga")
    client.force_login(director)
    url = reverse("tournament:rangliste_create")
    data = {"name": "Rangliste", "slug": "", "source": "flagged", "series": "", "months": "24",
            "minimum_rounds": "36", "cut_lines": "16 DM\nzwei", "public": "on"}
    answer = client.post(url, data)
    assert answer.status_code == 200 and "Zeile 2" in answer.content.decode()
    assert not Rangliste.objects.exists()
    answer = client.post(url, {**data, "cut_lines": "16 DM"})
    rangliste = Rangliste.objects.get()
    assert answer.status_code == 302 and rangliste.cut_lines == [[16, "DM"]]
    edit = reverse("tournament:rangliste_edit", kwargs={"slug": rangliste.slug})
    assert client.post(edit, {**data, "cut_lines": "", "months": "12", "version": "1"}).status_code == 302
    rangliste.refresh_from_db()
    assert rangliste.months == 12


def test_the_player_edit_page_sets_the_member_number_and_a_taken_one_saves_nothing(client, director):
    january = evening(director, "Januar", datetime.date(2026, 1, 9), JANUARY, slug="januar")
    client.force_login(director)
    anna, bernd = (january.entries.get(player__name=name) for name in ("Anna", "Bernd"))
    url = reverse("tournament:player_edit", kwargs={"slug": "januar", "entry_id": anna.pk})
    data = {"name": "Anna", "club": NORD, "loaded_name": "Anna", "loaded_club": NORD, "member_number": "4711"}
    assert client.post(url, data).status_code == 302
    assert Entry.objects.get(pk=anna.pk).player.member_number == "4711"
    url = reverse("tournament:player_edit", kwargs={"slug": "januar", "entry_id": bernd.pk})
    answer = client.post(url, {**data, "name": "Bernd B.", "loaded_name": "Bernd"})
    assert answer.status_code == 200 and "hat schon Anna" in answer.content.decode()
    assert Entry.objects.get(pk=bernd.pk).player.name == "Bernd"  # the name is not saved either


def test_the_settings_page_flags_a_tournament_for_the_rangliste(client, director):
    from tournament.forms.tournaments import SettingsForm

    january = evening(director, "Januar", datetime.date(2026, 1, 9), JANUARY, slug="januar")
    client.force_login(director)
    form = SettingsForm(tournament=january)
    data = {name: value for name, value in form.initial.items() if value not in (None, False)}
    data.update(date="2026-01-09", counts_for_rangliste="on")
    assert client.post(reverse("tournament:settings", kwargs={"slug": "januar"}), data).status_code == 302
    january.refresh_from_db()
    assert january.counts_for_rangliste


def test_the_start_page_lists_public_ranglisten_and_a_directors_own(client, director):
    make_rangliste(director)
    services.create_rangliste(settings=services.Settings(name="Geheime Liste", slug="geheim", public=False),
                              director=director)
    page = client.get(reverse("tournament:home")).content.decode()
    assert "Rangliste Nord" in page and "Geheime Liste" not in page
    client.force_login(director)
    page = client.get(reverse("tournament:home")).content.decode()
    assert "Geheime Liste" in page and reverse("tournament:rangliste_create") in page
