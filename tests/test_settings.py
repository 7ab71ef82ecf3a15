"""Settings read from the environment."""
import importlib.util
import os

import pytest
from django.conf import settings
from django.db import connection

SETTINGS_FILE = settings.BASE_DIR / "config" / "settings.py"


def load_settings(monkeypatch, **environ):
    """Execute config/settings.py afresh (as a separate module) under the given environment."""
    for name in ("DATABASE_URL", "DJANGO_DEBUG", "DJANGO_SECRET_KEY", "DJANGO_ALLOWED_HOSTS"):
        monkeypatch.delenv(name, raising=False)
    for name, value in environ.items():
        monkeypatch.setenv(name, value)
    spec = importlib.util.spec_from_file_location("settings_under_test", SETTINGS_FILE)
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_default_database_is_sqlite_file_in_project_folder(monkeypatch):
    loaded = load_settings(monkeypatch)
    assert loaded.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert loaded.DATABASES["default"]["NAME"] == str(settings.BASE_DIR / "db.sqlite3")


def test_database_url_sqlite_is_honoured(monkeypatch, tmp_path):
    loaded = load_settings(monkeypatch, DATABASE_URL=f"sqlite:///{tmp_path / 'other.sqlite3'}")
    assert loaded.DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3"
    assert loaded.DATABASES["default"]["NAME"] == str(tmp_path / "other.sqlite3")


def test_database_url_postgres_socket_is_parsed(monkeypatch):
    loaded = load_settings(monkeypatch, DATABASE_URL="postgres://postgres@%2Ftmp%2Fdoko-pg.AbC123/doko")
    db = loaded.DATABASES["default"]
    assert db["ENGINE"] == "django.db.backends.postgresql"
    assert (db["HOST"], db["NAME"], db["USER"]) == ("/tmp/doko-pg.AbC123", "doko", "postgres")
    # without PostgreSQL's JIT compiling, which cost the hub's search 240 ms (docs/performance.md, the hub)
    assert db["OPTIONS"]["options"] == "-c jit=off"


@pytest.mark.django_db
def test_postgresql_compiles_no_query_just_in_time():
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    with connection.cursor() as cursor:
        cursor.execute("SHOW jit")
        assert cursor.fetchone()[0] == "off"


def test_postgresql_prepares_what_a_connection_asks_again_unless_told_not_to(monkeypatch):
    loaded = load_settings(monkeypatch, DATABASE_URL="postgres://postgres@%2Ftmp%2Fx/doko")
    assert loaded.DATABASES["default"]["OPTIONS"]["server_side_binding"] is True
    assert loaded.DATABASES["default"]["OPTIONS"]["prepare_threshold"] == 2
    off = load_settings(monkeypatch, DATABASE_URL="postgres://postgres@%2Ftmp%2Fx/doko", DJANGO_PG_PREPARE="0")
    assert "prepare_threshold" not in off.DATABASES["default"]["OPTIONS"]
    assert "server_side_binding" not in off.DATABASES["default"]["OPTIONS"]


@pytest.mark.django_db
def test_postgresql_plans_a_query_asked_again_once(django_user_model):
    """The third time a connection sends the same query it runs a prepared statement: the server planned
    it once (docs/performance.md, "The announcement burst")."""
    if connection.vendor != "postgresql":
        pytest.skip("PostgreSQL only")
    for _ in range(3):
        list(django_user_model.objects.filter(username="niemand-mit-diesem-namen").values_list("pk"))
    with connection.cursor() as cursor:
        cursor.execute("SELECT statement FROM pg_prepared_statements")
        prepared = [row[0] for row in cursor.fetchall()]
    assert any("niemand" not in text and "auth_user" in text for text in prepared), prepared


def test_environment_switches_debug_hosts_and_key(monkeypatch):
    loaded = load_settings(
        monkeypatch, DJANGO_DEBUG="false", DJANGO_SECRET_KEY="s3cret",
        DJANGO_ALLOWED_HOSTS="doko.example, www.doko.example"
    )
    assert loaded.DEBUG is False
    assert loaded.SECRET_KEY == "s3cret"
    assert loaded.ALLOWED_HOSTS == ["doko.example", "www.doko.example"]


def test_production_without_secret_key_is_refused(monkeypatch):
    from django.core.exceptions import ImproperlyConfigured

    with pytest.raises(ImproperlyConfigured):
        load_settings(monkeypatch, DJANGO_DEBUG="0")


def test_default_language_is_german():
    assert settings.LANGUAGE_CODE == "de"
    assert [code for code, _name in settings.LANGUAGES] == ["de", "en"]
    assert "django.middleware.locale.LocaleMiddleware" in settings.MIDDLEWARE


@pytest.mark.every_database
def test_this_run_uses_the_database_from_the_environment():
    """Guards `make test`: its second pass must really run on PostgreSQL."""
    url = os.environ.get("DATABASE_URL", "")
    expected = "postgresql" if url.startswith(("postgres://", "postgresql://")) else "sqlite"
    assert connection.vendor == expected


def test_gunicorns_master_warms_up_what_every_worker_needs_before_forking():
    """config/warm.py: the URL patterns, every template compiled by the cached loader, the catalogues;
    deploy/gunicorn.conf.py calls it in the master (preload_app), so every worker starts warm."""
    from django.template import engines
    from django.urls import get_resolver

    from config.warm import warm_up

    root = SETTINGS_FILE.parent.parent
    names = list((root / "templates").rglob("*.html"))
    assert warm_up() == len(names) > 50
    assert get_resolver()._populated
    loader = engines["django"].engine.template_loaders[0]
    assert len(loader.get_template_cache) >= len(names)  # compiled once, kept for the forked workers
    spec = importlib.util.spec_from_file_location("gunicorn_conf", root / "deploy" / "gunicorn.conf.py")
    conf = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(conf)
    assert conf.preload_app and "warm_up()" in (root / "deploy" / "gunicorn.conf.py").read_text()


@pytest.mark.parametrize("threads", ["4", "2", "8"])
def test_a_gunicorn_worker_keeps_connections_alive_instead_of_closing_each(monkeypatch, threads):
    """deploy/gunicorn.conf.py: gunicorn 27 closes a connection it does not keep in the worker's main
    thread, waiting for the client's side; with phones on slow Wi-Fi that halves the requests a
    second (docs/performance.md, "The server's settings, and why"). So keep-alive stays on with room for it:
    gunicorn keeps `worker_connections - threads` connections alive and warns when there is none."""
    from unittest import mock

    from gunicorn.config import Config
    from gunicorn.workers.gthread import ThreadWorker

    monkeypatch.setenv("GUNICORN_THREADS", threads)
    namespace: dict = {}
    exec((SETTINGS_FILE.parent.parent / "deploy" / "gunicorn.conf.py").read_text(), namespace)
    config = Config()
    for name in ("worker_class", "threads", "keepalive"):
        config.set(name, namespace[name])
    if "worker_connections" in namespace:
        config.set("worker_connections", namespace["worker_connections"])
    assert issubclass(config.worker_class, ThreadWorker) and config.threads == int(threads)
    assert config.keepalive > 0 and config.worker_connections - config.threads >= 100
    log = mock.Mock()
    config.worker_class.check_config(config, log)
    log.warning.assert_not_called()


@pytest.mark.parametrize("setting, own", [("1", True), ("0", False), (None, True)])
def test_each_gunicorn_worker_listens_on_a_socket_of_its_own_unless_told_not_to(monkeypatch, setting, own):
    """deploy/gunicorn.conf.py: with one socket shared by the workers, the announcement burst's phones went
    mostly to one worker (docs/performance.md, "The announcement burst"); gunicorn 27's reuse_port opens one
    socket per worker and the kernel spreads the connections. On unless GUNICORN_REUSE_PORT=0: the master's
    shared socket beside them (the next tests) queues connections while all workers restart at once."""
    from gunicorn.config import Config

    from config.gunicorn_worker import OwnSocketThreadWorker

    if setting is None:
        monkeypatch.delenv("GUNICORN_REUSE_PORT", raising=False)
    else:
        monkeypatch.setenv("GUNICORN_REUSE_PORT", setting)
    monkeypatch.delenv("GUNICORN_BIND", raising=False)
    namespace: dict = {}
    exec((SETTINGS_FILE.parent.parent / "deploy" / "gunicorn.conf.py").read_text(), namespace)
    config = Config()
    for name in ("worker_class", "reuse_port"):
        config.set(name, namespace[name])
    assert config.reuse_port is own and config.worker_class is OwnSocketThreadWorker


def test_the_master_keeps_a_shared_socket_that_queues_connections_while_every_worker_restarts(monkeypatch):
    """config/gunicorn_worker.py: with reuse_port gunicorn 27 opens no socket in the master, so while every
    worker is between its exit and its successor's start (max_requests reached by all in the same second)
    nothing listens and connections are refused (`ab -r -n 6000 -c 30` with GUNICORN_MAX_REQUESTS=200:
    342-1,709 of 6,000 failed in three of four runs). The master now keeps one socket on the address too,
    every worker watches it beside its own, and when the worker's own is closed the kernel queues new
    connections there for the next worker instead of refusing them."""
    import gc
    import selectors
    import socket
    from unittest import mock

    from gunicorn import sock
    from gunicorn.config import Config

    from config.gunicorn_worker import OwnSocketThreadWorker

    probe = socket.socket()
    probe.bind(("127.0.0.1", 0))
    address = f"127.0.0.1:{probe.getsockname()[1]}"
    probe.close()
    monkeypatch.setenv("GUNICORN_BIND", address)
    monkeypatch.delenv("GUNICORN_REUSE_PORT", raising=False)
    namespace: dict = {}
    exec((SETTINGS_FILE.parent.parent / "deploy" / "gunicorn.conf.py").read_text(), namespace)
    config = Config()
    for name in ("worker_class", "reuse_port", "bind", "threads"):
        config.set(name, namespace[name])
    master = mock.Mock(cfg=config, LISTENERS=[])
    monkeypatch.setattr("config.warm.warm_up", lambda: 0)
    monkeypatch.setattr(gc, "freeze", lambda: None)
    namespace["when_ready"](master)  # in the master, before the workers are forked
    assert len(master.LISTENERS) == 1
    shared = master.LISTENERS[0]
    worker = OwnSocketThreadWorker(1, 1, master.LISTENERS, None, 15, config, mock.Mock())
    worker.sockets = sock.create_sockets(config, mock.Mock())  # gunicorn's arbiter.spawn_worker, after the fork
    own = worker.sockets[0]
    phones = []
    try:
        worker.watch_the_shared_sockets()
        assert worker.sockets == [own, shared]
        worker.poller, worker._accepting, worker.nr_conns = selectors.DefaultSelector(), False, 0
        worker.set_accept_enabled(True)
        assert {key.fileobj for key in worker.poller.get_map().values()} == {own, shared}  # both watched
        worker.alive = False  # max_requests reached: the worker stops accepting and leaves its own socket
        worker.set_accept_enabled(False)
        assert own.sock is None and shared.sock is not None  # gunicorn's socket drops its socket when closed
        for _ in range(5):  # nothing but the master's socket listens: queued there, not refused
            phones.append(socket.create_connection(shared.getsockname(), timeout=5))
        shared.setblocking(True)
        shared.settimeout(5)
        for _phone in phones:
            client, _ = shared.accept()  # the next worker takes them
            client.close()
    finally:
        for phone in phones:
            phone.close()
        for listener in (own, shared):
            listener.close()
        worker.tmp.close()


@pytest.mark.parametrize("bind", ["unix:/run/doko/gunicorn.sock", "fd://3"])
def test_a_unix_socket_stays_one_socket(monkeypatch, bind):
    """On a unix socket each worker's own socket would replace the file of the one before (gunicorn's
    UnixSocket removes it), and only the last worker would get connections."""
    monkeypatch.setenv("GUNICORN_BIND", bind)
    monkeypatch.setenv("GUNICORN_REUSE_PORT", "1")
    namespace: dict = {}
    exec((SETTINGS_FILE.parent.parent / "deploy" / "gunicorn.conf.py").read_text(), namespace)
    assert namespace["reuse_port"] is False


def test_a_stopping_worker_answers_what_is_queued_on_its_socket_and_closes_it():
    """config/gunicorn_worker.py: a worker that stops (max_requests, a reload) takes the connections the
    kernel has queued on its own socket, then closes the socket, instead of keeping it open until its
    last connection ends (gunicorn 27), when what was queued meanwhile would be reset."""
    import selectors
    import socket
    from unittest import mock

    from config.gunicorn_worker import OwnSocketThreadWorker

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEPORT, 1)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    address = listener.getsockname()
    phone = socket.create_connection(address, timeout=5)  # queued, not yet accepted
    worker = OwnSocketThreadWorker.__new__(OwnSocketThreadWorker)
    worker.cfg, worker.sockets, worker.poller = mock.Mock(reuse_port=True), [listener], selectors.DefaultSelector()
    worker._accepting, worker.alive, worker.nr_conns, worker.ppid = False, True, 0, mock.Mock()
    worker.is_parent_alive = lambda: True
    taken = []
    worker.enqueue_req = taken.append
    try:
        worker.set_accept_enabled(True)
        worker.alive = False  # max_requests reached: the main loop ends and stops accepting
        worker.set_accept_enabled(False)
        assert len(taken) == 1 and worker.nr_conns == 1 and taken[0].sock.getpeername() == phone.getsockname()
        assert listener.fileno() == -1 and worker.sockets == []
        with pytest.raises(ConnectionRefusedError):  # nothing listens there any more: the kernel queues nothing
            socket.create_connection(address, timeout=5)
    finally:
        phone.close()
        for conn in taken:
            conn.sock.close()
        worker.poller.close()


def test_a_worker_that_is_only_full_keeps_its_socket():
    """The same class while it runs: at gunicorn's worker_connections it stops accepting for a while,
    its socket stays open (the kernel keeps queueing for it until it accepts again)."""
    import selectors
    import socket
    from unittest import mock

    from config.gunicorn_worker import OwnSocketThreadWorker

    listener = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listener.bind(("127.0.0.1", 0))
    listener.listen(16)
    worker = OwnSocketThreadWorker.__new__(OwnSocketThreadWorker)
    worker.cfg, worker.sockets, worker.poller = mock.Mock(reuse_port=True), [listener], selectors.DefaultSelector()
    worker._accepting, worker.alive, worker.nr_conns = False, True, 0
    worker.is_parent_alive = lambda: True
    try:
        worker.set_accept_enabled(True)
        worker.set_accept_enabled(False)
        assert listener.fileno() != -1 and worker.sockets == [listener]
    finally:
        listener.close()
        worker.poller.close()


class _Wire:
    """A connection's socket that records each send."""

    def __init__(self):
        self.sends: list[bytes] = []

    def sendall(self, data):
        self.sends.append(bytes(data))


def _answer(response_class, method: str, status: str, headers: list, body: list[bytes]) -> list[bytes]:
    from gunicorn.config import Config
    from gunicorn.http.parser import RequestParser

    config = Config()
    request = next(iter(RequestParser(config, [f"{method} / HTTP/1.1\r\nHost: x\r\n\r\n".encode()], ("127.0.0.1", 1))))
    wire = _Wire()
    response = response_class(request, wire, config)
    response.start_response(status, headers)
    for part in body:
        response.write(part)
    response.close()
    return wire.sends


@pytest.mark.parametrize("method, status, headers, body, sends", [
    ("GET", "200 OK", [("Content-Length", "5")], [b"hallo"], 1),  # head and body in one send
    ("GET", "200 OK", [("Content-Length", "5")], [b"hal", b"lo"], 2),  # the rest as gunicorn sends it
    ("GET", "200 OK", [("Content-Length", "0")], [], 1),
    ("GET", "200 OK", [], [b"ha", b"llo"], 4),  # no length: chunked, gunicorn's own way
    ("HEAD", "200 OK", [("Content-Length", "5")], [b"hallo"], 1),  # no body on the wire
    ("GET", "304 Not Modified", [("ETag", '"1"')], [], 1),
])
def test_a_worker_sends_an_answers_head_with_its_body(method, status, headers, body, sends):
    """config/gunicorn_worker.py: gunicorn sends the head and the body in two sends, each a TCP segment the
    phone's side wakes up for; the worker's `OneSendResponse` sends the head with a body of known length
    at once. What goes on the wire is byte for byte gunicorn's."""
    from unittest import mock

    from gunicorn.http import wsgi

    from config.gunicorn_worker import OneSendResponse, OwnSocketThreadWorker

    with mock.patch("gunicorn.util.http_date", return_value="Sun, 29 Nov 2026 21:40:00 GMT"):
        ours = _answer(OneSendResponse, method, status, headers, body)
        theirs = _answer(wsgi.Response, method, status, headers, body)
    assert b"".join(ours) == b"".join(theirs) and b"Date: Sun, 29 Nov 2026 21:40:00 GMT" in ours[0]
    assert len(ours) == sends
    worker = OwnSocketThreadWorker.__new__(OwnSocketThreadWorker)
    worker.cfg, worker.sockets, worker.shared_sockets = mock.Mock(reuse_port=False), [], []
    with mock.patch.object(wsgi, "Response", wsgi.Response), \
            mock.patch("gunicorn.workers.gthread.ThreadWorker.init_process"):
        worker.init_process()  # in the forked worker: gunicorn's `wsgi.create` builds these from then on
        assert wsgi.Response is OneSendResponse
