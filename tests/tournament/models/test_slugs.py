"""The short name in an address, made from a long German name (`tournament.slugs`): transliterated the
German way, cut after a whole word within the field's length, never ending in a hyphen, unique; the
same for tournaments, series, Ranglisten and organisations."""

import pytest

from tournament.models import Tournament
from tournament.services import organisations, rangliste, series
from tournament.slugs import slug_from

from ..factories import make_director, make_tournament

pytestmark = pytest.mark.django_db

LONG = "Großes Herbstturnier der Doppelkopffreunde Mönchengladbach-Rheydt 1987"
EXPECTED = "grosses-herbstturnier-der-doppelkopffreunde-moenchengladbach-rheydt-1987"


def test_a_long_german_name_is_transliterated_and_kept_whole_while_it_fits():
    tournament = make_tournament(players=0, name=LONG)
    assert tournament.slug == EXPECTED  # 72 characters: the field holds 80


def test_the_same_name_again_stays_within_the_length_and_ends_after_a_word():
    make_director()
    field = Tournament._meta.get_field("slug").max_length
    assert make_tournament(players=0, name=LONG + " und Umgebung").slug == EXPECTED + "-und"  # not 81 characters
    slugs = [make_tournament(players=0, name=LONG + " Kreise").slug for _ in range(3)]
    assert slugs[0] == EXPECTED + "-kreise"  # 79 characters
    assert slugs[1] == EXPECTED + "-2" and slugs[2] == EXPECTED + "-3"  # "-kreise-2" would not fit
    assert all(len(slug) <= field and not slug.endswith("-") and "--" not in slug for slug in slugs)


@pytest.mark.parametrize(("name", "slug"), [
    ("Ärger über Öl & Süßes", "aerger-ueber-oel-suesses"),
    ("Yılmaz' Çelik-Pokal", "yilmaz-celik-pokal"),
    ("  --Sommer--  ", "sommer"),
    ("Æbleskiver Øresund", "aebleskiver-oresund"),
    ("A" * 100, "a" * 80),  # one word longer than the field: cut itself
])
def test_slug_from(name, slug):
    assert slug_from(name, most=80) == slug


def test_series_rangliste_and_organisation_the_same_way():
    director = make_director()
    assert series.create_series(name="Mönchengladbacher Straßen-Cup", director=director).slug \
        == "moenchengladbacher-strassen-cup"
    assert rangliste.create_rangliste(settings=rangliste.Settings(name="Rangliste Nordrhein Süd"),
                                      director=director).slug == "rangliste-nordrhein-sued"
    assert organisations.create_organisation(name="Doko-Freunde Köln 1990").slug == "doko-freunde-koeln-1990"
