# The two commands a new user needs: `make run` and `make test`. Both set up .venv themselves.
PYTHON ?= $(shell command -v python3.11 || command -v python3)
VENV := .venv
BIN := $(VENV)/bin
# The one way the service starts; the Dockerfile runs the same command (tests/test_packaging.py checks).
SERVE := gunicorn -c service/gunicorn.conf.py service.wsgi:app

.PHONY: run test lint openapi bench load chaos wrk clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(VENV)/.installed: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $@

$(VENV)/.installed-dev: pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(VENV)/.installed $@

run: $(VENV)/.installed
	$(BIN)/$(SERVE)

# The schemathesis module runs in a pass of its own: under xdist it would fuzz one operation (see its docstring).
test: $(VENV)/.installed-dev
	$(BIN)/python -m pytest -n 2 --dist loadgroup --ignore tests/test_fuzz.py
	$(BIN)/python -m pytest tests/test_fuzz.py

lint: $(VENV)/.installed-dev
	$(BIN)/ruff check .
	$(BIN)/ruff format --check .
	$(BIN)/mypy

openapi: $(VENV)/.installed-dev
	$(BIN)/python -m service.openapi openapi.yaml

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

load: $(VENV)/.installed-dev wrk
	bench/load.sh

# Hostile and faulty clients at full scale (issue 11), on loopback, about four minutes; the last lines printed are
# the figures. The small-scale versions are in `make test` (tests/test_resilience.py).
chaos: $(VENV)/.installed-dev wrk
	$(BIN)/python bench/chaos.py

clean:
	rm -rf $(VENV) .pytest_cache .hypothesis .mypy_cache .ruff_cache
