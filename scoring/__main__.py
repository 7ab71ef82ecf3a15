"""python -m scoring [--rules PRESET] [--lang en|de] [FILE]   and   python -m scoring --list-rules

JSON in (a game, a list of games or a sheet), JSON out; see ../shared/scoring-contract.md.
Bad input: exit status 2, one line per problem on standard error, nothing on standard output.
"""

from __future__ import annotations

import argparse
import json
import re
import sys

from . import vocabulary
from .game import score_game
from .presets import PRESETS
from .sheet import score_sheet
from .validate import InvalidInput, Problem, parse_game, parse_rules, parse_sheet


def score_input(data, rules_override=None):
    """The output for one parsed JSON input; raises InvalidInput."""
    if isinstance(data, list):
        return score_games(data, rules_override)
    if isinstance(data, dict) and "rows" in data:
        return score_sheet(parse_sheet(data, rules_override=rules_override)).as_json()
    if isinstance(data, dict):
        return score_one(data, rules_override)
    raise InvalidInput([Problem("input", "input_type")])


def score_one(data: dict, rules_override, where: str = "") -> dict:
    rules = parse_rules(rules_override if rules_override is not None else data.get("rules"), where=where)
    return score_game(parse_game(data, rules, where=where), rules).as_json()


def score_games(items: list, rules_override) -> list:
    results, problems = [], []
    for index, item in enumerate(items):
        try:
            if not isinstance(item, dict):
                raise InvalidInput([Problem("game", "not_object", {}, f"[{index}] ")])
            results.append(score_one(item, rules_override, where=f"[{index}] "))
        except InvalidInput as error:
            problems += error.problems
    if problems:
        raise InvalidInput(problems)
    return results


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m scoring", description="Doppelkopf scores: JSON in, JSON out.")
    parser.add_argument("file", nargs="?", help="a JSON file; standard input when left out")
    parser.add_argument("--rules", help="preset id; wins over the input's rules")
    parser.add_argument("--list-rules", action="store_true", help="list the presets: id, then title")
    parser.add_argument("--lang", choices=("en", "de"), default="en", help="language of error messages")
    args = parser.parse_args(argv)

    if args.list_rules:
        for rules in PRESETS.values():
            print(f"{rules.id}\t{rules.title}")
        return 0
    try:
        if args.file:
            with open(args.file, encoding="utf-8") as handle:
                text = handle.read()
        else:
            text = sys.stdin.read()
    except OSError as error:
        print(f"input: {vocabulary.text('cannot_read', {'path': args.file, 'error': error.strerror}, args.lang)}",
              file=sys.stderr)
        return 2
    try:
        data = json.loads(text)
    except json.JSONDecodeError as error:
        print(f"input: {vocabulary.text('invalid_json', {'error': error}, args.lang)}", file=sys.stderr)
        return 2
    try:
        output = score_input(data, args.rules)
    except InvalidInput as error:
        for problem in error.problems:
            print(problem.line(args.lang), file=sys.stderr)
        return 2
    print(to_json(output))
    return 0


def to_json(output) -> str:
    """Indented JSON with each breakdown item on one line: ["Re angesagt", "x2"]."""
    text = json.dumps(output, ensure_ascii=False, indent=2)
    return re.sub(r'\[\s+("(?:[^"\\]|\\.)*"),\s+(-?\d+|"x\d+")\s+\]', r"[\1, \2]", text)


if __name__ == "__main__":
    sys.exit(main())
