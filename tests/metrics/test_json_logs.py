"""`log_format: json`: every line a played session logs, from the portal and the
game process alike, is one JSON object with the timestamp, level and logger,
and the events carry the fields their key=value lines carry."""
from __future__ import annotations

import asyncio
import json
import shutil
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.support.prometheus import until
from tests.support.telnet import Client, login

ROOT = Path(__file__).resolve().parents[2]


def test_every_line_of_a_played_session_is_a_json_object(tmp_path: Path) -> None:
    config = tmp_path / "config"
    shutil.copytree(ROOT / "config", config)
    server_yaml = config / "server.yaml"
    server_yaml.write_text(server_yaml.read_text().replace("  log_format: text\n", "  log_format: json\n"))
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = int(s.getsockname()[1])
    log = tmp_path / "casino.log"
    with log.open("wb") as out:
        proc = subprocess.Popen([sys.executable, "-m", "server", "--port", str(port), "--web-port", "0",
                                 "--data", str(tmp_path / "casino.db"), "--config", str(config),
                                 "--rooms", str(ROOT / "rooms"), "--seed", "41",
                                 "--pid-file", str(tmp_path / "casino.pid")],
                                cwd=ROOT, stdout=out, stderr=out, start_new_session=True)
        try:
            until("the casino", lambda: socket.create_connection(("127.0.0.1", port), timeout=1).close() or True)

            async def play() -> None:
                a = await Client.open(port, ttype="dumb")
                await login(a, "ann")
                await a.cmd("south")
                await a.cmd("play craps")
                await a.cmd("bet pass 10")
                for _ in range(100):            # until the pass line is decided (the seed says when)
                    await a.cmd("roll")
                    if b'"settlement"' in log.read_bytes():
                        break
                await a.cmd("nosuchword")
                a.writer.write(b"quit\r\n")
                await a.writer.drain()
                await a.reader.read()           # to the end: the casino hung up

            asyncio.run(play())
            until("the logout logged", lambda: b'"logout"' in log.read_bytes())
            proc.send_signal(signal.SIGTERM)
            proc.wait(timeout=60)
        finally:
            if proc.poll() is None:
                proc.kill()
                proc.wait()
    lines = log.read_text().splitlines()
    assert lines
    events = []
    for line in lines:
        entry = json.loads(line)                       # every line is one object
        assert isinstance(entry, dict) and {"ts", "level", "logger"} <= entry.keys(), line
        assert "event" in entry or "message" in entry, line
        events.append(entry)
    names = {e.get("event") for e in events}
    assert {"metrics", "connect", "account_created", "login", "settlement", "logout", "shutdown"} - names \
        == {"metrics"}, names                          # no /metrics in this config
    login_event = next(e for e in events if e.get("event") == "login")
    assert login_event["name"] == "ann" and login_event["ip"] == "127.0.0.1"
    settled = [e for e in events if e.get("event") == "settlement"]
    assert all({"table", "key", "stakes", "paid"} <= e.keys() for e in settled), settled
