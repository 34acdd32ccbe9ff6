"""A second casino on a busy port (issue 38, item 13): the port is checked before
anything else opens, so `casino serve` says the one line docs/running.md promises and
nothing else (no ledger recovery, no tables opened and closed, no game process), and
exits 1; with the portal and in one process, for the telnet port and the page's."""
from __future__ import annotations

import re
import socket
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def held_port() -> socket.socket:
    """A plain socket listening on a free port: the port is busy while it is open."""
    s = socket.socket()
    s.bind(("127.0.0.1", 0))
    s.listen()
    return s


def promised_line() -> str:
    """The line docs/running.md quotes for port 4000, as a pattern for any port."""
    text = " ".join((ROOT / "docs" / "running.md").read_text().split())
    [line] = re.findall(r"`(port 4000 is in use: [^`]+)`", text)
    return line


@pytest.mark.parametrize("one_process", [False, True])
@pytest.mark.parametrize("web", [False, True])
def test_a_busy_port_is_the_one_promised_line_and_nothing_opens(tmp_path, web, one_process):
    with held_port() as taken:
        port = taken.getsockname()[1]
        free = 0          # any free port for the other one
        argv = [sys.executable, "-m", "server.cli", "serve", "--data", str(tmp_path / "c.db"),
                "--port", str(free if web else port), "--web-port", str(port if web else free)]
        if one_process:
            argv.append("--one-process")
        done = subprocess.run(argv, cwd=ROOT, capture_output=True, text=True, timeout=60)
    expected = promised_line().replace("4000", str(port))
    if web:
        expected = expected.replace("the telnet port; choose another with --port (make run: PORT=)",
                                    "the browser page's port; choose another with --web-port (make run: WEB_PORT=)")
    assert done.returncode == 1
    assert done.stdout == ""
    assert done.stderr.splitlines() == [expected], done.stderr
    assert not (tmp_path / "c.db").exists()          # the ledger was never opened
