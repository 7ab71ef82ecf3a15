"""`manage.py seating_plan --players N --rounds R [--json]`: a schedule without a tournament (no
database)."""

import json
import subprocess
import sys
from collections import Counter
from io import StringIO
from itertools import combinations
from pathlib import Path

import pytest
from django.core.management import call_command
from django.core.management.base import CommandError

from seating import table_sizes

ROOT = Path(__file__).parents[3]


def run(*args):
    out = StringIO()
    call_command("seating_plan", *args, stdout=out)
    return out.getvalue()


def repeats(rounds):
    met = Counter(frozenset(pair) for tables in rounds for table in tables for pair in combinations(table, 2))
    return sum(k - 1 for k in met.values())


@pytest.mark.parametrize("players, rounds, expected", [(16, 5, 0), (20, 3, 0), (32, 10, 0), (13, 3, None),
                                                       (24, 6, 0), (24, 7, 0), (30, 6, 0)])
def test_json_schedule(players, rounds, expected):
    data = json.loads(run("--players", str(players), "--rounds", str(rounds), "--json"))
    assert list(data) == ["rounds", "repeats"]
    assert len(data["rounds"]) == rounds
    for tables in data["rounds"]:
        assert all(isinstance(p, int) for table in tables for p in table)
        assert sorted(p for table in tables for p in table) == list(range(1, players + 1))  # start numbers
        assert [len(table) for table in tables] == table_sizes(players)
    assert data["repeats"] == repeats(data["rounds"])
    if expected is not None:
        assert data["repeats"] == expected


def test_text_names_the_lower_bound():
    out = run("--players", "16", "--rounds", "6")
    assert out.startswith("Runde 1\n    1:")
    assert out.rstrip().endswith("Wiederbegegnungen: 24 (Untergrenze 24), wieder am 5er-Tisch: 0")


@pytest.mark.parametrize("args, message", [
    (["--players", "6", "--rounds", "3"],
     "6 Spieler lassen sich nicht an Tische zu 4 und 5 setzen: 2 Spieler mehr (8) oder 1 weniger (5)."),
    (["--players", "7", "--rounds", "3"],
     "7 Spieler lassen sich nicht an Tische zu 4 und 5 setzen: 1 Spieler mehr (8) oder 2 weniger (5)."),
    (["--players", "11", "--rounds", "3"],
     "11 Spieler lassen sich nicht an Tische zu 4 und 5 setzen: 1 Spieler mehr (12) oder 1 weniger (10)."),
    (["--players", "zwölf", "--rounds", "3"], "--players braucht eine ganze Zahl, nicht „zwölf“."),
    (["--players", "12", "--rounds", "0"], "--rounds muss zwischen 1 und 30 liegen."),
    (["--players", "12", "--rounds", "31"], "--rounds muss zwischen 1 und 30 liegen."),
])
def test_impossible_counts_and_bad_arguments(args, message):
    with pytest.raises(CommandError) as caught:
        run(*args)
    assert str(caught.value) == message and caught.value.returncode == 2


@pytest.mark.parametrize("args", [["--players", "7", "--rounds", "3"], ["--players", "x", "--rounds", "3"],
                                  ["--rounds", "3"], ["--players", "8", "--rounds", "2", "--unknown"]])
def test_the_command_line_exits_with_2_and_one_line(args):
    result = subprocess.run([sys.executable, "manage.py", "seating_plan", *args], cwd=ROOT, capture_output=True,
                            text=True)
    assert result.returncode == 2 and result.stdout == ""
    assert len(result.stderr.strip().splitlines()) == 1, result.stderr


def test_the_command_line_prints_json():
    result = subprocess.run([sys.executable, "manage.py", "seating_plan", "--players", "16", "--rounds", "5",
                             "--json"], cwd=ROOT, capture_output=True, text=True, check=True)
    assert json.loads(result.stdout)["repeats"] == 0
