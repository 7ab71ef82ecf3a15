"""Forms: what a page accepts, checked and worded for the reader; the view hands the cleaned data to a
service, which writes. One module per family of pages:

- `common`: the fields every form that changes something carries: the version it was loaded from, a
  one-time key; the organisation and choice fields
- `tournaments`: creating a tournament and changing its settings
- `players`: registering players, one at a time or many lines at once
- `checkin`: registration on the public page, the director's registration settings, the check-in's walk-in
- `rounds`: a round's seating: the draw, swapping two players, moving a player to another table
- `games`: the game form, in the order a paper sheet is read out
- `phone`: what a phone sends through a table's entry link (JSON), put into the services' shapes
- `teams`: a team's name and members, and the tournament's team options
- `series`: a series' settings, the evenings to add and the players to merge
- `rangliste`: a Rangliste's settings
- `calendar`: the hub's calendar filters and search (GET)
- `people`: a player's correction request on their page across clubs, a director's answer
"""
