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

.PHONY: run test test-all lint setup bench bench-instructions compile bench-compiled test-compiled check-compiled smoke bench-bots bench-verification bench-stats bench-rooms clean

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
# and an `-m` in PYTEST_ARGS comes later and wins. The tests run the interpreted engine even
# where `make compile` has built the compiled one (some patch engine classes; test-compiled
# runs the engine's tests on the compiled build).
#
# The suite runs in TEST_PROCESSES processes (pytest-xdist; 1 runs it in this process). A test
# file stays in one process (--dist loadfile: a module's shared fixture is built once); each
# process has its own test database, Redis database and Celery queue (yomi_site/test_settings.py).
TEST_PROCESSES ?= 2
XDIST = $(if $(filter-out 0 1,$(TEST_PROCESSES)),-n $(TEST_PROCESSES) --dist loadfile,-p no:xdist)

test: $(STAMP)
	YOMI_ENGINE=interpreted $(PY) -m pytest $(XDIST) -m "not slow" $(PYTEST_ARGS)

test-all: $(STAMP)
	YOMI_ENGINE=interpreted $(PY) -m pytest $(XDIST) $(PYTEST_ARGS)

lint: $(STAMP)
	$(VENV)/bin/ruff check .
	$(VENV)/bin/lint-imports
	$(VENV)/bin/mypy --strict  # the files in pyproject.toml: rules_engine, tournaments/formats, simulations/montecarlo
	# the rule coverage reads the source and its tests beside it: the interpreted engine, even where make compile built the other
	YOMI_ENGINE=interpreted $(PY) -m rules_engine coverage --strict | tail -n 1

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

# Opt-in: the engine compiled by mypyc from the same source into rules_engine/_compiled (needs a
# C compiler and the Python headers; minutes on 2 cores; nothing to do when it is current). Every
# process (run, workers, the benches) then uses it while it matches the source, unless
# YOMI_ENGINE=interpreted (rules_engine/build.py); the production image builds it the same way.
compile: $(STAMP)
	$(PY) -m rules_engine.tools.compile --if-stale

bench-compiled: compile
	YOMI_ENGINE=compiled $(PY) -m rules_engine bench

# The engine's tests on the compiled build, but for those marked interpreted_only.
test-compiled: compile
	YOMI_ENGINE=compiled $(PY) -m pytest -p no:cacheprovider -q \
		-m "not slow and not interpreted_only" tests/rules_engine

# CI: the two builds give byte-identical verdicts, timelines and boards (golden logs, a sample
# of the frozen self-play corpus, strong-bot and look-ahead-bot games: the compiled bots must
# choose the same actions); CHECK_EVERY=1 compares all 2,000 corpus games.
CHECK_EVERY ?= 10
check-compiled: compile
	$(PY) -m tests.rules_engine.builds_agree --every $(CHECK_EVERY)

# CI: the wheel, installed in a new virtualenv, runs the site (.ci/smoke.py; PostgreSQL, Redis).
SMOKE_ENGINE ?= interpreted
smoke: $(STAMP)
	$(PY) .ci/smoke.py --engine $(SMOKE_ENGINE)

bench-bots: $(STAMP)
	$(PY) -m rules_engine bench-bots --games-per-pair $(BENCH_GAMES_PER_PAIR)

# BENCH_VERIFY_LOGS given on the command line or in the environment sets the count here too.
BENCH_VERIFY_COUNT = $(strip $(if $(filter command line environment,$(origin BENCH_VERIFY_LOGS)),$(BENCH_VERIFY_LOGS),$(BENCH_LOGS)))

# Submissions come from BENCH_SUBMITTERS threads at once, as from several web processes: one
# sequential submitter measures its own round trips, not what two workers verify.
BENCH_SUBMITTERS ?= 4

# The per-log CPU targets (issue 32) are measured as production runs: DEBUG off, and the engine
# build BENCH_ENGINE chooses (auto: the compiled one when `make compile` built it for this source).
BENCH_ENGINE ?= auto

bench-verification: $(STAMP)
	$(BENCH_CREATEDB)
	DEBUG=1 DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) $(PY) manage.py migrate --noinput -v0
	DEBUG=0 SECRET_KEY=bench-only-not-a-secret YOMI_ENGINE=$(BENCH_ENGINE) \
		DATABASE_URL=$(BENCH_DATABASE_URL) REDIS_URL=$(BENCH_REDIS_URL) \
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
	$(BENCH_ROOM_ENV) $(VENV)/bin/daphne -b 127.0.0.1 -p $(BENCH_ROOM_PORT) --websocket-max-message-size 65536 \
		yomi_site.asgi:application & pid=$$!; trap "kill $$pid" EXIT; \
	for i in $$(seq 50); do curl -sf -o /dev/null http://127.0.0.1:$(BENCH_ROOM_PORT)/healthz && break; sleep 0.2; done; \
	$(BENCH_ROOM_ENV) $(PY) manage.py bench_rooms --url http://127.0.0.1:$(BENCH_ROOM_PORT) \
		--matches $(BENCH_ROOM_MATCHES) --seconds $(BENCH_ROOM_SECONDS) $(BENCH_ROOM_ARGS)

clean:
	rm -rf $(VENV) db.sqlite3 staticfiles .pytest_cache .ruff_cache .mypy_cache .hypothesis
