"""Errors a person should read: raised by services, shown by views next to the field or on top.

Everything else that goes wrong is a bug and is not caught on the way to the user.
"""

from django.utils.translation import get_language


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
        lang = "de" if (lang or get_language() or "de").startswith("de") else "en"
        return [f"{self.where}{p.line(lang)}" for p in self.problems]

    def by_field(self, lang: str | None = None) -> dict[str, list[str]]:
        lang = "de" if (lang or get_language() or "de").startswith("de") else "en"
        out: dict[str, list[str]] = {}
        for problem in self.problems:
            out.setdefault(problem.field, []).append(problem.text(lang))
        return out
