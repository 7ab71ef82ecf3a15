# Doko-Turnier -- `make run` starts the app, `make test` runs every test on SQLite and PostgreSQL.
# Each target installs what it needs (Debian packages only when missing, the virtualenv only when
# pyproject.toml changed).

SHELL := /bin/bash
.SHELLFLAGS := -euo pipefail -c
.DEFAULT_GOAL := help

PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-pyproject.sha256
MANAGE := $(PY) manage.py
PYTEST := $(PY) -m pytest -p no:cacheprovider
ARGS ?=
HOST ?= 127.0.0.1
PORT ?= 8000
export PIP_DISABLE_PIP_VERSION_CHECK := 1
# Python keeps the compiled code of our modules (and pytest the tests with their asserts rewritten) in
# __pycache__, also where the environment says not to (PYTHONDONTWRITEBYTECODE=1): without it every
# process of a test pass, and every `manage.py` a test starts, compiled them again (about 5 s of CPU a
# process; docs/performance.md, "The test suite").
unexport PYTHONDONTWRITEBYTECODE

.PHONY: help setup setup-run system-deps system-deps-run venv venv-load messages makemessages migrate demo \
        run serve bench bench-seating loadtest cluster-check hub-check test test-sqlite test-pg lint clean

help:
	@echo "make run          install what is missing, migrate, load the demo, serve on http://$(HOST):$(PORT)/"
	@echo "make serve        like run, then a production server (gunicorn, PDF worker) for the local network"
	@echo "make bench        benchmarks at 1,000 players (figures, not tests; docs/performance.md)"
	@echo "make bench-seating  seating schedules, 8-200 players x 3-8 rounds: repeats and seconds (docs/seating.md)"
	@echo "make loadtest     500 phones and 3 directors for 2 minutes, the rush and the burst, against make serve (SQLite, PostgreSQL)"
	@echo "make cluster-check  nginx, PostgreSQL, Redis and two app instances on loopback (docs/deploy.md)"
	@echo "make hub-check    a venue publishing an evening of 200 players to a hub through faults (docs/publishing.md)"
	@echo "make test         install what is missing, run all tests on SQLite, then on a throwaway PostgreSQL"
	@echo "make test-sqlite  only the SQLite pass    (ARGS='-k name -x' passes options to pytest)"
	@echo "make test-pg      only the PostgreSQL pass: the tests that use the database (ARGS=... as above)"
	@echo "make lint         ruff, mypy, the import contracts, module sizes, write paths (part of make test)"
	@echo "make setup        Debian packages + .venv + compiled translations"
	@echo "make makemessages update locale/en/LC_MESSAGES/django.po from the sources"
	@echo "make clean        remove .venv, db.sqlite3 and compiled translations"

# ---- installation -----------------------------------------------------------------------------

system-deps:
	@bash scripts/system-deps.sh test

system-deps-run:
	@bash scripts/system-deps.sh run

# (Re)creates .venv when it is missing or broken; pip-installs the project with its test extra
# when pyproject.toml differs from the one last installed (its hash is kept in $(STAMP)).
venv:
	@if ! $(PY) -c 'import sys' >/dev/null 2>&1; then \
	  echo "venv: creating $(VENV) with $(PYTHON)"; \
	  rm -rf $(VENV); \
	  $(PYTHON) -m venv $(VENV); \
	fi
	@want=$$(sha256sum pyproject.toml | cut -d' ' -f1); \
	if [ "$$(cat $(STAMP) 2>/dev/null)" != "$$want" ]; then \
	  echo "venv: pip install -e '.[test]'"; \
	  $(PY) -m pip install --quiet -e '.[test]'; \
	  echo "$$want" > $(STAMP); \
	fi

# locust for the load test and the cluster check (not needed by make test)
venv-load: venv
	@if ! $(PY) -c 'import locust' >/dev/null 2>&1; then \
	  echo "venv: pip install -e '.[test,load]'"; \
	  $(PY) -m pip install --quiet -e '.[test,load]'; \
	fi

messages: venv
	@if [ -d locale ]; then $(MANAGE) compilemessages --ignore '$(VENV)' --ignore 'node_modules' -v 0; fi

makemessages: venv
	$(MANAGE) makemessages -l en --ignore '$(VENV)' --ignore 'tests' --no-obsolete

setup: system-deps venv messages

setup-run: system-deps-run venv messages

# ---- running ----------------------------------------------------------------------------------

migrate: setup-run
	$(MANAGE) migrate --noinput
	$(MANAGE) createcachetable

demo: migrate
	$(MANAGE) load_demo --base-url http://$(HOST):$(PORT)

# the development server, and the worker that builds large PDFs in the background (stopped with it)
# (on 127.0.0.1 no phone reaches it: it says so and names `make serve`, which does)
run: demo
	@case "$(HOST)" in 127.*|localhost|::1) $(PY) scripts/serve_info.py $(PORT) --phones;; esac
	@mkdir -p var/log; $(MANAGE) db_worker --no-reload >var/log/worker.log 2>&1 & worker=$$!; \
	trap 'kill $$worker 2>/dev/null || true' EXIT; \
	$(MANAGE) runserver $(HOST):$(PORT)

# gunicorn on all interfaces (SERVE_HOST, PORT), debug off, the PDF worker: scripts/serve.sh
SERVE_HOST ?= 0.0.0.0
serve: demo
	HOST=$(SERVE_HOST) PORT=$(PORT) bash scripts/serve.sh

# on SQLite, then on a throwaway PostgreSQL (ARGS="--no-pdf --repeat 10" for a quicker run; the hub's
# association: HUB_ARGS="--tournaments 2000 --players 40000" for a smaller one)
bench: setup
	@echo "==== a round's score sheets as PDF, cold and warm (250 tables; docs/performance.md) ===="; \
	env -u DATABASE_URL $(PY) scripts/bench_round_pdf.py
	@echo "==== the rating against the Rundenschnitt, synthetic players (docs/rating.md) ===="; \
	$(PY) -m scoring.rating_sim
	@echo "==== benchmarks 1/2: SQLite ===="; env -u DATABASE_URL $(PY) scripts/bench.py $(ARGS)
	@echo "==== benchmarks 2/2: PostgreSQL (throwaway server) ===="; \
	bash scripts/with-postgres.sh $(PY) scripts/bench.py $(ARGS)
	@echo "==== the hub's start page, calendar and search, a generated association (docs/hub.md): SQLite ===="; \
	env -u DATABASE_URL $(PY) scripts/bench_hub.py $(HUB_ARGS)
	@echo "==== the same on PostgreSQL (throwaway server) ===="; \
	bash scripts/with-postgres.sh $(PY) scripts/bench_hub.py $(HUB_ARGS)

bench-seating: venv
	$(PY) scripts/bench_seating.py $(ARGS)

# on SQLite, then on a throwaway PostgreSQL; LOADTEST_ARGS="--users 50 --run-time 30" for a short run
LOADTEST_ARGS ?=
RUSH_ARGS ?= --run-time 90
loadtest: setup venv-load
	@rc_sqlite=0; rc_pg=0; \
	echo "==== load test 1/2: SQLite (the evening, then the round-start rush) ===="; \
	env -u DATABASE_URL $(PY) scripts/loadtest.py $(LOADTEST_ARGS) || rc_sqlite=$$?; \
	env -u DATABASE_URL $(PY) scripts/loadtest.py --rush --users 1000 $(RUSH_ARGS) || rc_sqlite=$$?; \
	env -u DATABASE_URL $(PY) scripts/loadtest.py --burst --users 200 --run-time 75 $(BURST_ARGS) || rc_sqlite=$$?; \
	echo "==== load test 2/2: PostgreSQL (throwaway server; the evening, then the round-start rush) ===="; \
	bash scripts/with-postgres.sh $(PY) scripts/loadtest.py $(LOADTEST_ARGS) || rc_pg=$$?; \
	bash scripts/with-postgres.sh $(PY) scripts/loadtest.py --rush --users 1000 $(RUSH_ARGS) || rc_pg=$$?; \
	bash scripts/with-postgres.sh $(PY) scripts/loadtest.py --burst --users 200 --run-time 75 $(BURST_ARGS) || rc_pg=$$?; \
	[ "$$rc_sqlite" -eq 0 ] && [ "$$rc_pg" -eq 0 ]

cluster-check: setup venv-load
	bash scripts/cluster-check.sh

# a venue (make serve's stack, SQLite) publishing to a hub (PostgreSQL, two instances behind nginx,
# Redis) through a fault-injecting proxy, then both compared; HUB_CHECK_ARGS="--players 40 --rounds 2"
HUB_CHECK_ARGS ?=
hub-check: setup
	bash scripts/hub-check.sh $(HUB_CHECK_ARGS)

# ---- tests ------------------------------------------------------------------------------------
# Both passes always run; the target fails if either does (pytest's exit 5, "no tests collected",
# counts as a failure too).

# Lint runs beside the SQLite pass (a quarter of a core for half a minute, mostly waiting); its
# output is shown after that pass.
test: setup
	@rc_lint=0; rc_sqlite=0; rc_pg=0; lint_log=$$(mktemp /tmp/doko-lint.XXXXXX); \
	trap 'rm -f "$$lint_log"' EXIT; \
	$(MAKE) --no-print-directory lint >"$$lint_log" 2>&1 & lint_pid=$$!; \
	echo "==== pass 1/2: SQLite (lint beside it) ===="; \
	env -u DATABASE_URL bash scripts/run-tests.sh "$(PYTEST)" $(ARGS) || rc_sqlite=$$?; \
	wait $$lint_pid || rc_lint=$$?; \
	echo "==== lint: ruff, mypy, the import contracts, the module sizes and the write paths ===="; \
	cat "$$lint_log"; \
	echo "==== pass 2/2: PostgreSQL (throwaway server) ===="; \
	bash scripts/with-postgres.sh bash scripts/run-tests.sh "$(PYTEST)" --database-tests-only $(ARGS) || rc_pg=$$?; \
	echo "lint: exit $$rc_lint; SQLite pass: exit $$rc_sqlite; PostgreSQL pass: exit $$rc_pg (0 = passed, 5 = no tests collected)"; \
	[ "$$rc_lint" -eq 0 ] && [ "$$rc_sqlite" -eq 0 ] && [ "$$rc_pg" -eq 0 ]

lint: venv
	$(PY) -m ruff check .
	$(PY) -m mypy
	$(VENV)/bin/lint-imports
	$(PY) scripts/module_sizes.py
	$(PY) scripts/write_paths.py

test-sqlite: setup
	env -u DATABASE_URL bash scripts/run-tests.sh "$(PYTEST)" $(ARGS)

test-pg: setup
	bash scripts/with-postgres.sh bash scripts/run-tests.sh "$(PYTEST)" --database-tests-only $(ARGS)

clean:
	rm -rf $(VENV) db.sqlite3 .pytest_cache .hypothesis var
	find locale -name '*.mo' -delete 2>/dev/null || true
