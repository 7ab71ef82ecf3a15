"""Pages for the players on their phones that are not also director pages: a player's tournament."""

from django.http import Http404
from django.shortcuts import render
from django.utils.translation import gettext as _

from .. import selectors
from ..charts import Series, progression_svg
from ..models import Entry
from .access import public_or_director


@public_or_director("players")
def player_page(request, tournament, entry_id):
    try:
        record = selectors.player_record(tournament, entry_id, include_hidden=request.is_director)
    except Entry.DoesNotExist:
        raise Http404 from None
    values, labels = [0], [_("Start")]
    for played in record.rounds:
        for index, line in enumerate(played.lines):
            values.append(line.running)
            labels.append(_("R%(n)s") % {"n": played.number} if index == 0 else "")
    chart = progression_svg([Series(record.entry.player.name, values, highlight=True)], labels,
                            title=_("Punkteverlauf von %(name)s") % {"name": record.entry.player.name}
                            ) if len(values) > 1 else ""
    return render(request, "tournament/player.html", {
        "tournament": tournament, "record": record, "entry": record.entry, "chart": chart,
        "is_director": request.is_director,
    })
