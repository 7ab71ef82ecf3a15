"""Web infrastructure around the pages (nothing here knows the rules of the game):

- `cache_keys`: every key of the cache, what it holds and what moves it (the one list)
- `caching`: the tournament's change counters, cached pages and values, ETags and 304s for polls
- `front`: the front door before Django: a visitor's whole answer sent again while its counter stays
- `score_sums`: the scores summed per table, kept across changes and summed again only where a change was
- `rating_scopes`: the rating carried across a Rangliste's tournaments, kept per tournament in the cache
- `histories`: the standings of every round, once per change, brought up to date table by table
- `outside_writes`: writes outside the services (the admin, a shell) move the change counter too
- `warming`: a published round's visitor pages rendered by the background worker before the phones come
- `frames`: a visitor's page frame rendered once and filled in per page
- `database_cache`: the shared cache in the database, one statement a write (without Redis)
- `rate_limits`: the limits of the public forms and the table links
- `addresses`: the addresses a phone opens (DJANGO_SITE_URL, else the request's)
- `mail`: the registration's confirmation by e-mail, when the site has mail set up
- `login_lockout`: django-axes' handler (a stranger cannot lock the director out)
- `qrcodes`: the entry links' QR codes as SVG (segno)
- `charts`: the standings chart as SVG
- `publish_sender`: the venue's sender of published tournaments' outboxes to their hub (`manage.py publish`)

The background jobs that build PDFs live with the printing (`tournament/printing/jobs.py`).
"""
