"""`manage.py` commands of the app, one module per command in `commands/`:

- `load_demo`: the demo director and tournament (run by `make run`)
- `create_organisation`: an organisation (a club or an association) and its organiser
- `generate_tournament`: a tournament full of random valid games, for demos and benchmarks
- `generate_association`: a generated association for the hub (clubs, people, years of tournaments; docs/hub.md)
- `import_tournament`, `export_tournament`: a tournament from a file, and as a file
- `check_file`: checks a tournament file against the exchange format without importing it
- `recompute_scores`: rebuilds the score cache of one tournament or all
- `standings`: a tournament's standings as JSON, CSV or text
- `seating_plan`: a seating schedule without a tournament
- `player_data`: a person's data on request (printed or erased)
- `publish`: the venue's sender of published tournaments to their hub (docs/publishing.md)
- `erase_contacts`: erases the registrations' contact data after the retention period
"""
