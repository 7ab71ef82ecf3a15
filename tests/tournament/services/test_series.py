"""A series of tournaments (docs/series.md): a club's three monthly evenings, players recognised by
name and club across them, a director's merge, the three ways of ranking, hidden results, who may see
and change what, CSV, PDF, and the fixed number of queries of the series page."""

import csv
import datetime
import io
from io import BytesIO

import pytest
from django.db import connection
from django.test import Client
from django.test.utils import CaptureQueriesContext
from django.urls import reverse
from pypdf import PdfReader

from tournament import selectors
from tournament.errors import UserError
from tournament.models import Player, Round, Series, Tournament
from tournament.services import seating, sheet_state
from tournament.services import series as series_services
from tournament.services import tournaments as tournament_services

from ..factories import make_director, message_texts, register

pytestmark = pytest.mark.django_db

NORD, SUED, WEST = "DK Nord", "DK Süd", "SG West"

# Each evening: one round, tables of 4 entered as final totals, so that every player's evening
# result is known exactly. (name, club, points); each table of four sums to zero.
JANUARY = [("Anna", NORD, 30), ("Bernd", NORD, 10), ("Carla", NORD, -15), ("Dieter", NORD, -25)]
# Anna written in capitals with spaces around (the same person), Emil joins, another Anna from
# another club (a different person), Carla and Dieter miss the evening
FEBRUARY = [(" ANNA ", NORD, 5), ("Bernd", NORD, 20), ("Emil", NORD, 15), ("Anna", SUED, -40)]
# Dieter has changed clubs: a different person until the director merges the two
MARCH = [("Anna", NORD, -10), ("Bernd", NORD, -30), ("Carla", NORD, 25), ("Dieter", WEST, 15)]


@pytest.fixture(autouse=True)
def pdf_cache(settings, tmp_path):
    settings.PDF_CACHE_DIR = tmp_path / "pdf-cache"
    settings.PDF_WORKERS = 1


def evening(director, name, date, players, *, slug, **settings):
    """A tournament of one round whose tables of four enter `players`' points as final totals."""
    tournament = tournament_services.create_tournament(name=name, date=date, director=director, slug=slug,
                                                       **settings)
    entries = register(tournament, [(name, club) for name, club, _points in players])
    round = seating.create_round(tournament=tournament)
    tables = [[e.pk for e in entries[i:i + 4]] for i in range(0, len(entries), 4)]
    seating.place_tables(round=round, tables=tables)
    seating.publish_round(round=round)
    points = {entry.pk: value for entry, (_n, _c, value) in zip(entries, players, strict=True)}
    for table in round.tables.order_by("number"):
        sheet_state.enter_totals(table=table,
                                 totals={e: points[e] for e in table.seats.values_list("entry_id", flat=True)})
    return tournament


@pytest.fixture
def evenings(director):
    return [evening(director, "Januarabend", datetime.date(2026, 1, 9), JANUARY, slug="januar"),
            evening(director, "Februarabend", datetime.date(2026, 2, 13), FEBRUARY, slug="februar"),
            evening(director, "Märzabend", datetime.date(2026, 3, 13), MARCH, slug="maerz")]


def make_series(director, tournaments, **settings):
    series = series_services.create_series(name="Monatsturnier 2026", director=director, slug="monat", **settings)
    for tournament in tournaments:
        series_services.add_tournament(series=series, tournament=tournament, user=director)
    series.refresh_from_db()
    return series


@pytest.fixture
def series(director, evenings):
    return make_series(director, evenings)


def table(standings):
    """(rank, name, club, points per evening, evenings played, value) per row."""
    return [(row.rank, row.name, row.club, [cell.points for cell in row.cells], row.played, row.shown_value)
            for row in standings.rows]


def set_mode(series, mode, best_of=0):
    return series_services.update_series(series=series, name=series.name, slug=series.slug, mode=mode,
                                         best_of=best_of, public=series.public)


def merge_dieter(series):
    series_services.merge_players(series=series, alias=selectors.identity_key("Dieter", WEST),
                                  same_as=selectors.identity_key("Dieter", NORD))


# ---- recognising players -------------------------------------------------------------------------

def test_players_are_the_same_person_when_name_and_club_match_after_normalising():
    key = selectors.identity_key
    assert key("Anna", "DK Nord") == key("  ANNA ", "dk  nord") == key("anna", "DK Nord ")
    assert key("Jürgen", "Süd") == key("Ju\u0308rgen", "Su\u0308d")  # composed or decomposed umlauts (NFC)
    assert key("Anna", "DK Nord") != key("Anna", "DK Süd")
    assert key("Anna", "") != key("Anna", "DK Nord")


def test_three_evenings_summed_with_late_joiners_missed_evenings_and_namesakes(series):
    rows = table(selectors.series_standings(series))
    assert rows == [
        (1, "Anna", NORD, [30, 5, -10], 3, 25),
        (2, "Dieter", WEST, [None, None, 15], 1, 15),  # same total, same evenings: they share the place
        (2, "Emil", NORD, [None, 15, None], 1, 15),  # joined in February
        (4, "Carla", NORD, [-15, None, 25], 2, 10),  # missed February
        (5, "Bernd", NORD, [10, 20, -30], 3, 0),
        (6, "Dieter", NORD, [-25, None, None], 1, -25),  # another club: another person, until merged
        (7, "Anna", SUED, [None, -40, None], 1, -40),  # Anna of another club is another person
    ]


def test_a_merge_counts_two_players_as_one_and_can_be_undone(series):
    merge_dieter(series)
    standings = selectors.series_standings(series)
    dieter = next(row for row in standings.rows if row.name == "Dieter")
    assert (dieter.rank, dieter.club, [c.points for c in dieter.cells], dieter.played, dieter.points) == (
        5, NORD, [-25, None, 15], 2, -10)
    assert dieter.merged == [f"Dieter ({WEST})"]
    assert len(standings.rows) == 6
    [(merge, alias, same_as)] = standings.merges
    assert (alias, same_as) == (f"Dieter ({WEST})", f"Dieter ({NORD})")
    series_services.unmerge_players(series=series, merge_id=merge.pk)
    assert table(selectors.series_standings(series))[1] == (2, "Dieter", WEST, [None, None, 15], 1, 15)


def test_players_of_the_same_evening_cannot_be_merged(series):
    with pytest.raises(UserError, match="beide beim Turnier „Februarabend“ gespielt"):
        series_services.merge_players(series=series, alias=selectors.identity_key("Anna", SUED),
                                      same_as=selectors.identity_key("Anna", NORD))
    with pytest.raises(UserError, match="schon dieselbe Person"):
        series_services.merge_players(series=series, alias=selectors.identity_key("anna", NORD),
                                      same_as=selectors.identity_key("Anna", NORD))


def test_two_players_of_one_evening_are_never_one_person(director):
    """Once a bug: "Anna Alt" (+8) and "ANNA ALT" (-4), registered at one evening before names were
    compared ignoring case, were one row "ANNA ALT" with 4 points and one evening."""
    tournament = evening(director, "Januarabend", datetime.date(2026, 1, 9),
                         [("Anna Alt", "", 8), ("Bernd", "", 0), ("Carla", "", -4), ("Dieter", "", -4)], slug="jan")
    with pytest.raises(UserError, match="Anna Alt ist schon angemeldet"):  # today: refused at entry
        tournament_services.register_player(tournament=tournament, name="ANNA ALT")
    Player.objects.filter(entries__tournament=tournament, name="Carla").update(name="ANNA ALT")  # as stored before
    standings = selectors.series_standings(make_series(director, [tournament]))
    assert sorted((row.name, row.points, row.played) for row in standings.rows) == [
        ("ANNA ALT", -4, 1), ("Anna Alt", 8, 1), ("Bernd", 0, 1), ("Dieter", -4, 1)]


def test_a_merge_does_not_count_for_an_evening_both_played(director, series):
    merge_dieter(series)  # Dieter of NORD (January) and of WEST (March): never at one evening
    both = evening(director, "Aprilabend", datetime.date(2026, 4, 10),
                   [("Dieter", NORD, 8), ("Dieter", WEST, -8), ("Carla", NORD, 0), ("Emil", NORD, 0)], slug="april")
    series_services.add_tournament(series=series, tournament=both, user=director)
    standings = selectors.series_standings(series)
    dieters = sorted((row.club, [c.points for c in row.cells]) for row in standings.rows if row.name == "Dieter")
    assert dieters == [(NORD, [-25, None, None, 8]), (WEST, [None, None, 15, -8])]
    [(merge, _alias, _same_as)] = standings.merges
    assert standings.blocked == {merge.pk: "Aprilabend"}
    client = Client()
    client.force_login(director)
    page = client.get(reverse("tournament:series_manage", args=[series.slug])).content.decode()
    assert "gilt nicht: beide haben beim Turnier „Aprilabend“ gespielt" in page


def test_a_merge_into_a_merged_player_goes_on_to_the_one_they_count_as(director, series):
    fourth = evening(director, "Aprilabend", datetime.date(2026, 4, 10),
                     [("Dieter", "TuS Ost", 8), ("Bernd", NORD, -8), ("Carla", NORD, 0), ("Emil", NORD, 0)],
                     slug="april")
    series_services.add_tournament(series=series, tournament=fourth, user=director)
    merge_dieter(series)
    series_services.merge_players(series=series, alias=selectors.identity_key("Dieter", "TuS Ost"),
                                  same_as=selectors.identity_key("Dieter", WEST))
    dieter = next(row for row in selectors.series_standings(series).rows if row.name == "Dieter")
    assert [c.points for c in dieter.cells] == [-25, None, 15, 8]
    assert dieter.merged == [f"Dieter ({WEST})", "Dieter (TuS Ost)"]


# ---- the three modes -----------------------------------------------------------------------------

def test_best_two_of_three_marks_the_evenings_that_count(series):
    series = set_mode(series, Series.Mode.BEST, 2)
    merge_dieter(series)
    standings = selectors.series_standings(series)
    assert [(r.rank, r.name, r.club, r.shown_value) for r in standings.rows] == [
        (1, "Anna", NORD, 35), (2, "Bernd", NORD, 30), (3, "Emil", NORD, 15), (4, "Carla", NORD, 10),
        (5, "Dieter", NORD, -10), (6, "Anna", SUED, -40)]
    anna, bernd = standings.rows[0], standings.rows[1]
    assert [c.counts for c in anna.cells] == [True, True, False]  # -10 in March does not count
    assert [c.counts for c in bernd.cells] == [True, True, False]


def test_best_one_with_ties_puts_more_evenings_first_then_shares_the_place(series):
    series = set_mode(series, Series.Mode.BEST, 1)
    merge_dieter(series)
    rows = selectors.series_standings(series).rows
    assert [(r.rank, r.name, r.club, r.shown_value, r.played) for r in rows] == [
        (1, "Anna", NORD, 30, 3), (2, "Carla", NORD, 25, 2), (3, "Bernd", NORD, 20, 3),
        (4, "Dieter", NORD, 15, 2),  # 15 like Emil, but two evenings played against one
        (5, "Emil", NORD, 15, 1), (6, "Anna", SUED, -40, 1)]
    series_services.unmerge_players(series=series, merge_id=series.merges.get().pk)
    rows = selectors.series_standings(series).rows
    assert [(r.rank, r.name, r.club) for r in rows[3:6]] == [(4, "Dieter", WEST), (4, "Emil", NORD),
                                                             (6, "Dieter", NORD)]


def test_of_equal_results_more_evenings_played_rank_first_whatever_the_names(director):
    first = evening(director, "Eins", datetime.date(2026, 1, 1), [("Anton", "", 10), ("Zora", "", 10), ("B", "", -10),
                                                                  ("C", "", -10)], slug="eins")
    second = evening(director, "Zwei", datetime.date(2026, 2, 1), [("Zora", "", 5), ("D", "", -5), ("E", "", 0),
                                                                   ("F", "", 0)], slug="zwei")
    series = make_series(director, [first, second], mode=Series.Mode.BEST, best_of=1)
    rows = selectors.series_standings(series).rows
    assert [(r.rank, r.name, r.points, r.played) for r in rows[:2]] == [(1, "Zora", 10, 2), (2, "Anton", 10, 1)]


def test_of_equal_evenings_the_earlier_one_counts(director):
    first = evening(director, "Eins", datetime.date(2026, 1, 1), [("A", "", 7), ("B", "", -7), ("C", "", 0),
                                                                  ("D", "", 0)], slug="eins")
    second = evening(director, "Zwei", datetime.date(2026, 2, 1), [("A", "", 7), ("B", "", -7), ("C", "", 0),
                                                                   ("D", "", 0)], slug="zwei")
    series = make_series(director, [first, second], mode=Series.Mode.BEST, best_of=1)
    a = selectors.series_standings(series).rows[0]
    assert (a.name, [c.counts for c in a.cells], a.points) == ("A", [True, False], 7)


def test_average_per_evening_played(series):
    series = set_mode(series, Series.Mode.AVERAGE, 0)
    merge_dieter(series)
    rows = selectors.series_standings(series).rows
    assert [(r.rank, r.name, r.club, str(r.shown_value)) for r in rows] == [
        (1, "Emil", NORD, "15"), (2, "Anna", NORD, "8.3"), (3, "Carla", NORD, "5"), (4, "Bernd", NORD, "0"),
        (5, "Dieter", NORD, "-5"), (6, "Anna", SUED, "-40")]


def test_best_of_needs_a_number_of_evenings(director):
    with pytest.raises(UserError, match="1 bis 99 Abende"):
        series_services.create_series(name="Serie", director=director, mode=Series.Mode.BEST, best_of=0)


def test_a_player_registered_but_not_played_yet_is_listed_without_a_place(director, series):
    march = Tournament.objects.get(slug="maerz")
    tournament_services.register_player(tournament=march, name="Frieda", club=NORD)
    frieda = selectors.series_standings(series).rows[-1]
    assert (frieda.name, frieda.rank, frieda.played, [c.points for c in frieda.cells]) == (
        "Frieda", None, 0, [None, None, None])


# ---- hidden results ------------------------------------------------------------------------------

def test_hidden_results_count_for_the_director_only(client, director, series):
    seating.hide_results(round=Round.objects.get(tournament__slug="maerz"))
    public = selectors.series_standings(series)
    anna = public.rows[0]
    assert (anna.name, [c.points for c in anna.cells], anna.points) == ("Anna", [30, 5, None], 35)
    assert "Carla" in [r.name for r in public.rows]  # January is still visible
    assert all(row.name != "Dieter" or row.club != WEST for row in public.rows if row.rank)
    own = selectors.series_standings(series, user=director)
    assert own.rows[0].points == 25 and [c.points for c in own.rows[0].cells] == [30, 5, -10]
    html = client.get(reverse("tournament:series", args=["monat"])).content.decode()
    assert ">35<" in html and ">−10<" not in html
    assert "Noch nicht alle Ergebnisse sind bekanntgegeben (Märzabend)" in html
    client.force_login(director)
    html = client.get(reverse("tournament:series", args=["monat"])).content.decode()
    assert ">25<" in html and ">−10<" in html
    assert "Ergebnisse, die die Öffentlichkeit nicht sieht (Märzabend), sind hier mitgezählt." in html


def test_an_evening_whose_standings_are_not_public_is_not_shown_to_the_public(client, director, series):
    Tournament.objects.filter(slug="januar").update(public_standings=False)
    assert ("Die Tabelle von Januarabend ist nicht öffentlich; ihre Ergebnisse zählen hier nicht."
            in client.get(reverse("tournament:series", args=["monat"])).content.decode())
    anna = selectors.series_standings(series).rows
    assert [c.points for c in next(r for r in anna if r.name == "Anna" and r.club == NORD).cells] == [None, 5, -10]
    other = make_director("fremd")
    assert selectors.series_standings(series, user=other).rows[0].cells[0].points is None
    assert selectors.series_standings(series, user=director).rows[0].cells[0].points == 30


# ---- pages and who may see them ------------------------------------------------------------------

def test_public_series_page_shows_every_evening_linked_and_the_merge(client, series):
    merge_dieter(series)
    response = client.get(reverse("tournament:series", args=["monat"]))
    assert response.status_code == 200
    html = response.content.decode()
    for slug, name in (("januar", "Januarabend"), ("februar", "Februarabend"), ("maerz", "Märzabend")):
        assert f'<a href="/t/{slug}/standings/">{name}</a>' in html
    assert f"zusammengeführt mit Dieter ({WEST})" in html
    assert "Serie verwalten" not in html


def test_best_k_page_strikes_through_the_evenings_that_do_not_count(client, series):
    series = set_mode(series, Series.Mode.BEST, 2)
    html = client.get(reverse("tournament:series", args=["monat"])).content.decode()
    assert '<s title="zählt nicht">−10</s>' in html and "besten 2 Abende" in html


def test_a_private_series_is_for_its_directors_only(client, director, series):
    series_services.update_series(series=series, name=series.name, slug="monat", mode=series.mode, best_of=0,
                                  public=False)
    for name in ("series", "series_csv", "series_pdf"):
        url = reverse(f"tournament:{name}", args=["monat"])
        client.logout()
        assert client.get(url).status_code == 404
        client.force_login(make_director(f"fremd-{name}"))
        assert client.get(url).status_code == 404
        client.force_login(director)
        assert client.get(url).status_code == 200


DIRECTOR_PAGES = [("get", "series_manage", []), ("post", "series_tournament_add", []),
                  ("post", "series_tournament_remove", ["T"]), ("post", "series_merge", []),
                  ("post", "series_unmerge", [1])]


@pytest.mark.parametrize("method, name, extra", DIRECTOR_PAGES)
def test_director_pages_send_anonymous_users_to_login_and_refuse_others(client, series, method, name, extra):
    args = ["monat"] + [Tournament.objects.get(slug="januar").pk if a == "T" else a for a in extra]
    url = reverse(f"tournament:{name}", args=args)
    response = getattr(client, method)(url)
    assert response.status_code == 302 and "/accounts/login/" in response["Location"]
    client.force_login(make_director("fremd"))
    assert getattr(client, method)(url).status_code == 403
    assert Tournament.objects.filter(series=series).count() == 3


def test_director_creates_a_series_adds_evenings_and_merges_on_the_pages(client, director, evenings):
    client.force_login(director)
    response = client.post(reverse("tournament:series_create"),
                           {"name": "Vereinsabende", "slug": "", "mode": "sum", "best_of": "", "public": "on"})
    series = Series.objects.get(name="Vereinsabende")
    assert response["Location"] == reverse("tournament:series_manage", args=[series.slug])
    manage = client.get(response["Location"]).content.decode()
    for tournament in evenings:
        assert f'<option value="{tournament.pk}">' in manage
        client.post(reverse("tournament:series_tournament_add", args=[series.slug]), {"tournament": tournament.pk})
    assert list(series.tournaments.order_by("date").values_list("slug", flat=True)) == ["januar", "februar", "maerz"]
    response = client.post(reverse("tournament:series_merge", args=[series.slug]), {
        "alias": selectors.identity_key("Dieter", WEST), "same_as": selectors.identity_key("Dieter", NORD)})
    assert "Die beiden Spieler zählen jetzt als eine Person." in message_texts(response)
    response = client.post(reverse("tournament:series_merge", args=[series.slug]), {
        "alias": selectors.identity_key("Anna", SUED), "same_as": selectors.identity_key("Anna", NORD)})
    assert any("nicht dieselben Personen" in text for text in message_texts(response))
    manage = client.get(reverse("tournament:series_manage", args=[series.slug])).content.decode()
    assert f"Dieter ({WEST}) zählt als Dieter ({NORD})" in manage
    merge = series.merges.get()
    client.post(reverse("tournament:series_unmerge", args=[series.slug, merge.pk]))
    assert not series.merges.exists()
    client.post(reverse("tournament:series_tournament_remove", args=[series.slug, evenings[0].pk]))
    assert series.tournaments.count() == 2
    response = client.post(reverse("tournament:series_manage", args=[series.slug]), {
        "name": "Vereinsabende", "slug": series.slug, "mode": "best", "best_of": "2", "public": "on", "version": "1"})
    assert response.status_code == 409  # the merges changed the series since the form was loaded
    assert "inzwischen von jemand anderem geändert" in response.content.decode()
    series.refresh_from_db()
    response = client.post(reverse("tournament:series_manage", args=[series.slug]), {
        "name": "Vereinsabende", "slug": series.slug, "mode": "best", "best_of": "2", "public": "on",
        "version": str(series.version)})
    assert response.status_code == 302
    series.refresh_from_db()
    assert (series.mode, series.best_of) == ("best", 2)
    response = client.post(reverse("tournament:series_manage", args=[series.slug]), {  # no short name: kept
        "name": "Vereinsabende", "slug": "", "mode": "average", "best_of": "", "version": str(series.version)})
    series.refresh_from_db()
    assert (series.slug, series.mode, series.public) == ("vereinsabende", "average", False)


def test_form_mistakes_are_said_next_to_the_field(client, director, series):
    client.force_login(director)
    response = client.post(reverse("tournament:series_create"), {"name": "Noch eine", "slug": "monat", "mode": "sum"})
    assert response.status_code == 200
    assert "Den Kurznamen monat hat schon eine andere Serie." in response.content.decode()
    response = client.post(reverse("tournament:series_manage", args=["monat"]), {
        "name": "Monatsturnier", "slug": "monat", "mode": "best", "best_of": "", "version": str(series.version)})
    assert response.status_code == 200
    assert "Bei der Wertung der besten Abende zählen 1 bis 99 Abende." in response.content.decode()
    response = client.post(reverse("tournament:series_merge", args=["monat"]), {"alias": "x", "same_as": ""})
    assert "Bitte zwei Spieler der Serie wählen." in message_texts(response)
    series.refresh_from_db()
    assert (series.name, series.mode) == ("Monatsturnier 2026", "sum") and not series.merges.exists()


def test_only_tournaments_the_user_directs_can_be_added(client, director, evenings):
    other = make_director("fremd")
    series = series_services.create_series(name="Fremde Serie", director=other)
    with pytest.raises(UserError, match="Nur wer das Turnier „Januarabend“ leitet"):
        series_services.add_tournament(series=series, tournament=evenings[0], user=other)
    client.force_login(other)
    assert "Januarabend" not in client.get(reverse("tournament:series_manage", args=[series.slug])).content.decode()
    response = client.post(reverse("tournament:series_tournament_add", args=[series.slug]),
                           {"tournament": evenings[0].pk})
    assert "Bitte ein Turnier wählen, das Sie leiten" in message_texts(response)[0]
    assert not series.tournaments.exists()
    client.force_login(director)  # directs the tournament, not the series
    assert client.post(reverse("tournament:series_tournament_add", args=[series.slug]),
                       {"tournament": evenings[0].pk}).status_code == 403
    assert not series.tournaments.exists()


def test_a_tournament_belongs_to_one_series_at_most(director, series):
    second = series_services.create_series(name="Zweite", director=director)
    with pytest.raises(UserError, match="gehört schon zur Serie „Monatsturnier 2026“"):
        series_services.add_tournament(series=second, tournament=Tournament.objects.get(slug="januar"), user=director)


def test_joining_and_leaving_are_in_the_tournaments_change_log(director, series):
    january = Tournament.objects.get(slug="januar")
    series_services.remove_tournament(series=series, tournament=january)
    actions = list(Tournament.history.filter(id=january.pk).order_by("history_id")
                   .values_list("log_action", "log_detail__series"))
    assert actions[-2:] == [("series_joined", "Monatsturnier 2026"), ("series_left", None)]


def test_tournament_pages_link_to_their_series(client, series):
    for name in ("overview", "standings"):
        html = client.get(reverse(f"tournament:{name}", args=["januar"])).content.decode()
        assert 'Gehört zur Serie <a href="/s/monat/">Monatsturnier 2026</a>.' in html


def test_home_lists_public_series_and_the_directors_own(client, director, series):
    series_services.create_series(name="Geheime Serie", director=director, public=False)
    html = client.get("/").content.decode()
    assert "Monatsturnier 2026" in html and "Geheime Serie" not in html
    client.force_login(director)
    html = client.get("/").content.decode()
    assert "Geheime Serie" in html and "Neue Serie" in html


# ---- CSV and PDF ---------------------------------------------------------------------------------

def test_csv_has_a_column_per_evening_and_marks_evenings_that_do_not_count(client, series):
    series = set_mode(series, Series.Mode.BEST, 2)
    response = client.get(reverse("tournament:series_csv", args=["monat"]))
    text = response.content.decode("utf-8")
    assert text.startswith("\ufeff") and response["Content-Type"] == "text/csv; charset=utf-8"
    rows = list(csv.reader(io.StringIO(text[1:]), delimiter=";"))
    assert rows[0] == ["Platz", "Spieler", "Verein", "Januarabend (09.01.2026)", "Februarabend (13.02.2026)",
                       "Märzabend (13.03.2026)", "Abende", "Beste", "zusammengeführt mit"]
    assert rows[1] == ["1", "Anna", NORD, "30", "5", "(-10)", "3", "35", ""]


def test_csv_escapes_what_a_spreadsheet_takes_for_a_formula(client, director):
    tournament = evening(director, "Abend", datetime.date(2026, 5, 1),
                         [("=SUMME(A1)", "@Verein", 3), ("Bernd", NORD, -3), ("Carla", NORD, 0), ("Dieter", NORD, 0)],
                         slug="abend")
    make_series(director, [tournament])
    text = client.get(reverse("tournament:series_csv", args=["monat"])).content.decode("utf-8")
    assert "'=SUMME(A1);'@Verein;3" in text


def test_pdf_prints_the_standings_with_every_name(client, series):
    merge_dieter(series)
    response = client.get(reverse("tournament:series_pdf", args=["monat"]))
    assert response["Content-Type"] == "application/pdf" and response.content.startswith(b"%PDF")
    text = "\n".join(page.extract_text() for page in PdfReader(BytesIO(response.content)).pages)
    assert "Monatsturnier 2026" in text and "Serienwertung" in text
    for name in ("Anna", "Bernd", "Carla", "Dieter", "Emil", "Januarabend", "Märzabend", "zusammengeführt mit"):
        assert name in text


def test_pdf_says_which_results_are_not_announced_yet(client, series):
    seating.hide_results(round=Round.objects.get(tournament__slug="maerz"))
    response = client.get(reverse("tournament:series_pdf", args=["monat"]))
    text = " ".join(PdfReader(BytesIO(response.content)).pages[0].extract_text().split())
    assert "Noch nicht alle Ergebnisse sind bekanntgegeben (Märzabend)" in text


# ---- cost ----------------------------------------------------------------------------------------

def queries_of(client, url) -> list[str]:
    with CaptureQueriesContext(connection) as captured:
        assert client.get(url).status_code == 200
    return [query["sql"] for query in captured]


def test_the_series_page_costs_the_same_queries_whatever_the_size(client, director):
    def players(count):  # each table of four: -3, -1, 1, 3
        return [(f"Spieler {i}", NORD, [-3, -1, 1, 3][i % 4]) for i in range(count)]

    small = [evening(director, f"Klein {i}", datetime.date(2026, 1, i + 1), players(4), slug=f"klein-{i}")
             for i in range(2)]
    small_series = make_series(director, small)
    big = [evening(director, f"Groß {i}", datetime.date(2026, 2, i + 1), players(16), slug=f"gross-{i}")
           for i in range(4)]
    big_series = series_services.create_series(name="Große Serie", director=director, slug="gross")
    for tournament in big:
        series_services.add_tournament(series=big_series, tournament=tournament, user=director)
    for user in (None, director):
        if user is not None:
            client.force_login(user)
        small_queries, big_queries = (queries_of(client, reverse("tournament:series", args=[s.slug]))
                                      for s in (small_series, big_series))
        assert len(small_queries) == len(big_queries), (small_queries, big_queries)
        # the series; 4 in the selector; a director: the session, the user and whether they direct it
        assert len(small_queries) <= (8 if user else 5)


def test_on_a_phone_the_series_table_hides_the_same_column_in_head_and_body(client, series):
    """At 360 px the "Abende" column is hidden (class "secondary"); the head must hide it too, or every
    column after it sits under the wrong heading."""
    import re

    page = client.get(reverse("tournament:series", args=[series.slug])).content.decode()
    table = page.split('<table class="standings series-standings">')[1].split("</table>")[0]
    head = re.findall(r"<th\b[^>]*>", table.split("<tbody>")[0])
    body = re.findall(r"<td\b[^>]*>", table.split("<tbody>")[1].split("</tr>")[0])
    assert len(head) == len(body)
    assert ["secondary" in cell for cell in head] == ["secondary" in cell for cell in body]
