"""A link reader that fails is a crash of its process, logged, never a silent live
process (issue 42): the portal's reader of a game process, and the game process's
reader of its portal, each fed a line that is not a message over a real socket pair."""
from __future__ import annotations

import asyncio
import json
import logging
import socket
import sys
from types import SimpleNamespace

import pytest

from server.portal import game_process, handover, protocol
from server.portal.game import GameLink


async def pair() -> tuple[asyncio.StreamReader, asyncio.StreamWriter, socket.socket]:
    ours, theirs = socket.socketpair()
    reader, writer = await asyncio.open_unix_connection(sock=ours)
    return reader, writer, theirs


def send_all(sock: socket.socket, data: bytes) -> None:
    """In a thread: a 4 MiB line fills the socket long before the reader gives up on it."""
    try:
        sock.sendall(data)
    except OSError:            # the reader closed its end past the junk: what it read is what counts
        pass


def read_lines(sock: socket.socket) -> list[dict]:
    sock.settimeout(5)
    data = b""
    while chunk := sock.recv(65536):
        data += chunk
    return [json.loads(line) for line in data.splitlines()]


async def portal_reads(junk: bytes, proc) -> tuple[int, list[dict], game_process.GameProcess]:
    reader, writer, theirs = await pair()
    ours_h, theirs_h = handover.channel()
    theirs_h.close()
    game = game_process.GameProcess(proc, reader, writer, handover.Sender(ours_h))
    sending = asyncio.create_task(asyncio.to_thread(send_all, theirs, b'{"t":"ready"}\n' + junk))
    heard: list[dict] = []
    code = await game.run(heard.append)
    await sending
    sent = await asyncio.to_thread(read_lines, theirs)
    theirs.close()
    return code, sent, game


@pytest.mark.parametrize("junk", [b"not json\n", b"[1]\n", b'{"t":"w","d":"' + b"a" * (1 << 22) + b'"}\n'])
async def test_the_portal_tells_a_game_process_whose_link_it_cannot_read_to_restart(junk, caplog):
    caplog.set_level(logging.ERROR, "casino.portal")
    code, sent, game = await portal_reads(junk, None)
    assert sent == [{"t": "restart", "why": "The casino is restarting."}]
    assert game.crashed and game.ended          # so the portal starts the next one
    assert "event=game_link_error" in caplog.text


async def test_a_game_process_that_does_not_stop_when_its_link_failed_is_killed(monkeypatch):
    monkeypatch.setattr(game_process, "LINK_FAILED_WAIT", 0.2)   # a real child's deadline, not game time
    deaf = await asyncio.create_subprocess_exec(sys.executable, "-c", "import time; time.sleep(60)")
    code, sent, game = await portal_reads(b"junk\n", deaf)
    assert code == -9 and sent[0]["t"] == "restart"


class App(SimpleNamespace):
    """What GameLink reads of the casino here: whether it is closing, and a restart asked."""

    def request_restart(self, reason: str = "") -> str | None:
        self.restarts.append(reason)
        return None

    def request_stop(self, reason: str) -> None:
        self.stops.append(reason)


async def test_a_game_process_whose_link_it_cannot_read_stops_to_be_replaced(caplog):
    caplog.set_level(logging.ERROR, "casino.portal")
    settings = SimpleNamespace(connect_maxwait=1.0)
    app = App(closing=False, restarts=[], stops=[], config=SimpleNamespace(settings=settings))
    reader, writer, theirs = await pair()
    link = GameLink(app, reader, writer)        # type: ignore[arg-type]
    theirs.sendall(b'{"t":"reload-later"}\nthis is no message\n{"t":"stop","why":"x"}\n')
    theirs.shutdown(socket.SHUT_WR)
    first = {"t": "x", "id": 1, "x": {}}       # of a connection it does not know: nothing happens
    await link.run(protocol.messages(reader), first)
    assert app.restarts == ["The casino is restarting."] and app.stops == []   # never read past the junk
    assert "event=portal_link_error" in caplog.text
    writer.close()
    theirs.close()
