"""Pages for the players on their phones that are not also director pages: a player's tournament.

A player's page updates itself like the standings (`caching.py`): an unchanged poll gets `304 Not
Modified`; the page's content is rendered once per view (public, helper, director) for each version
of what it shows (`PlayerVersion`: the player's own games, their ranks, which rounds are not final)
and kept in the shared cache, so a game at another table that changes none of it leaves it as it is.
"""

from dataclasses import dataclass

from django.http import Http404, HttpResponse
from django.shortcuts import get_object_or_404, render
from django.template.loader import render_to_string
from django.utils.formats import number_format
from django.utils.translation import gettext as _

from scoring.rating import MINIMUM_GAMES

from .. import privacy, ranking, selectors
from ..models import Entry, Table
from ..selectors.ratings import rating_course, rating_text
from ..web import cache_keys, caching, frames, front, histories
from ..web.charts import Series, progression_svg
from . import player_rows
from .access import public_or_director
from .seat_notice import seat_notice
from .standings import entry_param


def own_record(tournament, entry_id: int, *, include_hidden: bool, own: str) -> selectors.PlayerRecord:
    """The player's tables and games, without the ranks: computed once and kept while neither the
    setup nor a sheet at one of the player's tables changes (`own`, from `PlayerVersion`: a game saved
    at another table leaves it as it is). The director's with the full names, everyone else's with
    the names the public sees (`privacy`): the key says which."""
    key = cache_keys.player_record(tournament.pk, own, include_hidden=include_hidden, entry_id=entry_id)

    def compute():
        try:
            return selectors.player_record(tournament, entry_id, include_hidden=include_hidden, ranked=False,
                                           public=not include_hidden)
        except Entry.DoesNotExist:
            raise Http404 from None

    return caching.cached(key, compute)


@dataclass(frozen=True)
class PlayerVersion:
    """What a player's page shows depends on, narrower than the tournament's change counter: the
    setup and the sheets of the player's own tables (`own`), the player's rank after each round and
    which rounds are not final yet ("vorläufig"). A game saved at another table that moves none of this leaves
    the page, its cache entry and its ETag as they are: a phone's poll is answered 304 instead of
    the page rendered again for every game anywhere."""

    history: histories.Ranks
    own: str
    ranks: tuple
    text: str


def player_version(request, tournament, entry_id: int) -> tuple[tuple[int, int, int, int], PlayerVersion]:
    """The four values of `caching.player_counters` (the tournament's change counter first), and
    the version of the player's page (the counters read with the tournament by `reads_player_counters`,
    the ranks from the shared cache)."""
    counters = counter, setup, tables, rating_step = caching.player_counters_of(request, tournament.pk, entry_id)
    history = histories.ranks(tournament, include_hidden=request.is_director, counter=counter)
    own = f"{setup}-{tables}"
    ranks = tuple((number, history.ranks(number).get(entry_id)) for number in history.rounds)
    # the rating moves with games at other tables too (a correction in an earlier round rates the later
    # rounds again): its newest step, rewritten whenever it is rated again, is part of the version
    rated = rating_step if tournament.rating_on else 0
    text = cache_keys.digest(own, ranks, rated, *history.brief_provisional_sentences())
    return counters, PlayerVersion(history=history, own=own, ranks=ranks, text=text)


def player_fragment(request, tournament, entry_id: int, version: PlayerVersion) -> dict:
    """The player's page without the site's frame, and the player's name (for the title); kept in the
    shared cache for as long as its `version` holds."""
    key = cache_keys.player_live(tournament.pk, version.text, role=request.role or "", entry_id=entry_id)

    def compute():
        history = version.history
        record = own_record(tournament, entry_id, include_hidden=request.is_director, own=version.own)
        record = record.with_ranks(history)
        # what the other switches keep off the public pages stays off this one too
        show_seating = request.can_enter or tournament.public_seating
        show_standing = request.can_enter or tournament.public_standings
        values, labels = [0], [_("Start")]
        for played in record.rounds:
            for index, line in enumerate(played.lines):
                values.append(line.running)
                labels.append(_("R%(n)s") % {"n": played.number} if index == 0 else "")
        chart = progression_svg([Series(record.entry.name, values, highlight=True)], labels,
                                title=_("Punkteverlauf von %(name)s") % {"name": record.entry.name}
                                ) if len(values) > 1 and show_standing else ""
        rated = tournament.rating_on and show_standing and shown_rating(request, record)
        course = rating_course(entry_id, include_hidden=request.is_director) if rated else None
        rating_chart = progression_svg(
            [Series(_("Wertungszahl"), [round(step.mu) for _n, step in course.rounds], highlight=True)],
            [_("R%(n)s") % {"n": n} for n, _step in course.rounds],
            title=_("Wertungszahl von %(name)s nach jeder Runde") % {"name": record.entry.name}, height=200,
        ) if course is not None and len(course.rounds) > 1 else ""
        words = player_rows.Words()
        rounds = [(played, player_rows.rows_html(played, record.entry.id, show_seating=show_seating,
                                                 show_standing=show_standing, words=words))
                  for played in record.rounds]
        html = render_to_string("tournament/_player_live.html", {
            "tournament": tournament, "record": record, "rounds": rounds, "entry": record.entry, "chart": chart,
            "is_director": request.is_director, "show_seating": show_seating, "show_standing": show_standing,
            "provisional": history.brief_provisional_sentences() if show_standing else [],
            "ranking_sentence": ranking.sentence(tournament),
            "course": course, "rating_chart": rating_chart,
            "rating_text": rating_text(course.now) if course else "",
            "rating_sigma": number_format(course.now.sigma, 1) if course else "",
            "minimum_games": MINIMUM_GAMES,
        })
        return {"html": html, "name": record.entry.name}

    return caching.cached(key, compute)


def shown_rating(request, record) -> bool:
    """A player not published has no public rating (docs/privacy.md); the director and helpers see it."""
    return request.can_enter or record.entry.level != privacy.HIDDEN


def describe_player_page(request, entry_id):
    """(page, variant, personal) of a player's page, for its ETag."""
    partial = bool(request.GET.get("partial"))
    return ("player-poll" if partial else "player"), (getattr(request, "role", None) or "", entry_id), not partial


@caching.reads_player_counters
@caching.answers_unchanged_polls(describe_player_page)
@public_or_director("players")
def player_page(request, tournament, entry_id):
    page, variant, personal = describe_player_page(request, entry_id)
    partial = not personal
    counters, version = player_version(request, tournament, entry_id)
    counter = counters[0]
    poll = caching.Poll(request, tournament, page=page, variant=variant, personal=personal, counter=counter,
                        version=version.text)
    not_modified = poll.not_modified()
    if not_modified is not None:
        return not_modified
    if partial:
        fragment = player_fragment(request, tournament, entry_id, version)
        notice = seat_notice(request, tournament, entry_param(request))
        response = caching.compressed(request, poll.finish(HttpResponse(notice + fragment["html"])))
        return kept_by_front_door(request, response, tournament, entry_id, counters)

    # (not stored whole: a player's page is opened by that player's phone, not by everyone at once;
    # a visitor's frame is rendered once per change of the setup and filled in: web/frames.py)
    fragment = player_fragment(request, tournament, entry_id, version)
    poll_etag = caching.etag(tournament, counter, "player-poll", variant, version=version.text)
    context = {"tournament": tournament, "refresh": 30}
    def frame_key() -> str:
        return cache_keys.player_frame(tournament.pk, counters[1])

    response = poll.finish(HttpResponse(frames.page(
        request, frame_key, "tournament/player.html", context, path_part=str(entry_id),
        safe={"live": fragment["html"]}, text={"name": fragment["name"], "poll_etag": poll_etag})))
    # a visitor's page holds no CSRF token (no secret beside text others choose): it may be compressed
    if not caching.for_everyone(request):
        return response
    return kept_by_front_door(request, caching.compressed(request, response), tournament, entry_id, counters)


def kept_by_front_door(request, response, tournament, entry_id: int, counters: tuple[int, int, int, int]):
    """A visitor's answer, kept by the front door while the player's counters (`player_counters`) stay."""
    if not caching.for_everyone(request):
        return response
    return front.keep(response, "player", tournament.pk, entry_id, value=counters)


@public_or_director("players")
def table_page(request, tournament, round_number, table_number):
    """A table's sheet to read, for everyone while the players' pages and the seating are public
    (the round page links it): no forms, no change log; a round's hidden results stay hidden, a
    draft round is not out yet (404). With the seating switched off it would show who sat where."""
    if not request.can_enter and not tournament.public_seating:
        raise Http404
    table = get_object_or_404(Table.objects.select_related("round"), round__tournament=tournament,
                              round__number=round_number, number=table_number)
    table.round.tournament = tournament
    if table.round.is_draft and not request.is_director:
        raise Http404
    hidden = table.round.results_hidden and not request.is_director
    sheet = None if hidden else selectors.table_sheet(table, public=not request.can_enter)
    size = len(sheet.entries) if sheet else table.seats.count()
    return render(request, "tournament/table.html", {
        "tournament": tournament, "round": table.round, "table": table, "sheet": sheet,
        "rules": tournament.scoring_rules(), "read_only": True, "hidden": hidden,
        "games_expected": table.expected_games(tournament.games_at_table(size)),
    })
