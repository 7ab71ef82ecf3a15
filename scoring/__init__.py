"""The Doppelkopf rulebook as code: pure Python, no Django.

- `presets`: the rulesets as data (`PRESETS`, `rules_from`)
- `game`: one game in, winner, value, scores and breakdown out (`score_game`)
- `sheet`: a table's games in order with Nullspiel, Bock, penalties and totals (`score_sheet`)
- `validate`: what an entry may hold (`parse_game`, `parse_sheet`, `InvalidInput`)
- `ranking`: ranking a tournament by table points or by the average per round
- `teams`: team and club standings from the members' results (docs/competitions.md)
- `league`: league match days, the league table over them, and a team cup group
- `rangliste`: a ranking list across tournaments (Rangliste)
- `prizes`: a prize list: places overall and the best of each category
- `places`: places from a ranking key, shared where the keys are equal
- `tie_break`: why a row level with the one above stands where it stands (one for teams, league, cup, Rangliste)
- `rating`: a player's rating (Wertungszahl) from every game, with openskill (docs/rating.md)
- `rating_sim`: `python -m scoring.rating_sim`, the rating against the Rundenschnitt on synthetic players
- `rating_forecast`: a table's expected result before a round (each player's share of games won) from the ratings
- `vocabulary`: the game's words and the engine's messages, in English and German
- `__main__`: `python -m scoring`, the command line of ../shared/scoring-contract.md
"""

from .game import Game, GameResult, score_game
from .presets import DEFAULT_PRESET, PRESETS, Rules, rules_from, rules_spec
from .sheet import Penalty, Sheet, SheetResult, score_sheet
from .validate import InvalidInput, Problem, parse_game, parse_rules, parse_sheet

__all__ = [
    "DEFAULT_PRESET", "PRESETS", "Game", "GameResult", "InvalidInput", "Penalty", "Problem", "Rules",
    "Sheet", "SheetResult", "parse_game", "parse_rules", "parse_sheet", "rules_from", "rules_spec",
    "score_game", "score_sheet",
]
