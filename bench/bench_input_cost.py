"""What each kind of client input costs the server, in CPU per item.

Input budgets (server.net.telnet, server.net.web) charge a connection for
what it makes the server do: plain bytes count one each, and every telnet
command (IAC ...) and every WebSocket frame counts extra, at the cost
measured here relative to a plain byte. Run it after changing telnetlib3,
aiohttp or the edges, and set COMMAND_COST (telnet.py) and FRAME_COST
(web.py) from the ratios it prints.

How: a casino runs in this process (no clock task); one connection of each
edge is opened over real loopback sockets, and then the bench feeds input
straight to that connection's protocol (data_received), bypassing the
socket and the budget, and awaits until the server has handled it. CPU is
process time (this process only: the server's own work, the client reads
nothing it need not). Each kind is timed REPEATS times; the median is
reported, per item, with its ratio to a plain byte of the same edge.
"""
from __future__ import annotations

import asyncio
import os
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any, Callable

ROOT = Path(__file__).resolve().parents[1]
REPEATS = 5
ITEMS = 4000          # commands or frames per timing
PLAIN = 256 * 1024    # plain bytes per timing

IAC, DONT, DO, WONT, WILL, SB, SE, NOP = 255, 254, 253, 252, 251, 250, 240, 241
ECHO, TTYPE, NAWS, NEW_ENVIRON = 1, 24, 31, 39


def telnet_kinds() -> dict[str, tuple[bytes, int]]:
    """name -> (input, items in it)."""
    toggle = bytes([IAC, DO, ECHO, IAC, DONT, ECHO])
    naws = bytes([IAC, SB, NAWS, 0, 100, 0, 40, IAC, SE])
    ttype = bytes([IAC, WONT, TTYPE, IAC, WILL, TTYPE, IAC, SB, TTYPE, 0]) + b"xterm" + bytes([IAC, SE])
    environ = (bytes([IAC, SB, NEW_ENVIRON, 0, 0]) + b"TERM" + bytes([1]) + b"x" * 40 + bytes([IAC, SE]))
    return {
        "plain byte (no line end)": (b"x" * PLAIN, PLAIN),
        "IAC NOP": (bytes([IAC, NOP]) * ITEMS, ITEMS),
        "DO/DONT toggle (2 commands)": (toggle * (ITEMS // 2), ITEMS // 2),
        "NAWS subnegotiation": (naws * ITEMS, ITEMS),
        "TTYPE renegotiation (3 commands)": (ttype * (ITEMS // 4), ITEMS // 4),
        "NEW-ENVIRON, 50 bytes": (environ * (ITEMS // 4), ITEMS // 4),
    }


def ws_frame(opcode: int, payload: bytes) -> bytes:
    """A client's (masked) WebSocket frame."""
    mask = b"\x01\x02\x03\x04"
    n = len(payload)
    head = bytes([0x80 | opcode]) + (bytes([0x80 | n]) if n < 126 else bytes([0x80 | 126]) + n.to_bytes(2, "big"))
    return head + mask + bytes(b ^ mask[i % 4] for i, b in enumerate(payload))


def web_kinds() -> dict[str, tuple[bytes, int]]:
    filler = ws_frame(1, b'{"t": "cols", "n": 80}' + b" " * 1000)
    return {
        "plain byte (in 1 KB frames)": (filler * (PLAIN // len(filler)), PLAIN // len(filler) * len(filler)),
        "empty text frame": (ws_frame(1, b"") * ITEMS, ITEMS),
        "empty binary frame": (ws_frame(2, b"") * ITEMS, ITEMS),
        "ping frame": (ws_frame(9, b"") * ITEMS, ITEMS),
        "resize frame (cols)": (ws_frame(1, b'{"t":"cols","n":80}') * ITEMS, ITEMS),
    }


async def settle() -> None:
    """Let the server handle what it was fed (its tasks and callbacks)."""
    for _ in range(50):
        await asyncio.sleep(0)


async def timed(feed: Callable[[bytes], None], data: bytes, done: Callable[[], Any]) -> float:
    start = time.process_time()
    for i in range(0, len(data), 8192):
        feed(data[i:i + 8192])
        await asyncio.sleep(0)
    await settle()
    await done()
    return time.process_time() - start


async def measure() -> dict[str, dict[str, float]]:
    sys.path.insert(0, str(ROOT / "tests"))
    from conftest import shipped_config

    from server.app import Casino
    results: dict[str, dict[str, float]] = {"telnet": {}, "web": {}}
    with tempfile.TemporaryDirectory() as tmp:
        config = shipped_config(limits={"input_bytes_per_second": 100_000_000, "max_line": 65536,
                                        "max_output": 1 << 30})
        app = Casino(config, Path(tmp) / "bench.db", config_dir=ROOT / "config", rooms_dir=ROOT / "rooms")
        await app.start("127.0.0.1", 0, web_port=0, run_clock=False)
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", app.port)
            drain = asyncio.create_task(_drain(reader))
            while not app.sessions:
                await asyncio.sleep(0.01)
            proto = next(iter(app.sessions)).writer.protocol     # type: ignore[attr-defined]

            async def nothing() -> None:
                return None
            for name, (data, items) in telnet_kinds().items():
                times = [await timed(proto.data_received, data, nothing) for _ in range(REPEATS)]
                results["telnet"][name] = statistics.median(times) / items
            writer.close()
            drain.cancel()

            import aiohttp
            async with aiohttp.ClientSession() as http:
                async with http.ws_connect(f"http://127.0.0.1:{app.web_port}/ws", autoping=False) as ws:
                    await ws.receive()
                    handler = next(iter(app.listeners._web.gate._conns))
                    session = next(s for s in app.sessions if s.writer is not None
                                   and type(s.writer).__name__ == "WebWriter")
                    queue = session.writer.ws._reader    # type: ignore[attr-defined]
                    reading = asyncio.create_task(_drain_ws(ws))

                    async def emptied() -> None:
                        while queue is not None and len(getattr(queue, "_buffer", ())):
                            await asyncio.sleep(0)
                    for name, (data, items) in web_kinds().items():
                        times = [await timed(handler.data_received, data, emptied) for _ in range(REPEATS)]
                        results["web"][name] = statistics.median(times) / items
                    reading.cancel()
        finally:
            await app.stop()
    return results


async def _drain(reader: asyncio.StreamReader) -> None:
    while await reader.read(1 << 16):
        pass


async def _drain_ws(ws: Any) -> None:
    async for _ in ws:
        pass


def report(results: dict[str, dict[str, float]]) -> None:
    for edge, kinds in results.items():
        plain = next(v for k, v in kinds.items() if k.startswith("plain"))
        print(f"  {edge}: CPU per item, and in plain bytes")
        for name, cpu in kinds.items():
            print(f"    {name:<36} {cpu * 1e6:9.2f} us   {cpu / plain:9.0f} bytes")


def main(argv: list[str] | None = None) -> dict[str, dict[str, float]]:
    os.environ.setdefault("PYTHONHASHSEED", "0")
    results = asyncio.run(measure())
    report(results)
    return results


if __name__ == "__main__":
    main()
