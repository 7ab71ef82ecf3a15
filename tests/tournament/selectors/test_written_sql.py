"""The reads written out as SQL (tournament/selectors/written_sql.py) read what the ORM reads,
converted alike: a player's record (the seat notice: test_seat_notice.py) and the change counters every
poll reads; and how far each table is, read from the counts stored on the tables, is what Django counts
(the standings' stored sums: test_stored_numbers.py)."""

from __future__ import annotations

import pytest
from django.db.models import Max

from tournament import selectors
from tournament.log.audit import SYSTEM
from tournament.models import DataChange, DraftGame, Entry, Game, RatingStep, Round, Score, Seat, Table, Tournament
from tournament.selectors import missing, written_sql
from tournament.selectors.players import GAME_FIELDS, SAT_OUT
from tournament.services import penalties, results, seating, sheet_state, table_links, tournaments
from tournament.web import caching

from ..factories import make_tournament, normal_game, seat_ids, seated_round

pytestmark = pytest.mark.django_db


def played_tournament():
    """Nine players: a table of five and one of four, each round. Round 1 with a solo and two
    penalties (one in a game, one outside), round 2 with its results hidden."""
    tournament = make_tournament(players=9, slug="sql")
    first = seated_round(tournament, seed="eins")
    for table in first.tables.all():
        for number in (1, 2, 3):
            results.save_game(table=table, data=normal_game(table, number, re_augen=120 + 10 * number))
        dealer_out = Game.objects.filter(table=table, number=1).values_list("re", flat=True).first()[0]
        results.save_game(table=table, data={"type": "solo", "solo": "damen", "re": [dealer_out], "re_augen": 151,
                                             "announcements": {"re": None, "kontra": None}, "extras": {}})
        ids = seat_ids(table)
        if len(ids) == 5:
            player = Game.objects.get(table=table, number=1).re[0]
            penalties.add_penalty(table=table, offender_id=player, game_number=1, note="Falsch bedient")
        else:
            penalties.add_penalty(table=table, offender_id=ids[2], note="Karten gezeigt")
    seating.close_round(round=first)
    second = seated_round(tournament, seed="zwei")
    for table in second.tables.all():
        results.save_game(table=table, data=normal_game(table, 1, re_augen=181))
    seating.hide_results(round=second)
    return tournament


def expected(entry: Entry, include_hidden: bool) -> dict:
    """What Django's own queries read for a player's record."""
    seats = (Seat.objects.filter(entry=entry).exclude(round__status="draft").select_related("round", "table")
             .order_by("round__number"))
    rounds = []
    for seat in seats:
        others = Seat.objects.filter(table=seat.table).exclude(entry=entry).order_by("position")
        rounds.append((seat.round.number, seat.table.number, seat.position,
                       [other.entry.player.name for other in others], seat.round.results_hidden and not include_hidden))
    scores = Score.objects.filter(entry=entry).select_related("game", "penalty", "round")
    if not include_hidden:
        scores = scores.filter(round__results_hidden=False)
    lines = sorted(repr((score.round.number, score.kind, score.points, score.won,
                         score.game and tuple(getattr(score.game, name) for name in GAME_FIELDS),
                         score.penalty and (score.penalty.game_number, score.penalty.offender_id)))
                   for score in scores)
    sat_out = Game.objects.filter(sitting_out=entry)
    if not include_hidden:
        sat_out = sat_out.filter(table__round__results_hidden=False)
    return {"entry": (entry.id, entry.start_number, entry.player.name, entry.player.club), "rounds": rounds,
            "lines": lines, "sat out": sorted((game.table.round.number, game.number) for game in sat_out)}


def read(record: selectors.PlayerRecord) -> dict:
    """The same of what `selectors.player_record` read."""
    return {"entry": (record.entry.id, record.entry.start_number, record.entry.name, record.entry.club),
            "rounds": [(played.number, played.table_number, played.position, played.mates, played.hidden)
                       for played in record.rounds],
            "lines": sorted(repr((played.number, line.kind, line.points, line.won,
                                  line.game and tuple(getattr(line.game, name) for name in GAME_FIELDS),
                                  line.penalty and (line.penalty.game_number, line.penalty.offender_id)))
                            for played in record.rounds for line in played.lines if line.kind != SAT_OUT),
            "sat out": sorted((played.number, line.number) for played in record.rounds for line in played.lines
                              if line.kind == SAT_OUT)}


def test_a_players_record_written_as_sql_reads_what_django_reads():
    """Every player, with the hidden round and without: the same tables, mates, scores (a JSON list and
    dict, a boolean that may be None, a penalty in a game and one outside) and games sat out, of the
    same types (`repr`: a won game is True, not 1)."""
    tournament = played_tournament()
    kinds = set()
    for entry in tournament.entries.select_related("player"):
        for include_hidden in (True, False):
            record = selectors.player_record(tournament, entry.id, include_hidden=include_hidden, ranked=False)
            assert read(record) == expected(entry, include_hidden)
            kinds |= {line.kind for played in record.rounds for line in played.lines}
    assert kinds == {Score.Kind.GAME, Score.Kind.PENALTY, SAT_OUT}
    with pytest.raises(Entry.DoesNotExist):
        selectors.player_record(make_tournament(players=4, slug="andere"), entry.id, include_hidden=True)


def test_how_far_each_table_is_reads_the_stored_counts_as_django_counts():
    """`selectors.missing_results` reads each table's games and waiting entries as stored on the table
    (`Table.games_entered`, `Table.drafts_waiting`): the same as Django counts the games and drafts,
    for all tables, for changed ones, and for chosen rounds (a signed table, one ended early, one with
    totals only, an entry waiting and one rejected, a closed round, a round not published)."""
    tournament = make_tournament(players=13, slug="stand")
    first = seated_round(tournament, seed="eins")
    one, two, three = first.tables.order_by("number")
    for number in (1, 2):
        results.save_game(table=one, data=normal_game(one, number))
    sheet_state.sign_table(table=one)
    results.save_game(table=two, data=normal_game(two, 1))
    sheet_state.end_table(table=two, note="Zug fährt")
    sheet_state.enter_totals(table=three, totals={entry: 0 for entry in seat_ids(three)})
    seating.close_round(round=first)
    second = seated_round(tournament, seed="zwei")
    table = second.tables.order_by("number").first()
    table_links.renew_links(round=second)
    token = Table.objects.get(pk=table.pk).link_token
    table_links.enter_game(token=token, number=1, data=normal_game(table, 1), key="k1", device="d" * 16)
    rejected = table_links.enter_game(token=token, number=2, data=normal_game(table, 2), key="k2", device="e" * 16)
    table_links.decide_as_director(table=table, draft_id=rejected.pk, confirm=False, by=SYSTEM)
    seated_round(tournament, seed="drei", publish=False)

    def django_reads(tables, statuses=(Round.Status.PUBLISHED, Round.Status.CLOSED), rounds=None):
        found = Table.objects.filter(round__tournament=tournament, id__in=tables)
        found = found.filter(round__number__in=rounds) if rounds else found.filter(round__status__in=statuses)
        return [(t.round.number, t.number, t.games_to_play(tournament.games_at_table(t.seats.count()), t.ended_after),
                 t.games.count(), t.drafts.filter(status=DraftGame.Status.WAITING).count(), t.signed_at is not None,
                 t.totals_only, t.id) for t in found.select_related("round").order_by("round__number", "number")]

    every = set(Table.objects.filter(round__tournament=tournament).values_list("id", flat=True))
    for kwargs, expected in (({}, django_reads(every)),
                             ({"table_ids": {one.id, table.id}}, django_reads({one.id, table.id})),
                             ({"include_closed": False}, django_reads(every, statuses=(Round.Status.PUBLISHED,))),
                             ({"rounds": [1, 3]}, django_reads(every, rounds=[1, 3]))):
        lines, closed = missing._table_results(tournament, **kwargs)
        assert [(line.round_number, line.table_number, line.expected, line.entered, line.waiting, line.signed,
                 line.totals_only, line.table_id) for line in lines] == expected, kwargs
        assert all(type(line.signed) is bool and type(line.totals_only) is bool for line in lines)
        assert closed == ({1} if any(row[0] == 1 for row in expected) else set())
    assert [line.expected for line in missing._table_results(tournament, table_ids={two.id})[0]] == [1]  # ended
    assert [line.waiting for line in missing._table_results(tournament, table_ids={table.id})[0]] == [1]


def by_the_orm(tournament: Tournament, entry_id: int) -> tuple[int, int, int, int]:
    tables = Seat.objects.filter(entry_id=entry_id).values("table_id")
    own = DataChange.objects.filter(table_id__in=tables).aggregate(newest=Max("id"))["newest"] or 0
    rated = RatingStep.objects.filter(entry_id=entry_id).order_by("-id").values_list("id", flat=True).first() or 0
    return caching.change_counter(tournament), caching.setup_counter(tournament), own, rated


def assert_same(tournament: Tournament) -> None:
    assert written_sql.counter_by_slug(tournament.slug) == (tournament.pk, caching.change_counter(tournament),
                                                            caching.setup_counter(tournament))
    for entry_id in tournament.entries.values_list("id", flat=True):
        assert written_sql.player_counters(tournament.pk, entry_id) == by_the_orm(tournament, entry_id)
        assert written_sql.player_counters_by_slug(tournament.slug, entry_id) == (
            tournament.pk, by_the_orm(tournament, entry_id))


def test_the_counters_written_as_sql_read_what_the_orm_reads():
    tournament = make_tournament(players=9, slug="zaehler")
    other = make_tournament(players=4, slug="anderes")
    assert_same(tournament)  # players, no seats yet: no own tables
    assert {
        written_sql.player_counters(tournament.pk, entry)[2]
        for entry in tournament.entries.values_list("id", flat=True)
    } == {0}
    round = seated_round(tournament)
    seated_round(other)
    one, two = round.tables.order_by("number")
    results.save_game(table=one, number=1, data=normal_game(one, 1))
    assert_same(tournament)
    results.save_game(table=two, number=1, data=normal_game(two, 1))
    results.save_game(table=one, number=2, data=normal_game(one, 2))
    assert_same(tournament)
    assert any(written_sql.player_counters(tournament.pk, entry)[3]  # rated: the newest rating step
               for entry in tournament.entries.values_list("id", flat=True))
    tournaments.edit_player(entry=tournament.entries.order_by("start_number").first(), name="Neu", club="")
    assert_same(tournament)
    assert_same(other)
    assert written_sql.counter_by_slug("gibt-es-nicht") is None
    DataChange.objects.filter(tournament=other).delete()  # a tournament before its first change
    assert written_sql.counter_by_slug(other.slug) == (other.pk, 0, 0)
    entry = other.entries.first()
    assert written_sql.player_counters(other.pk, entry.pk) == (0, 0, 0, 0) == by_the_orm(other, entry.pk)
    assert written_sql.player_counters_by_slug(other.slug, entry.pk) == (other.pk, (0, 0, 0, 0))
    assert written_sql.player_counters_by_slug("gibt-es-nicht", entry.pk) is None
