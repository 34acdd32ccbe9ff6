"""A scripting MUD client for the GMCP tests: telnetlib3's own client, which
answers DO GMCP, sends Core.Hello and Core.Supports.Set, keeps every GMCP
message in order and agrees to MSSP; and the few reads the tests make with it."""
from __future__ import annotations

import asyncio

import telnetlib3
from telnetlib3.telopt import MSSP


class ScriptingClient(telnetlib3.TelnetClient):
    """A MUD client with scripts: asks for the casino's modules, keeps every
    GMCP message in order, and agrees to MSSP like a directory's crawler."""

    def __init__(self, *args, **kwargs):
        kwargs.setdefault("gmcp_modules", ["Char 1", "Room 1", "Casino 1"])
        super().__init__(*args, **kwargs)
        self.messages: list[tuple[str, object]] = []

    def connection_made(self, transport):
        super().connection_made(transport)
        self.writer.passive_do.add(MSSP)

    def on_gmcp(self, package, data):
        super().on_gmcp(package, data)
        self.messages.append((package, data))


async def until(reader, text: str, timeout: float = 10.0) -> str:
    """Read until `text` has arrived (a guard against a hung server, not a wait)."""
    seen = ""

    async def go() -> None:
        nonlocal seen
        while text not in seen:
            chunk = await reader.read(65536)
            if not chunk:
                raise ConnectionError("closed")
            seen += chunk
    await asyncio.wait_for(go(), timeout)
    return seen


async def command(reader, writer, line: str, expect: str = "> ") -> str:
    writer.write(line + "\r\n")
    return await until(reader, expect)


def packages(client: ScriptingClient, name: str) -> list:
    return [data for package, data in client.messages if package == name]
