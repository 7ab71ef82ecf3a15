"""The management commands: import/export of tournament files, standings, generating random
tournaments, rebuilding the score cache and the demo tournament."""

import copy
import csv
import json
import random
import subprocess
import sys
from io import StringIO
from pathlib import Path

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError

import scoring
from tournament.models import Game, Round, Score, Table, Tournament
from tournament.selectors import standings
from tournament.services import generate
from tournament.services.exporting import export_tournament
from tournament.services.importing import import_tournament

from ..transfer.test_transfer import CANONICAL

pytestmark = pytest.mark.django_db

ROOT = Path(__file__).parents[3]


def run(*args):
    out, err = StringIO(), StringIO()
    call_command(*args, stdout=out, stderr=err)
    return out.getvalue(), err.getvalue()


def write_json(path, data):
    path.write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")
    return path


def imported():
    return import_tournament(copy.deepcopy(CANONICAL))


# ---- import_tournament / export_tournament -------------------------------------------------------

def test_import_prints_the_slug(tmp_path):
    out, _err = run("import_tournament", str(write_json(tmp_path / "t.json", CANONICAL)))
    assert out == "herbstturnier-2026\n"
    assert Tournament.objects.get(slug="herbstturnier-2026").entries.count() == 9


def test_import_with_another_slug_makes_a_copy(tmp_path):
    path = write_json(tmp_path / "t.json", CANONICAL)
    run("import_tournament", str(path))
    out, _err = run("import_tournament", str(path), "--slug", "kopie")
    assert out == "kopie\n" and Tournament.objects.count() == 2


def test_import_of_a_bad_file_prints_each_problem_and_fails_with_status_2(tmp_path):
    data = copy.deepcopy(CANONICAL)
    data["rounds"][1]["tables"][1]["rows"][1]["re_augen"] = 250
    data["rounds"][1]["tables"][0]["players"][3] = "Zoe"
    err = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("import_tournament", str(write_json(tmp_path / "t.json", data)), stdout=StringIO(), stderr=err)
    assert error.value.returncode == 2
    assert err.getvalue().splitlines() == [
        'Runde 2, Tisch 1: players: "Zoe" steht nicht in der Spielerliste',
        "Runde 2, Tisch 2, Spiel 2: re_augen: muss zwischen 0 und 240 liegen, nicht 250"]
    assert not Tournament.objects.exists()


def test_import_command_exits_with_status_2_and_no_traceback_for_a_broken_file(tmp_path):
    path = tmp_path / "t.json"
    path.write_text('{"name": "Herbst", ', encoding="utf-8")
    done = subprocess.run([sys.executable, "manage.py", "import_tournament", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert "ist kein gültiges JSON" in done.stderr and "Traceback" not in done.stderr
    assert done.stdout == ""


def test_import_command_exits_with_status_2_and_one_line_for_a_file_nested_too_deeply(tmp_path):
    path = tmp_path / "t.json"
    path.write_text("[" * 100_000 + "]" * 100_000, encoding="utf-8")  # json.load: RecursionError
    done = subprocess.run([sys.executable, "manage.py", "import_tournament", str(path)], cwd=ROOT,
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 2
    assert done.stderr.splitlines() == [f"CommandError: {path} ist zu tief verschachtelt, um es als JSON zu lesen."]
    assert done.stdout == ""


def test_import_of_a_value_nested_as_deep_as_json_reads_is_not_a_crash(tmp_path):
    """Just below the recursion limit json.load still reads a nested value that the checks, a few
    calls deeper, cannot quote in their message (json.dumps): somewhere in this range of depths each
    of the two happens, and each is a one-line error with status 2, never a RecursionError."""
    text = json.dumps(CANONICAL, ensure_ascii=False)
    limit = sys.getrecursionlimit()
    messages = set()
    for depth in range(limit // 2, limit + 5):
        path = tmp_path / "t.json"
        path.write_text(text.replace('"Vereinsheim am Markt"', "[" * depth + "]" * depth), encoding="utf-8")
        with pytest.raises(CommandError) as error:
            run("import_tournament", str(path))
        assert error.value.returncode == 2 and "\n" not in str(error.value)
        messages.add(str(error.value).startswith("Nichts importiert") or str(error.value))
    assert messages == {True, f"{path} ist zu tief verschachtelt, um es als JSON zu lesen."}
    assert not Tournament.objects.exists()


def test_export_writes_the_tournament_as_json_to_stdout():
    tournament = imported()
    out, _err = run("export_tournament", tournament.slug)
    assert json.loads(out) == export_tournament(tournament)
    assert '\n  "name": "Herbstturnier",\n' in out  # indented by 2


def test_export_to_a_file_is_utf8_without_escapes(tmp_path):
    data = copy.deepcopy(CANONICAL)
    data["place"] = "Gaststätte Zur Börse"
    tournament = import_tournament(data)
    path = tmp_path / "out.json"
    out, _err = run("export_tournament", tournament.slug, "--output", str(path))
    assert out == ""
    text = path.read_text(encoding="utf-8")
    assert "Gaststätte Zur Börse" in text
    written = json.loads(text)
    assert written.pop("log")  # the change log comes along (its round trip: test_backups.py)
    for round_data in written["rounds"]:  # and the entry links of the tables of published rounds
        for table_data in round_data["tables"]:
            assert len(table_data.pop("link", "")) == 24 or round_data.get("status") == "draft"
    assert written == data


def test_export_of_an_unknown_slug_fails():
    with pytest.raises(CommandError, match="gibt es nicht"):
        run("export_tournament", "nirgendwo")


# ---- standings -----------------------------------------------------------------------------------

def test_standings_as_json_share_ranks_on_equal_points():
    out, _err = run("standings", imported().slug, "--format", "json")
    rows = json.loads(out)
    assert rows[:3] == [
        {"rank": 1, "player": "Emil", "points": 12, "games": 8, "won": 0},
        {"rank": 2, "player": "Bernd", "points": 7, "games": 4, "won": 2},
        {"rank": 2, "player": "Dieter", "points": 7, "games": 5, "won": 3},
    ]
    assert rows[3]["rank"] == 4 and len(rows) == 9


def test_standings_as_csv_have_a_header_row():
    out, _err = run("standings", imported().slug, "--format", "csv")
    lines = list(csv.reader(StringIO(out)))
    assert lines[0] == ["rank", "player", "points", "games", "won"]
    assert lines[1:4] == [["1", "Emil", "12", "8", "0"], ["2", "Bernd", "7", "4", "2"], ["2", "Dieter", "7", "5", "3"]]
    assert len(lines) == 10


def test_standings_as_text_are_an_aligned_table():
    out, _err = run("standings", imported().slug)
    lines = out.splitlines()
    assert lines[0].split() == ["Platz", "Spieler", "Punkte", "Spiele", "gewonnen"]
    assert lines[2].split() == ["2.", "Bernd", "7", "4", "2"] and lines[3].split() == ["2.", "Dieter", "7", "5", "3"]
    assert len({len(line) for line in lines}) == 1  # numbers right-aligned to the same width
    assert len({line.index(name) for line, name in zip(lines[1:4], ("Emil", "Bernd", "Dieter"), strict=True)}) == 1


def test_standings_after_a_round():
    out, _err = run("standings", imported().slug, "--round", "1", "--format", "json")
    rows = {row["player"]: row for row in json.loads(out)}
    assert rows["Hanna"]["points"] == 2 and rows["Hanna"]["games"] == 8
    assert rows["Ida"]["games"] == 0


# ---- generate_tournament -------------------------------------------------------------------------

def test_generate_fills_every_table_with_its_games_and_sums_to_zero():
    out, _err = run("generate_tournament", "--players", "13", "--rounds", "2", "--seed", "7", "--slug", "zufall")
    assert out == "zufall\n"
    tournament = Tournament.objects.get(slug="zufall")
    assert tournament.entries.count() == 13
    assert list(tournament.rounds.values_list("number", "status")) == [(1, "published"), (2, "published")]
    tables = Table.objects.filter(round__tournament=tournament).prefetch_related("seats", "games")
    assert sorted((t.seats.count(), t.games.count()) for t in tables) == [(4, 8)] * 4 + [(5, 10)] * 2
    rows = standings(tournament)
    assert sum(row.points for row in rows) == 0
    assert sum(row.games for row in rows) == 4 * 8 * 4 + 2 * 10 * 4


def test_generate_is_reproducible_from_the_seed():
    run("generate_tournament", "--players", "9", "--rounds", "2", "--seed", "abc", "--slug", "eins")
    run("generate_tournament", "--players", "9", "--rounds", "2", "--seed", "abc", "--slug", "zwei")
    run("generate_tournament", "--players", "9", "--rounds", "2", "--seed", "abd", "--slug", "drei")
    one, two, three = (export_tournament(Tournament.objects.get(slug=s), backup=False)
                       for s in ("eins", "zwei", "drei"))
    assert one["rounds"] == two["rounds"] and one["players"] == two["players"]
    assert one["rounds"] != three["rounds"]


def test_generate_makes_several_kinds_of_games_and_some_penalties():
    tournament = generate.generate_tournament(players=40, rounds=3, seed="vielfalt")
    types = set(Game.objects.filter(table__round__tournament=tournament).values_list("type", flat=True))
    assert types == {"normal", "hochzeit", "armut", "stille_hochzeit", "solo"}
    assert Game.objects.filter(table__round__tournament=tournament).exclude(announce_re="").exists()
    assert Game.objects.filter(table__round__tournament=tournament).exclude(extras={}).exists()
    assert Score.objects.filter(round__tournament=tournament, kind=Score.Kind.PENALTY).exists()


@pytest.mark.parametrize("preset", list(scoring.PRESETS))
def test_random_games_are_valid_under_every_preset(preset):
    rules = scoring.PRESETS[preset]
    rng = random.Random(preset)
    games = [generate.random_game(rng, rules, ["a", "b", "c", "d"]) for _ in range(3000)]
    sheet = scoring.parse_sheet({"rules": preset, "players": ["a", "b", "c", "d"], "rows": games})
    assert sum(scoring.score_sheet(sheet).totals.values()) == 0


def test_generate_with_other_rules():
    out, _err = run("generate_tournament", "--players", "8", "--rounds", "1", "--seed", "1", "--rules", "40karten")
    assert Tournament.objects.get(slug=out.strip()).rules == "40karten"


def test_generate_refuses_a_player_count_that_cannot_be_seated():
    with pytest.raises(CommandError):
        run("generate_tournament", "--players", "7", "--rounds", "1")
    assert not Tournament.objects.exists()


def test_generated_names_are_distinct_and_german_looking():
    names = generate.german_names(500, random.Random(1))
    assert len(set(names)) == 500
    assert all(name.split()[0] in generate.FIRST_NAMES and name.split()[1] in generate.LAST_NAMES for name in names)


# ---- recompute_scores ----------------------------------------------------------------------------

def test_recompute_scores_rebuilds_the_cache_of_one_tournament():
    tournament = imported()
    other = generate.generate_tournament(players=8, rounds=1, seed="x")
    before = [(row.name, row.points, row.games) for row in standings(tournament)]
    Score.objects.filter(kind=Score.Kind.GAME).delete()
    out, _err = run("recompute_scores", tournament.slug)
    assert out == "4 Tische neu berechnet.\n"
    assert [(row.name, row.points, row.games) for row in standings(tournament)] == before
    assert not Score.objects.filter(round__tournament=other).exists()


def test_recompute_scores_without_slug_rebuilds_every_tournament():
    imported()
    other = generate.generate_tournament(players=8, rounds=1, seed="x")
    Score.objects.all().delete()
    out, _err = run("recompute_scores")
    assert out == "6 Tische neu berechnet.\n"
    assert sum(row.games for row in standings(other)) == 2 * 8 * 4


def test_recompute_scores_rates_the_games_anew():
    """After a change of the rating's model the stored ratings are the old model's until rated again."""
    from scoring import rating
    from tournament.models import Rating

    tournament = generate.generate_tournament(players=8, rounds=2, seed="x")
    expected = {row.entry_id: (row.mu, row.sigma) for row in Rating.objects.filter(tournament=tournament)}
    assert expected
    Rating.objects.filter(tournament=tournament).update(mu=rating.MU, sigma=rating.SIGMA)  # as an old model left them
    run("recompute_scores", tournament.slug)
    after = {row.entry_id: (row.mu, row.sigma) for row in Rating.objects.filter(tournament=tournament)}
    assert after == expected


def test_recompute_scores_marks_the_tournament_changed(client):
    """Readers get the recomputed standings, not the cached ones: the command counts the tournament up."""
    from django.urls import reverse

    tournament = imported()
    url = reverse("tournament:standings_json", args=[tournament.slug])
    before = client.get(url).json()
    # a repair straight in the database (no service, no signal): a game whose Augen were wrong
    game = next(g for g in Game.objects.filter(table__round__tournament=tournament, re_tricks=None,
                                                announce_re="", announce_kontra="", type="normal")
                if g.re_augen > 120)
    Game.objects.filter(pk=game.pk).update(re_augen=240 - game.re_augen)
    assert client.get(url).json() == before  # still the cached standings: nothing told the pages
    run("recompute_scores", tournament.slug)
    after = client.get(url).json()
    assert after != before


# ---- load_demo -----------------------------------------------------------------------------------

def test_load_demo_creates_the_demo_tournament_and_prints_its_url():
    out, _err = run("load_demo")
    tournament = Tournament.objects.get(slug="demo-doko-abend")  # (the others: the demo Rangliste's)
    assert f"http://127.0.0.1:8000/t/{tournament.slug}/" in out
    assert list(tournament.directors.values_list("username", flat=True)) == ["turnierleitung"]
    assert tournament.entries.count() == 13
    first, second = tournament.rounds.order_by("number")
    assert sorted(t.seats.count() for t in first.tables.all()) == [4, 4, 5]
    assert all(t.games.count() == tournament.games_at_table(t.seats.count()) for t in first.tables.all())
    assert Score.objects.filter(round=first, kind=Score.Kind.PENALTY).exists()
    assert second.status == Round.Status.PUBLISHED
    assert 0 < Game.objects.filter(table__round=second).count() < 8
    assert sum(row.points for row in standings(tournament)) == 0


def test_load_demo_twice_leaves_the_demo_tournament_as_it_is():
    run("load_demo")
    tournament = Tournament.objects.get(slug="demo-doko-abend")
    exported = export_tournament(tournament)
    run("load_demo")
    # the demo evening, the demo Rangliste's three tournaments, the league's two match days
    assert Tournament.objects.count() == 6
    assert export_tournament(Tournament.objects.get(slug="demo-doko-abend")) == exported
    assert get_user_model().objects.count() == 1


def test_import_of_a_name_written_with_extra_spaces_is_clean(tmp_path):
    """A KeyError traceback (exit 1) before; the name is stored cleaned, the file's own
    spelling still finds its player at the tables."""
    data = json.loads(json.dumps(CANONICAL).replace('"Anna"', '"  Anna   Alt "'))
    out, err = run("import_tournament", str(write_json(tmp_path / "t.json", data)))
    assert out == "herbstturnier-2026\n" and err == ""
    tournament = Tournament.objects.get(slug="herbstturnier-2026")
    assert tournament.entries.get(start_number=1).player.name == "Anna Alt"
    data["players"].append({"name": "anna alt", "club": "DK  Nord"})
    err = StringIO()
    with pytest.raises(CommandError) as error:
        call_command("import_tournament", str(write_json(tmp_path / "t.json", data)), "--slug", "zwei",
                     stdout=StringIO(), stderr=err)
    assert error.value.returncode == 2
    assert err.getvalue().splitlines() == ["Spieler 10: Anna Alt (DK Nord) steht zweimal in der Spielerliste."]
