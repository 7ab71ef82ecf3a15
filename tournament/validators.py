"""Rules on single values that the models hold (`validators=[...]`), so that a page, a service and
the tournament file (`full_clean` in services/file_reading.py) refuse the same values alike."""

from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

from . import names
from .errors import UserError

SMALL = 32767  # the largest number a PositiveSmallIntegerField holds on every database
MOST_START_NUMBER = 99_999
ID_MOST = 2**63 - 1  # the largest id a BigAutoField holds (and SQLite an INTEGER; beyond it an OverflowError)


@deconstructible
class Between:
    """A whole number from `low` to `high`."""

    def __init__(self, low: int, high: int):
        self.low, self.high = low, high

    def __call__(self, value):
        if not self.low <= value <= self.high:
            raise ValidationError(_("muss eine ganze Zahl von %(low)s bis %(high)s sein, nicht %(value)s"),
                                  code="range", params={"low": self.low, "high": self.high, "value": value})

    def __eq__(self, other):
        return isinstance(other, Between) and (self.low, self.high) == (other.low, other.high)


SCRIPT_WORDS = {"latin": _("lateinische"), "greek": _("griechische"), "cyrillic": _("kyrillische"),
                "armenian": _("armenische"), "georgian": _("georgische"), "cherokee": _("Cherokee"),
                "coptic": _("koptische")}
INVISIBLE_WORDS = {"name": _("Der Name enthält keine sichtbaren Zeichen."),
                   "club": _("Der Verein enthält keine sichtbaren Zeichen.")}


def name_problem(text: str, *, what: str = "name") -> str | None:
    """The sentence why `text` cannot be a name (or a club: `what`) once cleaned (`names.problem`), or None."""
    found = names.problem(text)
    if found is None:
        return None
    if found.kind == "invisible":
        return str(INVISIBLE_WORDS[what])
    return _("„%(word)s“ mischt Buchstaben verschiedener Schriften (%(scripts)s), die sich zum Verwechseln "
             "ähnlich sehen; bitte jedes Wort in einer Schrift schreiben.") % {
        "word": found.word, "scripts": str(_(" und ")).join(str(SCRIPT_WORDS[s]) for s in found.scripts)}


@deconstructible
class VisibleName:
    """A name (or a club: `what`) that shows something and writes each word in one script (`name_problem`):
    the model's rule, so that the tournament file (`full_clean`) refuses what the services refuse."""

    def __init__(self, what: str = "name"):
        self.what = what

    def __call__(self, value):
        problem = name_problem(value, what=self.what)
        if problem is not None:
            raise ValidationError(problem, code="name")

    def __eq__(self, other):
        return isinstance(other, VisibleName) and self.what == other.what


def checked_name(text: str, *, field: str = "name", what: str = "name") -> str:
    """A name (of a player, a club, a team, a tournament, a series, a Rangliste) as it is stored and shown
    (`names.clean`), refused with the sentence of `name_problem` (a `UserError` on `field`); an empty
    text stays empty (whether it may be is the caller's rule)."""
    problem = name_problem(text, what=what)
    if problem is not None:
        raise UserError(problem, field=field)
    return names.clean(text)
