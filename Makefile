# The two commands a newcomer needs: `make run` and `make test`. `make install` is their shared
# first step: a .venv with the package and its test tools, redone only when pyproject.toml changes.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed
# The interface's translations: each .po compiled to its .mo, whenever it changes.
PO := $(wildcard src/codeblanks/locale/*/LC_MESSAGES/*.po)
MO := $(PO:.po=.mo)
PG_URL ?= postgresql://postgres@127.0.0.1:5432/test
# The SQLite stage in three workers (pytest-xdist), beside the PostgreSQL stage's two: most tests
# wait on a sandbox child, a browser or a server, so one worker a core leaves the cores idle.
# Fresh clones on 2 cores, alternated: 364 and 405 s for `make test` with four, 355 and 382 s
# with three (and on a faster 2-core VM on 2026-12-07, 302 s for the stage with three, 309 s with
# four; handing tests out by work stealing, 280, 304 and 312 s: no gain the noise resolves).
# `make test XDIST=` runs in one.
XDIST ?= -n 3

# Python keeps what it compiles (__pycache__, ignored by git) even where the environment says
# PYTHONDONTWRITEBYTECODE: without the cache every process compiles every module it imports
# again, and the suite starts hundreds (pytest's collection alone took 9.9 s of CPU per
# worker without it, 4.4 s with it).
unexport PYTHONDONTWRITEBYTECODE

.PHONY: install messages system run cluster test test-suite compile-tests test-repeat test-fast lint format bench screenshots clean

install: $(STAMP) $(MO)

$(STAMP): pyproject.toml
	test -x $(BIN)/python || $(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[test]'
	touch $(STAMP)

$(MO): %.mo: %.po $(STAMP)
	$(BIN)/python -m codeblanks.i18n

# Refresh the catalogues from the code after adding or changing interface strings (needs GNU
# gettext: apt-get install gettext); then translate the new entries (docs/translating.md). A
# throw-away key, so that loading the settings writes no data/secret_key into the package.
messages: install
	cd src/codeblanks && CODEBLANKS_SECRET_KEY=makemessages-only \
		DJANGO_SETTINGS_MODULE=codeblanks.web.settings ../../$(BIN)/python -m django \
		makemessages --locale tr --add-location file --no-obsolete \
		--ignore 'courses/*' --ignore 'sandbox/inside/*'

PORT ?= 8000
run: install
	$(BIN)/codeblanks serve --host 127.0.0.1 --port $(PORT)

# Several nodes behind HAProxy on this machine, with a PostgreSQL and a Redis of their own
# (docs/deploy.md); NODES=3 for more. Ctrl+C stops everything.
NODES ?= 2
cluster: install
	$(BIN)/python deploy/cluster.py --nodes $(NODES) --port 8080

# The second mypy checks sandbox/inside/ as the sandbox imports it, as top-level modules
# (``import wire``): a run of its own, strict, without pyproject's settings (the package's).
lint: install
	$(BIN)/ruff check src tests benchmarks deploy
	$(BIN)/ruff format --check src tests benchmarks deploy
	CODEBLANKS_SECRET_KEY=mypy-only $(BIN)/mypy
	cd src/codeblanks/sandbox/inside && $(CURDIR)/$(BIN)/mypy --config-file= --strict \
		--python-version 3.11 --explicit-package-bases --cache-dir $(CURDIR)/.mypy_cache/inside *.py

format: install
	$(BIN)/ruff format src tests benchmarks deploy
	$(BIN)/ruff check --fix src tests benchmarks deploy

# Two stages, each test run once, side by side. The web tests that use the database (marked
# web_db) run on the real PostgreSQL when one answers at PG_URL, as a deployment of several nodes
# runs, together with the PostgreSQL-only ones (tests/deploy: two real nodes sharing PostgreSQL
# and Redis); everything else runs on SQLite, as `make run` does: the browser journeys write
# through every page there, and the command line and the laptop deployment use it. Without a
# PostgreSQL, the web tests run on SQLite too and the stage says it was skipped.
# The PostgreSQL stage runs in two workers beside the SQLite stage's three: its tests wait on the
# database more than they compute, so the two stages together took 328 s where one after the
# other took about 395. Its output comes after the SQLite stage's, whichever ends first, and each
# stage's result is reported, so one failure never hides the other.
PG_XDIST ?= -n 2
test: system install
	@$(MAKE) --no-print-directory -j2 lint compile-tests
	@$(MAKE) --no-print-directory test-suite

# pytest keeps each test module, compiled with its assertions rewritten, in __pycache__ (so does
# Python for the package). In a fresh clone the first stage's workers would each compile
# everything at once (11.5 s of CPU each, against 4.5 s with the files kept): one collection
# does it first, beside lint, which leaves the other core idle. Its errors show in the stage.
compile-tests: install
	@$(BIN)/pytest --collect-only -q -p no:cacheprovider > /dev/null 2>&1 || true

# Each stage's output is also kept in test-artifacts/stage-*.log, so that the last lines of a red
# run (all a CI page may show) name the failures of both stages again.
test-suite: install
	@mkdir -p test-artifacts; rm -f test-artifacts/stage-*; status=0; \
	if $(BIN)/python -c "import psycopg; psycopg.connect('$(PG_URL)', connect_timeout=3).close()" 2>/dev/null; then \
		sqlite="not postgres and not web_db"; \
		{ CODEBLANKS_DATABASE_URL=$(PG_URL) $(BIN)/pytest $(PG_XDIST) -m "web_db or postgres" tests/web tests/deploy \
			|| echo "== stage failed" >> test-artifacts/stage-postgresql.failed; } > test-artifacts/stage-postgresql.log 2>&1 & \
		postgresql=$$!; \
	else \
		postgresql=; sqlite="not postgres"; \
	fi; \
	{ $(BIN)/pytest $(XDIST) -m "$$sqlite" || echo "== stage failed" >> test-artifacts/stage-sqlite.failed; } \
		2>&1 | tee test-artifacts/stage-sqlite.log; \
	if [ -n "$$postgresql" ]; then \
		wait $$postgresql; \
		echo "== beside it: the web tests that use the database, on PostgreSQL ($(PG_URL)), and the multi-node test"; \
		cat test-artifacts/stage-postgresql.log; \
	else \
		echo "== SKIPPED: no PostgreSQL answers at $(PG_URL); the web tests ran on SQLite, the multi-node test did not run"; \
	fi; \
	for stage in sqlite postgresql; do \
		if [ -e test-artifacts/stage-$$stage.failed ]; then \
			status=1; rm test-artifacts/stage-$$stage.failed; \
			echo "== the $$stage stage failed:"; \
			grep -E "^(FAILED|ERROR) [^ ]+\.py|^=+ .* in [0-9.]+s" test-artifacts/stage-$$stage.log | head -30; \
		fi; \
	done; \
	if [ $$status -ne 0 ]; then echo "== make test: FAILED (see the stages above)"; fi; \
	exit $$status

# The proof that the suite passes every time: `make test-repeat N=5` runs it N times in a row
# and stops at the first red run, printing only its failures; each run's whole output is kept
# in test-artifacts/repeat-K.log, and a run whose output passes 5 MB fails too (a test that
# floods its log hides what went wrong). `SPIN=1` keeps one core busy the whole time.
N ?= 5
SPIN ?=
test-repeat: system lint
	@mkdir -p test-artifacts; \
	if [ -n "$(SPIN)" ]; then sh -c 'while :; do :; done' & spin=$$!; fi; \
	status=0; \
	for i in $$(seq 1 $(N)); do \
		log=test-artifacts/repeat-$$i.log; start=$$(date +%s); \
		$(MAKE) --no-print-directory test-suite > $$log 2>&1; code=$$?; \
		size=$$(stat -c %s $$log); took=$$(( $$(date +%s) - start )); \
		grep -E "^=+ .*(passed|failed|error).* =+$$" $$log | sed "s/^/   /"; \
		if [ $$code -ne 0 ] || [ $$size -gt 5242880 ]; then \
			grep -E "^(FAILED|ERROR) [^ ]+\.py" $$log | head -20; \
			echo "== run $$i of $(N) failed after $$took s ($$size bytes of output): $$log"; status=1; break; \
		fi; \
		echo "== run $$i of $(N) passed in $$took s ($$size bytes of output)"; \
	done; \
	if [ -n "$$spin" ]; then kill $$spin; fi; \
	exit $$status

# The quick loop while working: no browser, no cluster, no PostgreSQL.
test-fast: install
	$(BIN)/pytest $(XDIST) -m "not browser and not cluster and not postgres"

# What the tests need from the system, installed with apt when missing (as root), else named in
# one line: Debian's Chromium (the browser tests), HAProxy (the deployment tests) and GNU gettext
# (xgettext: the catalogue's completeness test re-extracts the interface's strings).
system:
	@missing=""; \
	command -v chromium-headless-shell >/dev/null 2>&1 || missing="$$missing chromium-headless-shell"; \
	command -v haproxy >/dev/null 2>&1 || test -x /usr/sbin/haproxy || missing="$$missing haproxy"; \
	command -v xgettext >/dev/null 2>&1 || missing="$$missing gettext"; \
	if [ -n "$$missing" ]; then \
		if [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
			echo "== installing from Debian's packages:$$missing"; \
			apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends $$missing >/dev/null; \
		else \
			echo "make test needs$$missing from the system: sudo apt-get install -y$$missing"; exit 1; \
		fi; \
	fi

# The README's pictures: the browser tests that take screenshots, writing into docs/screenshots
# (a plain `make test` writes them under test-artifacts/, outside the tracked tree).
screenshots: install
	CODEBLANKS_SCREENSHOTS=$(CURDIR)/docs/screenshots $(BIN)/pytest -q tests/browser -k screenshots

bench: install
	$(BIN)/python benchmarks/sandbox.py
	$(BIN)/python benchmarks/grading.py
	$(BIN)/python benchmarks/crowd.py
	$(BIN)/python benchmarks/cpu_per_grade.py
	$(BIN)/python benchmarks/api_run.py
	$(BIN)/python benchmarks/pages.py
	$(BIN)/python benchmarks/cli.py

clean:
	rm -rf $(VENV) build *.egg-info .pytest_cache .ruff_cache
