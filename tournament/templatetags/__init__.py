"""Template tags and filters (`{% load doko polling %}`):

- `doko`: the filters that word a game for people (type, announcements, Sonderpunkte, breakdown,
  amounts and totals, who did it) and the round clock's tag
- `polling`: `{% data_version %}`, what a page's `{% cache %}` part depends on (the change counter,
  the language, the release)
"""
