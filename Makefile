# Every target works as the first command on a fresh machine with Python 3.11+:
# it creates (or reuses) the project's own virtual environment and installs what it needs.
PYTHON ?= python3
VENV   := .venv
BIN    := $(VENV)/bin
STAMP  := $(VENV)/.installed

.PHONY: install test lint demo bench golden proto clean

$(BIN)/python:
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip

$(STAMP): pyproject.toml | $(BIN)/python
	$(BIN)/python -m pip install --quiet -e '.[server,dev]'
	touch $(STAMP)

install: $(STAMP)

test: $(STAMP)
	$(BIN)/python -m pytest -n auto --durations=15

lint: $(STAMP)
	$(BIN)/ruff check .
	$(BIN)/mypy

demo: $(STAMP)
	$(BIN)/skyarena demo

bench: $(STAMP)
	mkdir -p bench/results
	$(BIN)/python bench/engines.py --json-out bench/results/engines.json
	$(BIN)/python bench/referee.py --json-out bench/results/referee.json
	$(BIN)/python bench/season.py --json-out bench/results/season.json
	$(BIN)/python bench/sandbox.py --json-out bench/results/sandbox.json
	$(BIN)/python bench/ladder_sim.py --players 2 --matches-per-bot 20 --json > bench/results/ladder_sim.json
	$(BIN)/python bench/ratings.py --json > bench/results/ratings.json
	$(BIN)/python bench/clocks.py --json-out bench/results/clocks.json
	$(BIN)/python bench/reproduce.py --json-out bench/results/reproduce.json
	$(BIN)/python bench/challenges.py --json-out bench/results/challenges.json
	$(BIN)/python bench/online.py --json-out bench/results/online.json

proto: $(STAMP)
	$(BIN)/python proto/generate.py
	$(BIN)/python proto/reference.py

golden: $(STAMP)
	$(BIN)/python -m tests.games.golden --write

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache bench/results
