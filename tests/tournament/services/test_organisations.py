"""Many clubs on one site (docs/security.md "Organisations"): each club's tournaments,
series, Ranglisten and player records are its own. Club A ("verein") and club B ("club-b") side by
side; B's organiser and director act within B and find nothing of A in any picker."""

import json

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse

from tournament.models import Entry, Player, Rangliste, Series
from tournament.selectors import tournaments_to_add
from tournament.services import rangliste as rangliste_services
from tournament.services import series as series_services
from tournament.services import tournaments
from tournament.services.exporting import export_tournament
from tournament.services.importing import import_tournament
from tournament.services.organisations import create_organisation, default_organisation

from ..factories import make_director, make_tournament, play_round


@pytest.fixture
def clubs(db):
    """Club A: its organiser "leitung", a private series with an evening where Anna Kreuz has a member
    number. Club B: its organiser "fremd", who directs a tournament of B."""
    a_boss = make_director("leitung")
    club_a = default_organisation()
    club_b = create_organisation(name="Club B", slug="club-b")
    b_boss = make_director("fremd", organisation=club_b)
    evening = make_tournament(players=4, director=a_boss, slug="a-abend")
    anna = tournaments.register_player(tournament=evening, name="Anna Kreuz", club="DK Nord")
    rangliste_services.set_member_number(entry=anna, member_number="DDV-4711-SECRET")
    private = series_services.create_series(name="A privat", slug="a-privat", director=a_boss, public=False)
    series_services.add_tournament(series=private, tournament=evening, user=a_boss)
    b_evening = make_tournament(players=4, director=b_boss, slug="b-abend", organisation=club_b)
    return {"a": club_a, "b": club_b, "a_boss": a_boss, "b_boss": b_boss, "evening": evening, "anna": anna,
            "private": private, "b_evening": b_evening}


def as_user(user) -> Client:
    client = Client()
    client.force_login(user)
    return client


def test_club_b_is_offered_none_of_club_as_series_and_cannot_name_one(clubs):
    """Item 1: /r/new/ offered every series of the site, private ones too; a Rangliste over club A's
    private series listed its players and member numbers to anyone."""
    client = as_user(clubs["b_boss"])
    page = client.get(reverse("tournament:rangliste_create")).content.decode()
    assert "A privat" not in page
    answer = client.post(reverse("tournament:rangliste_create"), {
        "name": "Fremde Rangliste", "slug": "fremd", "source": "series", "series": str(clubs["private"].pk),
        "months": "24", "minimum_rounds": "0", "public": "on"})
    assert answer.status_code == 200 and not Rangliste.objects.filter(slug="fremd").exists()
    # nor through the service, whatever calls it
    with pytest.raises(rangliste_services.UserError):
        rangliste_services.create_rangliste(
            settings=rangliste_services.Settings(name="X", source=Rangliste.Source.SERIES, series=clubs["private"]),
            director=clubs["b_boss"], organisation=clubs["b"])
    # club A's own organiser is offered it
    assert "A privat" in as_user(clubs["a_boss"]).get(reverse("tournament:rangliste_create")).content.decode()


def test_a_flagged_rangliste_counts_another_clubs_tournament_only_when_public_and_flagged(clubs):
    evening = clubs["evening"]
    play_round(evening, games=1)
    evening.counts_for_rangliste, evening.public_standings = True, False
    evening.save()
    rangliste = rangliste_services.create_rangliste(
        settings=rangliste_services.Settings(name="Verband", slug="verband", minimum_rounds=0),
        director=clubs["b_boss"], organisation=clubs["b"])
    client = Client()
    csv_text = client.get(reverse("tournament:rangliste_csv", kwargs={"slug": "verband"})).content.decode()
    assert "Anna Kreuz" not in csv_text  # its standings are private: not counted
    evening.public_standings = True
    evening.save()
    csv_text = client.get(reverse("tournament:rangliste_csv", kwargs={"slug": rangliste.slug})).content.decode()
    assert "Herbstturnier" in csv_text  # public and flagged: the association's Rangliste counts it
    assert "DDV-4711-SECRET" not in csv_text  # club A does not publish member numbers


def test_the_series_picker_offers_only_the_series_own_organisations_tournaments(clubs):
    b_series = series_services.create_series(name="B Serie", slug="b-serie", director=clubs["b_boss"],
                                             organisation=clubs["b"])
    superuser = make_director("admin", organiser=False)
    superuser.is_superuser = True
    superuser.save()
    spare = make_tournament(players=4, director=clubs["a_boss"], slug="a-frei")
    assert [t.slug for t in tournaments_to_add(superuser, b_series)] == ["b-abend"]
    assert spare not in tournaments_to_add(clubs["a_boss"], b_series)
    with pytest.raises(series_services.UserError):
        series_services.add_tournament(series=b_series, tournament=spare, user=superuser)


def test_club_bs_director_gets_a_record_of_their_own_and_never_sees_or_changes_club_as_number(clubs):
    """Item 2: club B's director added "Anna Kreuz" of DK Nord, saw club A's member number on the edit
    page and overwrote it, unlogged in club A."""
    b_anna = tournaments.register_player(tournament=clubs["b_evening"], name="Anna Kreuz", club="DK Nord")
    assert b_anna.player_id != clubs["anna"].player_id and b_anna.player.member_number == ""
    client = as_user(clubs["b_boss"])
    url = reverse("tournament:player_edit", kwargs={"slug": "b-abend", "entry_id": b_anna.pk})
    assert "DDV-4711-SECRET" not in client.get(url).content.decode()
    client.post(url, {"name": "Anna Kreuz", "club": "DK Nord", "member_number": "FAKE-1",
                      "loaded_name": "Anna Kreuz", "loaded_club": "DK Nord"})
    assert Player.objects.get(pk=clubs["anna"].player_id).member_number == "DDV-4711-SECRET"
    # and club A's entry stays out of reach of club B's director
    a_url = reverse("tournament:player_edit", kwargs={"slug": "a-abend", "entry_id": clubs["anna"].pk})
    assert client.get(a_url).status_code == 403


def test_a_member_number_change_is_in_the_log_of_every_tournament_of_the_record(clubs):
    second = make_tournament(players=4, director=clubs["a_boss"], slug="a-zweiter")
    again = tournaments.register_player(tournament=second, name="Anna Kreuz", club="DK Nord")
    assert again.player_id == clubs["anna"].player_id  # the same record of club A

    def logged():
        return [Entry.history.filter(log_tournament=t.pk, log_action="member_number_changed").count()
                for t in (clubs["evening"], second)]

    before = logged()
    rangliste_services.set_member_number(entry=again, member_number="DDV-0815")
    assert logged() == [before[0] + 1, before[1] + 1]
    assert Player.objects.get(pk=again.player_id).member_number == "DDV-0815"


def test_an_import_never_writes_a_member_number_onto_an_existing_record(clubs):
    """Item 2: the import found the player by name and club and wrote the file's number onto them:
    two members became one person, and an earlier tournament's backup changed after the fact."""
    before = json.dumps(export_tournament(clubs["evening"], backup=False), sort_keys=True)
    data = export_tournament(clubs["evening"], backup=False)
    data["slug"] = "kopie"
    for player in data["players"]:
        if player["name"] == "Anna Kreuz":
            player["member_number"] = "OTHER-1"
    copy = import_tournament(data, director=clubs["a_boss"])
    assert Player.objects.get(pk=clubs["anna"].player_id).member_number == "DDV-4711-SECRET"
    assert copy.entries.get(player__name="Anna Kreuz").player.member_number == "OTHER-1"
    assert json.dumps(export_tournament(clubs["evening"], backup=False), sort_keys=True) == before
    # imported into club B: club B's own records, none of club A's
    data["slug"] = "b-kopie"
    b_copy = import_tournament(data, director=clubs["b_boss"], organisation=clubs["b"])
    assert set(b_copy.entries.values_list("player__organisation", flat=True)) == {clubs["b"].pk}


def test_the_start_page_lists_only_what_the_reader_may_open(clubs):
    evening = clubs["evening"]
    evening.public_overview = False
    evening.save()
    assert "a-abend" not in Client().get(reverse("tournament:home")).content.decode()
    assert "a-abend" not in as_user(clubs["b_boss"]).get(reverse("tournament:home")).content.decode()
    assert "a-abend" in as_user(clubs["a_boss"]).get(reverse("tournament:home")).content.decode()
    assert "A privat" not in as_user(clubs["b_boss"]).get(reverse("tournament:home")).content.decode()


def test_the_administrator_creates_an_organisation_with_its_first_organiser(db, capsys):
    boss = make_director("vorstand", organiser=False)
    call_command("create_organisation", "DK Schwarze Dame Rheydt", "--organiser", "vorstand")
    organisation = boss.organisations.get()
    assert organisation.slug == "dk-schwarze-dame-rheydt" and not organisation.publish_member_numbers
    client = as_user(boss)
    answer = client.post(reverse("tournament:tournament_create"), {
        "name": "Vereinsabend", "date": "2026-12-05", "preset": "turnier", "rounds_planned": "3",
        "games_at_table_of_4": "8", "games_at_table_of_5": "10"})
    assert answer.status_code == 302
    assert boss.directed_tournaments.get().organisation == organisation


def test_an_organiser_of_two_organisations_chooses_and_cannot_choose_a_third(clubs):
    clubs["b"].organisers.add(clubs["a_boss"])
    third = create_organisation(name="Dritter", slug="dritter")
    client = as_user(clubs["a_boss"])
    page = client.get(reverse("tournament:series_create")).content.decode()
    assert "Club B" in page and "Dritter" not in page
    data = {"name": "Neue Serie", "slug": "", "mode": "sum", "public": "on"}
    assert client.post(reverse("tournament:series_create"), {**data, "organisation": str(third.pk)}).status_code == 200
    assert client.post(reverse("tournament:series_create"), data).status_code == 200  # must choose
    client.post(reverse("tournament:series_create"), {**data, "organisation": str(clubs["b"].pk)})
    assert Series.objects.get(name="Neue Serie").organisation == clubs["b"]

