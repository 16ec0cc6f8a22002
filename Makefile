# The two commands a new user needs: `make run` and `make test`. Both set up .venv themselves.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
# The one way the service starts; the Dockerfile runs the same command (tests/test_packaging.py checks).
SERVE := gunicorn -c service/gunicorn.conf.py service.wsgi:app

.PHONY: run test lint openapi openapi-tools pyodide page messages perft bench load chaos wrk clean chromium screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

# The install compiles the engine in place with mypyc where a C compiler is there (setup.py; GOSTOP_PURE=1 for the
# pure-Python engine). Python prefers a compiled module to its source, so an edited engine source installs again
# (engine/build.py refuses a stale compiled engine to anyone who skips make).
ENGINE := $(filter-out engine/__init__.py engine/build.py engine/simulate.py engine/perft.py,$(wildcard engine/*.py))
WHICH_ENGINE := $(BIN)/python -c 'import engine; print("gostop: the engine is", "compiled" if engine.COMPILED else "pure Python")'

$(VENV)/.installed: pyproject.toml setup.py $(ENGINE) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	@$(WHICH_ENGINE)
	touch $@

$(VENV)/.installed-dev: pyproject.toml setup.py $(ENGINE) | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	@$(WHICH_ENGINE)
	touch $(VENV)/.installed $@

run: $(VENV)/.installed pyodide
	$(BIN)/$(SERVE)

# The schemathesis module runs in a pass of its own: under xdist it would fuzz one operation (see its docstring).
# The browser tests (tests/test_page.py, Debian's Chromium: see the chromium target) run in a pass of their own
# too: beside them on two cores, Chromium starves the other servers' start-up checks.
# The engine's tests run twice: on the installed (compiled) engine, and on its Python sources (GOSTOP_PURE=1).
ENGINE_TESTS := tests/test_builds.py tests/test_cards.py tests/test_rules.py tests/test_scoring.py \
	tests/test_settlement.py tests/test_game.py tests/test_replay.py tests/test_library.py tests/test_properties.py \
	tests/test_rulings.py tests/test_logs.py tests/test_evening.py tests/test_notation.py tests/test_perft.py \
	tests/test_log.py
test: $(VENV)/.installed-dev chromium openapi-tools pyodide
	$(BIN)/python -m pytest -n 2 --dist loadgroup --ignore tests/test_fuzz.py --ignore tests/test_page.py
	GOSTOP_PURE=1 $(BIN)/python -m pytest -n 2 $(ENGINE_TESTS)
	$(BIN)/python -m pytest tests/test_page.py
	$(BIN)/python -m pytest tests/test_fuzz.py

# Debian's Chromium for the browser tests (Playwright's own browser download cannot be reached), and a Korean
# font for the screenshots. Installed with apt-get when missing and run as root (as CI is); otherwise the
# browser tests skip and say why (with CI=true they fail instead).
# A machine with Chromium but no Korean font (fc-list :lang=ko lists none) gets fonts-nanum alone: without it the
# Korean page draws boxes, and the page tests that measure it fail.
chromium:
	@command -v chromium >/dev/null 2>&1 || [ "$$(id -u)" != 0 ] || { \
	  echo "installing chromium for the browser tests (apt-get)"; \
	  apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium fonts-nanum >/dev/null; \
	} || echo "could not install chromium: the browser tests will skip (or fail with CI=true)"
	@! command -v chromium >/dev/null 2>&1 || [ -n "$$(fc-list :lang=ko 2>/dev/null)" ] || [ "$$(id -u)" != 0 ] || { \
	  echo "installing a Korean font for the browser tests (apt-get install fonts-nanum)"; \
	  { DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-nanum >/dev/null 2>&1 \
	    || { apt-get update -qq && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq fonts-nanum >/dev/null; }; } \
	  && fc-cache -f >/dev/null 2>&1; \
	} || echo "could not install fonts-nanum: Korean page tests may fail (fc-list :lang=ko lists no font)"

# The JavaScript tools the contract tests run on openapi.yaml (tests/test_contract.py): Redocly's linter,
# openapi-typescript and tsc, from npm into tools/openapi/node_modules (package.json and its lock are
# committed; reinstalled when the lock changes). Without npm those tests skip and say why (with CI=true they
# fail instead), as the browser tests do without Chromium.
TOOLS := tools/openapi
openapi-tools:
	@if ! command -v npm >/dev/null 2>&1; then \
	  echo "npm not found: the contract tests of Redocly and TypeScript will skip (or fail with CI=true)"; \
	elif [ ! -f $(TOOLS)/node_modules/.installed ] || [ $(TOOLS)/package-lock.json -nt $(TOOLS)/node_modules/.installed ]; then \
	  npm ci --prefix $(TOOLS) --no-audit --no-fund --loglevel=error && touch $(TOOLS)/node_modules/.installed \
	  || echo "npm ci failed: the contract tests of Redocly and TypeScript will skip (or fail with CI=true)"; \
	fi

# Pyodide (CPython in WebAssembly) for the engine in the page (docs/page-engine.md), from npm into
# tools/pyodide/node_modules (package.json and its lock are committed; reinstalled when the lock changes): the
# service serves its core files and the page rules on the phone. Without npm the page asks the service for
# every ruling, and the browser tests of the engine skip (or fail with CI=true).
PYODIDE := tools/pyodide
pyodide:
	@if ! command -v npm >/dev/null 2>&1; then \
	  echo "npm not found: the page's engine is left out (the service rules; docs/page-engine.md)"; \
	elif [ ! -f $(PYODIDE)/node_modules/.installed ] || [ $(PYODIDE)/package-lock.json -nt $(PYODIDE)/node_modules/.installed ]; then \
	  npm ci --prefix $(PYODIDE) --no-audit --no-fund --loglevel=error && touch $(PYODIDE)/node_modules/.installed \
	  || echo "npm ci failed: the page's engine is left out (the service rules; docs/page-engine.md)"; \
	fi

# The page as static files, for any static host, with no service (docs/page-engine.md): `make page DIR=site`
DIR ?= page
page: $(VENV)/.installed pyodide
	$(BIN)/gostop page $(DIR)

# The README's phone screenshots, taken by the browser tests at 360 x 640.
screenshots: $(VENV)/.installed-dev chromium
	GOSTOP_SCREENSHOTS=docs/screenshots $(BIN)/python -m pytest -n 0 tests/test_page.py

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

openapi: $(VENV)/.installed-dev
	$(BIN)/python -m service.openapi openapi.yaml

# The perft counts of tests/data/perft-<preset>.json (engine/perft.py): rewrite them after a change to the moves
# the engine generates, and read the diff (tests/test_perft.py checks the engine against them)
PRESET_NAMES := korean-2p korean-3p chips-2p chips-3p basic-2p hangame-matgo pmang-matgo netmarble-matgo hangame-gostop pmang-gostop
perft: $(VENV)/.installed-dev
	for preset in $(PRESET_NAMES); do $(BIN)/python -m engine.perft $$preset > tests/data/perft-$$preset.json || exit 1; done

# Re-extract the English sentences into the catalog template and merge it into every language's catalog
# (a test fails when the template is stale or a catalog lacks a translation). See docs/contributing.md "Adding a language".
# The sentences' template from the code (tests/test_i18n.py runs the same EXTRACT into a scratch file)
EXTRACT := pybabel extract --no-default-keywords -k N_ -k P_:1c,2 -k say -k plural:1,2 --no-location --omit-header --sort-output
messages: $(VENV)/.installed-dev
	$(BIN)/$(EXTRACT) -o service/locale/messages.pot service/sentences
	$(BIN)/pybabel update --no-fuzzy-matching --ignore-obsolete -i service/locale/messages.pot -d service/locale

# wrk drives bench, load and chaos. Debian packages it: installed here when missing and running as root.
wrk:
	@command -v wrk >/dev/null || [ "$$(id -u)" != 0 ] || apt-get install -y -qq wrk >/dev/null 2>&1 \
		|| { apt-get update -qq >/dev/null && apt-get install -y -qq wrk >/dev/null; }
	@command -v wrk >/dev/null || { echo "wrk is missing: apt-get install wrk" >&2; exit 1; }

bench: $(VENV)/.installed-dev wrk
	$(BIN)/python bench/engine_bench.py
	$(BIN)/python bench/breakdown.py
	$(BIN)/python bench/http_bench.py
	$(BIN)/python bench/worker_cpu.py
	$(BIN)/python bench/page_load.py

load: $(VENV)/.installed-dev wrk
	bench/load.sh

# Hostile and faulty clients at full scale (issue 11), on loopback, about four minutes; the last lines printed are
# the figures. The small-scale versions are in `make test` (tests/test_resilience.py).
chaos: $(VENV)/.installed-dev wrk
	$(BIN)/python bench/chaos.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache .ruff_cache build engine/*.so $(TOOLS)/node_modules \
		$(PYODIDE)/node_modules
