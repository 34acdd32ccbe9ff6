"""A real NATS broker for tests, Debian's `nats-server`, on a free port of 127.0.0.1.

`Broker().start()` runs it in a temporary directory of its own; `stop()` ends it
and `start()` again brings it back on the same port (a broker's restart, as
the casino must live through it). Nothing already running is touched.
"""
from __future__ import annotations

import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path


def binary() -> str | None:
    return shutil.which("nats-server")


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class Broker:
    def __init__(self) -> None:
        found = binary()
        if found is None:
            raise RuntimeError("nats-server is not installed (Debian: apt-get install nats-server)")
        self.bin = found
        self.root = Path(tempfile.mkdtemp(prefix="casino-nats-"))
        self.port = _free_port()
        self.proc: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://127.0.0.1:{self.port}"

    def start(self) -> Broker:
        self.proc = subprocess.Popen([self.bin, "-a", "127.0.0.1", "-p", str(self.port)],
                                     cwd=self.root, stdout=subprocess.DEVNULL,
                                     stderr=open(self.root / "log", "ab"))
        deadline = time.monotonic() + 10
        while True:            # until it accepts: the broker's readiness, not a fixed time
            try:
                socket.create_connection(("127.0.0.1", self.port), timeout=1).close()
                return self
            except OSError:
                if self.proc.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError(f"nats-server did not start: {(self.root / 'log').read_text()[-500:]}")
                time.sleep(0.01)

    def stop(self) -> None:
        if self.proc is not None and self.proc.poll() is None:
            self.proc.terminate()
            self.proc.wait(10)
        self.proc = None

    def remove(self) -> None:
        self.stop()
        shutil.rmtree(self.root, ignore_errors=True)
