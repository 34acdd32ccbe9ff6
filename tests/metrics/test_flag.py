"""`casino serve --metrics [HOST:]PORT` turns /metrics on where the config has no
`server.metrics` (as the compose file does): the portal on PORT, its game process
on the next, each told in the log; `--one-process` serves on PORT alone. A value
that is no port is refused before anything starts."""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from tests.support import prometheus as live
from tests.support.prometheus import get

ROOT = Path(__file__).resolve().parents[2]


def told(log: Path) -> set[tuple[str, int]]:
    """Each `event=metrics` line's process and port."""
    return {(process, int(port)) for port, process in
            re.findall(r"event=metrics host=\S+ port=(\d+) process=(\w+)", log.read_text())}


@pytest.mark.parametrize("one_process", [False, True], ids=["portal", "one-process"])
def test_the_flag_serves_metrics_without_the_config(tmp_path: Path, one_process: bool) -> None:
    assert "metrics:\n" not in (ROOT / "config" / "server.yaml").read_text().replace("# metrics:", "")
    log = tmp_path / "casino.log"
    with log.open("wb") as out, live.casino(tmp_path, 41, out, flag=True, one_process=one_process) as (_, port):
        assert "casino_players" in get(f"http://127.0.0.1:{port if one_process else port + 1}/metrics")
        expected = {("casino", port)} if one_process else {("portal", port), ("game", port + 1)}
        live.until("every process told in the log", lambda: told(log) == expected, 10)


@pytest.mark.parametrize("value", ["nope", "127.0.0.1:", "70000"])
def test_a_value_that_is_no_port_is_refused(value: str) -> None:
    refused = subprocess.run([sys.executable, "-m", "server", "--metrics", value, "--port", "0", "--web-port", "0"],
                             cwd=ROOT, capture_output=True, text=True, timeout=60)
    assert refused.returncode == 2 and "--metrics" in refused.stderr, refused
