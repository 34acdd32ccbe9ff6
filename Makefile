# Every target installs what it needs first, so each works on a fresh clone.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench validate clean test-packages

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q -e '.[test,bench]'
	touch $(STAMP)

# make run PORT=4001 WEB_PORT=4081 runs a second casino beside the first
# (WEB_PORT=0 turns the browser page off).
PORT ?= 4000
WEB_PORT ?= 4080

run: $(STAMP)
	mkdir -p data
	$(BIN)/casino serve --host 127.0.0.1 --port $(PORT) --web-port $(WEB_PORT) --data data/casino.db

test: $(STAMP) test-packages
	$(BIN)/ruff check
	$(BIN)/mypy
	$(BIN)/python -m pytest

# The Debian packages the end-to-end tests need (real clients, Chromium,
# PostgreSQL): one list, .ci/test-packages, installed when missing.
test-packages:
	@bash .ci/install-test-packages

bench: $(STAMP)
	$(BIN)/python -m bench

validate: $(STAMP)
	$(BIN)/casino validate

clean:
	rm -rf $(VENV) .pytest_cache
