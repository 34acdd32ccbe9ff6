"""Real clients on a real screen: inetutils telnet and TinTin++ in tmux.

Each Screen runs one client in a pane of a private tmux server (its own
socket, killed afterwards), types with `send-keys` and reads what a player
would see with `capture-pane` (docs/running.md "Connecting": the screens the
end-to-end tests check).
Waiting polls the screen of a real process; it never waits for game time.
"""
from __future__ import annotations

import asyncio
import contextlib
import os
import re
import shutil
import subprocess
import uuid
from collections.abc import Callable

import pytest

TINTIN = shutil.which("tt++") or ("/usr/games/tt++" if os.path.exists("/usr/games/tt++") else None)
CLIENTS = {
    "telnet": lambda port: f"env TERM=xterm LANG=C.UTF-8 telnet 127.0.0.1 {port}",
    "tintin": lambda port: f"env LANG=C.UTF-8 {TINTIN} -G -e '#session casino 127.0.0.1 {port}'",
}
PACKAGES = {"tmux": "tmux", "telnet": "inetutils-telnet", "tt++": "tintin++"}


def require_tools(*tools: str) -> None:
    """Skip (not root: nobody could install them) or fail (root: `make
    test-packages` or .ci/run should have) when a client is missing."""
    found = {"tmux": shutil.which("tmux"), "telnet": shutil.which("telnet"), "tt++": TINTIN}
    missing = [t for t in tools if not found[t]]
    if not missing:
        return
    packages = " ".join(PACKAGES[t] for t in missing)
    why = (f"{', '.join(missing)} not installed: apt-get install -y {packages} "
           "(make test-packages does it as root)")
    if os.geteuid() != 0:
        pytest.skip(why)
    pytest.fail(why)


class Screen:
    def __init__(self, command: str, width: int = 80, height: int = 50) -> None:
        self.socket = f"casino-test-{os.getpid()}-{uuid.uuid4().hex[:8]}"
        self.width, self.height = width, height
        self._tmux("new-session", "-d", "-s", "main", "-x", str(width), "-y", str(height), command)
        self._tmux("set-option", "-t", "main", "history-limit", "5000")

    def _tmux(self, *args: str) -> str:
        return subprocess.run(["tmux", "-L", self.socket, "-f", "/dev/null", *args],
                              capture_output=True, text=True, check=True).stdout

    def close(self) -> None:
        """Stop this screen's own tmux server and remove its socket file."""
        path = subprocess.run(["tmux", "-L", self.socket, "display-message", "-p", "#{socket_path}"],
                              capture_output=True, text=True).stdout.strip()
        subprocess.run(["tmux", "-L", self.socket, "kill-server"], capture_output=True)
        if path.startswith("/") and os.path.basename(path) == self.socket:
            with contextlib.suppress(OSError):
                os.unlink(path)

    # --- typing and reading -------------------------------------------------
    def type(self, text: str) -> None:
        """Type a line and press Enter, as a player does."""
        if text:
            self._tmux("send-keys", "-t", "main", "-l", text)
        self._tmux("send-keys", "-t", "main", "Enter")

    def text(self, joined: bool = False) -> str:
        """The whole screen and its scrollback; `joined` undoes the
        terminal's own wrapping (a line longer than the pane was wrapped)."""
        args = ["capture-pane", "-p", "-t", "main", "-S", "-"] + (["-J"] if joined else [])
        return self._tmux(*args)

    def lines(self, joined: bool = False) -> list[str]:
        return [line.rstrip() for line in self.text(joined).split("\n")]

    def visible(self) -> list[str]:
        """The window's rows as they show now, without the scrollback."""
        shown = self._tmux("capture-pane", "-p", "-t", "main")
        return [line.rstrip() for line in shown.split("\n")][:self.height]

    async def wait_for(self, pattern: str, count: int = 1, timeout: float = 10.0) -> str:
        """Poll the screen until `pattern` (a regex) shows `count` times."""
        regex = re.compile(pattern, re.MULTILINE)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + timeout
        while True:
            text = self.text()
            if len(regex.findall(text)) >= count:
                return text
            if loop.time() > deadline:
                raise AssertionError(f"{pattern!r} x{count} never showed; the screen:\n{text}")
            await asyncio.sleep(0.05)     # the client draws in its own time

    async def create_account(self, name: str, password: str = "s3cretpw", until: str = r"^Exits: ") -> str:
        """A new account typed as a player does (the name, the password twice), up to `until`."""
        await self.wait_for(r"^Name:")
        self.type(name)
        await self.wait_for(r"New password:")
        self.type(password)
        await self.wait_for(r"again:")
        self.type(password)
        return await self.wait_for(until)

    def resize(self, width: int) -> None:
        """A new window width: the client reports it by NAWS."""
        self.width = width
        self._tmux("resize-window", "-t", "main", "-x", str(width), "-y", str(self.height))


async def until(check: Callable[[], bool], timeout: float = 5.0) -> None:
    """Wait for the server to have taken in what a client sent (its NAWS, a command):
    polling a real server's state, not game time."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + timeout
    while not check():
        assert loop.time() < deadline, "the server never saw it"
        await asyncio.sleep(0.02)
