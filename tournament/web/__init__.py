"""Web infrastructure around the pages (nothing here knows the rules of the game):

- `caching`: the tournament's change counter, cached standings and pages, ETags and 304s for polls
- `score_sums`: the scores summed per table, kept across changes and summed again only where a change was
- `login_lockout`: django-axes' handler (a stranger cannot lock the director out)
- `qrcodes`: the entry links' QR codes as SVG (segno)
- `charts`: the standings chart as SVG

The background jobs that build PDFs live with the printing (`tournament/printing/jobs.py`).
"""
