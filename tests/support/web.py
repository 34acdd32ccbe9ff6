"""A small WebSocket client for end-to-end tests of the browser edge: it
speaks the page's frames (server/net/web.py) and reads until the prompt
frame, as tests/support/telnet.py reads until GA. Timeouts guard against a
hung server; they are not waits."""
from __future__ import annotations

import asyncio
import json

import aiohttp


class WebClient:
    def __init__(self, http: aiohttp.ClientSession, ws: aiohttp.ClientWebSocketResponse) -> None:
        self.http, self.ws = http, ws
        self.echo_changes: list[bool] = []   # every echo frame's "on"
        self.data: list[tuple[str, object]] = []   # every data frame's package and payload (Char.Stats)
        self.prompts = 0
        self.closed = False

    @classmethod
    async def open(cls, port: int, cols: int | None = None) -> "WebClient":
        http = aiohttp.ClientSession()
        ws = await http.ws_connect(f"http://127.0.0.1:{port}/ws")
        client = cls(http, ws)
        if cols is not None:
            await client.frame(t="cols", n=cols)
        return client

    async def frame(self, **data) -> None:
        await self.ws.send_str(json.dumps(data))

    async def send(self, line: str) -> None:
        await self.frame(t="line", d=line)

    async def _read(self, until_prompt: bool, timeout: float) -> str:
        out: list[str] = []

        async def read() -> None:
            async for msg in self.ws:
                if msg.type != aiohttp.WSMsgType.TEXT:
                    break
                data = json.loads(msg.data)
                if data["t"] == "text":
                    out.append(data["d"])
                elif data["t"] == "echo":
                    self.echo_changes.append(data["on"])
                elif data["t"] == "data":
                    self.data.append((data["p"], data["d"]))
                elif data["t"] == "prompt":
                    self.prompts += 1
                    if until_prompt:
                        return
            self.closed = True

        await asyncio.wait_for(read(), timeout)
        return "".join(out)

    async def read_until_prompt(self, timeout: float = 10.0) -> str:
        return await self._read(True, timeout)

    async def read_until_closed(self, timeout: float = 10.0) -> str:
        return await self._read(False, timeout)

    async def expect(self, text: str, timeout: float = 10.0) -> str:
        """Blocks up to and including the one that shows `text`."""
        seen = ""
        while text not in seen:
            if self.closed:
                raise ConnectionError(f"the server closed the WebSocket before {text!r}: {seen!r}")
            seen += await self.read_until_prompt(timeout)
        return seen

    async def cmd(self, line: str, timeout: float = 10.0) -> str:
        await self.send(line)
        return await self.read_until_prompt(timeout)

    async def close(self) -> None:
        await self.ws.close()
        await self.http.close()
