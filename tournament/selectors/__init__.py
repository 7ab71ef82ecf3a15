"""Functions that read: what a page needs, in a fixed number of queries whatever the size.

One module per family of pages; import from the package (`from tournament import selectors`), except the
modules from `table_state` on, which are imported as modules (`from tournament.selectors import teams`):
- `access`: a user's role in a tournament or a series, and the organisations a user acts for
- `standings`: the standings and the places round by round
- `missing`: what is still missing before a round can close
- `rounds`: a round's tables, a player's current seat and the pairs who meet again
- `sheets`: a table's sheet with every game's scores and breakdown
- `players`: a player's tournament
- `overview`: a tournament at a glance
- `series`: a series' standings over its evenings
- `table_state`: what a table's phones and the director's live board read
- `checkin`: the public and the director's list of registrations, the evening's check-in list
- `projector`: the projector page: the newest round's seating by name, and the standings
- `teams`: team and club standings, from the standings' rows
- `league`: a match day's Siegpunkte, a team cup group and a league over a series' match days
- `season`: a season across clubs: its cup over the rounds clubs publish, and what its cached part depends on
- `prizes`: a tournament's prize list and its players' categories
- `rangliste`: a Rangliste across tournaments: each player's rounds, recognised across tournaments
- `association_rangliste`: an association's Rangliste as stored: its page, a player's line, the tracker
- `publishing`: the venue's publishing state, the hub's keys of an organisation, the hub's corrections
- `ratings`: the players' ratings now and one player's course (docs/rating.md)
- `calendar`: every organisation's public tournaments by kind and stage, the hub's start page and months
- `hub_search`: the hub's search for tournaments, clubs and players, folded the German way
- `identities`: who is the same person across clubs (member number, a director's confirmation)
- `people`: a person's page across clubs, the suggestions for an organisation's guests, correction requests
- `written_sql`: the only reads written out as SQL (the change counters every poll reads, a player's
  record), each with the bound the ORM missed
"""

from .access import is_director, is_organiser, is_series_director, organisations_of, role_of, tournaments_to_add
from .missing import MissingResults, TableResults, missing_results
from .overview import Overview, RoundSummary, tournament_overview
from .players import PlayerLine, PlayerRecord, PlayerRound, player_record
from .rounds import RepeatPair, SeatedTable, current_seats, game_points, repeat_pairs, round_tables, seated_entries
from .series import (
    SeriesCell,
    SeriesEvening,
    SeriesRow,
    SeriesStandings,
    identity_key,
    person_text,
    rank_series_rows,
    resolve,
    series_standings,
)
from .sheets import SheetLine, TableSheet, round_progress, table_sheet, table_sheets
from .standings import (
    ScoreSum,
    StandingRow,
    StandingsHistory,
    rank_rows,
    row_values,
    rows_from,
    score_sums,
    standings,
    standings_history,
)

__all__ = [
    "MissingResults",
    "Overview",
    "PlayerLine",
    "PlayerRecord",
    "PlayerRound",
    "RepeatPair",
    "RoundSummary",
    "SeatedTable",
    "SeriesCell",
    "SeriesEvening",
    "SeriesRow",
    "SeriesStandings",
    "SheetLine",
    "StandingRow",
    "StandingsHistory",
    "ScoreSum",
    "TableResults",
    "TableSheet",
    "current_seats",
    "game_points",
    "identity_key",
    "is_director",
    "is_organiser",
    "is_series_director",
    "organisations_of",
    "missing_results",
    "person_text",
    "player_record",
    "rank_rows",
    "row_values",
    "rows_from",
    "rank_series_rows",
    "score_sums",
    "repeat_pairs",
    "resolve",
    "role_of",
    "round_progress",
    "round_tables",
    "seated_entries",
    "series_standings",
    "standings",
    "standings_history",
    "table_sheet",
    "table_sheets",
    "tournament_overview",
    "tournaments_to_add",
]
