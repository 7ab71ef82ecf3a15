"""The public rows of each endpoint, made from what the public pages read (the selectors with
`public=True`, the standings' history of the visitor's view, the player's record of the public page):
a player's publication level is applied where the selectors apply it, never here.

Each function reads in a fixed number of queries whatever the size."""

from __future__ import annotations

import datetime

from django.db.models import Q, QuerySet
from django.http import Http404
from django.shortcuts import get_object_or_404
from django.utils import timezone
from django.utils.translation import gettext as _

from .. import privacy, ranking
from ..models import Entry, Organisation, Rangliste, Round, Table, Tournament
from ..selectors import association_rangliste as association
from ..selectors import people, player_record
from ..selectors import rangliste as rangliste_selectors
from ..selectors.rounds import round_tables
from ..views.standings import rows_after, visible_history
from ..web import caching, histories
from . import public_file
from .answers import ApiError, page

STATUS: dict[str, str] = {Round.Status.PUBLISHED: "published", Round.Status.CLOSED: "closed"}


def _organisation(organisation: Organisation) -> dict:
    return {"slug": organisation.slug, "name": organisation.name}


def _summary(tournament: Tournament, organisation: Organisation) -> dict:
    return {"slug": tournament.slug, "name": tournament.name, "date": tournament.date.isoformat(),
            "place": tournament.place, "organisation": _organisation(organisation),
            "public": {"standings": tournament.public_standings, "seating": tournament.public_seating,
                       "players": tournament.public_players}}


def _of_organisation(found: QuerySet, organisation: str) -> QuerySet:
    """Those of the organisation with this short name (all when it is empty). A name holding a NUL
    character is nobody's (PostgreSQL refuses the character in a query: it would be an error page)."""
    if not organisation:
        return found
    return found.none() if "\x00" in organisation else found.filter(organisation__slug=organisation)


def tournaments(*, organisation: str, since: datetime.date | None, until: datetime.date | None,
                limit: int, offset: int) -> dict:
    """Every organisation's tournaments whose overview is public (as the start page lists them for a
    visitor), newest first. Two queries."""
    found = _of_organisation(Tournament.objects.filter(public_overview=True), organisation)
    if since:
        found = found.filter(date__gte=since)
    if until:
        found = found.filter(date__lte=until)
    count = found.count()
    rows = found.select_related("organisation").order_by("-date", "name", "id")[offset:offset + limit]
    return page([_summary(t, t.organisation) for t in rows], count, limit, offset)


def tournament(tournament: Tournament) -> dict:
    """A tournament's overview: its published rounds, how many players. Three queries."""
    organisation = Organisation.objects.get(pk=tournament.organisation_id)
    rounds = [{"number": number, "status": STATUS[status], "results_hidden": hidden}
              for number, status, hidden in tournament.rounds.exclude(status=Round.Status.DRAFT)
              .order_by("number").values_list("number", "status", "results_hidden")]
    return {**_summary(tournament, organisation), "rounds_planned": tournament.rounds_planned,
            "ranking": tournament.ranking, "players": tournament.entries.count(), "rounds": rounds}


def _published_round(tournament: Tournament, number: int) -> Round:
    found = tournament.rounds.exclude(status=Round.Status.DRAFT).filter(number=number).first()
    if found is None:  # a draft is not out yet
        raise Http404
    found.tournament = tournament
    return found


def seating(tournament: Tournament, number: int) -> dict:
    """A published round's tables with their players in seat order, as the seating page shows them to
    the public. Three queries."""
    found = _published_round(tournament, number)
    tables = [{"number": seated.table.number,
               "players": [{"entry_id": e.id, "start_number": e.start_number, "name": e.player.name,
                            "club": e.player.club} for e in seated.entries]}
              for seated in round_tables(found, public=True)]
    return {"number": found.number, "status": STATUS[found.status], "results_hidden": found.results_hidden,
            "tables": tables}


def table_games(tournament: Tournament, round_number: int, table_number: int) -> dict:
    """A table's games and penalties as the tournament file's rows (docs/tournament-file.md), the
    players named as the public sees them; no rows while the round's results are hidden. Six queries."""
    found = _published_round(tournament, round_number)
    table = get_object_or_404(Table, round=found, number=table_number)
    table.round = found
    seats, games, penalties = public_file.table_parts(tournament, [table.id])
    seated = seats.get(table.id, [])
    entries = list(Entry.objects.filter(id__in=seated).select_related("player"))
    refs = public_file.references([privacy.for_public(entry) for entry in entries])
    item = public_file.public_table(table, tournament, refs, seated, games.get(table.id, []),
                                    penalties.get(table.id, []))
    return {"round": found.number, "results_hidden": found.results_hidden, **item}


def standings(request, tournament: Tournament, *, limit: int, offset: int) -> dict:
    """The standings as the Tabelle shows them to a visitor (after the round of `?round=`, else after
    the last): the same rows in the same order, with each row's breakdown (points per round, the
    placements or the average the ranking goes by)."""
    history = visible_history(request, tournament, caching.request_counter(request, tournament))
    after = request.GET.get("round")
    if after is not None and (not after.isdigit() or int(after) not in history.rounds):
        raise ApiError(400, "bad_round", _("Nach dieser Runde gibt es keine Tabelle."))
    rows, rounds = rows_after(history, int(after) if after else None)
    mode = tournament.ranking
    per_round = history.per_round(rounds, mode)
    tables = tournament.public_seating
    items = [{"rank": row.rank or None, "entry_id": row.entry_id, "start_number": row.start_number,
              "name": row.name, "club": row.club, "points": row.points, "games": row.games, "won": row.won,
              "solos": row.solos, "totals_only": row.totals_only, "withdrawn": row.withdrawn,
              "movement": row.movement, "per_round": per_round.get(row.entry_id, [None] * len(rounds)),
              **ranking.export_values(row, mode, as_text=False, tables=tables)}
             for row in rows[offset:offset + limit]]
    return {"ranking": mode, "rounds": rounds, "provisional": history.provisional_sentences(),
            **page(items, len(rows), limit, offset)}


def player(request, tournament: Tournament, entry_id: int) -> dict:
    """A player's record as their public page shows it: each round's table and mates (while the
    seating is public), every game with its points and breakdown, the total and the places (while
    the standings are public); nothing of a round whose results are hidden."""
    counter = caching.request_counter(request, tournament)
    try:
        record = player_record(tournament, entry_id, include_hidden=False, ranked=False, public=True)
    except Entry.DoesNotExist:
        raise Http404 from None
    show_seating, show_standing = tournament.public_seating, tournament.public_standings
    if show_standing:
        record = record.with_ranks(histories.ranks(tournament, include_hidden=False, counter=counter))
    rounds = []
    for played in record.rounds:
        item: dict = {"number": played.number, "results_hidden": played.hidden}
        if show_seating:
            item.update(table=played.table_number, position=played.position, mates=played.mates)
        if not played.hidden:
            item["total"] = played.total
            item["lines"] = [_line(line) for line in played.lines]
        rounds.append(item)
    data: dict = {"entry_id": record.entry.id, "start_number": record.entry.start_number, "name": record.entry.name,
                  "club": record.entry.club, "total": record.total, "rounds": rounds}
    if show_standing:
        data.update(rank=record.rank, ranks=[{"round": number, "rank": rank} for number, rank in record.ranks])
    return data


def _line(line) -> dict:
    item: dict = {"kind": line.kind, "number": line.number, "points": line.points, "running": line.running,
                  "party": line.party, "partners": list(line.partners), "won": line.won}
    if line.game is not None:
        game = line.game
        item["game"] = {"type": game.type, "solo": game.solo, "re_augen": game.re_augen,
                        "announce_re": game.announce_re, "announce_kontra": game.announce_kontra,
                        "multiplier": game.multiplier, "breakdown": game.breakdown}
    return item


def ranglisten(*, organisation: str, limit: int, offset: int) -> dict:
    """Every organisation's public Ranglisten, by name. Two queries."""
    found = _of_organisation(Rangliste.objects.filter(public=True), organisation)
    count = found.count()
    rows = found.select_related("organisation").order_by("name", "id")[offset:offset + limit]
    return page([{"slug": r.slug, "name": r.name, "organisation": _organisation(r.organisation),
                  "months": r.months, "minimum_rounds": r.minimum_rounds} for r in rows], count, limit, offset)


def public_rangliste(slug: str) -> Rangliste:
    found = Rangliste.objects.filter(Q(slug=slug) & Q(public=True)).select_related("organisation").first()
    if found is None:
        raise Http404
    return found


def rangliste(found: Rangliste, *, until: datetime.date, limit: int, offset: int) -> dict:
    """A Rangliste on `until` as its public page shows it: the ranked rows (paged), the cut lines, how
    many are below the minimum of rounds."""
    view = rangliste_selectors.rangliste_view(found, until=until, public=True)
    window = view.result.window
    items = [{"place": row.row.place, "shared": row.row.shared, "name": row.person.name, "club": row.person.club,
              "member_number": row.person.member_number, "rounds": row.row.rounds, "points": row.row.points,
              "average": float(row.average), "tournaments": row.row.tournaments, "qualifies": row.row.qualifies,
              "player": row.person.link} for row in view.rows[offset:offset + limit]]
    return {"slug": found.slug, "name": found.name, "organisation": _organisation(found.organisation), "stored": False,
            "until": until.isoformat(), "window": {"from": window.start.isoformat(), "until": window.end.isoformat()},
            "minimum_rounds": found.minimum_rounds, "tournaments": view.tournaments,
            "below_minimum": len(view.below),
            "cut_lines": [{"place": line.place, "label": line.label} for line in view.result.cut_lines],
            **page(items, len(view.rows), limit, offset)}


def stored_rangliste(found: Rangliste, *, limit: int, offset: int) -> dict:
    """An association's Rangliste as stored (docs/competitions.md, "The association's Rangliste") and as
    its page shows it to a visitor: the ranked lines by place, then those below the minimum of rounds
    (`ranked: false`, no place, the qualification tracker's sentence), each at the publication level
    stored with it; the cut lines, how many tournaments count and how many do not. One query (the
    Rangliste is read already)."""
    computed = found.computed
    window = association.window(found)
    lines = association.stored_lines(found, public=True, start=offset, stop=offset + limit)
    items = [{"place": line.place if line.ranked else None, "shared": line.shared if line.ranked else 0,
              "name": line.name, "club": line.club, "member_number": line.member_number, "rounds": line.rounds,
              "points": line.points, "average": float(line.average), "tournaments": line.tournaments,
              "qualifies": line.qualifies or None, "player": line.link, "ranked": line.ranked,
              "tracker": line.tracker} for line in lines]
    count = int(computed.get("ranked", 0)) + int(computed.get("below", 0))
    return {"slug": found.slug, "name": found.name, "organisation": _organisation(found.organisation),
            "stored": True, "computed_on": found.computed_on.isoformat() if found.computed_on else None,
            "behind": association.wants_refresh(found),
            "until": (found.computed_on or timezone.localdate()).isoformat(),
            "window": {"from": window[0].isoformat(), "until": window[1].isoformat()} if window else None,
            "minimum_rounds": found.minimum_rounds, "tournaments": int(computed.get("tournaments", 0)),
            "below_minimum": int(computed.get("below", 0)), "refused": int(computed.get("refused", 0)),
            "cut_lines": [{"place": place, "label": label} for place, label in association.cut_lines(found)],
            **page(items, count, limit, offset)}


def refused(found: Rangliste, *, limit: int, offset: int) -> dict:
    """The member clubs' Ranglistenturniere that do not count in an association's stored Rangliste, the
    newest first, each with its reason (a code and the page's sentence). One query."""
    items = [{"slug": item.slug, "name": item.name, "date": item.date.isoformat(),
              "organisation": {"slug": item.organisation_slug, "name": item.organisation},
              "reason": item.reason, "players": item.players, "rounds": item.rounds, "sentence": item.sentence}
             for item in association.refused_tournaments(found, start=offset, stop=offset + limit)]
    return {"slug": found.slug, "minimum_players": found.minimum_players,
            "minimum_tournament_rounds": found.minimum_tournament_rounds,
            **page(items, int(found.computed.get("refused", 0)), limit, offset)}


def person(record: int, *, limit: int, offset: int) -> dict:
    """A person across clubs as `/spieler/<record>/` shows them: their records at the full name's level
    joined (a record at another level is not: 404, as on the page), the tournaments whose overview is
    public, newest first (paged), with place, rounds, points and average where the standings are
    public; the clubs they played at; their rounds, points and average over all of them."""
    found = people.person_page(record)
    if found is None:
        raise Http404
    items = [{"tournament": {"slug": row.slug, "name": row.tournament, "date": row.date.isoformat()},
              "organisation": row.club, "place": row.place, "players": row.players if row.place else None,
              "rounds": row.rounds, "points": row.points,
              "average": float(row.average) if row.average is not None else None, "entry_id": row.entry_id}
             for row in found.rows[offset:offset + limit]]
    return {"record": found.record, "name": found.name, "club": found.club, "clubs": found.clubs,
            "rounds": found.rounds, "points": found.points,
            "average": float(found.average) if found.average is not None else None,
            **page(items, len(found.rows), limit, offset)}
