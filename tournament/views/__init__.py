"""Thin views: parse the request, call one selector or service, render. One module per family of pages:

- `access`: who may see and change what: the roles and the decorators that check them
- `home`: the start page: what the reader may open (on a hub: every club's tournaments, `calendar`)
- `calendar`: the hub's start page lists, the calendar by month and the search across every organisation
- `people`: a person's page across clubs with the correction form, an organisation's guests to match,
  a tournament's correction requests
- `tournaments`: creating a tournament, its overview (the director's dashboard), its settings and directors
- `players`: the player list: registering, withdrawing and returning; every player's categories at once
- `checkin`: the public registration page, the director's list of registrations, the evening's check-in
- `registration_links`: the confirmation page of a private link, cancelling, self check-in, the venue's check-in QR page
- `rounds`: a round's seating: creating the round, the draw, swaps and moves, publishing and closing
- `round_clock`: starting and stopping a round's clock
- `tables`: a table's score sheet and everything entered on it: games, penalties, totals, signing
- `table_link`: a table's entry link (`/e/<token>/`): the page the phones open and the JSON it talks to
- `board`: the director's live board of a round, and the tables' entry links with their QR codes
- `standings`: the standings as a page that updates itself, as CSV and as JSON
- `public`: a player's page on their phone, updating itself like the standings
- `player_rows`: the rows of a player's games on their page, written in Python
- `seat_notice`: telling a player where they sit, with each poll of the phone that marked them
- `projector`: the projector page (Beamer): the new round's seating, then the standings
- `teams`: the director's teams page and the public team standings
- `prizes`: the prize list, on a page and as PDF
- `series`: a series of tournaments: its standings and the director's pages to set it up
- `rangliste`: a Rangliste across tournaments: the public page, a player's history, the exports, its setup
- `printing`: the director's PDF printouts: score sheets, seating plan, standings
- `spreadsheet`: CSV downloads for spreadsheets, every cell guarded against formulas
- `backups`: downloading the tournament file; restoring one as a new tournament
- `organisations`: an organisation's own settings for its organisers (the rating switched on or off)
- `publishing`: the director's "Online veröffentlichen" (venue), an organisation's publishing keys (hub)
- `publishing_api`: the hub's endpoint for the venues' batches (`/api/publish/v1/batch`)
- `log`: the change log (Protokoll) of a tournament
- `help`: the help page (`/hilfe/`)
- `errors`: every error page in the site's frame and the reader's language
- `query_string`: numbers, days and moments read from a page's query string
"""
