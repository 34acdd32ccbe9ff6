# Every target installs what it needs first, so each works on a fresh clone.
PY ?= python3
VENV := .venv
BIN := $(VENV)/bin
STAMP := $(VENV)/.installed

.PHONY: run test bench validate clean

$(STAMP): pyproject.toml
	$(PY) -m venv $(VENV)
	$(BIN)/pip install -q --upgrade pip
	$(BIN)/pip install -q -e '.[test,bench]'
	touch $(STAMP)

run: $(STAMP)
	mkdir -p data
	$(BIN)/casino serve --host 127.0.0.1 --port 4000 --data data/casino.db

test: $(STAMP)
	$(BIN)/python -m pytest

bench: $(STAMP)
	$(BIN)/python -m bench

validate: $(STAMP)
	$(BIN)/casino validate

clean:
	rm -rf $(VENV) .pytest_cache
