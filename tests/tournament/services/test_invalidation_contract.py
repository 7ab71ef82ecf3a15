"""The invalidation contract, enforced (docs/architecture.md, "The change counter"): every public write of
the services moves the tournament's change counter, and a one-table write leaves the setup counter; a
step that writes only for its caller refuses to run outside a recording; a save or delete outside the
services moves the counter of every tournament whose pages show the model.

The list of the services' public functions is read from the modules themselves: a new function fails
`test_every_public_function_of_the_services_is_listed` until it is put into `WRITES` (with a call that
makes the write), `STEPS` or `NO_TOURNAMENT` / `READS` (with the reason it moves no counter)."""

from __future__ import annotations

import datetime
import importlib
import importlib.util
import inspect
import pkgutil
import random
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from django.apps import apps
from django.contrib.auth import get_user_model
from django.db import transaction

import tournament.services
from tournament.log import audit
from tournament.log.audit import SYSTEM
from tournament.models import (
    DraftGame,
    Entry,
    Game,
    Organisation,
    Penalty,
    Player,
    Rating,
    RatingStep,
    Registration,
    Round,
    Score,
    Seat,
    Series,
    Table,
    Tally,
    Team,
    TeamMember,
    Tournament,
)
from tournament.services import (
    bulk,
    checkin,
    contacts,
    corrections,
    editing,
    exporting,
    generate,
    hub_tables,
    importing,
    match_days,
    organisations,
    outbox,
    penalties,
    personal_data,
    player_details,
    privacy,
    rangliste,
    ratings,
    registration_links,
    results,
    round_clock,
    scores,
    seating,
    series,
    sheet_state,
    table_links,
    teams,
    tournaments,
    waiting_list,
)
from tournament.services.exporting import export_tournament
from tournament.web import caching, outside_writes

from ..factories import make_director, make_tournament, normal_game, seat_ids, seated_round

pytestmark = pytest.mark.django_db


@dataclass
class World:
    """A small tournament: 8 players, round 1 published with a game at table 1, the registration
    open with one registration that has a contact (Zora, the 9th player), a series of the director's."""

    director: Any
    tournament: Tournament
    round: Round
    one: Table
    two: Table
    registration: Registration
    series: Series

    def entry(self, index: int = 0) -> Entry:
        return self.tournament.entries.select_related("player").order_by("start_number")[index]

    def fresh(self) -> Tournament:
        return Tournament.objects.get(pk=self.tournament.pk)

    def second_round(self, *, publish: bool = False) -> Round:
        return seated_round(self.fresh(), seed="zwei", publish=publish)

    def token(self, table: Table) -> str:
        return Table.objects.get(pk=table.pk).link_token


def make_world() -> World:
    director = make_director()
    tournament = make_tournament(players=8, director=director, slug="vertrag", categories=["Gast"])
    round = seated_round(tournament)
    one, two = round.tables.order_by("number")
    results.save_game(table=one, number=1, data=normal_game(one, 1))
    checkin.set_registration(tournament=Tournament.objects.get(pk=tournament.pk), open=True, limit=0)
    registration = checkin.register(tournament=tournament, name="Zora Zett", contact="zora@example.org")
    the_series = series.create_series(name="Wintercup", director=director)
    return World(director, Tournament.objects.get(pk=tournament.pk), round, one, two, registration, the_series)


@pytest.fixture(scope="module")
def shared_world(django_db_setup, django_db_blocker):
    """The world, built once for the module in a transaction rolled back at its end; each test runs in
    a savepoint inside it (pytest-django's `db`), so what a test writes is gone for the next."""
    with django_db_blocker.unblock(), transaction.atomic():
        yield make_world()
        transaction.set_rollback(True)


@pytest.fixture
def world(shared_world: World, db) -> World:
    """The module's world with its objects read afresh (a write of a test before may have changed them in
    memory; the database it has left as it was)."""
    w = shared_world
    return World(get_user_model().objects.get(pk=w.director.pk), Tournament.objects.get(pk=w.tournament.pk),
                 Round.objects.get(pk=w.round.pk), Table.objects.get(pk=w.one.pk), Table.objects.get(pk=w.two.pk),
                 Registration.objects.get(pk=w.registration.pk), Series.objects.get(pk=w.series.pk))


# ---- the setups of some writes ------------------------------------------------------------------------


def _deleted_game(w: World):
    results.save_game(table=w.one, number=2, data=normal_game(w.one, 2))
    results.delete_game(table=w.one, number=2)
    record = Game.history.filter(table_id=w.one.pk, number=2, history_type="-").latest("history_id")
    return lambda: results.restore_game(table=w.one, record=record)


def _deleted_penalty(w: World):
    penalty = penalties.add_penalty(table=w.one, offender_id=seat_ids(w.one)[0], note="Farbe")
    penalties.delete_penalty(table=w.one, penalty_id=penalty.pk)
    record = Penalty.history.filter(id=penalty.pk, history_type="-").latest("history_id")
    return lambda: penalties.restore_penalty(table=w.one, record=record)


def _entered(w: World, *, confirmation: str = Tournament.Confirmation.DIRECTOR) -> DraftGame:
    Tournament.objects.filter(pk=w.tournament.pk).update(confirmation=confirmation)
    return table_links.enter_game(token=w.token(w.one), number=2, data=normal_game(w.one, 2), key="k2", device="a" * 16)


def _rejected(w: World) -> DraftGame:
    draft = _entered(w)
    return table_links.decide_as_director(table=w.one, draft_id=draft.pk, confirm=False, by=SYSTEM)


def _team(w: World) -> Team:
    return teams.create_team(tournament=w.tournament, name="Nord", members=[w.entry(0).pk, w.entry(1).pk])


def _waiting(w: World) -> Registration:
    checkin.set_registration(tournament=w.fresh(), open=True, limit=9, waiting=5)  # 8 players + Zora: full
    waiting = checkin.register(tournament=w.fresh(), name="Willi Wartet")
    assert waiting.status == Registration.Status.WAITING
    Tournament.objects.filter(pk=w.tournament.pk).update(registration_limit=10)  # a place frees up
    return waiting


def _fill_free_places(w: World):
    _waiting(w)

    def write():
        with transaction.atomic():
            assert waiting_list.fill_free_places(tournament=w.fresh())

    return write


def _closed(w: World) -> Round:
    seating.close_round(round=w.round, backup=False)
    return w.round


def _withdrawn(w: World) -> Entry:
    return tournaments.withdraw_player(entry=w.entry(3))


def _in_series(w: World) -> Series:
    series.add_tournament(series=w.series, tournament=w.tournament, user=w.director)
    return w.series


def _sheet_of_table_two(w: World):
    rules = w.tournament.scoring_rules()
    table = Table.objects.select_related("round__tournament").get(pk=w.two.pk)
    games, _penalties = generate.play_table(table, rng=random.Random(1), rules=rules, games=1)
    return lambda: results.enter_sheets(sheets=[(table, games, [])])


def _full_sheet(w: World) -> Table:
    """Table 2 with all its games, ready to be signed."""
    table = Table.objects.select_related("round__tournament").get(pk=w.two.pk)
    games, _penalties = generate.play_table(table, rng=random.Random(2), rules=w.tournament.scoring_rules())
    results.enter_sheets(sheets=[(table, games, [])])
    return Table.objects.get(pk=w.two.pk)


def _approve(w: World):
    table = _full_sheet(w)
    player = seat_ids(table)[0]
    return lambda: table_links.approve_sheet(
        token=table.link_token, device="p" * 16, player_id=player, version=table.version
    )


def _unsigned_after_signing(w: World):
    sheet_state.sign_table(table=_full_sheet(w))
    return lambda: sheet_state.unlock_table(table=Table.objects.get(pk=w.two.pk))


def _ended(w: World):
    sheet_state.end_table(table=w.one, note="Zug fährt")
    return lambda: sheet_state.resume_table(table=Table.objects.get(pk=w.one.pk))


def _totals(w: World):
    sheet_state.enter_totals(table=w.two, totals=dict.fromkeys(seat_ids(w.two), 0))
    return lambda: sheet_state.clear_totals(table=Table.objects.get(pk=w.two.pk))


def _helper(w: World):
    get_user_model().objects.create_user(username="helfer", password="pw-helfer")
    return lambda: tournaments.set_role(tournament=w.tournament, username="helfer", role="helper", add=True)


def _move_from_five(w: World):
    round = seating.create_round(tournament=w.fresh())
    entries = list(w.tournament.entries.order_by("start_number").values_list("pk", flat=True))
    assert len(entries) == 9
    seating.place_tables(round=round, tables=[entries[:5], entries[5:]], numbers=[1, 2])
    return lambda: seating.move_player(round=Round.objects.get(pk=round.pk), entry_id=entries[0], table_number=2)


def _member(w: World, index: int) -> int:
    return w.entry(index).pk


def _started_clock(w: World):
    round_clock.start_clock(round=w.round)
    return lambda: round_clock.stop_clock(round=Round.objects.get(pk=w.round.pk))


def _hidden(w: World):
    seating.hide_results(round=w.round)
    return lambda: seating.show_results(round=Round.objects.get(pk=w.round.pk))


# ---- every public write of the services, and what it moves -------------------------------------------


def _before_the_draw(w: World, *, self_checkin: bool = False) -> Registration:
    """The world without its round (the private link cancels and checks in only before round 1 is
    drawn), on the tournament's day, self check-in switched on as asked; Zora's registration."""
    Round.objects.filter(tournament=w.tournament).delete()
    Tournament.objects.filter(pk=w.tournament.pk).update(date=datetime.date.today(), self_checkin=self_checkin)
    return Registration.objects.select_related("tournament", "entry").get(pk=w.registration.pk)


def _join_series(w: World):
    tournament = w.fresh()
    return lambda: importing.join_series(tournament, {"name": w.series.name, "slug": w.series.slug},
                                         director=w.director, by=SYSTEM)


def _take_teams(w: World):
    """A first match day of the world's series with a team; the world's tournament, the next day, has none."""
    first = make_tournament(players=4, director=w.director, slug="erster-tag")
    teams.create_team(tournament=first, name="Nord", members=list(first.entries.values_list("pk", flat=True)[:2]))
    series.add_tournament(series=w.series, tournament=first, user=w.director)
    series.add_tournament(series=w.series, tournament=w.fresh(), user=w.director)
    tournament, source = w.fresh(), Tournament.objects.get(pk=first.pk)
    return lambda: match_days.take_teams(tournament=tournament, source=source)


@dataclass(frozen=True)
class Write:
    # setup (not counted) -> the write itself
    prepare: Callable[[World], Callable[[], Any]]
    one_table: bool = False  # only one table's sheet: the setup counter stays
    makes_tournament: bool = False  # a new tournament: its own counter starts


def now(write: Callable[[World], Any]) -> Callable[[World], Callable[[], Any]]:
    """A write that needs no setup."""
    return lambda w: lambda: write(w)


def _correction(w: World):
    return corrections.request_correction(tournament=w.tournament, player_id=w.entry().player_id, text="Falsch.")


WRITES: dict[str, Write] = {
    "corrections.request_correction": Write(
        now(lambda w: corrections.request_correction(tournament=w.tournament, player_id=w.entry().player_id,
                                                     text="Ein Spiel fehlt."))
    ),
    "corrections.answer_correction": Write(
        lambda w: (lambda r: lambda: corrections.answer_correction(tournament=w.tournament, request_id=r.pk,
                                                                   status="answered", answer="Erledigt."))(
            _correction(w))
    ),
    "importing.replace_contents": Write(
        now(lambda w: importing.replace_contents(tournament=w.fresh(), data=export_tournament(w.fresh(), backup=False),
                                                 by=SYSTEM))
    ),
    "hub_tables.replace_table": Write(
        now(lambda w: hub_tables.replace_table(tournament=w.fresh(), data=export_tournament(w.fresh(), backup=False),
                                               round_number=1, table_number=1, by=SYSTEM)), one_table=True
    ),
    "outbox.start_publication": Write(
        now(lambda w: outbox.start_publication(tournament=w.fresh(), hub_url="https://hub.example", key="k"))
    ),
    "outbox.stop_publication": Write(
        lambda w: (outbox.start_publication(tournament=w.fresh(), hub_url="https://hub.example", key="k"),
                   lambda: outbox.stop_publication(tournament=w.fresh()))[1]
    ),
    "checkin.add_walk_in": Write(now(lambda w: checkin.add_walk_in(tournament=w.tournament, name="Walter Tür"))),
    "checkin.edit_registration": Write(
        now(
            lambda w: checkin.edit_registration(
                registration=w.registration, name="Zora Zett", contact="neu@example.org"
            )
        )
    ),
    "checkin.register": Write(now(lambda w: checkin.register(tournament=w.tournament, name="Rudi Neu"))),
    "checkin.set_present": Write(now(lambda w: checkin.set_present(entry=w.entry(), present=True))),
    "checkin.set_registration": Write(
        now(lambda w: checkin.set_registration(tournament=w.fresh(), open=False, limit=0))
    ),
    "checkin.withdraw_registration": Write(now(lambda w: checkin.withdraw_registration(registration=w.registration))),
    "checkin.withdraw_registrations": Write(
        now(lambda w: checkin.withdraw_registrations(tournament=w.tournament, ids=[w.registration.pk]))
    ),
    "checkin.withdraw_no_show": Write(now(lambda w: checkin.withdraw_no_show(entry=w.entry(3)))),
    "registration_links.cancel": Write(
        lambda w: (lambda registration: lambda: registration_links.cancel(registration=registration))(
            _before_the_draw(w))
    ),
    "registration_links.check_in": Write(
        lambda w: (lambda registration: lambda: registration_links.check_in(registration=registration))(
            _before_the_draw(w, self_checkin=True))
    ),
    "importing.join_series": Write(_join_series),
    "match_days.take_teams": Write(_take_teams),
    "contacts.erase_contacts": Write(
        now(lambda w: contacts.erase_contacts(today=w.tournament.date + datetime.timedelta(days=60)))
    ),
    "generate.add_players": Write(now(lambda w: generate.add_players(w.tournament, [("Gerd Neu", "DK Ost")]))),
    "generate.generate_tournament": Write(
        now(lambda w: generate.generate_tournament(players=8, rounds=1, seed="v", slug="zufall")), makes_tournament=True
    ),
    "generate.play_round": Write(
        lambda w: (lambda r: lambda: generate.play_round(r, rng=random.Random(3), games={1: 1}))(
            w.second_round(publish=True)
        )
    ),
    "importing.import_tournament": Write(
        now(
            lambda w: importing.import_tournament(
                exporting.export_tournament(w.tournament, backup=False), slug="kopie", director=w.director
            )
        ),
        makes_tournament=True,
    ),
    "penalties.add_penalty": Write(
        now(lambda w: penalties.add_penalty(table=w.one, offender_id=seat_ids(w.one)[0], note="Farbe")), one_table=True
    ),
    "penalties.delete_penalty": Write(
        lambda w: (lambda p: lambda: penalties.delete_penalty(table=w.one, penalty_id=p.pk))(
            penalties.add_penalty(table=w.one, offender_id=seat_ids(w.one)[0])
        ),
        one_table=True,
    ),
    "penalties.restore_penalty": Write(_deleted_penalty, one_table=True),
    "personal_data.erase_player": Write(now(lambda w: personal_data.erase_player(player=w.entry().player))),
    "player_details.edit_player": Write(
        now(lambda w: player_details.edit_player(entry=w.entry(), name="Anna Neu", club="DK Nord", member_number=""))
    ),
    "player_details.set_categories": Write(
        now(lambda w: player_details.set_categories(entry=w.entry(), categories=["Gast"]))
    ),
    "player_details.set_many_categories": Write(
        now(lambda w: player_details.set_many_categories(tournament=w.tournament, chosen={w.entry().pk: ["Gast"]}))
    ),
    "privacy.at_least": Write(now(lambda w: privacy.at_least(entry=w.entry(), level="initials"))),
    "privacy.set_publication": Write(now(lambda w: privacy.set_publication(entry=w.entry(), level="hidden"))),
    "rangliste.set_member_number": Write(
        now(lambda w: rangliste.set_member_number(entry=w.entry(), member_number="4711"))
    ),
    "results.delete_game": Write(now(lambda w: results.delete_game(table=w.one, number=1)), one_table=True),
    "results.enter_sheets": Write(_sheet_of_table_two),
    "results.restore_game": Write(_deleted_game, one_table=True),
    "results.save_game": Write(
        now(lambda w: results.save_game(table=w.one, number=2, data=normal_game(w.one, 2))), one_table=True
    ),
    "round_clock.start_clock": Write(now(lambda w: round_clock.start_clock(round=w.round))),
    "round_clock.stop_clock": Write(_started_clock),
    "ratings.rebuild_ratings": Write(now(lambda w: ratings.rebuild_ratings(tournament=w.tournament))),
    "organisations.switch_rating": Write(
        now(lambda w: organisations.switch_rating(organisation=w.fresh().organisation, enabled=False))
    ),
    "scores.rebuild_scores": Write(now(lambda w: scores.rebuild_scores(tournament=w.tournament))),
    "seating.close_round": Write(now(lambda w: seating.close_round(round=w.round, backup=False))),
    "seating.create_round": Write(now(lambda w: seating.create_round(tournament=w.fresh()))),
    "seating.hide_results": Write(now(lambda w: seating.hide_results(round=w.round))),
    "seating.move_player": Write(_move_from_five),
    "seating.place_tables": Write(
        lambda w: (
            lambda r: (
                lambda: seating.place_tables(
                    round=r,
                    tables=[
                        [e.pk for e in w.tournament.entries.order_by("start_number")[:4]],
                        [e.pk for e in w.tournament.entries.order_by("start_number")[4:8]],
                    ],
                )
            )
        )(seating.create_round(tournament=w.fresh()))
    ),
    "seating.publish_round": Write(lambda w: (lambda r: lambda: seating.publish_round(round=r))(w.second_round())),
    "seating.reopen_round": Write(
        lambda w: (lambda r: lambda: seating.reopen_round(round=Round.objects.get(pk=r.pk)))(_closed(w))
    ),
    "seating.seat_round": Write(
        lambda w: (lambda r: lambda: seating.seat_round(round=r, seed="s"))(seating.create_round(tournament=w.fresh()))
    ),
    "seating.show_results": Write(_hidden),
    "seating.swap_players": Write(
        lambda w: (
            lambda r: (
                lambda: seating.swap_players(
                    round=r, first_id=seat_ids(r.tables.get(number=1))[0], second_id=seat_ids(r.tables.get(number=2))[0]
                )
            )
        )(w.second_round())
    ),
    "series.add_tournament": Write(
        now(lambda w: series.add_tournament(series=w.series, tournament=w.tournament, user=w.director))
    ),
    "series.remove_tournament": Write(
        lambda w: (lambda s: lambda: series.remove_tournament(series=s, tournament=w.fresh()))(_in_series(w))
    ),
    # its name and whether it is public show on its tournaments' overview
    "series.update_series": Write(
        lambda w: (
            lambda s: (
                lambda: series.update_series(
                    series=s, name="Wintercup 2027", slug="", mode=s.mode, best_of=0, public=False
                )
            )
        )(_in_series(w))
    ),
    "sheet_state.clear_totals": Write(_totals, one_table=True),
    "sheet_state.end_table": Write(now(lambda w: sheet_state.end_table(table=w.one, note="Zug fährt")), one_table=True),
    "sheet_state.enter_totals": Write(
        now(lambda w: sheet_state.enter_totals(table=w.two, totals=dict.fromkeys(seat_ids(w.two), 0))), one_table=True
    ),
    "sheet_state.resume_table": Write(_ended, one_table=True),
    "sheet_state.sign_table": Write(
        lambda w: (lambda t: lambda: sheet_state.sign_table(table=t))(_full_sheet(w)), one_table=True
    ),
    "sheet_state.unlock_table": Write(_unsigned_after_signing, one_table=True),
    "table_links.approve_sheet": Write(_approve, one_table=True),
    "table_links.decide_as_director": Write(
        lambda w: (
            lambda d: lambda: table_links.decide_as_director(table=w.one, draft_id=d.pk, confirm=True, by=SYSTEM)
        )(_entered(w)),
        one_table=True,
    ),
    "table_links.decide_on_link": Write(
        lambda w: (
            lambda d: (
                lambda: table_links.decide_on_link(token=w.token(w.one), draft_id=d.pk, confirm=True, device="b" * 16)
            )
        )(_entered(w, confirmation=Tournament.Confirmation.SECOND_PLAYER)),
        one_table=True,
    ),
    "table_links.enter_game": Write(now(lambda w: _entered(w)), one_table=True),
    "table_links.renew_links": Write(now(lambda w: table_links.renew_links(round=w.round))),
    "table_links.revoke_links": Write(now(lambda w: table_links.revoke_links(round=w.round))),
    "table_links.settle_as_director": Write(
        lambda w: (lambda d: lambda: table_links.settle_as_director(table=w.one, draft_id=d.pk, by=SYSTEM))(
            _rejected(w)
        ),
        one_table=True,
    ),
    "teams.create_team": Write(now(_team)),
    "teams.delete_team": Write(lambda w: (lambda t: lambda: teams.delete_team(team=t))(_team(w))),
    "teams.set_members": Write(
        lambda w: (lambda t: lambda: teams.set_members(team=t, members=[_member(w, 0), _member(w, 2)]))(_team(w))
    ),
    "teams.set_team_options": Write(
        now(lambda w: teams.set_team_options(tournament=w.tournament, team_count=2, club_count=0, teams_apart=False))
    ),
    "teams.update_team": Write(
        lambda w: (
            lambda t: lambda: teams.update_team(team=t, name="Nordlichter", members=[_member(w, 0), _member(w, 1)])
        )(_team(w))
    ),
    "tournaments.create_helper_account": Write(
        now(
            lambda w: tournaments.create_helper_account(
                tournament=w.tournament, username="helferin", password="ein-langes-Passwort-42"
            )
        )
    ),
    "tournaments.create_tournament": Write(
        now(
            lambda w: tournaments.create_tournament(
                name="Neues Turnier", date=datetime.date(2027, 1, 9), director=w.director
            )
        ),
        makes_tournament=True,
    ),
    "tournaments.edit_player": Write(
        now(lambda w: tournaments.edit_player(entry=w.entry(), name="Anna Neu", club="DK Nord"))
    ),
    "tournaments.register_player": Write(
        now(lambda w: tournaments.register_player(tournament=w.tournament, name="Rudi Neu"))
    ),
    "tournaments.register_players": Write(
        now(lambda w: tournaments.register_players(tournament=w.tournament, lines="Rudi Neu, DK Ost"))
    ),
    "tournaments.register_players_checked": Write(
        now(
            lambda w: tournaments.register_players_checked(
                tournament=w.tournament, players=[tournaments.NewPlayer("Rudi Neu", "DK Ost")]
            )
        )
    ),
    "tournaments.return_player": Write(lambda w: (lambda e: lambda: tournaments.return_player(entry=e))(_withdrawn(w))),
    "tournaments.set_role": Write(_helper),
    "tournaments.update_tournament": Write(
        now(
            lambda w: tournaments.update_tournament(
                tournament=w.fresh(), fields={"place": "Vereinsheim"}, rules=w.tournament.rules
            )
        )
    ),
    "tournaments.withdraw_player": Write(now(lambda w: tournaments.withdraw_player(entry=w.entry(3)))),
    "waiting_list.enter": Write(
        lambda w: (lambda r: lambda: waiting_list.enter(tournament=w.fresh(), registration=r))(_waiting(w))
    ),
    "waiting_list.fill_free_places": Write(_fill_free_places),
    "waiting_list.withdraw_player": Write(now(lambda w: waiting_list.withdraw_player(entry=w.entry(3)))),
}

# steps: write only for their caller, inside its recording, and refuse to run outside one (audit.require);
# each with a call made outside any recording
STEPS: dict[str, Callable[[World], Any]] = {
    "bulk.insert_dicts": lambda w: bulk.insert_dicts(Score, [{"table_id": w.one.pk}]),
    "bulk.insert_rows": lambda w: bulk.insert_rows(Score._meta.db_table, ["points"], [(1,)]),
    "bulk.insert_objects": lambda w: bulk.insert_objects([Game(table=w.one, number=99, re=[], re_augen=0)],
                                                         key=("table_id", "number")),
    "editing.bump_version": lambda w: editing.bump_version(w.one),
    "importing.replace_log": lambda w: importing.replace_log(w.tournament, []),
    "ratings.refresh": lambda w: ratings.refresh([w.one.pk]),
    "scores.change_rules": lambda w: scores.change_rules(tournament=w.tournament, rules="ddv"),
    "scores.recompute_table": lambda w: scores.recompute_table(w.one),
    "scores.recompute_tables": lambda w: scores.recompute_tables([w.one], w.tournament.scoring_rules()),
    "scores.recompute_tournament": lambda w: scores.recompute_tournament(w.tournament),
    "scores.write_scores": lambda w: scores.write_scores([], {}),
    "table_links.count_drafts": lambda w: table_links.count_drafts(w.one.pk),
    "table_links.ensure_links": lambda w: table_links.ensure_links(w.round),
    "tournaments.find_or_create_players": lambda w: tournaments.find_or_create_players(
        w.tournament.organisation_id, [("Neu", "", "")]
    ),
}

# writes that change no tournament's pages, each with the reason
NO_TOURNAMENT: dict[str, str] = {
    "identities.decide_identity": "who is the same person across clubs (docs/hub.md): no tournament's page shows "
    "it; the hub's person pages expire (hub-person)",
    "identities.undo_identity": "takes such a decision back: the same",
    "association.add_regular": "a benchmark's person with 300 tournaments and their points in bulk (docs/hub.md): "
    "tournaments of a generated association, of which no page is cached yet; the hub's pages expire",
    "association.generate_association": "new organisations, players and tournaments in bulk (the hub's benchmark, "
    "docs/hub.md): nothing of them is cached yet, and the hub's pages across tournaments expire (hub-page)",
    "organisations.add_organiser": "who may create tournaments: an account's rights, not a tournament's page",
    "organisations.create_organisation": "a new organisation has no tournament yet",
    "organisations.default_organisation": "the site's first organisation, made once (get or create)",
    "organisations.home_organisation": "an account's organisation (made for the first organiser only)",
    "rangliste.create_rangliste": "a Rangliste's own pages are read live (outside_writes.NOT_COUNTED)",
    "rangliste.update_rangliste": "a Rangliste's own pages are read live (outside_writes.NOT_COUNTED)",
    "rangliste_refresh.refresh_rangliste": "an association's stored Rangliste: shown only on its own pages, read "
    "as stored, never cached under a tournament's counter (outside_writes.NOT_COUNTED)",
    "rangliste_refresh.tournament_changed": "marks an association's Rangliste stale inside the recording of the "
    "tournament's change (whose counter moves with it; audit.TOURNAMENT_CHANGED); its pages are not cached "
    "under a counter",
    "rangliste_ratings.store": "the carried rating of an association's stored Rangliste, written inside the "
    "refresh's recording (shown only on the Rangliste's own pages, read as stored)",
    "rangliste_refresh.mark_stale": "marks a Rangliste stale inside the recording of its settings' change",
    "rangliste_refresh.identities_changed": "marks the association's Ranglisten stale inside the recording of a "
    "director's identity decision (no tournament changes); their pages are not cached under a counter",
    "rangliste_refresh.enqueue_refresh": "enqueues the background refresh (the cache's queued mark), no data",
    "series.create_series": "a new series has no tournament yet",
    "series.merge_players": "shows only on the series' standings, read live (outside_writes.NOT_COUNTED)",
    "series.unmerge_players": "shows only on the series' standings, read live (outside_writes.NOT_COUNTED)",
    "backups.backup_after_commit": "writes a backup file after the commit, not the database",
    "backups.write_backup": "writes a backup file, not the database",
    "backups.write_private": "writes a file, not the database",
    "hub_apply.apply_batch": "writes the hub's own tournament through importing.import_tournament and "
    "importing.replace_contents (both moving its counter); checked in test_publishing",
    "hub_idempotency.begin": "the hub's idempotency records, shown on no page (outside_writes.NOT_COUNTED)",
    "hub_idempotency.finish": "the hub's idempotency records, shown on no page (outside_writes.NOT_COUNTED)",
    "hub_idempotency.forget": "the hub's idempotency records, shown on no page (outside_writes.NOT_COUNTED)",
    "publishing_keys.issue_key": "an organisation's publishing keys, on no tournament's page",
    "publishing_keys.revoke_key": "an organisation's publishing keys, on no tournament's page",
    "outbox.queue_change": "the venue's outbox, read by the sender only; called by DataChange.objects.append "
    "inside the change's transaction, after the counter moved",
}

# reads: they write nothing (checks, lookups, computations, locks)
READS: dict[str, str] = {
    name: "reads only"
    for name in (
        "backups.backup_name",
        "hub_apply.checked_batch",
        "hub_apply.invalid",
        "hub_corrections.corrections",
        "hub_corrections.sheet_of",
        "hub_corrections.tables_of",
        "outbox.file_payload",
        "outbox.table_payload",
        "publishing_keys.digest",
        "publishing_keys.find_key",
        "backups.backup_text",
        "checkin.checkin_in_use",
        "checkin.deadline_passed",
        "checkin.deadline_sentence",
        "checkin.deadline_text",
        "registration_links.player_actor",
        "registration_links.registration_of_link",
        "registration_links.self_checkin_refusal",
        "registration_links.started",
        "registration_links.started_sentence",
        "checkin.finished_sentence",
        "contacts.erase_before",
        "editing.check_editable",
        "editing.check_entry",
        "editing.check_in_order",
        "editing.check_number",
        "editing.check_table_version",
        "editing.next_game_number",
        "editing.seen_key",
        "editing.sync_table",
        "exporting.export_log",
        "exporting.log_item",
        "file_checks.check_file",
        "file_reading.depth",
        "file_reading.is_int",
        "file_reading.nul_place",
        "file_reading.round_where",
        "file_reading.shown",
        "file_reading.table_where",
        "file_references.check_tables",
        "file_schema.file_version",
        "file_schema.form_problems",
        "file_teams.check_player",
        "file_teams.check_teams",
        "file_teams.check_tournament",
        "generate.german_names",
        "generate.play_table",
        "generate.random_game",
        "organisations.organisation_named",
        "personal_data.player_report",
        "personal_data.pseudonym",
        "privacy.checked_level",
        "rangliste.checked",
        "rangliste.parse_cut_lines",
        "rangliste_refresh.ranglisten_reading",
        "rangliste_refresh.association_ranglisten_of_people",
        "rangliste_ratings.compute",
        "rangliste_refresh.queued_key",
        "bulk.as_is",
        "results.check_list",
        "results.follow_deal",
        "results.preview_game",
        "results.recorded_game",
        "scores.chunks",
        "scores.games_of",
        "scores.games_per_player",
        "scores.highest_game_numbers",
        "scores.most_total",
        "scores.score_rows",
        "scores.tallies",
        "scores.with_ids",
        "seating.history_before",
        "seating.next_round_number",
        "seating.playing_entries",
        "series.checked_clubs",
        "series.unique_slug",
        "table_links.check_open",
        "table_links.link_actor",
        "table_links.new_token",
        "table_links.pending_games",
        "table_links.player_of",
        "table_links.sheet_complete",
        "table_links.table_of_link",
        "teams.checked_season",
        "teams.clash_sentence",
        "tournaments.check_list_games",
        "tournaments.clean_name",
        "tournaments.first_open_round",
        "tournaments.unique_slug",
        "waiting_list.categories_named",
        "waiting_list.places_taken",
        "waiting_list.waiting_places",
    )
}
READS["exporting.export_tournament"] = "reads the tournament (and writes a backup file, not the database)"
READS.update(
    {
        f"locking.{name}": "locks rows (SELECT ... FOR UPDATE) for the caller's write; writes nothing"
        for name in (
            "lock",
            "lock_one",
            "lock_players",
            "lock_rangliste",
            "lock_round",
            "lock_series",
            "lock_table",
            "lock_tables",
            "lock_tournament",
            "lock_tournaments_of_player",
        )
    }
)


def public_functions() -> set[str]:
    """Every public function defined in a module of tournament/services/, as "module.function"."""
    found = set()
    for module_info in pkgutil.iter_modules(tournament.services.__path__):
        module = importlib.import_module(f"tournament.services.{module_info.name}")
        for name, function in inspect.getmembers(module, inspect.isfunction):
            if function.__module__ == module.__name__ and not name.startswith("_"):
                found.add(f"{module_info.name}.{name}")
    return found


def test_every_public_function_of_the_services_is_listed():
    listed = [*WRITES, *STEPS, *NO_TOURNAMENT, *READS]
    assert len(listed) == len(set(listed)), "a function is listed twice"
    found = public_functions()
    assert not found - set(listed), (
        f"new public functions of the services: put each into WRITES (a call that "
        f"writes), STEPS, NO_TOURNAMENT or READS: {sorted(found - set(listed))}"
    )
    assert not set(listed) - found, f"listed but gone: {sorted(set(listed) - found)}"


@pytest.mark.parametrize("name", sorted(WRITES))
def test_every_write_of_the_services_moves_the_change_counter(name, world):
    write = WRITES[name]
    w = world
    run = write.prepare(w)
    counter, setup = caching.change_counter(w.tournament), caching.setup_counter(w.tournament)
    made = run()
    if write.makes_tournament:
        assert isinstance(made, Tournament) and caching.change_counter(made) > 0, name
        return
    assert caching.change_counter(w.tournament) > counter, f"{name} did not move the change counter"
    if write.one_table:
        assert caching.setup_counter(w.tournament) == setup, f"{name} writes one table's sheet: the setup stays"
    else:
        assert caching.setup_counter(w.tournament) > counter, f"{name} is a wider write: the setup counter moves"


@pytest.mark.parametrize("name", sorted(STEPS))
def test_a_step_that_writes_refuses_to_run_outside_a_recording(name, world):
    w = world
    counter = caching.change_counter(w.tournament)
    with pytest.raises(RuntimeError, match="must run inside audit.recording"), transaction.atomic():
        STEPS[name](w)
    assert caching.change_counter(w.tournament) == counter
    assert audit.current() is None


def test_a_step_runs_inside_its_callers_recording(world):
    w = world
    counter = caching.change_counter(w.tournament)
    with transaction.atomic(), audit.recording("scores_recomputed", by=SYSTEM, tournament=w.tournament):
        scores.recompute_tournament(w.tournament)
    assert caching.change_counter(w.tournament) > counter


# ---- writes outside the services ----------------------------------------------------------------------


def _save(obj) -> Callable[[], Any]:
    return obj.save


# a save (or delete) of each counted model outside any service: setup -> the write
OUTSIDE: dict[type, Callable[[World], Callable[[], Any]]] = {
    Tournament: lambda w: _save(w.fresh()),
    Entry: lambda w: _save(w.entry()),
    Player: lambda w: _save(w.entry().player),
    Round: lambda w: _save(Round.objects.get(pk=w.round.pk)),
    Table: lambda w: _save(Table.objects.get(pk=w.one.pk)),
    Seat: lambda w: _save(Seat.objects.filter(table=w.one).first()),
    Game: lambda w: _save(Game.objects.filter(table=w.one).first()),
    Penalty: lambda w: _save(penalties.add_penalty(table=w.one, offender_id=seat_ids(w.one)[0])),
    DraftGame: lambda w: _save(_entered(w)),
    Score: lambda w: _save(Score.objects.filter(table=w.one).first()),
    Tally: lambda w: _save(Tally.objects.filter(table=w.one).first()),
    Rating: lambda w: _save(Rating.objects.filter(tournament=w.tournament).first()),
    RatingStep: lambda w: _save(RatingStep.objects.filter(table=w.one).first()),
    Team: lambda w: _save(_team(w)),
    TeamMember: lambda w: TeamMember.objects.filter(team=_team(w)).first().delete,
    Registration: lambda w: _save(Registration.objects.get(pk=w.registration.pk)),
    Series: lambda w: _save(_in_series(w)),
}


def test_every_model_is_counted_outside_the_services_or_says_why_not():
    models = {
        model for model in apps.get_app_config("tournament").get_models() if not model.__name__.startswith("Historical")
    }
    listed = set(outside_writes.COUNTED) | set(outside_writes.NOT_COUNTED)
    assert models == listed, f"put each model into outside_writes.COUNTED or NOT_COUNTED: {models ^ listed}"
    assert set(OUTSIDE) == set(outside_writes.COUNTED)


@pytest.mark.parametrize("model", sorted(OUTSIDE, key=lambda model: model.__name__), ids=lambda m: m.__name__)
def test_a_save_outside_the_services_moves_the_counter(model, world):
    w = world
    write = OUTSIDE[model](w)
    counter = caching.change_counter(w.tournament)
    write()
    assert caching.change_counter(w.tournament) > counter, model.__name__


def test_deleting_a_series_outside_the_services_moves_its_tournaments_counters(world):
    w = world
    _in_series(w)
    counter = caching.change_counter(w.tournament)
    Series.objects.get(pk=w.series.pk).delete()
    assert w.fresh().series_id is None
    assert caching.change_counter(w.tournament) > counter


def test_an_organisation_changed_outside_the_services_needs_no_count(world):
    w = world
    counter = caching.change_counter(w.tournament)
    organisation = Organisation.objects.get(pk=w.tournament.organisation_id)
    organisation.publish_member_numbers = True
    organisation.save()
    assert caching.change_counter(w.tournament) == counter  # (NOT_COUNTED: no tournament page shows it)


# ---- the writes that bypass the signals (scripts/write_paths.py, run by `make lint`) --------------------

ROOT = Path(__file__).resolve().parents[3]


def _write_paths():
    spec = importlib.util.spec_from_file_location("write_paths", ROOT / "scripts" / "write_paths.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_the_code_writes_around_the_signals_only_where_the_counter_still_moves():
    assert _write_paths().problems(ROOT) == []


def test_a_write_around_the_signals_is_refused_outside_a_recording(tmp_path):
    module = _write_paths()
    (tmp_path / "tournament" / "views").mkdir(parents=True)
    (tmp_path / "tournament" / "services").mkdir()
    (tmp_path / "tournament" / "views" / "rounds.py").write_text(
        "def hide(round):\n    Round.objects.filter(pk=round.pk).update(results_hidden=True)\n"
    )
    (tmp_path / "tournament" / "services" / "teams.py").write_text(
        "def rename(team):\n"
        "    Team.objects.filter(pk=team.pk).update(name='x')\n"
        "    with audit.recording('team_changed', by=SYSTEM, tournament=team.tournament_id):\n"
        "        Team.objects.filter(pk=team.pk).update(name='y')\n"
        "        TeamMember.objects.bulk_create([])\n"
        "def _members(team):\n"
        "    audit.require('teams._members')\n"
        "    TeamMember.objects.bulk_create([])\n"
        "def _raw():\n"
        "    with connection.cursor() as cursor:\n"
        "        cursor.execute('DELETE FROM tournament_team')\n"
        "    names.update({1: 2})\n"
        "    Team.objects.filter(pk=1).delete()\n"
    )
    found = module.problems(tmp_path)
    assert [line.split(" ", 1)[0] for line in found] == [
        "tournament/services/teams.py:2:",
        "tournament/services/teams.py:10:",
        "tournament/views/rounds.py:2:",
    ], found
    assert "QuerySet.update(...) sends no signals" in found[0] and ".cursor(...)" in found[1]
