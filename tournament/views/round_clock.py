"""Starting and stopping a round's clock (services/round_clock.py); the clock shows on the round
pages through the `round_clock` template tag."""

from __future__ import annotations

from django.contrib import messages
from django.shortcuts import get_object_or_404, redirect
from django.utils import timezone
from django.utils.formats import time_format
from django.utils.translation import gettext as _
from django.views.decorators.http import require_POST

from ..errors import UserError
from ..log.audit import Actor
from ..models import Round
from ..services import round_clock
from .access import director_required


@require_POST
@director_required
def clock_action(request, tournament, round_number):
    round = get_object_or_404(Round.objects.select_related("tournament"), tournament=tournament, number=round_number)
    try:
        if request.POST.get("action") == "stop":
            round_clock.stop_clock(round=round, by=Actor.of(request))
            messages.success(request, _("Die Rundenuhr ist angehalten."))
        else:
            round_clock.start_clock(round=round, by=Actor.of(request))
            end = round.clock_end()
            messages.success(request, _("Die Rundenuhr läuft: %(minutes)s Minuten, bis %(end)s Uhr.")
                             % {"minutes": tournament.round_minutes,
                                "end": time_format(timezone.localtime(end), "H:i") if end else ""})
    except UserError as error:
        messages.error(request, error.message)
    return redirect("tournament:round", slug=tournament.slug, round_number=round.number)
