"""Rules on single values that the models hold (`validators=[...]`), so that a page, a service and
the tournament file (`full_clean` in services/file_reading.py) refuse the same values alike."""

from django.core.exceptions import ValidationError
from django.utils.deconstruct import deconstructible
from django.utils.translation import gettext_lazy as _

SMALL = 32767  # the largest number a PositiveSmallIntegerField holds on every database
MOST_START_NUMBER = 99_999


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
