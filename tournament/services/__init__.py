"""Functions that write. Each takes keyword-only arguments, runs in one transaction, locks what it
changes through `locking` (the one locking helper), records the change (`log.audit.recording`) and
raises `tournament.errors.UserError` for anything a person should read.

One module per family of writes:
- `tournaments`: a tournament and its players: creating, settings and roles, registering, withdrawing
- `player_details`: what a player's edit page saves besides name and club: member number, publication
  level, categories
- `privacy`: a player's publication level (docs/privacy.md)
- `series`: a series of evenings: its settings, its evenings, merging two players who are one person
- `organisations`: creating an organisation; which one a new tournament, series or Rangliste is in
- `seating`: rounds: creating, drawing, swapping and moving, publishing, closing, hiding results
- `round_clock`: the round's clock
- `results`: a table's games (the path of a saved game is in its module doc)
- `penalties`: penalties at a table
- `sheet_state`: a sheet as a whole: totals only, signing and unlocking, ending a table early
- `editing`: what may be changed at a table, and its version; the one check of an entered game
  (`check_entry`, `check_in_order`) for the director's form, the phones and penalties
- `ratings`: the players' ratings, kept with the scores (docs/rating.md)
- `scores`: the stored scores, a cache of the engine's output
- `table_links`: the tables' entry links and what their phones send
- `checkin`: the public registration, the director's changes to it, the evening's check-in
- `waiting_list`: the registration's waiting list: how many may wait, moving it up
- `match_days`: a league's next match day from the last one (its teams, their members, the team options)
- `registration_links`: a player's private registration link: cancelling, self check-in
- `contacts`: erasing the registrations' contact data after the retention period
- `personal_data`: a person's data on request, and erasing it (GDPR)
- `teams`: a tournament's teams and its club ranking
- `rangliste`: a Rangliste across tournaments: creating one, its settings, member numbers
- `identities`: a club's director decides whether its guest is the same person as a record elsewhere
- `corrections`: a player asks for a correction of a tournament's result, its director answers
- `rangliste_refresh`: an association's Rangliste stored anew after a tournament arrives (a background task)
- `rangliste_ratings`: the rating carried across an association's Rangliste, stored with it by its refresh
- `exporting`: a whole tournament as one JSON document (the tournament file, also the backup)
- `file_checks`: checking a tournament file before anything is written
- `file_schema`: a file's version of the exchange format and its form against the JSON Schema, as
  problem lines
- `file_reading`: how a file is read: the plan to write, the problem lines, each value's form
- `file_references`: the references between a file's parts, table by table
- `file_teams`: what a file says about teams and categories
- `importing`: writing a checked file through the services
- `backups`: the tournament file on disk, by hand or whenever a round is closed
- `generate`: a tournament full of random valid games (demo, benchmarks)
- `association`: a generated association for the hub's benchmarks: clubs, people, years of tournaments
- `bulk`: inserting many rows from tuples (COPY on PostgreSQL, multi-row INSERTs elsewhere)
- `outbox`: publishing to a hub, the venue's side: starting and stopping, each change queued with it
- `publishing_keys`: the hub's publishing keys: issuing (shown once, kept hashed), revoking
- `hub_apply`: the hub taking a venue's batch: in order, in one transaction, refusing with a reason
- `hub_tables`: the hub writing one table of a published tournament through the services
- `hub_corrections`: what a published entry corrected (games and penalties that were public)
- `hub_idempotency`: a batch's Idempotency-Key: the stored answer, 409 and 422
- `locking`: the one locking helper: row locks in a fixed order
"""
