# Two commands on a fresh clone: `make run` (serve with demo data) and `make test` (the suite
# without the tests marked slow; `make test-all`, which CI runs, includes them).
SHELL := bash
.SHELLFLAGS := -eu -o pipefail -c
PYTHON ?= python3
VENV := .venv
PY := $(VENV)/bin/python
STAMP := $(VENV)/.installed-stamp
HOST ?= 127.0.0.1
PORT ?= 8000

.PHONY: run test test-all lint setup bench bench-verification bench-stats clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else "Python 3.11 is required (set PYTHON=...)")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# The embedded default: SQLite next to the code, Celery tasks in-process, DEBUG on.
run: export DEBUG ?= 1
run: $(STAMP)
	$(PY) manage.py migrate --noinput
	$(PY) manage.py seed_demo
	$(PY) manage.py runserver $(HOST):$(PORT)

# One pytest run each, so the last line is always pytest's summary. `-m "not slow"` deselects
# only the long self-play variant (its 200-game version stays): the selection is never empty,
# and an `-m` in PYTEST_ARGS comes later and wins.
test: $(STAMP)
	$(PY) -m pytest -m "not slow" $(PYTEST_ARGS)

test-all: $(STAMP)
	$(PY) -m pytest $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy --strict  # the files in pyproject.toml: rules_engine, tournaments/formats
	$(PY) -m rules_engine coverage --strict | tail -n 1

# Benchmarks (figures, not tests). bench-verification needs PostgreSQL and Redis.
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/yomi_bench
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/7
BENCH_LOGS ?= 10000

bench: $(STAMP)
	$(PY) -m rules_engine bench
	$(PY) -m tournaments.formats.bench
	DEBUG=1 $(PY) manage.py migrate --noinput -v0
	DEBUG=1 $(PY) manage.py bench_tournaments

bench-verification: $(STAMP)
	-createdb -h 127.0.0.1 -U postgres yomi_bench 2>/dev/null
	DEBUG=1 DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) $(PY) manage.py migrate --noinput -v0
	DEBUG=1 DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) \
		$(PY) manage.py bench_verification --logs $(BENCH_LOGS) --workers 2

BENCH_GAMES ?= 100000

bench-stats: $(STAMP)
	-createdb -h 127.0.0.1 -U postgres yomi_bench 2>/dev/null
	DEBUG=1 DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) manage.py migrate --noinput -v0
	DEBUG=1 DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) manage.py bench_stats --games $(BENCH_GAMES)

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .ruff_cache .mypy_cache .hypothesis
