# Everything a fresh clone needs: `make test` and `make run` create .venv and install from
# pyproject.toml themselves.
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp

.PHONY: install run test lint bench-winrates clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,ray,rl]'
	touch $(STAMP)

install: $(STAMP)

run: $(STAMP)
	$(BIN)/spielwerk play witches --players human,heuristic,mcts,random

test: $(STAMP)
	$(BIN)/python -m pytest -n 2 -q

lint: $(STAMP)
	$(BIN)/ruff check spielwerk tests bench
	$(BIN)/ruff format --check spielwerk tests bench
	$(BIN)/mypy spielwerk

bench-winrates: $(STAMP)
	$(BIN)/python bench/winrates.py --games 400 --jobs 2

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache
