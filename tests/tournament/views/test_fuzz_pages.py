"""Random and malformed data to every page that accepts POST, and to the import: never a 500, nothing
half-saved, the stored scores stay zero-sum.

Hypothesis draws the requests (1 to 3 in a row per example, as the director or a helper): every
field of every form with a valid value, a neighbour of one, or junk (huge and negative numbers, text
in any script, NUL characters, very long strings, lists where one value is expected, missing fields),
the ruleset's JSON text in any shape and nesting depth, tournament files with random parts replaced.

After every request:

- never a 500: `client.raise_request_exception = False` and a 500 fails with the exception's
  traceback (a request that raises is a 500);
- a response that says something went wrong (a form error, an error message, 4xx, a conflict)
  changed nothing: the counts of every table the app writes and every row of the tournament's tables
  are as before; a request that changed something added exactly one DataChange row;
- the scores stay zero-sum: per table and per tournament, and a redirect stays on this site.

Each example runs in a savepoint that is rolled back, so every example starts from the same
tournament (built once for the module) and a failing example can be shrunk and replayed.
Deterministic: the "ci" profile of tests/conftest.py (derandomize, no example database).
"""

from __future__ import annotations

import copy
import datetime
import functools
import json
import traceback
from collections import Counter
from contextlib import contextmanager

import pytest
from django.contrib.auth import get_user_model
from django.contrib.messages import constants, get_messages
from django.core.files.uploadedfile import SimpleUploadedFile
from django.db import connection, transaction
from django.db.models import F, Sum
from django.test import Client, override_settings
from django.urls import reverse
from django.utils import timezone
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

import scoring
from seating.dealing import game_players
from tournament.forms.tournaments import SettingsForm
from tournament.log.changelog import KINDS
from tournament.models import (
    CorrectionRequest,
    DataChange,
    Entry,
    Game,
    IdentityDecision,
    Organisation,
    Penalty,
    Player,
    Rangliste,
    Registration,
    RequestKey,
    Round,
    Score,
    Seat,
    Series,
    Table,
    Team,
    TeamMember,
    Tournament,
)
from tournament.ranking import TIE_BREAKERS
from tournament.services import checkin, editing, penalties, results, seating, sheet_state, table_links, tournaments
from tournament.services import series as series_services
from tournament.services import teams as team_services
from tournament.services.exporting import export_tournament
from tournament.services.file_checks import ImportProblems
from tournament.services.importing import import_tournament
from tournament.services.organisations import create_organisation, default_organisation
from tournament.vocabulary import SOLOS

from ..factories import normal_game, player_names, seat_ids

pytestmark = pytest.mark.django_db

ON_POSTGRESQL = connection.vendor == "postgresql"  # settings are read at collection; no connection needed
REQUESTS: Counter = Counter()  # fuzzed requests (and import calls), by test
OUTCOMES: Counter = Counter()  # (test, what they did): "changed" something, "refused" (said error), neither


def fuzz(max_examples: int):
    """The "ci" profile (derandomized, no deadline, no example database) with this many examples."""
    return settings(settings.get_profile("ci"), max_examples=max_examples, database=None,
                    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow,
                                           HealthCheck.data_too_large, HealthCheck.large_base_example,
                                           HealthCheck.filter_too_much])


# ---- the tournament ------------------------------------------------------------------------------------

def make_user(username, **kwargs):
    return get_user_model().objects.create_user(username=username, **kwargs)  # no password: no hashing


def build_world() -> dict:
    """13 players; round 1 published (table 1: games 1-3, game 4 deleted, a penalty; table 2 empty;
    table 3 signed); round 2 a seated draft; no. 13 withdrawn."""
    users = {"director": make_user("leitung"), "helper": make_user("helfer"), "guest": make_user("gast")}
    tournament = tournaments.create_tournament(name="Herbstturnier", date=datetime.date(2026, 11, 21),
                                               director=users["director"], slug="herbst")
    tournament.helpers.add(users["helper"])
    # an organiser of two clubs (creates and restores in either, and must choose), and a third club
    # with a private series that no form may reach (docs/security.md, "Organisations")
    default_organisation().organisers.add(users["director"])
    create_organisation(name="Zweiter Verein", slug="zweiter", organiser=users["director"])
    stranger = create_organisation(name="Fremder Verein", slug="fremd")
    series_services.create_series(name="Fremde Serie", slug="fremde-serie", public=False, organisation=stranger)
    for name in player_names(13):
        tournaments.register_player(tournament=tournament, name=name, club="DK Nord")
    r1 = seating.create_round(tournament=tournament)
    seating.seat_round(round=r1, seed="fuzz")
    seating.publish_round(round=r1)
    t1, t2, t3 = (r1.tables.get(number=n) for n in (1, 2, 3))
    for number in range(1, 5):
        results.save_game(table=t1, data=normal_game(t1, number, re_augen=120 + 5 * number))
    results.delete_game(table=t1, number=4)
    _dealer, _out, players = game_players(seat_ids(t1), 1)
    penalties.add_penalty(table=t1, offender_id=players[0], game_number=1, note="Farbe nicht bedient")
    sheet_state.sign_table(table=t3, note="alle")
    r2 = seating.create_round(tournament=tournament)
    seating.seat_round(round=r2, seed="fuzz-2")
    tournaments.withdraw_player(entry=tournament.entries.get(start_number=13))
    document = export_tournament(tournament)
    checkin.set_registration(tournament=tournament, open=True, limit=13)  # full: the next one waits
    checkin.register(tournament=tournament, name="Wanda Wartend", contact="wanda@example.org")
    # an evening today with self check-in (the private links): one place, Anna has it, Bernd waits
    evening = tournaments.create_tournament(name="Abend", date=timezone.localdate(), director=users["director"],
                                            slug="abend")
    checkin.set_registration(tournament=evening, open=True, limit=1, self_checkin=True)
    for name in ("Anna Abend", "Bernd Abend"):
        checkin.register(tournament=evening, name=name, contact=f"{name.split()[0].lower()}@example.org")
    return {"users": users, "slug": tournament.slug, "tournament_id": tournament.pk, "document": document}


@pytest.fixture(scope="module")
def shared_world(django_db_setup, django_db_blocker, tmp_path_factory):
    """Built once, in a transaction rolled back at the end of the module."""
    folder = tmp_path_factory.mktemp("fuzz")
    with (override_settings(PDF_CACHE_DIR=folder / "pdf-cache", PDF_WORKERS=1, BACKUP_DIR=folder / "backups",
                            PASSWORD_HASHERS=["django.contrib.auth.hashers.MD5PasswordHasher"]),
          django_db_blocker.unblock(), transaction.atomic()):
        yield build_world()
        transaction.set_rollback(True)


class World:
    """What the strategies choose from, read afresh for each test."""

    def __init__(self, shared):
        self.slug = shared["slug"]
        self.users = shared["users"]
        self.document = shared["document"]
        self.tournament = Tournament.objects.get(pk=shared["tournament_id"])
        self.rounds = {r.number: r for r in self.tournament.rounds.all()}
        self.tables = {(t.round.number, t.number): t for t in
                       Table.objects.filter(round__tournament=self.tournament).select_related("round")}
        self.seats = {key: seat_ids(table) for key, table in self.tables.items()}
        self.entry_ids = list(self.tournament.entries.values_list("id", flat=True))
        self.penalty_ids = list(Penalty.objects.filter(table__round__tournament=self.tournament)
                                .values_list("id", flat=True))
        self.history_ids = {kind: list(model.history.filter(log_tournament=self.tournament.pk)
                                       .values_list("history_id", flat=True)) for kind, model in KINDS.items()}
        self.organisations = {o.slug: str(o.pk) for o in Organisation.objects.all()}
        self.series_ids = [str(pk) for pk in Series.objects.values_list("pk", flat=True)]

    def check_organisations(self):
        """Nothing was made in an organisation the director does not act for, and no Rangliste counts
        another organisation's series (docs/security.md, "Organisations")."""
        own = set(self.users["director"].organisations.values_list("pk", flat=True))
        for model in (Tournament, Rangliste):
            assert not model.objects.exclude(organisation__in=own).exists(), model
        assert list(Series.objects.exclude(organisation__in=own).values_list("slug", flat=True)) == ["fremde-serie"]
        assert not Rangliste.objects.exclude(series=None).exclude(series__organisation=F("organisation")).exists()
        assert not Player.objects.exclude(organisation__in=own).exists()


@pytest.fixture
def world(shared_world, db):
    return World(shared_world)


@pytest.fixture
def clients(world):
    made = {}
    for role in ("director", "helper"):
        client = Client()
        client.raise_request_exception = False  # the 500 is checked, with its traceback
        client.force_login(world.users[role])
        made[role] = client
    return made


@pytest.fixture(scope="module", autouse=True)
def report():
    yield
    print(f"\nfuzzed: {sum(REQUESTS.values())} requests and imports; "
          + ", ".join(f"{name} {count} ({OUTCOMES[name, 'changed']} changed, {OUTCOMES[name, 'refused']} refused)"
                      for name, count in REQUESTS.items()))


# ---- values ---------------------------------------------------------------------------------------------

HUGE = [2**15, 2**16, 2**31 - 1, 2**31, 2**32, 2**53 + 1, 2**63 - 1, 2**63, 2**64, 10**30, 10**400]
SPECIAL = ["", " ", "0", "-0", "+1", "-1", "1.5", "1e3", "NaN", "inf", "null", "true", "[]", "{}", "١٢٣", "１２",
           "\x00", "a\x00b", "0x10", "1_000", "𝟙", "' OR 1=1 --", "<script>alert(1)</script>", "../../etc/passwd",
           "%s%n", "\u202e", "\ud7ff", "Zoë 🃏", "\r\n", "\t"]
numbers = st.one_of(st.integers(-3, 300), st.sampled_from(HUGE), st.sampled_from(HUGE).map(lambda n: -n),
                    st.integers())
long_text = st.builds(lambda part, n: part * n, st.text(min_size=1, max_size=4), st.integers(30, 3000))
texts = st.one_of(st.text(max_size=12), st.sampled_from(SPECIAL), long_text)
scalars = st.one_of(numbers.map(str), texts)
junk = st.one_of(scalars, st.lists(scalars, min_size=0, max_size=3))


def value(*valid):
    """A valid value (most often), or junk: a number, a text, a list."""
    if not valid:
        return junk
    return st.one_of(st.sampled_from([str(v) for v in valid]), st.sampled_from([str(v) for v in valid]), junk)


def form(fields: dict) -> st.SearchStrategy:
    """A POST body of drawn fields, every one of which may be missing."""
    return st.fixed_dictionaries({}, optional=fields)


def body(data, valid: dict, fields: dict, label: str = "body") -> dict:
    """Mostly the form's valid body (what the page itself would send) with 0-3 fields changed: a
    drawn value (valid, a neighbour, or junk) or left out; now and then every field drawn. Starting
    from valid bodies gets the fuzzing past the first check into the services."""
    how_many = data.draw(st.sampled_from([0, 0, 1, 1, 2, 3, "all"]), label=f"{label}: fields changed")
    if how_many == "all":
        return data.draw(form(fields), label=label)
    result = dict(valid)
    how_many = min(how_many, len(fields))
    names = data.draw(st.lists(st.sampled_from(sorted(fields)), unique=True, min_size=how_many, max_size=how_many),
                      label=f"{label}: changed")
    for name in names:
        if name in result and data.draw(st.integers(0, 4), label=f"{label}: leave out {name}") == 0:
            del result[name]
        else:
            result[name] = data.draw(fields[name], label=f"{label}: {name}")
    return result


def json_of(text: st.SearchStrategy, keys: st.SearchStrategy) -> st.SearchStrategy:
    return st.recursive(
        st.none() | st.booleans() | numbers | st.floats(allow_nan=False) | text
        | st.sampled_from(["turnier", "ddv", "re", "kontra", "normal", "solo", "published", "draft", "Anna"]),
        lambda children: st.lists(children, max_size=4) | st.dictionaries(keys, children, max_size=4),
        max_leaves=15)


json_values = json_of(texts, st.text(max_size=10))
# (once without NUL characters, while a NUL in a tournament file was a bug on PostgreSQL; now every
# character: test_a_file_with_a_nul_character_is_no_500 keeps that bug away)
no_nul = st.characters()
safe_keys = st.text(no_nul, max_size=10)
safe_texts = st.one_of(st.text(no_nul, max_size=12), st.sampled_from([t for t in SPECIAL if "\x00" not in t]),
                       st.builds(lambda part, n: part * n, st.text(no_nul, min_size=1, max_size=4),
                                 st.integers(30, 3000)))
safe_json = json_of(safe_texts, safe_keys)


def deeply_nested(n: int, kind: str) -> str:
    return {"list": "[" * n + "]" * n, "object": '{"a":' * n + "1" + "}" * n,
            "option": '{"bock_triggers": ' + "[" * n + "]" * n + "}"}[kind]


# ---- one request, and what it must not do ------------------------------------------------------------------

@functools.cache  # (a model's `history` builds its manager class anew at every reading)
def counted_models():
    models = [DataChange, Tournament, Entry, Player, Round, Table, Seat, Game, Penalty, Score, RequestKey, Registration,
              get_user_model(), Tournament.directors.through, Tournament.helpers.through, Team, TeamMember,
              CorrectionRequest, CorrectionRequest.history.model, IdentityDecision, IdentityDecision.history.model]
    return models + [model.history.model for model in KINDS.values()]


def state() -> dict:
    """Row counts of everything the app writes, and every row of the tournament tables (raw SQL: fast)."""
    quote = connection.ops.quote_name
    models = counted_models()
    found = {}
    with connection.cursor() as cursor:
        cursor.execute("SELECT " + ", ".join(f"(SELECT COUNT(*) FROM {quote(m._meta.db_table)})" for m in models))
        found["counts"] = dict(zip((m._meta.label for m in models), cursor.fetchone(), strict=True))
        for model in (Tournament, Round, Table, Entry, Game, Penalty, Seat, Team, TeamMember, Registration,
                      CorrectionRequest, IdentityDecision):
            columns = ", ".join(quote(f.column) for f in model._meta.concrete_fields)
            cursor.execute(f"SELECT {columns} FROM {quote(model._meta.db_table)} ORDER BY 1")
            found[model._meta.label] = cursor.fetchall()
    return found


def changes(before: dict, after: dict) -> list[str]:
    found = [f"{name}: {before['counts'][name]} -> {after['counts'][name]}"
             for name in before["counts"] if before["counts"][name] != after["counts"][name]]
    return found + [f"rows of {name}" for name in before if name != "counts" and before[name] != after[name]]


def check_scores() -> None:
    """The score cache sums to zero at every table and in every tournament; Augen stay in 0..240."""
    tables = list(Score.objects.values("table_id").annotate(total=Sum("points")).exclude(total=0))
    assert not tables, f"tables whose scores do not sum to zero: {tables}"
    totals = list(Score.objects.values("round__tournament_id").annotate(total=Sum("points")).exclude(total=0))
    assert not totals, f"tournaments whose scores do not sum to zero: {totals}"
    assert not Game.objects.filter(re_augen__gt=240).exists()


def said_error(response) -> bool:
    """Does the response say that the request was refused or went wrong?"""
    if response.status_code in (400, 403, 404, 405, 409):
        return True
    if any(m.level >= constants.ERROR for m in get_messages(response.wsgi_request)):
        return True
    context = response.context
    if context is None:
        return False
    for name in ("form", "player_form", "list_form"):
        try:
            found = context[name]
        except KeyError:
            continue
        if getattr(found, "is_bound", False) and found.errors:
            return True
    for name in ("problems", "conflict"):
        try:
            if context[name]:
                return True
        except KeyError:
            pass
    return False


def post(client: Client, url: str, data: dict, *, what: str, new_tournament: bool = False, counted: int = 1):
    """Posts, then checks: no 500, nothing changed when it says error, one DataChange per change
    (`counted`: a change of an organisation moves each of its tournaments' counters; 0 or False: a change
    of no tournament, none), zero-sum scores, no redirect off the site."""
    client.cookies.pop("messages", None)  # only this request's messages count
    before = state()
    response = client.post(url, data)
    REQUESTS[what] += 1
    if response.status_code == 500:
        exc_info = getattr(response, "exc_info", None)
        trace = "".join(traceback.format_exception(*exc_info)) if exc_info else response.content[:2000]
        raise AssertionError(f"500 for POST {url} {data!r}:\n{trace}")
    if response.streaming:
        b"".join(response.streaming_content)
    after = state()
    changed = changes(before, after)
    error = said_error(response)
    OUTCOMES[what, "refused" if error else "changed" if changed else "unchanged"] += 1
    if error:
        assert not changed, f"POST {url} said error but changed {changed}: {data!r}"
    elif changed and not new_tournament:
        added = after["counts"]["tournament.DataChange"] - before["counts"]["tournament.DataChange"]
        assert added == counted, f"POST {url} changed {changed} with {added} DataChange rows: {data!r}"
    if new_tournament and changed:
        assert after["counts"]["tournament.Tournament"] == before["counts"]["tournament.Tournament"] + 1, changed
    if response.status_code in (301, 302):
        location = response["Location"]
        assert location.startswith("/") and not location.startswith("//"), f"redirect off the site: {location}"
    check_scores()
    return response


@contextmanager
def rolled_back():
    """One example: whatever it changes is undone afterwards."""
    with transaction.atomic():
        yield
        transaction.set_rollback(True)


# ---- the table sheet: games, penalties, totals, signature, restore ------------------------------------

# round 1: table 1 with games and a penalty, table 2 empty, table 3 signed; round 2 a draft. Each
# test picks most often the table where its form can succeed.
GAME_TABLES = st.sampled_from([(1, 1), (1, 1), (1, 2), (1, 2), (1, 3), (2, 1)])
PENALTY_TABLES = st.sampled_from([(1, 1), (1, 1), (1, 1), (1, 2), (1, 3), (2, 1)])
TOTALS_TABLES = st.sampled_from([(1, 2), (1, 2), (1, 2), (1, 1), (1, 3), (2, 1)])
SIGN_TABLES = st.sampled_from([(1, 1), (1, 2), (1, 3), (1, 3), (2, 1)])
roles = st.sampled_from(["director", "director", "helper"])


def table_url(w: World, name: str, key: tuple[int, int], **extra) -> str:
    return reverse(f"tournament:{name}", kwargs={"slug": w.slug, "round_number": key[0], "table_number": key[1],
                                                 **extra})


def table_now(w: World, key) -> Table:
    return Table.objects.get(pk=w.tables[key].pk)


def game_fields(w: World, key) -> dict:
    seat = st.integers(0, 9).map(str)
    fields = {
        "version": value(0, 1, 2), "type": value(*Game.Type.values), "solo": value("", *SOLOS),
        "re_seats": st.one_of(st.lists(seat, max_size=5).map("".join), st.lists(seat, max_size=3).map("+".join),
                              junk),
        "announcements": st.one_of(st.lists(st.sampled_from(["r", "k", "r9", "k6", "rs", "k3", "re", "ko", "x"]),
                                            max_size=3).map(" ".join), junk),
        "re_augen": value(0, 90, 120, 121, 151, 240, 241), "re_tricks": value("", 0, 1, 12, 13),
        "extras": st.one_of(st.lists(st.sampled_from(["rf", "kf", "rd", "rdd", "kk", "rg", "kh", "r2f", "kx", "f"]),
                                     max_size=3).map(" ".join), junk),
        "action": value("save", "preview", "save_next", "overwrite", ""), "number": value(*range(1, 12)),
    }
    return fields


def valid_game(w: World, key, number: int | None) -> dict:
    table = table_now(w, key)
    number = number if number is not None else editing.next_game_number(table)
    existing = table.games.filter(number=number).first()
    _dealer, _out, players = game_players(w.seats[key], max(number, 1))
    seats = "".join(str(w.seats[key].index(p) + 1) for p in (players[0], players[2]))
    return {"type": "normal", "re_seats": seats, "re_augen": "151", "announcements": "",
            "extras": "", "version": str(existing.version if existing else 0), "action": "save",
            "number": str(number)}


@fuzz(70)
@given(data=st.data())
def test_game_form(world, clients, data):
    with rolled_back():
        for _ in range(data.draw(st.integers(1, 3), label="requests")):
            key = data.draw(GAME_TABLES, label="table")
            number = data.draw(st.one_of(st.none(), st.integers(0, 12), st.sampled_from(HUGE)), label="game")
            url = (table_url(world, "game_new", key) if number is None
                   else table_url(world, "game_edit", key, number=number))
            sent = body(data, valid_game(world, key, number if number is None or number < 20 else None),
                        game_fields(world, key))
            post(clients[data.draw(roles, label="role")], url, sent, what="game form")


@fuzz(50)
@given(data=st.data())
def test_penalties_and_game_deletion(world, clients, data):
    with rolled_back():
        for _ in range(data.draw(st.integers(1, 3), label="requests")):
            key = data.draw(PENALTY_TABLES, label="table")
            client = clients[data.draw(roles, label="role")]
            kind = data.draw(st.sampled_from(["add", "add", "delete", "delete game"]), label="what")
            if kind == "add":
                _dealer, _out, players = game_players(world.seats[key], 2)
                valid = {"offender": str(players[1]), "game_number": "2", "note": "Karten gezeigt",
                         "key": data.draw(st.uuids(), label="key").hex}
                sent = body(data, valid, {
                    "offender": value(*(world.seats[key] + world.entry_ids)), "game_number": value(1, 2, 3, 8, 10),
                    "note": value("Farbe nicht bedient", ""), "key": value("k1", "k2")})
                post(client, table_url(world, "penalty_add", key), sent, what="penalty add")
            elif kind == "delete":
                penalty = data.draw(st.one_of(st.sampled_from(world.penalty_ids), st.integers(0, 10**6),
                                              st.sampled_from(HUGE)), label="penalty")
                sent = body(data, {"confirm": "yes"}, {"confirm": value("yes", "no")})
                post(client, table_url(world, "penalty_delete", key, penalty_id=penalty), sent, what="penalty delete")
            else:
                number = data.draw(st.one_of(st.sampled_from([1, 2, 3]), st.integers(0, 12), st.sampled_from(HUGE)),
                                   label="game")
                game = table_now(world, key).games.filter(number=number if number < 100 else 0).first()
                sent = body(data, {"confirm": "yes", "version": str(game.version if game else 1)},
                            {"confirm": value("yes"), "version": value(0, 1, 2)})
                post(client, table_url(world, "game_delete", key, number=number), sent, what="game delete")


def valid_totals(w: World, key, data) -> dict:
    seated = w.seats[key]
    points = data.draw(st.lists(st.integers(-400, 400), min_size=len(seated) - 1, max_size=len(seated) - 1),
                       label="totals")
    return {"version": str(table_now(w, key).version),
            **{f"p{entry}": str(p) for entry, p in zip(seated, points + [-sum(points)], strict=True)}}


@fuzz(50)
@given(data=st.data())
def test_totals_and_signature(world, clients, data):
    with rolled_back():
        for _ in range(data.draw(st.integers(1, 3), label="requests")):
            totals = data.draw(st.booleans(), label="totals")
            key = data.draw(TOTALS_TABLES if totals else SIGN_TABLES, label="table")
            client = clients[data.draw(roles, label="role")]
            if totals:
                fields = {f"p{entry}": value(0, 10, -10, 1000) for entry in world.seats[key]}
                fields.update({"version": value(0, 1, 2, 3), "action": value("", "clear"),
                               f"p{world.entry_ids[0]}": junk})
                sent = body(data, valid_totals(world, key, data), fields)
                post(client, table_url(world, "table_totals", key), sent, what="totals")
            else:
                valid = {"version": str(table_now(world, key).version), "note": "unterschrieben"}
                if data.draw(st.booleans(), label="unlock"):
                    valid["action"] = "unlock"
                sent = body(data, valid, {"action": value("", "unlock", "sign"), "version": value(0, 1, 2, 3, 4, 5),
                                          "note": st.one_of(texts, st.just("x" * 301))})
                post(client, table_url(world, "table_sign", key), sent, what="sign")


@fuzz(40)
@given(data=st.data())
def test_board_decisions_and_links(world, clients, data):
    """The live board's one-click decisions (confirm, take, reject, settle) on a waiting entry, a
    conflicting one and a rejected one, and the links form (one table, all, or junk)."""
    with rolled_back():
        table = world.tables[(1, 2)]  # no games yet
        link = Table.objects.get(pk=table.pk).link_token
        entered = [table_links.enter_game(token=link, number=1, data=normal_game(table, 1, re_augen=augen), key=key,
                                          device=key * 16) for key, augen in (("a", 130), ("b", 100), ("c", 90))]
        table_links.decide_on_link(token=link, draft_id=entered[2].pk, confirm=False, device="z" * 16)
        for _ in range(data.draw(st.integers(1, 3), label="requests")):
            client = clients[data.draw(roles, label="role")]
            if data.draw(st.booleans(), label="board"):
                draft = data.draw(st.one_of(st.sampled_from([d.pk for d in entered]), st.integers(0, 10**6),
                                            st.sampled_from(HUGE)), label="draft")
                sent = body(data, {"decision": "confirm"}, {
                    "decision": value("confirm", "take", "reject", "settle"), "reason": texts})
                url = reverse("tournament:board_decide", kwargs={"slug": world.slug, "round_number": 1,
                                                                 "table_number": 2, "draft_id": draft})
                post(client, url, sent, what="board decide")
            else:
                sent = body(data, {"table": "2", "action": "renew"}, {
                    "table": value("all", "0", "1", "2", "3", "99", "-1"), "action": value("renew", "revoke")})
                post(client, reverse("tournament:links_action", kwargs={"slug": world.slug, "round_number": 1}),
                     sent, what="links")


@fuzz(40)
@given(data=st.data())
def test_restore_from_the_log(world, clients, data):
    with rolled_back():
        key = data.draw(st.sampled_from([(1, 1), (1, 1), (1, 2), (1, 3)]), label="table")
        kind = data.draw(st.sampled_from(["game", "game", "penalty", *KINDS, "spiel", "Game", "x" * 200, "ü"]),
                         label="kind")
        ids = world.history_ids.get(kind) or [1]
        history_id = data.draw(st.one_of(st.sampled_from(ids), st.sampled_from(ids), st.integers(0, 10**6),
                                         st.sampled_from(HUGE)), label="record")
        sent = data.draw(form({"next": value("/t/herbst/", "https://evil.example/", "//evil.example/x",
                                             "javascript:alert(1)", "/\\evil.example")}), label="body")
        url = table_url(world, "restore", key, kind=kind, history_id=history_id)
        post(clients[data.draw(roles, label="role")], url, sent, what="restore")


# ---- the director's pages ------------------------------------------------------------------------------------

OPTION_NAMES = ["re_wins_120", "lost_absage_levels", "reached_against_absage", "gegen_die_alten", "sonderpunkte",
                "sonderpunkte_in_solo", "stille_hochzeit_is_solo", "hochzeit_alone_is_solo", "nobody_wins",
                "lone_factor", "penalty_points", "nullspiel_doubles", "bock_triggers", "bock_length",
                "bock_skips_solo", "solo_lost_point", "solo_kinds", "scheme", "deck", "preset", "title", "id"]

rule_texts = st.one_of(
    st.just(""),
    st.dictionaries(st.sampled_from(OPTION_NAMES) | st.text(max_size=10), json_values, max_size=4).map(json.dumps),
    st.builds(lambda name, v: json.dumps({name: v}), st.sampled_from(OPTION_NAMES),
              st.one_of(numbers, st.booleans(), st.lists(st.sampled_from(["fuchs", "karlchen", "damen", "x"])))),
    json_values.map(json.dumps),
    st.builds(deeply_nested, st.integers(1, 2500), st.sampled_from(["list", "object", "option"])),
    texts,
)


def valid_settings(w: World) -> dict:
    tournament = Tournament.objects.get(pk=w.tournament.pk)
    initial = SettingsForm(tournament=tournament).initial
    valid = {name: str(v) for name, v in initial.items() if v not in (None, False, "", [])}
    valid.update(date=tournament.date.isoformat(), name="Herbstturnier 2026")
    return valid


SETTINGS_FIELDS = {
    "version": value(0, 1, 2, 99), "name": value("Herbst", ""), "date": value("2026-11-21", "2026-02-30"),
    "place": texts, "slug": value("herbst", "neu", "new", "anderes-turnier"), "preset": value(*scoring.PRESETS),
    "rounds_planned": value(1, 3, 30, 31, 0), "games_at_table_of_4": value(1, 2, 3, 8, 99, 100),
    "games_at_table_of_5": value(1, 5, 10, 99), "rule_changes": rule_texts,
    "tie_breakers": st.one_of(st.lists(st.sampled_from(list(TIE_BREAKERS) + ["x"]), max_size=3), junk),
    "categories": st.one_of(value("", "Ü70, Vereinsmeister", "Damen", ",,,", "x" * 31, ",".join("abcdefghijk")), texts),
    "prizes": st.one_of(value("", "Gesamt: 50 €; 30 €; 20 €", "Damen: Präsentkorb\nGesamt: 1. 50 €", "Profis: Pokal",
                              "Gesamt: " + "x" * 61, "Gesamt: " + ";" * 101 + "a", "Gesamt", "Damen: 1\ndamen: 2"),
                        texts),
    **{name: value("on", "") for name in ("public_overview", "public_seating", "public_standings", "public_players",
                                          "counts_for_rangliste")},
}


@fuzz(50)
@given(data=st.data())
def test_settings(world, clients, data):
    url = reverse("tournament:settings", kwargs={"slug": world.slug})
    with rolled_back():
        for _ in range(data.draw(st.integers(1, 2), label="requests")):
            sent = body(data, valid_settings(world), SETTINGS_FIELDS)
            if data.draw(st.integers(0, 2), label="rules changed") == 0:
                sent["rule_changes"] = data.draw(rule_texts, label="rule_changes")
            post(clients["director"], url, sent, what="settings")


player_lines = st.lists(st.one_of(
    st.builds(lambda name, sep, club: f"{name}{sep}{club}", texts, st.sampled_from([";", "\t", ",", "", " ; "]), texts),
    st.sampled_from(["Anna", "Anna; DK Nord", "", "   ", ";", "Neu; Verein", "Neu; Verein", "x" * 121, "\x00",
                     "Neu Eins; DK Süd", "Neu Zwei", "Neu Drei,Club"]),
), max_size=25).map("\n".join)


@fuzz(50)
@given(data=st.data())
def test_players(world, clients, data):
    url = reverse("tournament:players", kwargs={"slug": world.slug})
    with rolled_back():
        for _ in range(data.draw(st.integers(1, 2), label="requests")):
            if data.draw(st.booleans(), label="one"):
                sent = body(data, {"one-name": "Neue Spielerin", "one-club": "DK Süd"}, {
                    "one-name": value("Neue Spielerin", "Anna"), "one-club": texts,
                    "one-start_number": value("", 1, 14, 99_999, 100_000)})
            else:
                sent = body(data, {"many-lines": "Neu Eins; DK Süd\nNeu Zwei"},
                            {"many-lines": st.one_of(player_lines, junk)})
            post(clients["director"], url, sent, what="players")
        entry = data.draw(st.one_of(st.sampled_from(world.entry_ids), st.integers(0, 10**6), st.sampled_from(HUGE)),
                          label="entry")
        name = data.draw(st.sampled_from(["player_withdraw", "player_return"]), label="withdraw or return")
        sent = body(data, {"confirm": "yes"}, {"confirm": value("yes", "no")})
        post(clients["director"], reverse(f"tournament:{name}", kwargs={"slug": world.slug, "entry_id": entry}), sent,
             what="withdraw/return")


@fuzz(30)
@given(data=st.data())
def test_player_edit(world, clients, data):
    """The player edit page: name, club, member number, categories (docs/competitions.md) and the
    publication level (docs/privacy.md)."""
    entry = Entry.objects.select_related("player").get(pk=world.entry_ids[0])
    url = reverse("tournament:player_edit", kwargs={"slug": world.slug, "entry_id": entry.pk})
    valid = {"name": entry.player.name, "club": entry.player.club, "loaded_name": entry.player.name,
             "loaded_club": entry.player.club, "member_number": "4711", "categories": ["Damen"],
             "publication": "initials"}
    sent = body(data, valid, {
        "name": value(entry.player.name, "Neuer Name", ""), "club": texts, "member_number": texts,
        "publication": value("full", "initials", "hidden", ""),
        "categories": st.one_of(st.lists(st.sampled_from(["Damen", "Jugend", "Senioren", "Gast", "Profis", ""]),
                                         max_size=3), junk)})
    with rolled_back():
        post(clients["director"], url, sent, what="player edit")


@fuzz(50)
@given(data=st.data())
def test_registration_and_checkin(world, clients, data):
    """The public registration (as anyone), the director's registration settings, editing and
    withdrawing a registration, striking several, the check-in's walk-in (with categories), marks
    and withdrawing a no-show."""
    registrations = list(Registration.objects.filter(tournament=world.tournament).values_list("id", flat=True))
    person = {"name": value("Neue Spielerin", "Anna", "Wanda Wartend"), "club": texts, "category": texts,
              "contact": texts, "publication": value("full", "initials", "hidden", "")}
    with rolled_back():
        for _ in range(data.draw(st.integers(1, 3), label="requests")):
            page = data.draw(st.sampled_from(["registration", "registrations", "registration_edit",
                                              "registration_withdraw", "registrations_withdraw", "checkin",
                                              "checkin_mark", "checkin_withdraw", "player_categories"]),
                                 label="page")
            kwargs: dict = {"slug": world.slug}
            if page in ("registration_edit", "registration_withdraw"):
                kwargs["registration_id"] = data.draw(st.one_of(st.sampled_from(registrations),
                                                                st.integers(0, 10**6)), label="registration")
            if page in ("checkin_mark", "checkin_withdraw"):
                kwargs["entry_id"] = data.draw(st.one_of(st.sampled_from(world.entry_ids), st.integers(0, 10**6)),
                                               label="entry")
            if page in ("registration", "registration_edit"):
                sent = body(data, {"name": "Neue Spielerin", "club": "DK Süd", "publication": "hidden"}, person)
            elif page == "registrations":
                sent = body(data, {"open": "on", "limit": "14", "waiting": "", "deadline": "2026-11-20T18:00",
                                   "self_checkin": "on"},
                            {"open": value("on", ""), "limit": value(0, 1, 13, 14, 5000, 5001, -1),
                             "waiting": value("", 0, 1, 20, 5000, 5001, -1),
                             "deadline": value("", "2026-11-20T18:00", "2026-03-29T02:30", "2026-10-25T02:30",
                                               "9999-12-31T23:59", "0001-01-01T00:00", "2026-02-30T10:00",
                                               "2026-11-20 18:00:00", "20.11.2026 18:00"),
                             "self_checkin": value("on", "")})
            elif page == "registrations_withdraw":
                sent = body(data, {"registrations": registrations[:1]},
                            {"registrations": st.one_of(st.lists(st.sampled_from(registrations), max_size=3),
                                                        st.lists(scalars, max_size=3), junk)})
            elif page == "checkin":
                sent = body(data, {"name": "Gast an der Tür", "categories": ["Damen"]},
                            {"name": person["name"], "club": texts,
                             "categories": st.one_of(st.lists(st.sampled_from(["Damen", "Gast", "Profis", ""]),
                                                              max_size=3), junk)})
            elif page == "checkin_withdraw":
                sent = body(data, {"confirm": "1"}, {"confirm": value("1", "0", ""), "q": texts})
            elif page == "checkin_mark":
                sent = body(data, {"present": "1"}, {"present": value("1", "0"), "q": texts})
            elif page == "player_categories":
                entry = data.draw(st.sampled_from(world.entry_ids), label="entry")
                sent = body(data, {"entries": [entry], f"c{entry}": ["Damen"]},
                            {"entries": st.one_of(st.lists(st.sampled_from(world.entry_ids), max_size=3),
                                                  st.lists(scalars, max_size=3), junk),
                             f"c{entry}": st.one_of(st.lists(st.sampled_from(["Damen", "Gast", "Profis", ""]),
                                                             max_size=3), junk)})
            else:
                sent = {}
            client = Client() if page == "registration" else clients["director"]
            client.raise_request_exception = False
            post(client, reverse(f"tournament:{page}", kwargs=kwargs), sent, what="registration and check-in")


@fuzz(40)
@given(data=st.data())
def test_private_registration_links(world, clients, data):
    """A player's private link (cancel with its confirmation, check in), the venue's check-in page and
    the director's poster: the registration of either tournament or none, its secret or another text."""
    links = {slug: list(Registration.objects.filter(tournament__slug=slug).values_list("id", "link_token"))
             for slug in (world.slug, "abend")}
    tokens = st.one_of(st.text(st.characters(blacklist_characters="/", blacklist_categories=["Cs"]), min_size=1,
                               max_size=40), st.sampled_from(["x" * 24, "falsch", "..", "%2F", "a" * 500]))
    with rolled_back():
        for _ in range(data.draw(st.integers(1, 3), label="requests")):
            slug = data.draw(st.sampled_from(["abend", "abend", world.slug]), label="tournament")
            page = data.draw(st.sampled_from(["registration_own", "registration_cancel", "registration_cancel",
                                              "registration_checkin", "registration_checkin", "self_checkin",
                                              "registration_poster"]), label="page")
            kwargs: dict = {"slug": slug}
            if page.startswith("registration_") and page != "registration_poster":
                registration_id, token = data.draw(st.sampled_from(links[slug]), label="registration")
                if data.draw(st.integers(0, 3), label="another secret") == 0:
                    token = data.draw(tokens, label="secret")
                if data.draw(st.integers(0, 5), label="another id") == 0:
                    registration_id = data.draw(st.integers(0, 10**6), label="id")
                kwargs.update(registration_id=registration_id, token=token)
            sent = body(data, {"confirm": "yes"}, {"confirm": value("yes", "no", "")})
            client = clients["director"] if page == "registration_poster" else Client()
            client.raise_request_exception = False
            post(client, reverse(f"tournament:{page}", kwargs=kwargs), sent, what="private registration links")


def valid_seating(w: World, name: str, number: int, key: str, action: str = "publish") -> dict:
    """What the round page itself would send to `name` for round `number`, as the round is now."""
    round = Round.objects.filter(tournament_id=w.tournament.pk, number=number).first()
    if name == "round_create":
        return {"number": str(seating.next_round_number(w.tournament))}
    if round is None:
        return {}
    tables = {t.number: seat_ids(t) for t in round.tables.all()}
    valid = {"version": str(round.version), "key": key}
    if name == "round_draw":
        valid.update(mode="random", seed="neu")
    elif name == "round_swap" and len(tables) > 1:
        valid.update(first=str(tables[1][0]), second=str(tables[2][-1]))
    elif name == "round_move":
        five = [n for n, ids in tables.items() if len(ids) == 5]
        four = [n for n, ids in tables.items() if len(ids) == 4]
        if five and four:
            valid.update(entry=str(tables[five[0]][1]), table=str(four[0]))
    elif name == "round_status":
        valid.update(action=action, confirm="yes")
    return valid


def seating_fields(w: World, keys: st.SearchStrategy) -> dict:
    ids = w.entry_ids
    return {
        "mode": value("random", "standings"), "seed": value("neu", ""), "new_seed": value("1"),
        "version": value(0, 1, 5), "key": keys, "first": value(*ids), "second": value(*ids), "entry": value(*ids),
        "table": value(1, 2, 3, 4), "action": value("publish", "close", "reopen", "hide", "show"),
        "confirm": value("yes"), "number": value(1, 2, 3, 4),
    }


# One-time keys as the pages make them, and any text (test_a_one_time_key_of_any_text_is_no_500 too)
safe_request_keys = st.one_of(st.uuids().map(lambda u: u.hex), st.text(no_nul, max_size=80))


@fuzz(60)
@given(data=st.data())
def test_seating(world, clients, data):
    """Draw, swap, move, status of a round, and creating the next one."""
    with rolled_back():
        for _ in range(data.draw(st.integers(1, 3), label="requests")):
            name = data.draw(st.sampled_from(["round_draw", "round_swap", "round_move", "round_status",
                                              "round_create"]), label="page")
            number = data.draw(st.sampled_from([1, 2, 2, 3]), label="round")
            kwargs = {"slug": world.slug} if name == "round_create" else {"slug": world.slug, "round_number": number}
            valid = valid_seating(world, name, number, key=data.draw(st.uuids(), label="key").hex,
                                  action=data.draw(st.sampled_from(["publish", "close", "reopen", "hide", "show"]),
                                                   label="action"))
            sent = body(data, valid, seating_fields(world, safe_request_keys))
            post(clients["director"], reverse(f"tournament:{name}", kwargs=kwargs), sent, what="seating")



@example(name="round_draw", key="a\x00b")
@example(name="round_swap", key="k" * 65)
@fuzz(15)
@given(name=st.sampled_from(["round_draw", "round_swap", "round_move"]), key=texts)
def test_a_one_time_key_of_any_text_is_no_500(world, clients, name, key):
    """The draw, swap and move forms' one-time key (a hidden field) with any text in it."""
    with rolled_back():
        valid = valid_seating(world, name, 2, key=key)
        post(clients["director"], reverse(f"tournament:{name}", kwargs={"slug": world.slug, "round_number": 2}),
             valid, what="one-time key")


@fuzz(40)
@given(data=st.data())
def test_roles(world, clients, data):
    url = reverse("tournament:roles", kwargs={"slug": world.slug})
    with rolled_back():
        for _ in range(data.draw(st.integers(1, 2), label="requests")):
            valid = data.draw(st.sampled_from([
                {"username": "gast", "role": "helper", "change": "add"},
                {"username": "gast", "role": "director", "change": "add"},
                {"username": "helfer", "role": "helper", "change": "remove"},
                {"action": "create_helper", "username": "neu", "password": "Kartentisch-42"}]), label="valid")
            sent = body(data, valid, {
                "action": value("", "create_helper"), "username": value("gast", "helfer", "leitung", "neu", "x" * 151),
                "role": value("director", "helper"), "change": value("add", "remove"),
                "password": value("Kartentisch-42", "1234", "")})
            post(clients["director"], url, sent, what="roles")


@fuzz(30)
@given(data=st.data())
def test_publishing(world, clients, data):
    url = reverse("tournament:publishing", kwargs={"slug": world.slug})
    with rolled_back():
        for _ in range(data.draw(st.integers(1, 2), label="requests")):
            valid = data.draw(st.sampled_from([{"action": "start", "hub_url": "https://hub.example", "key": "doko_x"},
                                               {"action": "stop"}]), label="valid")
            sent = body(data, valid, {
                "action": value("start", "stop", ""),
                "hub_url": value("https://hub.example", "hub.example", "javascript:alert(1)", "http://" + "x" * 300,
                                 ""),
                "key": value("doko_x", "", " ", "x" * 201)})
            post(clients["director"], url, sent, what="publishing")


@fuzz(20)
@given(data=st.data())
def test_publishing_keys(world, clients, data):
    url = reverse("tournament:publishing_keys", kwargs={"organisation_slug": "verein"})
    with rolled_back(), override_settings(DOKO_HUB=True):
        for _ in range(data.draw(st.integers(1, 2), label="requests")):
            valid = data.draw(st.sampled_from([{"action": "issue", "label": "Vereinsheim"},
                                               {"action": "revoke", "key": "1"}]), label="valid")
            sent = body(data, valid, {"action": value("issue", "revoke", ""),
                                      "label": value("Vereinsheim", "", "x" * 201),
                                      "key": value("1", "x", "99999999999999999999", "")})
            post(clients["director"], url, sent, what="publishing keys")


@fuzz(20)
@given(data=st.data())
def test_organisation_settings(world, clients, data):
    """The organisation's rating switch (views/organisations.py): anything sent is a checkbox, never a 500."""
    from tournament.models import Tournament

    url = reverse("tournament:organisation_settings", kwargs={"organisation_slug": "verein"})
    with rolled_back():
        counted = Tournament.objects.filter(organisation__slug="verein").count()
        for _ in range(data.draw(st.integers(1, 2), label="requests")):
            sent = body(data, {"rating_enabled": "on"}, {"rating_enabled": value("on", "", "off", "x" * 201)})
            post(clients["director"], url, sent, what="organisation settings", counted=counted)


@fuzz(40)
@given(data=st.data())
def test_hub_calendar_and_search(world, clients, data):
    """The hub's start page, calendar and search take any GET parameters (docs/hub.md): a page with what
    did not fit named, never a 500, nothing written."""
    name = data.draw(st.sampled_from(["home", "calendar", "hub_search"]), label="page")
    query = {key: data.draw(st.one_of(value(*good), texts), label=key) for key, good in (
        ("q", ("", "Krämer", "Kraemer", "Oßenbrügge", "|", "%", "_", "x" * 101)),
        ("region", ("", "NW", "HB", "XX")), ("club", ("", "verein", "fremd")),
        ("month", ("", "2026-11", "2026-13", "0000-00", "9999-12")), ("kind", ("", "pokal", "liga", "skat")),
        ("seite", ("", "1", "2", "-1", "99999999999999999999", "x"))) if data.draw(st.booleans(), label=f"with {key}")}
    from django.core.cache import cache

    cache.clear()
    with rolled_back(), override_settings(DOKO_HUB=True):
        client = clients[data.draw(roles, label="role")]
        before = state()
        response = client.get(reverse(f"tournament:{name}"), query)
        REQUESTS["hub pages"] += 1
        assert response.status_code == 200, (name, query, response.status_code)
        assert not changes(before, state()), (name, query)


@fuzz(40)
@given(data=st.data())
def test_players_across_clubs(world, clients, data):
    """A player's correction request on their page across clubs (anyone, rate-limited), its answer by the
    tournament's director, and the organisation's decisions about its guests (docs/hub.md)."""
    from django.core.cache import cache

    cache.clear()
    with rolled_back(), override_settings(DOKO_HUB=True, RATE_LIMIT_CORRECTION="1000/m"):
        entries = list(Entry.objects.filter(tournament=world.tournament).values_list("id", "player_id")[:2])
        record, other = entries[0][1], entries[1][1]
        request = CorrectionRequest.objects.create(tournament=world.tournament, player_id=record, text="Falsch")
        for _ in range(data.draw(st.integers(1, 3), label="requests")):
            page = data.draw(st.sampled_from(["person", "corrections", "identities"]), label="page")
            if page == "person":
                sent = body(data, {"tournament": world.slug, "text": "Ein Spiel fehlt.", "contact": ""},
                            {"tournament": value(world.slug, "", "gibt-es-nicht"),
                             "text": value("Ein Spiel fehlt.", "", " ", "x" * 1001, "\x00"),
                             "contact": value("", "anna@example.org", "x" * 201)})
                post(Client(), reverse("tournament:person", args=[record]), sent, what="correction request")
            elif page == "corrections":
                sent = body(data, {"request": str(request.pk), "status": "answered", "answer": "Erledigt."},
                            {"request": value(str(request.pk), "0", "x", "99999999999999999999"),
                             "status": value("answered", "declined", "open", ""),
                             "answer": value("Erledigt.", "", "x" * 501)})
                post(clients["director"], reverse("tournament:corrections", args=[world.slug]), sent,
                     what="correction answer")
            else:
                decision = IdentityDecision.objects.values_list("pk", flat=True).first() or 0
                sent = body(data, {"action": "same", "player": str(record), "other": str(other)},
                            {"action": value("same", "different", "undo", ""),
                             "player": value(str(record), str(other), "0", "x", "99999999999999999999"),
                             "other": value(str(other), str(record), "0", "x"),
                             "decision": value(str(decision), "0", "x")})
                post(clients["director"], reverse("tournament:identities", args=["verein"]), sent,
                     what="identities", counted=False)


@fuzz(40)
@given(data=st.data())
def test_teams(world, clients, data):
    """The team page's forms: a new team, a team changed or deleted, the team options."""
    with rolled_back():
        team = team_services.create_team(tournament=world.tournament, name="Kreuz",
                                          members=world.entry_ids[:2])
        prefix = f"team{team.pk}-"
        for _ in range(data.draw(st.integers(1, 3), label="requests")):
            which = data.draw(st.sampled_from(["new", "edit", "delete", "options"]), label="form")
            members = value("3, 4", "1, 5", "5; 6\n7", "Niemand, 3", "1, 2, 3, 4, 5, 6, 7", "3")
            if which == "new":
                url = reverse("tournament:teams", kwargs={"slug": world.slug})
                sent = body(data, {"new-name": "Pik", "new-members": "3, 4"},
                            {"new-name": value("Pik", "Kreuz", " ", "x" * 81), "new-members": members})
            elif which == "edit":
                url = reverse("tournament:team_edit", kwargs={"slug": world.slug, "team_id": team.pk})
                sent = body(data, {prefix + "name": "Kreuz Ass", prefix + "members": "1, 2, 3",
                                   prefix + "version": "1"},
                            {prefix + "name": value("Kreuz Ass", " "), prefix + "members": members,
                             prefix + "version": value(1, 2, 0)})
            elif which == "delete":
                url = reverse("tournament:team_delete", kwargs={"slug": world.slug, "team_id": team.pk})
                sent = body(data, {"version": "1"}, {"version": value(1, 2)})
            else:
                url = reverse("tournament:team_options", kwargs={"slug": world.slug})
                sent = body(data, {"team_count": "2", "club_ranking": "best", "club_best": "3", "teams_apart": "on",
                                   "team_match": "on", "cup_advance": "2", "version": str(world.tournament.version)},
                            {"team_count": value("", 1, 6, 7, 0), "club_ranking": value("none", "all", "best"),
                             "club_best": value("", 1, 4, 0), "teams_apart": value("on", ""),
                             "team_match": value("on", "", "x"), "cup_advance": value("", 1, 2, 0, 100, "zwei"),
                             "version": value(world.tournament.version, 0)})
            post(clients["director"], url, sent, what="teams")


@fuzz(20)
@given(data=st.data())
def test_teams_taken_from_the_last_match_day(world, clients, data):
    """"Teams des letzten Spieltags übernehmen": herbst (two teams) and a later match day of one player
    already entered, both in a series; the source as the page sends it, or another."""
    with rolled_back():
        director = world.users["director"]
        team_services.create_team(tournament=world.tournament, name="Kreuz", members=world.entry_ids[:4])
        team_services.create_team(tournament=world.tournament, name="Pik", members=world.entry_ids[4:8])
        series = series_services.create_series(name="Liga", director=director, slug="liga-fuzz")
        day = tournaments.create_tournament(name="2. Spieltag", date=datetime.date(2026, 12, 5), director=director,
                                            slug="tag-2-fuzz")
        tournaments.register_player(tournament=day, name=world.tournament.entries.first().player.name,
                                    club="DK Nord")
        for evening in (world.tournament, day):
            series_services.add_tournament(series=series, tournament=evening, user=director)
        url = reverse("tournament:teams_take", kwargs={"slug": day.slug})
        for _ in range(data.draw(st.integers(1, 2), label="requests")):
            sent = body(data, {"source": str(world.tournament.pk)},
                        {"source": value(world.tournament.pk, day.pk, 0, "x")})
            post(clients[data.draw(roles, label="role")], url, sent, what="teams taken")


@fuzz(30)
@given(data=st.data())
def test_tournament_create(world, clients, data):
    url = reverse("tournament:tournament_create")
    valid = {"organisation": world.organisations["verein"], "name": "Neues Turnier", "date": "2026-12-05",
             "place": "", "slug": "", "preset": "turnier", "rounds_planned": "3", "games_at_table_of_4": "8",
             "games_at_table_of_5": "10"}
    sent = body(data, valid, {
        "organisation": value(*world.organisations.values()),
        "name": value("Neu", ""), "date": value("2026-12-05", "2026-13-01", "05.12.2026"), "place": texts,
        "slug": value("", "neu", "herbst", "new", "Groß"), "preset": value(*scoring.PRESETS),
        "rounds_planned": value(1, 3, 31), "games_at_table_of_4": value(8, 0, 100),
        "games_at_table_of_5": value(10, 0, 100)})
    with rolled_back():
        post(clients[data.draw(roles, label="role")], url, sent, what="tournament create", new_tournament=True)
        world.check_organisations()


@fuzz(30)
@given(data=st.data())
def test_rangliste_create(world, clients, data):
    """The Rangliste's form (create and edit take the same fields): a clear message or a Rangliste, never a 500."""
    url = reverse("tournament:rangliste_create")
    valid = {"organisation": world.organisations["verein"], "name": "Rangliste", "slug": "", "source": "flagged",
             "series": "", "months": "24", "minimum_rounds": "36", "cut_lines": "16 Deutsche Meisterschaft",
             "public": "on"}
    sent = body(data, valid, {
        "organisation": value(*world.organisations.values()),
        "name": value("Rangliste", ""), "slug": value("", "rl", "new", "Groß"),
        "source": value("flagged", "series", "association"),
        "members": value("", *world.organisations.values(), "999999", "x"),
        "minimum_players": value(32, "", -1, 10000, "x"), "minimum_tournament_rounds": value(3, "", -1, 100),
        "series": value("", "1", "999999", *world.series_ids), "months": value(24, 0, 121),
        "minimum_rounds": value(36, 0, 1000),
        "cut_lines": value("16 DM", "16 DM\n16 RM", "DM 16", "0 DM", "١٦ DM", "48 RM\n16 DM"), "public": texts})
    with rolled_back():
        post(clients[data.draw(roles, label="role")], url, sent, what="rangliste create")
        world.check_organisations()


# ---- tournament files: the restore page and the import itself ------------------------------------------------

def like(value_now, safe: bool) -> st.SearchStrategy:
    """Something to put where `value_now` is: mostly of the same kind, sometimes anything."""
    text = safe_texts if safe else texts
    if isinstance(value_now, bool):
        same = st.booleans()
    elif isinstance(value_now, int):
        same = numbers
    elif isinstance(value_now, str):
        same = text
    else:
        same = safe_json if safe else json_values
    return st.one_of(same, same, safe_json if safe else json_values)


@st.composite
def mutated(draw, document, safe: bool = False):
    """The tournament file with 0-3 places replaced (mostly by a value of the same kind), deleted or
    duplicated. `safe`: no NUL characters in the texts put in."""
    doc = copy.deepcopy(document)
    for _ in range(draw(st.integers(0, 3))):
        node = doc
        while True:
            keys = list(node) if isinstance(node, dict) else list(range(len(node)))
            if not keys:
                break
            key = draw(st.sampled_from(keys))
            child = node[key]
            if isinstance(child, (dict, list)) and child and draw(st.integers(0, 3)):
                node = child
                continue
            operation = draw(st.sampled_from(["replace", "replace", "replace", "delete", "duplicate"]))
            if operation == "replace":
                node[key] = draw(like(child, safe))
            elif operation == "delete":
                del node[key]
            elif isinstance(node, list):
                node.insert(key, copy.deepcopy(child))
            else:
                node[draw(safe_keys if safe else st.text(max_size=8))] = copy.deepcopy(child)
            break
    return doc


def files(document) -> st.SearchStrategy:
    return st.one_of(
        mutated(document, safe=True).map(lambda d: json.dumps(d).encode()),
        mutated(document, safe=True).map(lambda d: json.dumps(d).encode()),
        safe_json.map(lambda d: json.dumps(d).encode()),
        st.binary(max_size=200),
        st.sampled_from([b"", b"\xff\xfe", "ä".encode("latin-1"), b"[" * 100_000, b'{"name": 1}', b"null"]),
    )


@fuzz(40)
@given(data=st.data())
def test_restore_upload(world, clients, data):
    """The restore page with any file: a copy of the tournament, or the problems and nothing written.
    (Texts without NUL characters: those are test_a_file_with_a_nul_character_is_no_500.)"""
    url = reverse("tournament:restore_backup")
    content = data.draw(files(world.document), label="file")
    slug = data.draw(st.one_of(st.just("kopie"), st.just("kopie"), st.just(""), safe_texts), label="slug")
    with rolled_back():
        sent = {"file": SimpleUploadedFile("sicherung.json", content, content_type="application/json"), "slug": slug,
                "organisation": data.draw(value(*world.organisations.values()), label="organisation")}
        post(clients[data.draw(roles, label="role")], url, sent, what="restore upload", new_tournament=True)
        world.check_organisations()


@fuzz(60)
@given(data=st.data())
def test_import_tournament(world, data):
    """The import itself: a tournament, or ImportProblems and nothing written; nothing else (the
    restore page and `manage.py import_tournament` catch only ImportProblems)."""
    document = data.draw(st.one_of(mutated(world.document, safe=True), mutated(world.document, safe=True), safe_json),
                         label="file")
    slug = data.draw(st.one_of(st.just("kopie"), st.just("kopie"), st.none(), safe_texts), label="slug")
    with rolled_back():
        before = state()
        REQUESTS["import_tournament"] += 1
        try:
            tournament = import_tournament(document, director=world.users["guest"], slug=slug)
        except ImportProblems as error:
            OUTCOMES["import_tournament", "refused"] += 1
            assert error.lines, "ImportProblems without a problem"
            assert not changes(before, state()), "ImportProblems, but something was written"
        else:
            OUTCOMES["import_tournament", "changed"] += 1
            assert Tournament.objects.filter(pk=tournament.pk).exists()
        check_scores()


def text_places(document, path=()):
    """The paths of every text in the file."""
    if isinstance(document, dict):
        for key, item in document.items():
            yield from text_places(item, path + (key,))
    elif isinstance(document, list):
        for index, item in enumerate(document):
            yield from text_places(item, path + (index,))
    elif isinstance(document, str):
        yield path


@example(where=("name",))
@example(where=("players", 0, "club"))
@fuzz(15)
@given(where=st.integers(0, 10_000))
def test_a_file_with_a_nul_character_is_no_500(world, clients, where):
    """POST /restore/ (as the director) of the tournament's own file with "\\x00" put into one text."""
    places = list(text_places(world.document))
    path = places[where % len(places)] if isinstance(where, int) else where
    document = copy.deepcopy(world.document)
    node = document
    for step in path[:-1]:
        node = node[step]
    node[path[-1]] = node[path[-1]][:1] + "\x00" + node[path[-1]][1:]
    with rolled_back():
        sent = {"file": SimpleUploadedFile("sicherung.json", json.dumps(document).encode()), "slug": "kopie",
                "organisation": world.organisations["verein"]}
        post(clients["director"], reverse("tournament:restore_backup"), sent, what="file with NUL",
             new_tournament=True)


# ---- nesting just below the JSON reader's limit -----------------------------------------------------------
# json.loads refuses a document nested deeper than the interpreter's recursion limit allows at the
# point where it is called (RecursionError, which the pages catch). A document just below that depth is
# read, and any later recursive step over it that runs deeper in the stack (encoding it again for a
# message, comparing, validating) can still hit the limit. Random nesting hardly ever lands in that
# window of a few levels, so these tests find the reader's limit and send every depth just below it.

def deepest_read(send, refused, high: int) -> int:
    """The deepest nesting the page reads (binary search up to `high`): `refused(send(depth))` says it
    was too deep."""
    low = 1
    while low < high:
        middle = (low + high + 1) // 2
        if refused(send(middle)):
            high = middle - 1
        else:
            low = middle
    return low


def test_rule_changes_nested_just_below_the_readers_limit(world, clients):
    """POST /t/<slug>/settings/ with rule_changes {"bock_triggers": [[[…]]]} at every depth just
    below the deepest the JSON reader takes: an error on the field, never a 500."""
    url = reverse("tournament:settings", kwargs={"slug": world.slug})

    def send(depth):
        with rolled_back():
            sent = {**valid_settings(world), "rule_changes": deeply_nested(depth, "option")}
            return post(clients["director"], url, sent, what="nesting")

    def refused(response):
        return response.status_code == 200 and "zu tief verschachtelt" in str(response.context["form"].errors)

    deepest = deepest_read(send, refused, high=2400)  # rule_changes holds at most 5000 characters
    assert 100 < deepest < 2400
    for depth in range(deepest, deepest - 25, -1):
        send(depth)


def test_a_file_nested_just_below_the_readers_limit_is_no_500(world, clients):
    """The tournament's own file with its "name" replaced by [[[…]]], at every depth just below the
    deepest the restore page reads.

    Found while writing these tests: at about 915 levels the file check's message encoded the value
    again (file_checks._shown -> json.dumps) one stack level deeper than json.loads had read it, and
    the RecursionError answered 500; fixed meanwhile in c44eee4 (files deeper than 32 levels are
    refused before they are read further)."""
    url = reverse("tournament:restore_backup")
    text = json.dumps({**world.document, "name": "@@"})

    def send(depth):
        content = text.replace('"@@"', "[" * depth + "]" * depth).encode()
        with rolled_back():
            sent = {"file": SimpleUploadedFile("sicherung.json", content), "slug": "kopie",
                    "organisation": world.organisations["verein"]}
            return post(clients["director"], url, sent, what="nesting", new_tournament=True)

    def refused(response):
        return response.status_code == 200 and "file" in response.context["form"].errors

    deepest = deepest_read(send, refused, high=5000)
    assert 100 < deepest < 5000
    for depth in range(deepest, deepest - 25, -1):
        send(depth)
