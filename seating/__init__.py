"""Who sits where, and who deals: pure Python, no Django (the second engine beside `scoring`).

- `sizes`: n players at tables of 4 and 5 (`table_sizes`, `SeatingImpossible`)
- `history`: what earlier rounds left (`History`), a seating with its counts (`Draw`)
- `bounds`: how few repeat meetings any seating or schedule can have
- `draw`: one round's draw, at random with few repeats (following a plan) or by standings
- `round_draw`: the seeded local search behind a round-by-round draw
- `schedules`: all planned rounds at once (`plan`), and who plays which part of it (`labelling`)
- `designs`: repeat-free schedules by construction
- `team_match`: a team match (league match day): one player of each team at every table
- `dealing`: who deals and sits out each game, and the list with Pflichtsoli
- `__main__`: `python -m seating --players N --rounds R [--json]`, the plan for N players and R rounds

The app (`tournament`) reads players and rounds from the database, calls these functions on
plain ids and stores what they return; the words a player reads are the app's.
"""

from .bounds import fewest_pairs, pigeonhole_bound
from .draw import draw_by_standings, draw_random
from .history import Draw, History, count_repeats, repeat_lower_bound
from .sizes import SeatingImpossible, table_sizes
from .team_match import TeamMatchImpossible, team_match_round

__all__ = [
    "Draw", "History", "SeatingImpossible", "count_repeats", "draw_by_standings", "draw_random",
    "TeamMatchImpossible", "fewest_pairs", "pigeonhole_bound", "repeat_lower_bound", "table_sizes",
    "team_match_round",
]
