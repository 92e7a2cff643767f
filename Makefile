PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-dev
HOST ?= 127.0.0.1
PORT ?= 8765

.PHONY: serve test lint typecheck unit bench clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[dev]'
	touch $(STAMP)

serve: $(STAMP)
	mkdir -p var
	$(BIN)/paiju serve --config configs/server.toml --host $(HOST) --port $(PORT) --database var/paiju.sqlite3

lint: $(STAMP)
	$(BIN)/ruff check src tests benchmarks

typecheck: $(STAMP)
	$(BIN)/mypy src

unit: $(STAMP)
	$(BIN)/pytest

test: lint typecheck unit

clean:
	rm -rf $(VENV) var .mypy_cache .pytest_cache .ruff_cache
