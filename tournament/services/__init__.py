"""Functions that write. Each takes keyword-only arguments, runs in one transaction, locks what it
changes through `locking` (the one locking helper), records the change (`log.audit.recording`) and
raises `tournament.errors.UserError` for anything a person should read.

One module per family of writes:
- `tournaments`, `series`: a tournament and its players, settings and roles; a series of evenings
- `seating`, `round_clock`: rounds: drawing, swapping, publishing, closing; the round's clock
- `results`: a table's games (the path of a saved game is in its module doc)
- `penalties`, `sheet_state`: penalties; totals only, signing, ending a table early
- `editing`: what may be changed at a table, and its version; the one check of an entered game
  (`check_entry`, `check_in_order`) for the director's form, the phones and penalties
- `scores`: the stored scores, a cache of the engine's output
- `table_links`: the tables' entry links and what their phones send
- `importing`, `exporting`, `file_checks`, `backups`: the tournament file
- `generate`: a tournament full of random valid games (demo, benchmarks)
- `bulk`, `locking`: multi-row inserts; row locks in a fixed order
"""
