"""Failed logins (django-axes, settings.AXES_*): who is locked out, and when.

- **The pair** (user name, address): after `AXES_FAILURE_LIMIT` failures (DJANGO_LOGIN_ATTEMPTS, 5)
  that user name is locked *from that address* for `AXES_COOLOFF_TIME` (15 minutes, renewed by every
  further attempt). The director logs in from their own device while a stranger who guessed at their
  name is locked.
- **The address**: after `LOGIN_ATTEMPTS_PER_ADDRESS` failures (DJANGO_LOGIN_ATTEMPTS_PER_ADDRESS,
  20) from one address, whatever the user names, that address is locked for the same time: one
  device cannot try five passwords for every account.

django-axes compares one count with one limit; `AXES_LOCKOUT_PARAMETERS` names the two counts (the
pair first, then the address), and this handler applies each its own limit. A successful login
clears the pair's failures only, so logging in to one's own account does not reset the address's.
"""

from __future__ import annotations

from axes.handlers.database import AxesDatabaseHandler
from axes.helpers import get_failure_limit
from django.conf import settings
from django.db.models import Sum

PARAMETERS = [["username", "ip_address"], "ip_address"]


def _failures(attempts) -> int:
    return attempts.aggregate(total=Sum("failures_since_start"))["total"] or 0


class LockoutHandler(AxesDatabaseHandler):
    def get_failures(self, request, credentials: dict | None = None) -> int:
        """The pair's failures, or the pair's limit when the address has reached its own."""
        assert settings.AXES_LOCKOUT_PARAMETERS == PARAMETERS, "the pair first, then the address"
        pair, address = (_failures(attempts) for attempts in self.get_user_attempts(request, credentials))
        if address >= settings.LOGIN_ATTEMPTS_PER_ADDRESS:
            return max(pair, get_failure_limit(request, credentials))
        return pair

    def reset_user_attempts(self, request, credentials: dict | None = None) -> int:
        pair = self.filter_user_attempts(request, credentials)[0]
        count, _ = pair.delete()
        return count
