"""Errors a person should read: raised by services, shown by views next to the field or on top.

Everything else that goes wrong is a bug and is not caught on the way to the user.
"""

from __future__ import annotations

from typing import Any

from django.utils.translation import get_language
from django.utils.translation import gettext as _

from scoring import vocabulary as words


def language() -> str:
    """The language of the request being answered, as the engine and the draw name it: "de" or "en"."""
    return "en" if (get_language() or "de").startswith("en") else "de"


class UserError(Exception):
    """Something the user asked for cannot be done; `message` says why, in the user's language."""

    def __init__(self, message, *, field: str | None = None):
        self.message = message
        self.field = field
        super().__init__(str(message))


class EntryProblems(UserError):
    """A game or penalty the scoring engine rejected: one line per problem, each naming its field."""

    def __init__(self, problems, *, where: str = ""):
        self.problems = problems  # scoring.Problem values
        self.where = where
        super().__init__("\n".join(self.lines()))

    def lines(self, lang: str | None = None) -> list[str]:
        """Each problem where no field shows it: "Runde 1, Tisch 2, Spiel 3: Augen von Re: Muss …"."""
        lang = lang or language()
        return [f"{self.where}{words.field_words(p.field, lang)}: {p.sentence(lang)}" for p in self.problems]

    def by_field(self, lang: str | None = None) -> dict[str, list[str]]:
        """The problems as sentences, by the engine's field they concern (a form puts each next to
        its own field)."""
        lang = lang or language()
        out: dict[str, list[str]] = {}
        for problem in self.problems:
            out.setdefault(problem.field, []).append(problem.sentence(lang))
        return out


class Conflict(UserError):
    """Someone else changed the same thing since the form was loaded, so nothing was saved.

    `current` is the thing as it is now (None when it was deleted meanwhile) and `version` its
    version, which a form sends back to save its own input anyway; `change` is the newest log record
    of it (who changed it, when)."""

    def __init__(self, message, *, current: Any = None, version: int = 0, change: Any = None):
        self.current = current
        self.version = version
        self.change = change
        super().__init__(message)


def where(table, number: int | None = None) -> str:
    """Where a problem is, as a message starts: "Runde 2, Tisch 3, Spiel 4: "."""
    text = _("Runde %(round)s, Tisch %(table)s") % {"round": table.round.number, "table": table.number}
    if number is not None:
        text += ", " + _("Spiel %(number)s") % {"number": number}
    return text + ": "
