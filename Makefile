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
	$(BIN)/mypy
	$(BIN)/python -m pytest

# The end-to-end tests drive real clients: inetutils telnet (pexpect, and in
# tmux), TinTin++ (in tmux) and headless Chromium (selenium, the browser
# page), and run the ledger on a real PostgreSQL server, which the tests start
# themselves (tests/support/postgres.py). Debian packages; installed when missing.
TEST_PACKAGES := tmux inetutils-telnet tintin++ chromium chromium-driver postgresql

test-packages:
	@missing=""; \
	command -v tmux >/dev/null 2>&1 || missing="$$missing tmux"; \
	command -v telnet >/dev/null 2>&1 || missing="$$missing inetutils-telnet"; \
	{ command -v tt++ >/dev/null 2>&1 || [ -x /usr/games/tt++ ]; } || missing="$$missing tintin++"; \
	command -v chromium >/dev/null 2>&1 || missing="$$missing chromium"; \
	command -v chromedriver >/dev/null 2>&1 || missing="$$missing chromium-driver"; \
	ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1 || missing="$$missing postgresql"; \
	if [ -n "$$missing" ]; then \
	  if [ "$$(id -u)" = 0 ]; then apt-get update -q >/dev/null && \
	    DEBIAN_FRONTEND=noninteractive apt-get install -y -q $$missing >/dev/null; \
	  else sudo apt-get install -y -q $$missing; fi; \
	fi

bench: $(STAMP)
	$(BIN)/python -m bench

validate: $(STAMP)
	$(BIN)/casino validate

clean:
	rm -rf $(VENV) .pytest_cache
