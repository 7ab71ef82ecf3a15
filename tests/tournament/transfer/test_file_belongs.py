"""The tournament file keeps what the tournament belongs to (issue "The evening as a club meets it"):
"zählt für die Rangliste" and its series (by short name and name), so that a restored backup stays in
its Rangliste and its series; a series the importer cannot use is said, and the file imported without
it; files without these keys import as before."""

import io
import json

import pytest
from django.core.management import call_command
from django.urls import reverse

from tournament.models import Tournament
from tournament.services import series as series_services
from tournament.services.exporting import export_tournament
from tournament.services.file_checks import ImportProblems
from tournament.services.importing import import_tournament

from ..factories import make_director, make_tournament, seated_round

pytestmark = pytest.mark.django_db


@pytest.fixture
def evening(director):
    tournament = make_tournament(players=8, director=director, slug="januar")
    tournament.counts_for_rangliste = True
    tournament.save(update_fields=["counts_for_rangliste"])
    series = series_services.create_series(name="Monatsturniere 2026", director=director)
    series_services.add_tournament(series=series, tournament=tournament, user=director)
    seated_round(tournament)
    return Tournament.objects.get(pk=tournament.pk)


def test_export_writes_the_flag_and_the_series(evening):
    data = export_tournament(evening)
    assert data["counts_for_rangliste"] is True
    assert data["series"] == {"name": "Monatsturniere 2026", "slug": "monatsturniere-2026"}
    plain = export_tournament(make_tournament(players=4, slug="ohne"))
    assert "counts_for_rangliste" not in plain and "series" not in plain  # canonical: only where set


def test_a_restored_backup_stays_in_its_rangliste_and_series(evening, director):
    data = export_tournament(evening, backup=False)  # (a backup's entry links are still the original's)
    notes: list[str] = []
    copy = import_tournament(data, director=director, slug="januar-kopie", notes=notes)
    assert notes == []
    assert copy.counts_for_rangliste and copy.series_id == evening.series_id
    assert export_tournament(copy, backup=False) == {**data, "slug": "januar-kopie"}  # the round trip keeps both


def test_the_series_is_found_by_name_when_its_short_name_differs(evening, director):
    data = {**export_tournament(evening, backup=False), "series": {"name": "Monatsturniere 2026", "slug": "alt"}}
    assert import_tournament(data, director=director, slug="b").series_id == evening.series_id
    data["series"] = {"name": "Monatsturniere 2026"}  # the short name is optional
    assert import_tournament(data, director=director, slug="c").series_id == evening.series_id


def test_a_series_the_importer_does_not_direct_is_said_and_left_out(evening):
    other = make_director("gast", organisation=evening.organisation)
    notes: list[str] = []
    copy = import_tournament(export_tournament(evening), director=other, slug="fremd", notes=notes,
                             organisation=evening.organisation)
    assert copy.series_id is None and copy.counts_for_rangliste
    assert notes == ["Die Serie „Monatsturniere 2026“ leiten Sie nicht: das Turnier ist ohne Serie eingespielt. Wer "
                     "die Serie leitet, kann es auf ihrer Seite hinzufügen."]


def test_a_series_missing_in_the_organisation_is_said_on_the_restore_page(client, evening, tmp_path):
    data = {**export_tournament(evening), "series": {"name": "Sommerserie", "slug": "sommer"}}
    upload = tmp_path / "sicherung.json"
    upload.write_text(json.dumps(data))
    client.force_login(evening.directors.get())
    with upload.open("rb") as handle:
        response = client.post(reverse("tournament:restore_backup"), {"file": handle, "slug": "kopie"}, follow=True)
    page = response.content.decode()
    assert "„" + evening.name + "“ ist eingespielt." in page
    assert "Die Serie „Sommerserie“ gibt es in dieser Organisation nicht: das Turnier ist ohne Serie eingespielt." \
        in page
    assert Tournament.objects.get(slug="kopie").series_id is None


def test_the_command_joins_the_series_or_says_why_not(evening, tmp_path):
    path = tmp_path / "januar.json"
    path.write_text(json.dumps(export_tournament(evening)))
    out, err = io.StringIO(), io.StringIO()
    call_command("import_tournament", str(path), "--slug", "per-befehl", stdout=out, stderr=err)
    assert Tournament.objects.get(slug="per-befehl").series_id == evening.series_id and err.getvalue() == ""
    path.write_text(json.dumps({**export_tournament(evening), "series": {"name": "Gibt es nicht"}}))
    call_command("import_tournament", str(path), "--slug", "ohne-serie", stdout=out, stderr=err)
    assert "Die Serie „Gibt es nicht“ gibt es in dieser Organisation nicht" in err.getvalue()


def test_older_files_without_the_keys_still_import(evening, director):
    data = export_tournament(evening)
    del data["counts_for_rangliste"], data["series"]
    copy = import_tournament(data, director=director, slug="alt")
    assert not copy.counts_for_rangliste and copy.series_id is None


@pytest.mark.parametrize(("series", "problem"), [
    ("Monatsturniere", "series: muss ein Objekt mit dem Namen der Serie sein"),
    ({"slug": "x"}, "name"),
    ({"name": "X", "farbe": "rot"}, "farbe"),
])
def test_a_wrong_series_key_is_a_problem(evening, director, series, problem):
    with pytest.raises(ImportProblems) as raised:
        import_tournament({**export_tournament(evening), "series": series}, director=director, slug="falsch")
    assert any(problem in line for line in raised.value.lines)
