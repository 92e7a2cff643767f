PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
RUN_STAMP := $(VENV)/.installed
HOST ?= 127.0.0.1
PORT ?= 8765
# pytest-xdist workers; "auto" is one per core.
WORKERS ?= auto

.PHONY: serve test lint typecheck unit bench clean

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

unit: $(STAMP)
	$(BIN)/pytest -q -n $(WORKERS)

test: lint typecheck unit

bench: $(STAMP)
	$(BIN)/python -m pip install --quiet -e '.[dev,bench]'

clean:
	rm -rf $(VENV) var .mypy_cache .pytest_cache .ruff_cache
