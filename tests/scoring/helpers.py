"""Small factories for scoring tests: a game in the contract's JSON form, scored."""

from scoring import parse_game, parse_sheet, rules_from, score_game, score_sheet

PLAYERS = ["A", "B", "C", "D"]


def game_data(*, re=("A", "B"), re_augen, type="normal", solo=None, re_tricks=None,
              re_says=None, kontra_says=None, re_extras=None, kontra_extras=None, players=PLAYERS):
    data = {
        "players": list(players),
        "type": type,
        "re": list(re),
        "re_augen": re_augen,
        "announcements": {"re": re_says, "kontra": kontra_says},
        "extras": {"re": re_extras or {}, "kontra": kontra_extras or {}},
    }
    if solo:
        data["solo"] = solo
    if re_tricks is not None:
        data["re_tricks"] = re_tricks
    return data


def score(preset="turnier", **kwargs):
    rules = rules_from(preset)
    return score_game(parse_game(game_data(**kwargs), rules), rules)


def sheet(preset, players, rows):
    return score_sheet(parse_sheet({"rules": preset, "players": players, "rows": rows}))
