"""`python -m seating`: the plan for N players and R rounds on the command line."""

import json
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def run(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "seating", *args], cwd=ROOT, capture_output=True, text=True,
                          timeout=120)


def test_the_plan_as_json_seats_everybody_each_round():
    done = run("--players", "24", "--rounds", "7", "--json")
    assert done.returncode == 0, done.stderr
    plan = json.loads(done.stdout)
    assert plan["repeats"] == plan["lower_bound"] == 0
    assert len(plan["rounds"]) == 7
    for row in plan["rounds"]:
        assert sorted(p for table in row for p in table) == list(range(1, 25))


def test_the_plan_as_text_ends_with_its_repeats():
    done = run("--players", "9", "--rounds", "2")
    assert done.returncode == 0, done.stderr
    assert done.stdout.startswith("Round 1\n")
    assert "Repeat meetings:" in done.stdout.splitlines()[-1]


def test_an_impossible_count_is_one_line_and_exit_status_2():
    done = run("--players", "7", "--rounds", "2")
    assert (done.returncode, done.stdout) == (2, "")
    assert done.stderr.strip() == "7 players cannot be seated at tables of 4 and 5: add 1 player (8) or remove 2 (5)."
    assert run("--players", "8", "--rounds", "0").returncode == 2
