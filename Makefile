PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
RUN_STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8765
# pytest-xdist workers; "auto" is one per core.
WORKERS ?= auto

.PHONY: serve test lint typecheck unit bench clean browser redis screenshots

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(RUN_STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e .
	touch $(RUN_STAMP)

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP) $(RUN_STAMP)

serve: $(RUN_STAMP)
	mkdir -p var
	$(BIN)/paiju serve --config configs/server.toml --host $(HOST) --port $(PORT) --database var/paiju.sqlite3

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy src

unit: $(STAMP) browser redis
	$(BIN)/pytest -q -n $(WORKERS) --dist loadgroup

# The browser tests (tests/browser) drive the Debian chromium through Playwright; browsers are
# never downloaded. Run as root (CI, containers), a missing chromium is installed here;
# otherwise install it yourself (sudo apt-get install chromium) or point PAIJU_CHROMIUM at a
# Chromium binary. Without one the browser tests skip, except under CI=true, where they fail.
browser:
	@if [ -n "$$PAIJU_CHROMIUM" ] || command -v chromium >/dev/null 2>&1 \
		|| command -v chromium-browser >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update && apt-get install -y chromium; \
	else \
		echo "chromium is missing: sudo apt-get install chromium (or set PAIJU_CHROMIUM);" \
			"the browser tests skip without it, and fail under CI=true"; \
	fi

# The Redis store and cluster tests (tests/persistence, tests/cluster) start a real
# redis-server (Debian package redis-server). Run as root (CI, containers), a missing one is
# installed here; otherwise install it yourself (sudo apt-get install redis-server) or point
# PAIJU_REDIS_SERVER at the binary. Without one those tests skip, except under CI=true.
redis:
	@if [ -n "$$PAIJU_REDIS_SERVER" ] || command -v redis-server >/dev/null 2>&1; then :; \
	elif [ "$$(id -u)" = 0 ] && command -v apt-get >/dev/null 2>&1; then \
		apt-get update && apt-get install -y redis-server; \
	else \
		echo "redis-server is missing: sudo apt-get install redis-server (or set" \
			"PAIJU_REDIS_SERVER); the Redis tests skip without it, and fail under CI=true"; \
	fi

# Rewrites docs/screenshots (shown in the README) from a run of the browser tests.
screenshots: $(STAMP) browser
	PAIJU_SCREENSHOTS=1 $(BIN)/pytest -q tests/browser

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'

clean:
	rm -rf $(VENV) var .mypy_cache .pytest_cache .ruff_cache
