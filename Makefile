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

.PHONY: run test test-all lint setup bench bench-instructions bench-compiled test-compiled bench-bots bench-verification bench-stats bench-rooms clean

$(STAMP): pyproject.toml
	@$(PYTHON) -c 'import sys; sys.exit(0 if sys.version_info[:2] == (3, 11) else "Python 3.11 is required (set PYTHON=...)")'
	test -x $(PY) || $(PYTHON) -m venv $(VENV)
	$(PY) -m pip install --quiet --upgrade pip
	$(PY) -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

setup: $(STAMP)

# The embedded default: SQLite next to the code, Celery tasks in-process, DEBUG on.
run: export DEBUG ?= 1
# mails link to the address the server listens on (another PORT: the links follow it)
run: export YOMI_SITE_URL ?= http://$(HOST):$(PORT)
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
	$(VENV)/bin/mypy --strict  # the files in pyproject.toml: rules_engine, tournaments/formats, simulations/montecarlo
	$(PY) -m rules_engine coverage --strict | tail -n 1

# Benchmarks (figures, not tests). bench-verification needs PostgreSQL and Redis.
BENCH_DATABASE_URL ?= postgres://postgres@127.0.0.1:5432/yomi_bench
BENCH_REDIS_URL ?= redis://127.0.0.1:6379/7
BENCH_LOGS ?= 10000
BENCH_VERIFY_LOGS ?= 1000  # the verification figures `make bench` prints too
# Create the database BENCH_DATABASE_URL names if it is missing (through the server's "postgres"
# database), so a bench can never fall back to another database.
BENCH_CREATEDB = $(PY) -c 'import sys, psycopg; from urllib.parse import urlsplit; \
	url = urlsplit(sys.argv[1]); name = url.path.lstrip("/"); \
	conn = psycopg.connect(url._replace(path="/postgres").geturl(), autocommit=True); \
	exists = conn.execute("SELECT 1 FROM pg_database WHERE datname = %s", [name]).fetchone(); \
	exists or conn.execute(f"CREATE DATABASE \"{name}\"")' '$(BENCH_DATABASE_URL)'

bench: $(STAMP)
	$(PY) -m rules_engine bench
	$(PY) -m tournaments.formats.bench
	$(PY) -m simulations.montecarlo.bench
	DEBUG=1 $(PY) manage.py migrate --noinput -v0
	DEBUG=1 $(PY) manage.py bench_tournaments
	$(MAKE) --no-print-directory bench-verification BENCH_LOGS=$(BENCH_VERIFY_LOGS) \
		|| echo "bench-verification skipped or failed: it needs PostgreSQL and Redis (BENCH_DATABASE_URL, BENCH_REDIS_URL)"

# The strong bot against the greedy and random bots over every character pair (mirrored seeds).
BENCH_GAMES_PER_PAIR ?= 2

# The engine's workloads counted in instructions (valgrind's callgrind): repeatable on a busy machine.
bench-instructions: $(STAMP)
	$(PY) -m rules_engine bench-instructions

# Opt-in: the engine compiled by mypyc from the same source into build/compiled (a copy; about
# 3 minutes on 2 cores), then the engine bench run from there. Never used by tests, run or CI.
COMPILED_DIR ?= build/compiled

bench-compiled: $(STAMP)
	$(PY) -m rules_engine.tools.compile $(COMPILED_DIR)
	cd $(COMPILED_DIR) && $(abspath $(PY)) -m rules_engine bench

# Opt-in, like bench-compiled: the engine's tests run against the compiled copy (from its
# directory, so that it is the engine they import), but for those marked interpreted_only.
test-compiled: $(STAMP)
	$(PY) -m rules_engine.tools.compile $(COMPILED_DIR)
	ln -sfn $(CURDIR)/tests $(COMPILED_DIR)/tests
	cd $(COMPILED_DIR) && $(abspath $(PY)) -c 'import rules_engine.game.core as c, sys; \
		sys.exit(0 if c.__file__.endswith(".so") else "the compiled copy is not the engine imported")'
	cd $(COMPILED_DIR) && $(abspath $(PY)) -m pytest -c $(CURDIR)/pyproject.toml --rootdir . \
		-p no:django -p no:cacheprovider -o addopts="-ra --strict-markers" -q \
		-W ignore::pytest.PytestConfigWarning \
		-m "not slow and not interpreted_only" tests/rules_engine

bench-bots: $(STAMP)
	$(PY) -m rules_engine bench-bots --games-per-pair $(BENCH_GAMES_PER_PAIR)

# BENCH_VERIFY_LOGS given on the command line or in the environment sets the count here too.
BENCH_VERIFY_COUNT = $(strip $(if $(filter command line environment,$(origin BENCH_VERIFY_LOGS)),$(BENCH_VERIFY_LOGS),$(BENCH_LOGS)))

# Submissions come from BENCH_SUBMITTERS threads at once, as from several web processes: one
# sequential submitter measures its own round trips, not what two workers verify.
BENCH_SUBMITTERS ?= 4

bench-verification: $(STAMP)
	$(BENCH_CREATEDB)
	DEBUG=1 DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) $(PY) manage.py migrate --noinput -v0
	DEBUG=1 DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) \
		$(PY) manage.py bench_verification --logs $(BENCH_VERIFY_COUNT) --workers 2 \
		--submitters $(BENCH_SUBMITTERS)

BENCH_GAMES ?= 100000

bench-stats: $(STAMP)
	$(BENCH_CREATEDB)
	DEBUG=1 DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) manage.py migrate --noinput -v0
	DEBUG=1 DATABASE_URL=$(BENCH_DATABASE_URL) $(PY) manage.py bench_stats --games $(BENCH_GAMES)

# The match rooms under load (issue 22): one daphne process on loopback, BENCH_ROOM_MATCHES games
# played by scripted websocket clients, at most BENCH_ROOM_SECONDS; prints the round-trip figures.
BENCH_ROOM_MATCHES ?= 50
BENCH_ROOM_SECONDS ?= 120
BENCH_ROOM_PORT ?= 8765
# Production settings (DEBUG off), plain http on loopback.
BENCH_ROOM_ENV = DEBUG=0 SECRET_KEY=bench-only-not-a-secret SECURE_SSL_REDIRECT=0 ALLOWED_HOSTS=127.0.0.1 \
	DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) \
	CELERY_TASK_ALWAYS_EAGER=1 LOG_LEVEL=WARNING

bench-rooms: $(STAMP)
	-createdb -h 127.0.0.1 -U postgres $(lastword $(subst /, ,$(BENCH_DATABASE_URL))) 2>/dev/null
	$(BENCH_ROOM_ENV) $(PY) manage.py migrate --noinput -v0
	$(BENCH_ROOM_ENV) $(VENV)/bin/daphne -b 127.0.0.1 -p $(BENCH_ROOM_PORT) \
		yomi_site.asgi:application & pid=$$!; trap "kill $$pid" EXIT; \
	for i in $$(seq 50); do curl -sf -o /dev/null http://127.0.0.1:$(BENCH_ROOM_PORT)/healthz && break; sleep 0.2; done; \
	$(BENCH_ROOM_ENV) $(PY) manage.py bench_rooms --url http://127.0.0.1:$(BENCH_ROOM_PORT) \
		--matches $(BENCH_ROOM_MATCHES) --seconds $(BENCH_ROOM_SECONDS) $(BENCH_ROOM_ARGS)

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .ruff_cache .mypy_cache .hypothesis
