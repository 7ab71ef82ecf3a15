"""The reads written out as SQL (tournament/selectors/written_sql.py) read what Django's own queries
read, converted alike: a player's record here (the standings' sums: test_score_sums.py; the seat
notice: test_seat_notice.py)."""

from __future__ import annotations

import pytest

from tournament import selectors
from tournament.models import Entry, Game, Score, Seat
from tournament.selectors.players import GAME_FIELDS, SAT_OUT
from tournament.services import penalties, results, seating

from .factories import make_tournament, normal_game, seat_ids, seated_round

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
