"""The connection lifecycle both edges share, with a small fake casino."""
from __future__ import annotations

import asyncio
import logging
from types import SimpleNamespace
from typing import Any, AsyncGenerator

from server.net import lifecycle
from server.net.lifecycle import Connection, Edge, logged_in
from server.net.throttle import ConnectionCounter


class Writer:
    def __init__(self) -> None:
        self.text: list[str] = []
        self.closed = False

    def write(self, text: str) -> None:
        self.text.append(text)

    def write_prompt(self, text: str) -> None:
        self.text.append(text)

    def echo(self, on: bool) -> None:
        pass

    def get_extra_info(self, key: str) -> Any:
        return None

    def unsent(self) -> int:
        return 0

    def abort(self) -> None:
        self.closed = True

    def close(self) -> None:
        self.closed = True


class Casino:
    def __init__(self, **caps: int) -> None:
        self.closing = False
        self.stop_reason = "The casino is closing."
        self.connections = ConnectionCounter(caps.get("per_ip", 20), caps.get("total", 1000),
                                             caps.get("anonymous", 200), caps.get("anonymous_per_ip", 5))
        limits = SimpleNamespace(max_output=1 << 20, max_line=100)
        self.config = SimpleNamespace(settings=SimpleNamespace(limits=limits))
        self.events: list[tuple[str, Any]] = []

    async def on_connect(self, session: Any) -> None:
        self.events.append(("connect", session))

    async def on_input(self, session: Any, lines: list[Any], now: float) -> None:
        self.events.append(("input", lines))
        if "quit" in lines:
            session.close("Bye.")

    async def on_disconnect(self, session: Any) -> None:
        self.events.append(("disconnect", session))


async def test_admission_counts_a_connection_as_not_logged_in_until_it_closes():
    casino = Casino()
    conn = Edge(casino, "telnet", "shell_error").admit("1.2.3.4")
    assert isinstance(conn, Connection)
    assert casino.connections.total == 1 and casino.connections.waiting_from("1.2.3.4") == 1
    conn.closed()
    conn.closed()                             # once, whatever calls
    assert casino.connections.total == 0 and casino.connections.anonymous == 0


async def test_a_login_counts_for_its_own_connection_only_and_never_after_release():
    casino = Casino()
    edge = Edge(casino, "web", "web_error")
    page, socket = edge.admit("1.2.3.4"), edge.admit("1.2.3.4")
    assert isinstance(page, Connection) and isinstance(socket, Connection)
    session = socket.opened(Writer())
    logged_in(casino.connections, session)
    logged_in(casino.connections, session)    # counted once
    assert casino.connections.anonymous == 1 and casino.connections.waiting_from("1.2.3.4") == 1   # the page's
    socket.closed()
    assert session.hung_up and casino.connections.anonymous == 1
    late = page.opened(Writer())
    page.closed()
    logged_in(casino.connections, late)       # a login finishing after the socket was counted out
    assert casino.connections.anonymous == 0 and casino.connections.total == 0


async def test_refusals_say_why_and_are_logged_once_a_minute_per_address(caplog):
    casino = Casino(anonymous_per_ip=1)
    edge = Edge(casino, "telnet", "shell_error")
    assert isinstance(edge.admit("1.2.3.4"), Connection)
    with caplog.at_level(logging.INFO, logger="casino.net"):
        for _ in range(5):
            assert "are logging in" in str(edge.admit("1.2.3.4"))
    assert sum("connection_refused" in r.getMessage() for r in caplog.records) == 1
    casino.closing = True
    assert edge.admit("5.6.7.8") == "*** The casino is closing. ***"
    assert casino.connections.total == 1


async def test_a_session_lives_from_on_connect_to_on_disconnect():
    casino = Casino()
    conn = Edge(casino, "telnet", "shell_error").admit("1.2.3.4")
    assert isinstance(conn, Connection)
    session = conn.opened(Writer())
    more: list[str] = []

    async def chunks() -> AsyncGenerator[str, None]:
        yield "look\r\nsa"
        yield "y hi\r\nquit\r\n"
        more.append("read past the end")
        yield "never\r\n"

    await conn.serve(chunks())
    assert [e[0] for e in casino.events] == ["connect", "input", "input", "disconnect"]
    assert casino.events[1][1] == ["look"] and casino.events[2][1] == ["say hi", "quit"]
    assert session.closed and more == []


async def test_an_error_in_the_session_still_disconnects_and_closes(caplog):
    casino = Casino()
    conn = Edge(casino, "web", "web_error").admit("1.2.3.4")
    assert isinstance(conn, Connection)
    session = conn.opened(Writer())

    async def chunks() -> AsyncGenerator[str, None]:
        raise RuntimeError("broken")
        yield ""

    with caplog.at_level(logging.ERROR, logger="casino.net"):
        await conn.serve(chunks())
    assert "event=web_error" in caplog.text
    assert casino.events[-1][0] == "disconnect" and session.closed


async def test_a_polite_close_is_counted_until_the_socket_is_really_gone(monkeypatch):
    monkeypatch.setattr(lifecycle, "CLOSE_GRACE", 0.01)
    casino = Casino()
    conn = Edge(casino, "telnet", "shell_error").admit("1.2.3.4")
    assert isinstance(conn, Connection)
    aborted = asyncio.Event()

    class Transport:
        protocol: Any = None

        def set_protocol(self, protocol: Any) -> None:
            self.protocol = protocol

        def abort(self) -> None:
            aborted.set()
            self.protocol.connection_lost(None)

    conn.linger(Transport())  # type: ignore[arg-type]
    assert casino.connections.total == 1
    await asyncio.wait_for(aborted.wait(), 5)
    assert casino.connections.total == 0 and conn.released
