# Everything a fresh clone needs: `make test` and `make run` create .venv and install from
# pyproject.toml themselves. `make run` serves the lobby on http://127.0.0.1:8000 with a SQLite
# file spielwerk.db (HOST=... PORT=... to change); it installs only what serving needs (the core
# and the `web` extra), `make install` and `make test` everything (dev, kernels, ray, rl, web). The browser tests need Debian's chromium and
# the PostgreSQL tests its server binaries: .ci/run installs both; without them those tests are
# skipped (and fail when CI is set); so are the accessibility tests without npm (axe-core).
PYTHON ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed-stamp
RUN_STAMP := $(VENV)/.run-stamp
NATIVE_STAMP := $(VENV)/.native-stamp
# axe-core, the accessibility checker the browser tests load into the pages: npm ci installs
# exactly the version tests/web/package-lock.json pins (skipped with a note if npm is missing).
AXE := tests/web/node_modules/axe-core/axe.min.js
# ESLint, the JavaScript linter of `make lint`: npm ci installs the version lint/package-lock.json
# pins (lint/eslint.config.mjs: the recommended rules for the pages' ES modules).
ESLINT := lint/node_modules/.bin/eslint

.PHONY: install run cluster test lint bench-winrates clean

$(STAMP): pyproject.toml
	$(PYTHON) -m venv $(VENV)
	$(BIN)/python -m pip install --quiet --upgrade pip
	$(BIN)/python -m pip install --quiet -e '.[dev,kernels,learn,ray,rl,web]'
	touch $(STAMP)

$(AXE): tests/web/package.json tests/web/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --prefix tests/web --ignore-scripts --no-audit --no-fund --loglevel=error && touch $(AXE); \
	else echo "npm is missing: the accessibility tests will be skipped (.ci/run installs it)"; fi

# The rules' hot modules compiled by mypyc (spielwerk/native.py), rebuilt when the rules change;
# without a C compiler the source runs instead, slower, and the build says so.
$(NATIVE_STAMP): $(STAMP) spielwerk/native.py spielwerk/native_build.py $(wildcard spielwerk/core/*.py spielwerk/games/*/*.py)
	SPIELWERK_PURE_PYTHON=1 $(BIN)/python -m spielwerk.native_build || echo "spielwerk: no compiled rules (a C compiler is needed); the source runs"
	touch $(NATIVE_STAMP)

$(ESLINT): lint/package.json lint/package-lock.json
	@if command -v npm >/dev/null 2>&1; then \
	  npm ci --prefix lint --ignore-scripts --no-audit --no-fund --loglevel=error && touch $(ESLINT); \
	else echo "npm is missing: make lint cannot check the JavaScript (.ci/run installs it)"; exit 1; fi

install: $(STAMP) $(NATIVE_STAMP) $(AXE)

# Serving needs the core and the web extra only; after a full install there is nothing to add.
$(RUN_STAMP): pyproject.toml
	@if [ -f $(STAMP) ] && [ $(STAMP) -nt pyproject.toml ]; then touch $(RUN_STAMP); else \
	  $(PYTHON) -m venv $(VENV) && \
	  $(BIN)/python -m pip install --quiet --disable-pip-version-check --no-compile -e '.[web]' && \
	  touch $(RUN_STAMP); fi

HOST ?= 127.0.0.1
PORT ?= 8000

run: $(RUN_STAMP)  # the server prints the lobby's URL once it listens; Ctrl-C stops it
	$(BIN)/spielwerk serve --host $(HOST) --port $(PORT)

# The multi-process site on this machine: a throwaway PostgreSQL, N servers, nginx in front
# (Debian's postgresql and nginx packages; docs/deploy.md). Ctrl-C stops and removes it all.
N ?= 2
cluster: $(RUN_STAMP)
	$(BIN)/python -m spielwerk.web.local_cluster --processes $(N) --port $(PORT)

# Each game's Numba kernels compile at their first use (cached in ~/.cache/spielwerk, a few
# seconds to load once compiled); the tests compile them first, two games at a time, so that no
# test waits for the compiler.
test: $(STAMP) $(NATIVE_STAMP) $(AXE)
	$(BIN)/python -m spielwerk.agents.kernel_mcts --jobs 2
	$(BIN)/python -m pytest -n 4 -q  # four workers on two cores: most tests wait (servers, browsers, bots)

lint: $(STAMP) $(ESLINT)
	$(BIN)/ruff check spielwerk tests bench
	$(BIN)/ruff format --check spielwerk tests bench
	$(BIN)/mypy spielwerk
	$(ESLINT) --config lint/eslint.config.mjs spielwerk/web/static

bench-winrates: $(STAMP)
	$(BIN)/python bench/winrates.py --games 400 --jobs 2

clean:
	rm -rf $(VENV) .pytest_cache .mypy_cache .ruff_cache tests/web/node_modules lint/node_modules build
	find spielwerk -name "*.so" -delete
