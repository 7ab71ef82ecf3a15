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

.PHONY: help setup setup-run system-deps system-deps-run venv messages makemessages migrate demo \
        run test test-sqlite test-pg clean

help:
	@echo "make run          install what is missing, migrate, load the demo, serve on http://$(HOST):$(PORT)/"
	@echo "make test         install what is missing, run all tests on SQLite, then on a throwaway PostgreSQL"
	@echo "make test-sqlite  only the SQLite pass    (ARGS='-k name -x' passes options to pytest)"
	@echo "make test-pg      only the PostgreSQL pass (ARGS=... as above)"
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

messages: venv
	@if [ -d locale ]; then $(MANAGE) compilemessages --ignore '$(VENV)' --ignore 'node_modules' -v 0; fi

makemessages: venv
	$(MANAGE) makemessages -l en --ignore '$(VENV)' --ignore 'tests' --no-obsolete

setup: system-deps venv messages

setup-run: system-deps-run venv messages

# ---- running ----------------------------------------------------------------------------------

migrate: setup-run
	$(MANAGE) migrate --noinput

demo: migrate
	$(MANAGE) load_demo --base-url http://$(HOST):$(PORT)

run: demo
	$(MANAGE) runserver $(HOST):$(PORT)

# ---- tests ------------------------------------------------------------------------------------
# Both passes always run; the target fails if either does (pytest's exit 5, "no tests collected",
# counts as a failure too).

test: setup
	@rc_sqlite=0; rc_pg=0; \
	echo "==== pass 1/2: SQLite ===="; \
	env -u DATABASE_URL $(PYTEST) $(ARGS) || rc_sqlite=$$?; \
	echo "==== pass 2/2: PostgreSQL (throwaway server) ===="; \
	bash scripts/with-postgres.sh $(PYTEST) $(ARGS) || rc_pg=$$?; \
	echo "SQLite pass: exit $$rc_sqlite; PostgreSQL pass: exit $$rc_pg (0 = passed, 5 = no tests collected)"; \
	[ "$$rc_sqlite" -eq 0 ] && [ "$$rc_pg" -eq 0 ]

test-sqlite: setup
	env -u DATABASE_URL $(PYTEST) $(ARGS)

test-pg: setup
	bash scripts/with-postgres.sh $(PYTEST) $(ARGS)

clean:
	rm -rf $(VENV) db.sqlite3 .pytest_cache .hypothesis var
	find locale -name '*.mo' -delete 2>/dev/null || true
