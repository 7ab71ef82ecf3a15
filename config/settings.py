"""Settings for Doko-Turnier.

Everything that differs between a laptop and a server comes from the environment:

- DJANGO_SECRET_KEY        required when DJANGO_DEBUG is off
- DJANGO_DEBUG             "1"/"true"/"yes"/"on" or "0"/"false"/"no"/"off"; default on
- DJANGO_ALLOWED_HOSTS     comma-separated; default localhost, 127.0.0.1, [::1], testserver
- DJANGO_CSRF_TRUSTED_ORIGINS  comma-separated origins (https://example.org) behind a proxy
- DATABASE_URL             anything dj-database-url understands (postgres://user:pw@host/db,
                           sqlite:////abs/path.sqlite3); default: db.sqlite3 in the project folder
- DJANGO_HTTPS             with DJANGO_DEBUG off: the site is served over HTTPS (default on), so
                           cookies are secure, HTTP redirects to HTTPS and HSTS is sent. Off for a
                           venue laptop that serves the local network over plain HTTP.
- DJANGO_LOG_DIR           where errors are logged with their traceback (besides standard error);
                           default var/log in the project folder
- DJANGO_LOGIN_ATTEMPTS    failed logins for one user name from one address before that pair is
                           locked (default 5)
- DJANGO_LOGIN_ATTEMPTS_PER_ADDRESS  failed logins from one address, whatever the user names, before
                           the address is locked (default 20)
- DJANGO_PROXY_COUNT       proxies of ours in front that append the client's address to X-Forwarded-For
                           (1 behind nginx, docs/deploy.md; default 0: REMOTE_ADDR is the client)
- DJANGO_REGISTRATION_RATE  POSTs to the public registration per client address (default 30/10m)
- DJANGO_TABLE_LINK_RATE   POSTs through one table's entry link (default 240/m; docs/security.md)
- DJANGO_CONTACT_RETENTION_DAYS  days after a tournament's date until the contacts of its registrations
                           are erased (default 30; setting DOKO_CONTACT_RETENTION_DAYS)
- DJANGO_CONN_MAX_AGE      seconds a worker keeps its database connection (default 0: one per
                           request; `make serve` and docs/deploy.md use 60)
- DJANGO_PG_PREPARE        PostgreSQL only: a query a connection has sent twice is sent as a prepared
                           statement from then on (psycopg's server-side binding; default on). Off ("0")
                           behind a pooler in transaction mode older than PgBouncer 1.21 (docs/deploy.md)
- DJANGO_REDIS_URL         redis://127.0.0.1:6379/0 or unix:///path/redis.sock: the shared cache lives
                           in Redis; default: in the database (table doko_cache, made by `migrate`)
- DJANGO_RELEASE           names the code's version in the cache keys and ETags; default: a digest of
                           the templates, code, static files and translations (tournament/web/caching.py)
- DJANGO_PDF_CACHE_DIR     laid-out PDFs (default var/pdf-cache); DJANGO_PDF_INLINE_TABLES (10) and
                           DJANGO_PDF_INLINE_PLAYERS (120): larger printouts are built in the background
- DJANGO_TASKS_BACKEND     "database" (default: PDFs are built by `manage.py db_worker`) or
                           "immediate" (in the request, for a setup without a worker)
- DJANGO_STATIC_MANIFEST   on after `collectstatic` (`make serve`, the Dockerfile): hashed static file
                           names that browsers keep for a year
- DJANGO_REGISTRATION_LINK_RATE  POSTs through one player's private registration link (default 20/10m)
- DJANGO_EMAIL_HOST, DJANGO_EMAIL_PORT (587), DJANGO_EMAIL_USER, DJANGO_EMAIL_PASSWORD, DJANGO_EMAIL_TLS,
  DJANGO_EMAIL_SSL, DJANGO_EMAIL_FROM   the mail server for the registration's confirmation; without
                           DJANGO_EMAIL_HOST no mail is sent (docs/tournament.md)
- DJANGO_SITE_URL          the address players' phones use (http://192.168.1.20:8000), for the
                           tables' entry links and their QR codes; default: the address a page was
                           asked for
"""
import datetime
import os
import re
from pathlib import Path

import dj_database_url
from django.core.exceptions import ImproperlyConfigured
from django.utils.translation import gettext_lazy as _

BASE_DIR = Path(__file__).resolve().parent.parent


def env_bool(name: str, default: bool) -> bool:
    value = os.environ.get(name, "").strip().lower()
    if not value:
        return default
    if value in {"1", "true", "yes", "on"}:
        return True
    if value in {"0", "false", "no", "off"}:
        return False
    raise ImproperlyConfigured(f"{name} must be a boolean, not {value!r}")


def env_list(name: str, default: list[str]) -> list[str]:
    value = os.environ.get(name, "")
    items = [item.strip() for item in value.split(",") if item.strip()]
    return items or default


DEBUG = env_bool("DJANGO_DEBUG", True)

SECRET_KEY = os.environ.get("DJANGO_SECRET_KEY", "")
if not SECRET_KEY:
    if not DEBUG:
        raise ImproperlyConfigured("Set DJANGO_SECRET_KEY when DJANGO_DEBUG is off.")
    SECRET_KEY = "django-insecure-local-development-key-do-not-use-in-production"

ALLOWED_HOSTS = env_list("DJANGO_ALLOWED_HOSTS", ["localhost", "127.0.0.1", "[::1]", "testserver"])
CSRF_TRUSTED_ORIGINS = env_list("DJANGO_CSRF_TRUSTED_ORIGINS", [])

INSTALLED_APPS = [
    "django.contrib.admin",
    "django.contrib.auth",
    "django.contrib.contenttypes",
    "django.contrib.sessions",
    "django.contrib.messages",
    "django.contrib.staticfiles",
    "django_tables2",
    "simple_history",
    "axes",
    "django_ratelimit",  # only its system check: it refuses Django's own database cache (no atomic incr)
    "ninja",  # the open API's page (/api/v1/docs) from its bundled Swagger UI, not from a CDN
    "tournament",
]

MIDDLEWARE = [
    "django.middleware.security.SecurityMiddleware",
    "django.contrib.sessions.middleware.SessionMiddleware",
    "django.middleware.locale.LocaleMiddleware",
    "django.middleware.common.CommonMiddleware",
    "django.middleware.csrf.CsrfViewMiddleware",
    "django.contrib.auth.middleware.AuthenticationMiddleware",
    "django.contrib.messages.middleware.MessageMiddleware",
    "django.middleware.clickjacking.XFrameOptionsMiddleware",
    # our 404 page also with DEBUG on, our 405 page instead of an empty body (tournament/views/errors.py)
    "tournament.views.errors.ErrorPages",
    # last, as its documentation asks: answers a locked-out login with the lockout page
    "axes.middleware.AxesMiddleware",
]

AUTHENTICATION_BACKENDS = [
    # first: counts failed logins and refuses a locked account or address (django-axes)
    "axes.backends.AxesStandaloneBackend",
    "django.contrib.auth.backends.ModelBackend",
]

ROOT_URLCONF = "config.urls"

TEMPLATES = [
    {
        "BACKEND": "django.template.backends.django.DjangoTemplates",
        "DIRS": [BASE_DIR / "templates"],
        "APP_DIRS": True,
        "OPTIONS": {
            "context_processors": [
                "django.template.context_processors.debug",
                "django.template.context_processors.request",
                "django.template.context_processors.i18n",
                "django.contrib.auth.context_processors.auth",
                "django.contrib.messages.context_processors.messages",
            ],
        },
    },
]

WSGI_APPLICATION = "config.wsgi.application"

DATABASES = {
    "default": dj_database_url.parse(
        os.environ.get("DATABASE_URL") or f"sqlite:///{BASE_DIR / 'db.sqlite3'}",
        conn_max_age=int(os.environ.get("DJANGO_CONN_MAX_AGE", "0")),
    ),
}
if DATABASES["default"]["ENGINE"] == "django.db.backends.sqlite3":
    # Several writers (two laptops, several server workers): every transaction takes the write lock
    # when it begins (IMMEDIATE), so two of them never both read and then both write; the second
    # waits up to 20 s instead of failing with "database is locked"; WAL lets readers go on while
    # one writes.
    DATABASES["default"]["OPTIONS"] = {
        "transaction_mode": "IMMEDIATE",
        "timeout": 20,
        "init_command": "PRAGMA journal_mode=WAL; PRAGMA synchronous=NORMAL;",
    }
    # tests run on a file too (not Django's shared in-memory database), so that the tests with
    # several writers at once see the same locking as a real installation
    (BASE_DIR / "var").mkdir(exist_ok=True)
    DATABASES["default"]["TEST"] = {"NAME": str(BASE_DIR / "var" / f"test-{os.getpid()}.sqlite3")}
elif DATABASES["default"]["ENGINE"] == "django.db.backends.postgresql":
    # No JIT compiling: PostgreSQL compiles a query whose estimated cost passes `jit_above_cost`, and the
    # hub's search by a player's name was estimated so (a subquery per record found): 240 ms compiling a
    # query that runs in 34 ms (docs/performance.md, the hub). The app's queries are all short.
    given = DATABASES["default"].setdefault("OPTIONS", {}).get("options", "")
    DATABASES["default"]["OPTIONS"]["options"] = f"{given} -c jit=off".strip()
    # Prepared statements: the server plans a query once per connection instead of every time. Its
    # queries are short (0.01-0.05 ms to run, 0.1-0.3 ms to plan), so planning was most of the server's
    # CPU; in the announcement burst the server's CPU fell by about a third (docs/performance.md).
    # Django turns them off by default (for poolers); psycopg prepares only with server-side binding.
    if env_bool("DJANGO_PG_PREPARE", True):
        DATABASES["default"]["OPTIONS"]["server_side_binding"] = True
        DATABASES["default"]["OPTIONS"]["prepare_threshold"] = 2

DEFAULT_AUTO_FIELD = "django.db.models.BigAutoField"

AUTH_PASSWORD_VALIDATORS = [
    {"NAME": "django.contrib.auth.password_validation.UserAttributeSimilarityValidator"},
    {"NAME": "django.contrib.auth.password_validation.MinimumLengthValidator"},
    {"NAME": "django.contrib.auth.password_validation.CommonPasswordValidator"},
    {"NAME": "django.contrib.auth.password_validation.NumericPasswordValidator"},
]

CSRF_FAILURE_VIEW = "tournament.views.errors.csrf_failure"

LOGIN_URL = "login"
LOGIN_REDIRECT_URL = "tournament:home"
LOGOUT_REDIRECT_URL = "tournament:home"

# Internationalisation: German first. Source strings in templates and code are German;
# locale/en/ holds the English translation (make messages / compilemessages).
LANGUAGE_CODE = "de"
LANGUAGES = [
    ("de", _("Deutsch")),
    ("en", _("Englisch")),
]
LOCALE_PATHS = [BASE_DIR / "locale"]
# English dates and times the British/international way ("28/11/2026", "13:29"), not Django's American
# "11/28/2026", "1:29 p.m."; German keeps Django's formats (config/formats/en/formats.py)
FORMAT_MODULE_PATH = ["config.formats"]
USE_I18N = True
TIME_ZONE = "Europe/Berlin"
USE_TZ = True

STATIC_URL = "static/"
STATICFILES_DIRS = [BASE_DIR / "static"]
STATIC_ROOT = BASE_DIR / "staticfiles"

SITE_URL = os.environ.get("DJANGO_SITE_URL", "").strip()
VAR_DIR = BASE_DIR / "var"
BACKUP_DIR = Path(os.environ.get("DJANGO_BACKUP_DIR") or VAR_DIR / "backups")

# ---- login rate limiting (django-axes) -------------------------------------------------------------
# After DJANGO_LOGIN_ATTEMPTS failed logins for one user name from one address, that user name is
# locked from that address (not from everywhere: a stranger cannot lock the director out); after
# DJANGO_LOGIN_ATTEMPTS_PER_ADDRESS failures from one address, whatever the names, the address is
# locked. Both for 15 minutes; the page says so in the user's language (tournament/web/login_lockout.py).
AXES_FAILURE_LIMIT = int(os.environ.get("DJANGO_LOGIN_ATTEMPTS", "5"))
LOGIN_ATTEMPTS_PER_ADDRESS = int(os.environ.get("DJANGO_LOGIN_ATTEMPTS_PER_ADDRESS", "20"))
AXES_COOLOFF_TIME = datetime.timedelta(minutes=15)
AXES_LOCKOUT_PARAMETERS = [["username", "ip_address"], "ip_address"]  # the pair, then the address
AXES_HANDLER = "tournament.web.login_lockout.LockoutHandler"
AXES_LOCKOUT_TEMPLATE = "registration/locked_out.html"
AXES_RESET_ON_SUCCESS = True
AXES_VERBOSE = False
# behind nginx (docs/deploy.md) the client's address is in X-Forwarded-For, DJANGO_PROXY_COUNT deep;
# the rate limits below take the same address (tournament/web/rate_limits.py)
PROXY_COUNT = int(os.environ.get("DJANGO_PROXY_COUNT", "0"))
AXES_CLIENT_IP_CALLABLE = "tournament.web.rate_limits.client_address"

# ---- rate limits of the writes without an account (django-ratelimit, docs/security.md) ------------
# "N/Mu": N requests in M units (s, m, h, d). The public registration per client address (a club
# registering its members from its clubhouse: 30 POSTs in 10 minutes, typos included); a table's
# entry link per link (its phones share it and a hall's phones may share one address: 10 games
# entered quickly with their previews, and an offline queue's retries, stay far below 240 a minute).
RATE_LIMIT_REGISTRATION = os.environ.get("DJANGO_REGISTRATION_RATE", "30/10m").strip()
RATE_LIMIT_TABLE_LINK = os.environ.get("DJANGO_TABLE_LINK_RATE", "240/m").strip()
# a player's private registration link (cancel, check in), per link: a player does each once, and the
# hall's phones share one address at the door
RATE_LIMIT_REGISTRATION_LINK = os.environ.get("DJANGO_REGISTRATION_LINK_RATE", "20/10m").strip()
# the open read API (/api/v1/, docs/api.md), per client address, or per API key for a client that has
# one (DJANGO_API_KEYS: "name=key" pairs separated by commas, e.g. an association's Rangliste mirror)
RATE_LIMIT_API = os.environ.get("DJANGO_API_RATE", "120/m").strip()
# a correction request from a player's page on the hub (docs/hub.md), per client address
RATE_LIMIT_CORRECTION = os.environ.get("DJANGO_CORRECTION_RATE", "10/10m").strip()
RATE_LIMIT_API_KEY = os.environ.get("DJANGO_API_KEY_RATE", "1200/m").strip()
API_KEYS = {key.strip(): name.strip() for name, _, key in (
    pair.partition("=") for pair in os.environ.get("DJANGO_API_KEYS", "").split(",") if pair.strip())
    if key.strip()}
for _name, _rate in (("DJANGO_REGISTRATION_RATE", RATE_LIMIT_REGISTRATION), ("DJANGO_TABLE_LINK_RATE",
                                                                               RATE_LIMIT_TABLE_LINK),
                     ("DJANGO_REGISTRATION_LINK_RATE", RATE_LIMIT_REGISTRATION_LINK),
                     ("DJANGO_API_RATE", RATE_LIMIT_API), ("DJANGO_API_KEY_RATE", RATE_LIMIT_API_KEY),
                     ("DJANGO_CORRECTION_RATE", RATE_LIMIT_CORRECTION)):
    if not re.fullmatch(r"[1-9][0-9]*/([1-9][0-9]*)?[smhd]", _rate):
        raise ImproperlyConfigured(f"{_name} must read like 30/10m (requests/period), not {_rate!r}")
# ---- mail (the registration's confirmation with the private link; tournament/web/mail.py) ----------
# Sent only when the site has a mail server: DJANGO_EMAIL_HOST set (SMTP), or a backend other than
# SMTP, console and dummy chosen in code (the tests' locmem). Without it nothing is sent: the
# confirmation page shows the link to save or print.
EMAIL_HOST = os.environ.get("DJANGO_EMAIL_HOST", "").strip()
EMAIL_PORT = int(os.environ.get("DJANGO_EMAIL_PORT", "587"))
EMAIL_HOST_USER = os.environ.get("DJANGO_EMAIL_USER", "")
EMAIL_HOST_PASSWORD = os.environ.get("DJANGO_EMAIL_PASSWORD", "")
EMAIL_USE_TLS = env_bool("DJANGO_EMAIL_TLS", EMAIL_PORT == 587)
EMAIL_USE_SSL = env_bool("DJANGO_EMAIL_SSL", EMAIL_PORT == 465)
EMAIL_TIMEOUT = 10
DEFAULT_FROM_EMAIL = os.environ.get("DJANGO_EMAIL_FROM", "doko-turnier@localhost").strip()
# ---- contact data of registrations (tournament/services/contacts.py, docs/security.md) ---------------
# erased this many days after the tournament's date (`manage.py erase_contacts`, daily)
DOKO_CONTACT_RETENTION_DAYS = int(os.environ.get("DJANGO_CONTACT_RETENTION_DAYS", "30"))
if DOKO_CONTACT_RETENTION_DAYS < 0:
    raise ImproperlyConfigured("DJANGO_CONTACT_RETENTION_DAYS must be 0 or more days")
RATELIMIT_IP_META_KEY = "tournament.web.rate_limits.client_address"
RATELIMIT_FAIL_OPEN = True  # a cache that cannot count lets the request through (rate_limits.py says why)
# django-ratelimit knows neither our database cache (its incr is atomic: web/database_cache.py) nor
# Django's own Redis backend (atomic INCR) by name, and warns "not officially supported"
SILENCED_SYSTEM_CHECKS = ["django_ratelimit.W001"]

# ---- errors are written down with their traceback -------------------------------------------------
LOG_DIR = Path(os.environ.get("DJANGO_LOG_DIR") or VAR_DIR / "log")
LOGGING = {
    "version": 1,
    "disable_existing_loggers": False,
    "formatters": {
        "plain": {"format": "%(asctime)s %(levelname)s %(name)s [pid %(process)d] %(message)s"},
        "server": {"()": "django.utils.log.ServerFormatter", "format": "[{server_time}] {message}", "style": "{"},
    },
    # the tables' entry links (/e/<token>/) are secrets: masked in every log (config/log_masking.py)
    "filters": {"mask_tokens": {"()": "config.log_masking.MaskEntryTokens"}},
    "handlers": {
        "console": {"class": "logging.StreamHandler", "formatter": "plain", "filters": ["mask_tokens"]},
        "server": {"class": "logging.StreamHandler", "formatter": "server", "filters": ["mask_tokens"]},
    },
    "loggers": {
        # django.request logs every 500 with exc_info: the traceback goes with it
        "django": {"handlers": ["console"], "level": "INFO"},
        # runserver's request lines (`make run`), as Django's default, with the tokens masked
        "django.server": {"handlers": ["server"], "level": "INFO", "propagate": False},
        "tournament": {"handlers": ["console"], "level": "INFO"},
    },
}
if env_bool("DJANGO_LOG_TO_FILE", not DEBUG):
    LOG_DIR.mkdir(parents=True, exist_ok=True)
    LOGGING["handlers"]["errors_file"] = {  # type: ignore[index]
        "class": "logging.handlers.RotatingFileHandler", "formatter": "plain", "level": "ERROR",
        "filename": str(LOG_DIR / "errors.log"), "maxBytes": 5_000_000, "backupCount": 5, "encoding": "utf-8",
        "filters": ["mask_tokens"],
    }
    for logger in LOGGING["loggers"].values():  # type: ignore[attr-defined]
        logger["handlers"].append("errors_file")

# ---- production ---------------------------------------------------------------------------------
if not DEBUG:
    HTTPS = env_bool("DJANGO_HTTPS", True)
    SESSION_COOKIE_SECURE = env_bool("DJANGO_SECURE_COOKIES", HTTPS)
    CSRF_COOKIE_SECURE = SESSION_COOKIE_SECURE
    if HTTPS:
        SECURE_SSL_REDIRECT = env_bool("DJANGO_SSL_REDIRECT", True)
        SECURE_HSTS_SECONDS = int(os.environ.get("DJANGO_HSTS_SECONDS", "31536000"))
        SECURE_HSTS_INCLUDE_SUBDOMAINS = env_bool("DJANGO_HSTS_SUBDOMAINS", True)
        SECURE_HSTS_PRELOAD = env_bool("DJANGO_HSTS_PRELOAD", True)
        # nginx terminates TLS and says so in X-Forwarded-Proto (docs/deploy.md)
        SECURE_PROXY_SSL_HEADER = ("HTTP_X_FORWARDED_PROTO", "https")
    else:
        # a venue laptop serves the hall's network over plain HTTP: there is no certificate to
        # redirect to, so the HTTPS checks of `check --deploy` do not apply
        SILENCED_SYSTEM_CHECKS += ["security.W004", "security.W008", "security.W012", "security.W016"]

# ---- serving: static files, the shared cache, background jobs (docs/deploy.md) --------------------
# Everything several worker processes or machines must agree on lives in the database or in Redis,
# never in a process's memory: the cache of rendered pages (keyed by the tournament's change
# counter, tournament/web/caching.py), the state and result of PDF jobs, sessions, login lockouts.
# "config": its only migration makes the database cache's table (config/migrations/)
INSTALLED_APPS += ["django_tasks", "django_tasks_db", "config"]
# WhiteNoise serves /static/ from the app server itself (a venue laptop has no nginx), compressed
MIDDLEWARE.insert(MIDDLEWARE.index("django.middleware.security.SecurityMiddleware") + 1,
                  "whitenoise.middleware.WhiteNoiseMiddleware")
STORAGES = {
    "default": {"BACKEND": "django.core.files.storage.FileSystemStorage"},
    "staticfiles": {"BACKEND": "whitenoise.storage.CompressedManifestStaticFilesStorage"
                    if env_bool("DJANGO_STATIC_MANIFEST", False)
                    else "django.contrib.staticfiles.storage.StaticFilesStorage"},
}
STATIC_ROOT.mkdir(exist_ok=True)  # WhiteNoise looks there first (filled by `collectstatic`)
REDIS_URL = os.environ.get("DJANGO_REDIS_URL", "").strip()
if REDIS_URL:
    CACHES = {"default": {"BACKEND": "django.core.cache.backends.redis.RedisCache", "LOCATION": REDIS_URL,
                          "KEY_PREFIX": "doko", "TIMEOUT": 6 * 3600}}
else:
    CACHES = {"default": {"BACKEND": "tournament.web.database_cache.DatabaseCache", "LOCATION": "doko_cache",
                          "TIMEOUT": 6 * 3600, "OPTIONS": {"MAX_ENTRIES": 20000, "CULL_FREQUENCY": 4}}}
_TASK_BACKENDS = {"database": "django_tasks_db.DatabaseBackend",
                  "immediate": "django_tasks.backends.immediate.ImmediateBackend"}
_tasks_backend = os.environ.get("DJANGO_TASKS_BACKEND", "database").strip() or "database"
if _tasks_backend not in _TASK_BACKENDS:
    raise ImproperlyConfigured(f"DJANGO_TASKS_BACKEND must be one of {sorted(_TASK_BACKENDS)}, not {_tasks_backend!r}")
TASKS = {"default": {"BACKEND": _TASK_BACKENDS[_tasks_backend], "QUEUES": ["default"]},
         "immediate": {"BACKEND": _TASK_BACKENDS["immediate"]}}  # for `task.using(backend="immediate")`
if os.environ.get("DJANGO_PDF_CACHE_DIR"):  # default var/pdf-cache (docs/printing.md)
    PDF_CACHE_DIR = Path(os.environ["DJANGO_PDF_CACHE_DIR"])
# a round's sheets (more tables than this) and the standings (more players) are built by a
# background job with a progress page; smaller ones right in the request, as before
PDF_INLINE_TABLES = int(os.environ.get("DJANGO_PDF_INLINE_TABLES", "10"))
PDF_INLINE_PLAYERS = int(os.environ.get("DJANGO_PDF_INLINE_PLAYERS", "120"))
# a hub: takes the batches venues publish (POST /api/publish/v1/batch) and issues publishing keys to its
# organisations (docs/publishing.md); off on a venue
DOKO_HUB = env_bool("DJANGO_HUB", False)
# the hub's rate for one publishing key's batches (django-ratelimit's form)
RATE_LIMIT_PUBLISH = os.environ.get("DJANGO_PUBLISH_RATE", "120/m").strip()
# the public standings show this many places (plus the reader's own row); the rest on demand
STANDINGS_TOP = 50
