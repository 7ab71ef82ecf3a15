"""`python -m scoring` as ../shared/scoring-contract.md describes it, run as a separate process."""

import json
import subprocess
import sys
from pathlib import Path

from .helpers import game_data

ROOT = Path(__file__).resolve().parents[2]


def run(*args, stdin=None):
    return subprocess.run([sys.executable, "-m", "scoring", *args], input=stdin, capture_output=True,
                          text=True, cwd=ROOT, timeout=60)


def test_one_game_from_standard_input():
    game = {"rules": "turnier", **game_data(re_says="re", re_augen=139, re_extras={"doppelkopf": 1})}
    done = run(stdin=json.dumps(game))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout) == {
        "winner": "re", "value": 3, "scores": {"A": 3, "B": 3, "C": -3, "D": -3},
        "breakdown": [["keine 120", 1], ["Re angesagt", "x2"], ["Doppelkopf (Re)", 1]]}


def test_rules_option_wins_over_the_input(tmp_path):
    path = tmp_path / "game.json"
    path.write_text(json.dumps({"rules": "turnier", **game_data(re_says="keine90", re_augen=130)}))
    done = run("--rules", "ddv", str(path))
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["scores"] == {"A": -5, "B": -5, "C": 5, "D": 5}


def test_list_of_games_scored_each_on_its_own():
    nullspiel = game_data(type="stille_hochzeit", re=("A",), kontra_says="kontra", re_augen=118,
                          re_extras={"fuchs": 2, "doppelkopf": 1, "karlchen": 1})
    done = run(stdin=json.dumps([nullspiel, game_data(re_augen=130)]))
    assert done.returncode == 0, done.stderr
    assert [g["value"] for g in json.loads(done.stdout)] == [0, 1]  # no doubling carries over


def test_sheet_with_penalty_and_totals():
    sheet = {"rules": "turnier", "players": ["A", "B", "C", "D", "E"], "rows": [
        game_data(players=["B", "C", "D", "E"], re=("B", "C"), re_augen=130),
        {"penalty": "B", "players": ["A", "B", "C", "D"]}]}
    done = run(stdin=json.dumps(sheet))
    assert done.returncode == 0, done.stderr
    output = json.loads(done.stdout)
    assert output["games"][0]["multiplier"] == 1
    assert output["games"][1] == {"penalty": "B", "scores": {"A": 2, "B": -6, "C": 2, "D": 2}}
    assert output["totals"] == {"A": 2, "B": -5, "C": 3, "D": 1, "E": -1}


def test_list_rules_prints_each_preset_id_then_its_title():
    done = run("--list-rules")
    assert done.returncode == 0
    lines = done.stdout.splitlines()
    assert [line.split("\t")[0] for line in lines] == ["turnier", "ddv", "spin", "spin-haus", "40karten", "standard"]
    assert all(len(line.split("\t")) == 2 and line.split("\t")[1] for line in lines)


def test_bad_game_exits_2_with_one_line_per_problem():
    done = run(stdin=json.dumps(game_data(re_augen=250, re=("A", "Zoe"))))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == ["re: “Zoe” is not one of the players",
                                        "re_augen: must be between 0 and 240, got 250"]
    assert "Traceback" not in done.stderr


def test_bad_games_in_a_list_are_reported_with_their_index():
    done = run(stdin=json.dumps([game_data(re_augen=130), game_data(re_augen=130, re_says="kontra"), 7]))
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.splitlines() == [
        "[1] announcements.re: “Kontra” is not an announcement of Re; Re can announce: Re, no 90, no 60, no 30, "
        "schwarz",
        "[2] game: must be a JSON object"]


def test_not_json_unknown_rules_and_missing_file():
    done = run(stdin="{not json")
    assert done.returncode == 2 and done.stderr.startswith("input: not valid JSON:")
    assert len(done.stderr.splitlines()) == 1
    done = run("--rules", "skat", stdin=json.dumps(game_data(re_augen=130)))
    assert done.returncode == 2
    assert done.stderr.splitlines() == [
        "rules: unknown preset “skat”; known: turnier, ddv, spin, spin-haus, 40karten, standard"]
    done = run("/nonexistent/game.json")
    assert done.returncode == 2 and done.stderr.startswith("input: cannot read /nonexistent/game.json")
    assert "Traceback" not in done.stderr


def test_german_error_messages_on_request():
    done = run("--lang", "de", stdin=json.dumps(game_data(re_augen=250)))
    assert done.returncode == 2
    assert done.stderr.splitlines() == ["re_augen: muss zwischen 0 und 240 liegen, nicht 250"]


def test_every_worked_example_through_the_command_line():
    """The 11 examples of seed 003 and the 7 of ddv, as one list per preset."""
    turnier = [
        (game_data(re_says="keine60", re_augen=240, re_tricks=12), 14),
        (game_data(re_says="keine60", kontra_says="kontra", re_augen=177), -24),
        (game_data(re_says="keine90", re_augen=190, re_extras={"fuchs": 1, "doppelkopf": 1, "karlchen": 1}), 11),
        (game_data(re_says="re", re_augen=139, re_extras={"doppelkopf": 1}), 3),
        (game_data(re_says="keine60", re_augen=180, re_extras={"karlchen": 1}), -11),
        (game_data(re_says="re", kontra_says="kontra", re_augen=120), -8),
        (game_data(kontra_says="kontra", re_augen=77, kontra_extras={"karlchen": 1}, re_extras={"fuchs": 1}), -6),
        (game_data(re_says="re", kontra_says="keine90", re_augen=93), 12),
        (game_data(type="stille_hochzeit", re=("A",), kontra_says="kontra", re_augen=118,
                   re_extras={"fuchs": 2, "doppelkopf": 1, "karlchen": 1}), 0),
        (game_data(type="solo", solo="buben", re=("A",), re_says="keine90", re_augen=153), 18),
        (game_data(type="solo", solo="trumpf", re=("A",), re_says="re", kontra_says="kontra", re_augen=115), -24),
    ]
    ddv = [
        (game_data(re_says="keine90", re_augen=130), -5),
        (game_data(re_says="keine60", kontra_says="kontra", re_augen=170), -8),
        (game_data(re_says="keine60", kontra_says="keine60", re_augen=170), 3),
        (game_data(re_says="keine90", kontra_says="schwarz", re_augen=75), 0),
        (game_data(re_says="schwarz", kontra_says="schwarz", re_augen=57), -5),
        (game_data(kontra_says="kontra", re_augen=80), -5),
        (game_data(re_says="keine60", re_augen=130), -7),
    ]
    for preset, examples in (("turnier", turnier), ("ddv", ddv)):
        done = run("--rules", preset, stdin=json.dumps([game for game, _ in examples]))
        assert done.returncode == 0, done.stderr
        assert [r["scores"]["A"] for r in json.loads(done.stdout)] == [a for _, a in examples]
