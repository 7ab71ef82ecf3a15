"""Hardening: login rate limiting, production settings, bounded numbers, no leaks past the public
switches, spreadsheet-safe CSV, errors written down with their traceback."""

from __future__ import annotations

import csv
import datetime
import io
import os
import subprocess
import sys
from pathlib import Path

import pytest
from django.core.management import call_command
from django.test import Client
from django.urls import reverse
from django.utils import timezone

from tournament import spreadsheet
from tournament.errors import UserError
from tournament.models import Entry, Player, Score, Series, Tournament
from tournament.services import penalties, results, scores, sheet_state, tournaments

from ..factories import make_director, make_tournament, normal_game, seat_ids, seated_round

pytestmark = pytest.mark.django_db
ROOT = Path(__file__).resolve().parents[3]


# ---- login rate limiting -------------------------------------------------------------------------

def test_repeated_failed_logins_lock_the_user_name_from_that_address(client, settings):
    make_director("leitung")
    login = reverse("login")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        response = client.post(login, {"username": "leitung", "password": "falsch"})
        assert response.status_code == 200
    response = client.post(login, {"username": "leitung", "password": "falsch"})
    assert response.status_code == 429
    page = response.content.decode()
    assert "Login vorübergehend gesperrt" in page and "15 Minuten" in page
    # locked: even the right password does not get in now, from this address
    response = client.post(login, {"username": "leitung", "password": "pw-leitung"})
    assert response.status_code == 429 and "_auth_user_id" not in client.session


def test_a_stranger_cannot_lock_the_director_out(client, settings):
    """Found by a tester: five failures for the director's name from any address locked the account
    everywhere. Now the stranger's address is locked for that name, the director's device is not."""
    make_director("leitung")
    login = reverse("login")
    for _ in range(settings.AXES_FAILURE_LIMIT + 3):
        response = client.post(login, {"username": "leitung", "password": "falsch"}, REMOTE_ADDR="203.0.113.7")
    assert response.status_code == 429
    director = Client()
    response = director.post(login, {"username": "leitung", "password": "pw-leitung"}, REMOTE_ADDR="10.0.0.9")
    assert response.status_code == 302 and "_auth_user_id" in director.session
    # the director's login did not lift the stranger's lock
    response = client.post(login, {"username": "leitung", "password": "pw-leitung"}, REMOTE_ADDR="203.0.113.7")
    assert response.status_code == 429


def test_behind_the_proxy_the_lockout_takes_the_address_nginx_saw(client, settings):
    """With DJANGO_PROXY_COUNT=1 the address is the last entry of X-Forwarded-For (nginx's), not
    REMOTE_ADDR (nginx itself) and not what a client wrote into the header: a stranger's failures do
    not lock the director, who comes through the same proxy (the settings' ipware options
    did nothing, python-ipware was never installed)."""
    settings.PROXY_COUNT = 1
    make_director("leitung")
    login = reverse("login")
    for n in range(settings.AXES_FAILURE_LIMIT + 1):
        response = client.post(login, {"username": "leitung", "password": "falsch"}, REMOTE_ADDR="10.0.0.2",
                               HTTP_X_FORWARDED_FOR=f"192.0.2.{n}, 203.0.113.7")
    assert response.status_code == 429
    director = Client()
    response = director.post(login, {"username": "leitung", "password": "pw-leitung"}, REMOTE_ADDR="10.0.0.2",
                             HTTP_X_FORWARDED_FOR="198.51.100.9")
    assert response.status_code == 302 and "_auth_user_id" in director.session


def test_an_address_trying_many_user_names_is_locked(client, settings):
    """Below the pair's limit for every name, but over the address's limit in all: the address is
    locked, for every name (also a right password); another address is not."""
    make_director("leitung")
    login = reverse("login")
    per_name = settings.AXES_FAILURE_LIMIT - 1
    names = -(-settings.LOGIN_ATTEMPTS_PER_ADDRESS // per_name)  # rounded up
    answers = [client.post(login, {"username": f"name-{n}", "password": "falsch"}, REMOTE_ADDR="203.0.113.7")
               .status_code for n in range(names) for _ in range(per_name)]
    assert answers[:settings.LOGIN_ATTEMPTS_PER_ADDRESS - 1] == [200] * (settings.LOGIN_ATTEMPTS_PER_ADDRESS - 1)
    assert answers[settings.LOGIN_ATTEMPTS_PER_ADDRESS - 1] == 429
    response = client.post(login, {"username": "leitung", "password": "pw-leitung"}, REMOTE_ADDR="203.0.113.7")
    assert response.status_code == 429 and "_auth_user_id" not in client.session
    response = Client().post(login, {"username": "leitung", "password": "pw-leitung"}, REMOTE_ADDR="10.0.0.9")
    assert response.status_code == 302


def test_the_lockout_page_speaks_english(client, settings):
    for _ in range(settings.AXES_FAILURE_LIMIT):
        response = client.post(reverse("login"), {"username": "x", "password": "y"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 429 and "Login temporarily locked" in response.content.decode()


def test_a_successful_login_resets_the_count(client, settings):
    make_director("leitung")
    for _ in range(settings.AXES_FAILURE_LIMIT - 1):
        client.post(reverse("login"), {"username": "leitung", "password": "falsch"})
    assert client.post(reverse("login"), {"username": "leitung", "password": "pw-leitung"}).status_code == 302
    client.logout()
    response = client.post(reverse("login"), {"username": "leitung", "password": "falsch"})
    assert response.status_code == 200


# ---- production settings ------------------------------------------------------------------------

def production_env(tmp_path, **extra):
    env = {key: value for key, value in os.environ.items() if not key.startswith("DJANGO_")}
    env.update(DJANGO_DEBUG="0", DJANGO_SECRET_KEY="k" * 20 + "-a-long-random-looking-secret-" + "x9" * 20,
               DJANGO_ALLOWED_HOSTS="turnier.example.org", DJANGO_LOG_DIR=str(tmp_path / "log"), **extra)
    return env


@pytest.mark.every_database
@pytest.mark.parametrize("https", ["1", "0"])
def test_check_deploy_is_clean_with_production_settings(tmp_path, https):
    """`manage.py check --deploy` with DJANGO_DEBUG=0: behind nginx with HTTPS, and on a venue
    laptop that serves plain HTTP (where the HTTPS checks do not apply and are silenced)."""
    done = subprocess.run([sys.executable, "manage.py", "check", "--deploy", "--fail-level", "WARNING"], cwd=ROOT,
                          env=production_env(tmp_path, DJANGO_HTTPS=https), capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "System check identified no issues" in done.stdout


def test_errors_are_written_with_their_traceback(tmp_path):
    """With DJANGO_DEBUG=0 an error of a request goes to standard error and to var/log/errors.log,
    with the traceback."""
    script = ("import django, logging; django.setup()\n"
              "try:\n    1 / 0\nexcept ZeroDivisionError:\n"
              "    logging.getLogger('django.request').error('Internal Server Error: /t/x/', exc_info=True)\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**production_env(tmp_path), "DJANGO_SETTINGS_MODULE": "config.settings"})
    assert done.returncode == 0, done.stderr
    assert "Traceback" in done.stderr and "ZeroDivisionError" in done.stderr
    logged = (tmp_path / "log" / "errors.log").read_text(encoding="utf-8")
    assert "Internal Server Error: /t/x/" in logged and "ZeroDivisionError" in logged


# ---- the entry links' tokens never reach a log --------------------------------------------------------

TOKEN = "Xy3_secretTOKEN-0123abcd"  # 24 characters, like table_links.new_token()


def test_entry_tokens_are_masked_in_the_error_log_and_on_standard_error(tmp_path):
    """Found by a tester: /e/<token>/ was written to the error log (a 410 "Gone: …", a 500's
    traceback). Django's loggers and runserver's request lines mask it."""
    script = ("import django, logging; django.setup()\n"
              f"logging.getLogger('django.request').warning('Gone: /e/{TOKEN}/state.json')\n"
              "try:\n"
              f"    raise ValueError('bad request to http://192.168.1.20:8000/e/{TOKEN}/games.json')\n"
              "except ValueError:\n"
              f"    logging.getLogger('django.request').error('Internal Server Error: /e/{TOKEN}/', exc_info=True)\n"
              f"logging.getLogger('django.server').info('\"%s\" %s %s', 'GET /e/{TOKEN}/ HTTP/1.1', '200', '5')\n"
              "logging.getLogger('django.request').warning('Not Found: /t/e/standings/')\n")
    done = subprocess.run([sys.executable, "-c", script], cwd=ROOT, capture_output=True, text=True, timeout=60,
                          env={**production_env(tmp_path), "DJANGO_SETTINGS_MODULE": "config.settings"})
    assert done.returncode == 0, done.stderr
    logged = (tmp_path / "log" / "errors.log").read_text(encoding="utf-8")
    for text in (done.stderr, logged):
        assert TOKEN not in text
    assert "Gone: /e/***/state.json" in done.stderr and '"GET /e/***/ HTTP/1.1" 200 5' in done.stderr
    assert "Internal Server Error: /e/***/" in logged and "http://192.168.1.20:8000/e/***/games.json" in logged
    assert "Not Found: /t/e/standings/" in done.stderr  # a tournament called "e" is no token


def test_entry_tokens_are_masked_in_gunicorns_access_and_error_log(tmp_path, capfd):
    import datetime

    from gunicorn.config import Config

    from config.gunicorn_logging import MaskingLogger

    namespace: dict = {}
    exec((ROOT / "deploy" / "gunicorn.conf.py").read_text(), namespace)
    assert namespace["logger_class"] == "config.gunicorn_logging.MaskingLogger"
    cfg = Config()
    cfg.set("accesslog", str(tmp_path / "access.log"))
    logger = MaskingLogger(cfg)

    class Response:
        status, sent, headers = "200 OK", 42, [("Content-Type", "application/json")]

    environ = {"REQUEST_METHOD": "GET", "RAW_URI": f"/e/{TOKEN}/state.json?since=3", "SERVER_PROTOCOL": "HTTP/1.1",
               "PATH_INFO": f"/e/{TOKEN}/state.json", "QUERY_STRING": "since=3", "REMOTE_ADDR": "192.168.1.31",
               "HTTP_REFERER": f"http://192.168.1.20:8000/e/{TOKEN}/", "HTTP_USER_AGENT": "Phone"}
    logger.access(Response(), [("Referer", environ["HTTP_REFERER"])], environ, datetime.timedelta(seconds=0.01))
    logger.error("Error handling request /e/%s/games.json", TOKEN)
    for log in (logger.access_log, logger.error_log):  # gunicorn's loggers are global: leave them as found
        for handler in list(log.handlers):
            handler.flush()
            log.removeHandler(handler)
        log.filters.clear()
    line = (tmp_path / "access.log").read_text()
    assert TOKEN not in line
    assert '"GET /e/***/state.json?since=3 HTTP/1.1" 200 42 "http://192.168.1.20:8000/e/***/"' in line
    errors = capfd.readouterr().err
    assert TOKEN not in errors and "Error handling request /e/***/games.json" in errors


# ---- numbers a person types are bounded -----------------------------------------------------------

@pytest.fixture
def setup(director):
    tournament = make_tournament(players=8, director=director, slug="grenzen")
    return tournament, seated_round(tournament)


@pytest.mark.parametrize("number", [2**31, 2**63, 100_000])
def test_start_numbers_beyond_the_range_are_refused_with_a_message(client, director, setup, number):
    tournament, _round = setup
    client.force_login(director)
    response = client.post(reverse("tournament:players", args=[tournament.slug]),
                           {"one-name": "Zahl", "one-club": "", "one-start_number": str(number)})
    assert response.status_code == 200 and "kleiner oder gleich 99999" in response.content.decode()
    with pytest.raises(UserError, match="1 bis 99999"):
        tournaments.register_player(tournament=tournament, name="Zahl", start_number=number)
    assert not Entry.objects.filter(player__name="Zahl").exists()


@pytest.mark.parametrize("points", [2**40, 10**9, 5000])
def test_totals_beyond_what_the_rules_allow_are_refused(client, director, setup, points):
    tournament, round = setup
    table = round.tables.get(number=1)
    ids = seat_ids(table)
    client.force_login(director)
    most = scores.most_total(tournament, 4)  # 8 games of at most 432 points (turnier), and a penalty in each
    assert most == 8 * (432 + 6)
    data = {"version": table.version, f"p{ids[0]}": points, f"p{ids[1]}": -points, f"p{ids[2]}": 0, f"p{ids[3]}": 0}
    response = client.post(reverse("tournament:table_totals", args=[tournament.slug, 1, 1]), data)
    assert response.status_code == 200 and f"kleiner oder gleich {most} sein" in response.content.decode()
    with pytest.raises(UserError, match=f"höchstens ±{most}"):
        sheet_state.enter_totals(table=table, totals={ids[0]: points, ids[1]: -points, ids[2]: 0, ids[3]: 0})
    assert not Score.objects.filter(table=table).exists()


def test_the_largest_allowed_totals_keep_the_standings_page_small(client, director, setup):
    tournament, round = setup
    for table in round.tables.all():
        ids = seat_ids(table)
        most = scores.most_total(tournament, 4)
        sheet_state.enter_totals(table=table, totals={ids[0]: most, ids[1]: -most, ids[2]: 0, ids[3]: 0})
    response = client.get(reverse("tournament:standings", args=[tournament.slug]))
    page = response.content.decode()
    assert response.status_code == 200 and len(page) < 100_000
    assert page.count("<line ") <= 8  # the chart's grid: a handful of lines whatever the numbers


def test_a_pasted_name_over_120_characters_saves_nothing(client, director, setup):
    tournament, _round = setup
    client.force_login(director)
    lines = "Kurz; DK\n" + "L" * 121 + "; DK\n"
    response = client.post(reverse("tournament:players", args=[tournament.slug]), {"many-lines": lines})
    assert "Zeile 2: Der Name ist zu lang: höchstens 120 Zeichen." in response.content.decode()
    assert not Player.objects.filter(name="Kurz").exists()


@pytest.mark.parametrize("depth", [100_000, 2_000])
def test_deeply_nested_rule_changes_get_a_message(client, director, setup, depth):
    tournament, _round = setup
    client.force_login(director)
    data = {"version": 1, "name": tournament.name, "date": "2026-11-21", "place": "", "slug": tournament.slug,
            "preset": "turnier", "rule_changes": "[" * depth + "]" * depth, "rounds_planned": "3",
            "games_at_table_of_4": "8", "games_at_table_of_5": "10"}
    response = client.post(reverse("tournament:settings", args=[tournament.slug]), data)
    page = response.content.decode()
    assert response.status_code == 200
    assert "höchstens 5000 Zeichen" in page or "zu tief verschachtelt" in page


def test_sign_note_and_penalty_reason_are_bounded():
    tournament = make_tournament(players=8)
    table = seated_round(tournament).tables.first()
    with pytest.raises(UserError, match="höchstens 300"):
        sheet_state.sign_table(table=table, note="x" * 301)
    with pytest.raises(UserError, match="höchstens 200"):
        penalties.add_penalty(table=table, offender_id=seat_ids(table)[0], note="x" * 201)


# ---- the public switches hold on every page ---------------------------------------------------------

def player_page(client, tournament, entry_id):
    return client.get(reverse("tournament:player", args=[tournament.slug, entry_id]))


def test_player_pages_do_not_show_the_seating_when_it_is_switched_off(client, setup):
    tournament, round = setup
    table = round.tables.get(number=1)
    for number in (1, 2):
        results.save_game(table=table, number=number, data=normal_game(table, number))
    me, *mates = seat_ids(table)
    names = [Entry.objects.get(pk=e).player.name for e in mates]
    page = player_page(client, tournament, me).content.decode()
    assert "Tisch 1, Platz 1" in page and all(name in page for name in names)
    tournament.public_seating = False
    tournament.save()
    page = player_page(client, tournament, me).content.decode()
    assert "Tisch 1, Platz 1" not in page and "Am Tisch" not in page
    assert not any(name in page for name in names)
    assert "Normalspiel" in page  # the games themselves stay


def test_player_pages_do_not_show_total_or_rank_when_the_standings_are_switched_off(client, setup):
    tournament, round = setup
    table = round.tables.get(number=1)
    results.save_game(table=table, number=1, data=normal_game(table, 1, re_augen=140))
    me = seat_ids(table)[0]
    page = player_page(client, tournament, me).content.decode()
    assert "nach Runde 1" in page and "Platz" in page and "<svg" in page
    tournament.public_standings = False
    tournament.save()
    page = player_page(client, tournament, me).content.decode()
    assert "nach Runde 1" not in page and "<dt>Platz</dt>" not in page and "<dt>Punkte</dt>" not in page
    assert "<svg" not in page and ">Stand<" not in page
    client.force_login(tournament.directors.get())  # the director still sees everything
    assert "nach Runde 1" in player_page(client, tournament, me).content.decode()


def test_names_that_look_like_formulas_are_quoted_in_the_csv(client, director):
    tournament = make_tournament(players=0, director=director, slug="csv")
    tournaments.register_player(tournament=tournament, name='=HYPERLINK("http://x";"y")', club="+Verein")
    tournaments.register_players(tournament=tournament, lines="@Anna\n-Bernd\nCarla")
    text = client.get(reverse("tournament:standings_csv", args=["csv"])).content.decode("utf-8-sig")
    assert "'=HYPERLINK" in text and ";'+Verein;" in text and "'@Anna" in text and "'-Bernd" in text
    assert ";Carla;" in text and "\n1;" in text.replace("\r\n", "\n")  # numbers stay numbers


# ---- query strings no page can use -----------------------------------------------

HUGE = "99999999999999999999"  # beyond 64 bits: SQLite refused it with an OverflowError


@pytest.mark.parametrize("me", [HUGE, "-" + HUGE, str(2**63), "1" * 5000])
def test_an_absurd_me_on_the_standings_and_a_players_page_is_no_player(client, setup, me):
    tournament, round = setup
    entry = seat_ids(round.tables.get(number=1))[0]
    for url in (reverse("tournament:standings", args=[tournament.slug]),
                reverse("tournament:player", args=[tournament.slug, entry])):
        assert client.get(url, {"partial": "1", "me": me}).status_code == 200


@pytest.mark.parametrize("until", ["9999-12-31T23:59:59-23:00", "0001-01-01T00:00:00+23:00",
                                   "0001-01-01T00:00:00", "9999-12-31T23:59:59"])
def test_a_moment_out_of_range_in_the_log_is_not_used(client, director, setup, until):
    tournament, _round = setup
    client.force_login(director)
    response = client.get(reverse("tournament:log", args=[tournament.slug]),
                          {"round": HUGE, "table": HUGE, "until": until})
    assert response.status_code == 200


@pytest.mark.parametrize("value", ["0001-01-01", "0009-12-31", "1899-12-31", "10000-01-01", "gestern"])
def test_a_rangliste_day_out_of_range_is_ignored_with_a_message(director, value):
    from tournament.selectors.rangliste import player_key, public_key

    from ..services.test_rangliste import flagged, make_rangliste
    from ..services.test_series import JANUARY, NORD

    flagged(director, "Januar", datetime.date(2026, 1, 9), JANUARY, slug="januar")
    make_rangliste(director, minimum_rounds=2)
    client = Client()
    today = timezone.localdate().isoformat()
    for name in ("rangliste", "rangliste_csv", "rangliste_json"):
        response = client.get(reverse(f"tournament:{name}", args=["nord"]), {"bis": value})
        assert response.status_code == 200, name
    page = client.get(reverse("tournament:rangliste", args=["nord"]), {"bis": value}).content.decode()
    assert f"„{value}“ ist kein Datum zwischen 1900 und 9999; die Rangliste zeigt den Stand von heute." in page
    window = client.get(reverse("tournament:rangliste_json", args=["nord"]), {"bis": value}).json()["window"]
    assert window["until"] == today
    player = client.get(reverse("tournament:rangliste_player", args=["nord"]), {"bis": value, "p": "x"})
    assert player.status_code == 404  # nobody with this key: not a 500
    anna = public_key(player_key(name="Anna", club=NORD, member_number=""))
    player = client.get(reverse("tournament:rangliste_player", args=["nord"]), {"bis": value, "p": anna})
    assert player.status_code == 200 and "die Rangliste zeigt den Stand von heute" in player.content.decode()


# ---- every CSV guards every cell, the header too --------------------------------------

FORMULA = '=HYPERLINK("http://x";"y")'


def test_a_tournament_named_like_a_formula_is_guarded_in_the_series_csv_header(client, director):
    from tournament.services import series as series_services

    from ..services.test_series import NORD, evening, make_series

    evening(director, FORMULA, datetime.date(2026, 1, 9),
            [("Anna", NORD, 3), ("Bernd", NORD, -3), ("Carla", NORD, 0), ("Dieter", NORD, 0)], slug="abend")
    series = make_series(director, [Tournament.objects.get(slug="abend")])
    text = client.get(reverse("tournament:series_csv", args=[series.slug])).content.decode("utf-8-sig")
    header = next(csv.reader(io.StringIO(text), delimiter=";"))
    assert header[3] == "'" + FORMULA + " (09.01.2026)"
    series_services.update_series(series=series, name=series.name, slug=series.slug, mode=Series.Mode.LEAGUE,
                                  best_of=0, public=True)
    assert client.get(reverse("tournament:series_league_csv", args=[series.slug])).status_code == 200


def test_the_standings_command_guards_every_csv_cell(director):
    tournament = make_tournament(players=0, director=director, slug="befehl")
    for name in (FORMULA, "@Anna", "+Bernd", "Carla"):
        tournaments.register_player(tournament=tournament, name=name)
    out = io.StringIO()
    call_command("standings", "befehl", "--format", "csv", stdout=out)
    names = [line[1] for line in csv.reader(io.StringIO(out.getvalue()))][1:]
    assert sorted(names) == sorted(["'" + FORMULA, "'@Anna", "'+Bernd", "Carla"])


@pytest.mark.parametrize(("cell", "written"), [
    ("=1+1", "'=1+1"), ("-1+1", "'-1+1"), ("+49 170", "'+49 170"), ("@SUM(A1)", "'@SUM(A1)"), ("\tx", "'\tx"),
    ("-17,5", "-17,5"), ("-3", "-3"), (-3, -3), ("Anna", "Anna"), ("'=x", "'=x"), (None, None),
])
def test_the_one_guard_keeps_numbers_and_quotes_formulas(cell, written):
    assert spreadsheet.safe_cell(cell) == written


def test_no_csv_is_written_past_the_guard():
    """One helper, one way: `tournament/spreadsheet.py` is the only module that makes a CSV writer."""
    writers = [str(path.relative_to(ROOT)) for package in ("tournament", "scoring", "seating", "config", "scripts")
               for path in (ROOT / package).rglob("*.py")
               if "csv.writer" in (text := path.read_text(encoding="utf-8")) or "csv.DictWriter" in text]
    assert writers == ["tournament/spreadsheet.py"]
