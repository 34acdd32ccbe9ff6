"""A small real telnet client for end-to-end tests.

It speaks enough of the protocol to act like a MUD client (answers TTYPE and
NAWS, agrees to EOR) or like a client that ignores negotiation altogether, and
it reads until the server's prompt marker (IAC GA or IAC EOR), which every
reply ends with. Timeouts here are guards against a hung server, not waits.
"""
from __future__ import annotations

import asyncio
import re

IAC, DONT, DO, WONT, WILL, SB, SE, GA = 255, 254, 253, 252, 251, 250, 240, 249
EOR_CMD = 239
ECHO, SGA, TTYPE, NAWS, EOR, BINARY, CHARSET, NEW_ENVIRON = 1, 3, 24, 31, 25, 0, 42, 39
ANSI = re.compile(r"\x1b\[[0-9;]*m")


class Client:
    def __init__(self, reader: asyncio.StreamReader, writer: asyncio.StreamWriter, *,
                 negotiate: bool, ttype: str, cols: int, want_eor: bool, rows: int = 1000) -> None:
        self.reader, self.writer = reader, writer
        self.negotiate, self.ttype, self.cols, self.want_eor = negotiate, ttype, cols, want_eor
        self.rows = rows                # NAWS height: tall by default, so replies come unpaged
        self.echo_off = False           # server said WILL ECHO: we must not echo
        self.echo_changes: list[bool] = []
        self.prompts: list[int] = []    # GA or EOR_CMD, one per prompt seen
        self.subnegotiated: list[int] = []   # the option of every IAC SB the server sent
        self._text = bytearray()
        self._raw = bytearray()

    @classmethod
    async def open(cls, port: int, *, negotiate: bool = True, ttype: str = "xterm-256color",
                   cols: int = 250, want_eor: bool = False, host: str = "127.0.0.1",
                   source: str | None = None, rows: int = 1000) -> "Client":
        """`source`: connect from this local address (127.0.0.2 is another loopback address).
        `rows`: the height NAWS reports (a reply taller than it is paged)."""
        reader, writer = await asyncio.open_connection(host, port,
                                                       local_addr=(source, 0) if source else None)
        return cls(reader, writer, negotiate=negotiate, ttype=ttype, cols=cols, want_eor=want_eor,
                   rows=rows)

    # --- protocol -------------------------------------------------------
    def _answer(self, cmd: int, opt: int) -> None:
        if not self.negotiate:
            return
        if cmd == DO:
            ok = opt in (TTYPE, NAWS, BINARY)
            self.writer.write(bytes([IAC, WILL if ok else WONT, opt]))
            if opt == NAWS:
                size = self.cols.to_bytes(2, "big") + self.rows.to_bytes(2, "big")
                self.writer.write(bytes([IAC, SB, NAWS]) + size.replace(b"\xff", b"\xff\xff")
                                  + bytes([IAC, SE]))
        elif cmd == WILL:
            ok = opt in (ECHO, BINARY) or (opt == EOR and self.want_eor)
            self.writer.write(bytes([IAC, DO if ok else DONT, opt]))

    def _feed(self, data: bytes) -> list[int]:
        """Strip telnet commands from `data`; return the prompt markers seen."""
        self._raw.extend(data)
        marks: list[int] = []
        buf = self._raw
        i = 0
        while i < len(buf):
            b = buf[i]
            if b != IAC:
                self._text.append(b)
                i += 1
                continue
            if i + 1 >= len(buf):
                break
            cmd = buf[i + 1]
            if cmd == IAC:
                self._text.append(IAC)
                i += 2
            elif cmd in (GA, EOR_CMD):
                marks.append(cmd)
                i += 2
            elif cmd in (DO, DONT, WILL, WONT):
                if i + 2 >= len(buf):
                    break
                opt = buf[i + 2]
                if opt == ECHO and cmd in (WILL, WONT):
                    self.echo_off = cmd == WILL
                    self.echo_changes.append(self.echo_off)
                    if self.negotiate:
                        self.writer.write(bytes([IAC, DO if cmd == WILL else DONT, ECHO]))
                else:
                    self._answer(cmd, opt)
                i += 3
            elif cmd == SB:
                end = buf.find(bytes([IAC, SE]), i)
                if end < 0:
                    break
                self.subnegotiated.append(buf[i + 2])
                if self.negotiate and buf[i + 2] == TTYPE:
                    self.writer.write(bytes([IAC, SB, TTYPE, 0]) + self.ttype.encode() + bytes([IAC, SE]))
                i = end + 2
            else:
                i += 2
        del buf[:i]
        return marks

    # --- reading and writing -------------------------------------------
    async def read_until_prompt(self, timeout: float = 10.0) -> str:
        """Everything up to and including the next prompt marker, as text."""
        async def until_prompt() -> None:
            while True:
                data = await self.reader.read(65536)
                if not data:
                    raise ConnectionError("server closed the connection")
                marks = self._feed(data)
                if marks:
                    self.prompts.extend(marks)
                    return
        await asyncio.wait_for(until_prompt(), timeout)
        return self.take_text()

    async def read_until_closed(self, timeout: float = 10.0) -> str:
        async def until_closed() -> None:
            while True:
                data = await self.reader.read(65536)
                if not data:
                    return
                self.prompts.extend(self._feed(data))
        await asyncio.wait_for(until_closed(), timeout)
        return self.take_text()

    def take_text(self) -> str:
        text = self._text.decode("utf-8", "replace")
        self._text.clear()
        return text

    def send_raw(self, data: bytes) -> None:
        self.writer.write(data)

    async def send(self, line: str) -> None:
        self.writer.write(line.encode("utf-8") + b"\r\n")
        await self.writer.drain()

    async def cmd(self, line: str, timeout: float = 10.0) -> str:
        await self.send(line)
        return await self.read_until_prompt(timeout)

    async def expect(self, text: str, timeout: float = 10.0) -> str:
        """Read prompt after prompt until `text` has appeared; returns all read.
        For output that may arrive behind messages from other players."""
        seen = ""
        while text not in plain(seen):
            seen += await self.read_until_prompt(timeout)
        return seen

    async def read_until_text(self, text: str, timeout: float = 10.0) -> str:
        """Everything up to and including `text`, prompt or not (a line the portal
        writes by itself comes without one), as text; what follows stays unread."""
        async def until_text() -> None:
            while text not in plain(self._text.decode("utf-8", "replace")):
                data = await self.reader.read(65536)
                if not data:
                    raise ConnectionError("server closed the connection")
                self.prompts.extend(self._feed(data))
        await asyncio.wait_for(until_text(), timeout)
        return self.take_text()

    async def cmd_expect(self, line: str, text: str, timeout: float = 10.0) -> str:
        await self.send(line)
        return await self.expect(text, timeout)

    async def close(self) -> None:
        self.writer.close()
        try:
            await self.writer.wait_closed()
        except (ConnectionError, OSError):
            pass


def plain(text: str) -> str:
    """Text without ANSI colour codes."""
    return ANSI.sub("", text)


async def login(client: Client, name: str, password: str = "secret123", create: bool = True) -> str:
    """Read the banner and create or connect; returns the text after logging in."""
    await client.read_until_prompt()
    verb = "create" if create else "connect"
    return await client.cmd(f"{verb} {name} {password}")
