"""The Django app: tournaments, rounds, tables, players, results (docs/architecture.md, "The house plan").

Its modules:

- `admin`: the site administrator's pages (organisations and their organisers);
- `apps`: the app's configuration (its name in the admin, the signals connected at start);
- `collation`: names in the German order (DIN 5007-1);
- `engine`: the one bridge between the stored games and the two engines (`scoring/`, `seating/`);
- `errors`: the errors a person reads (`UserError`, `Conflict`, `EntryProblems`) and where a problem is;
- `fileformat`: the pieces of the tournament file, made from the models (docs/tournament-file.md);
- `names`: a player's name, how it is written down and who it stands for;
- `privacy`: how much of a player the public sees (docs/privacy.md);
- `ranking`: how a tournament ranks its players, in words and as the order of the rows;
- `slugs`: the short names in addresses, made from a name;
- `spreadsheet`: every CSV the app writes, guarded against formulas;
- `urls`: the addresses of the app's pages (the phones' `/e/<token>/` pages and the API: `config/urls.py`);
- `validators`: rules on single values that the models hold;
- `vocabulary`: the game's words in the reader's language.

Its packages, each with its own list: `models`, `selectors` (reads), `services` (writes), `log` (the change
log), `web` (caching, polls, the front door), `views`, `forms`, `printing`, `api`, `templatetags`,
`management` (the commands); and `migrations` (Django's, no list).
"""
