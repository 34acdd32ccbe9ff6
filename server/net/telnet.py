"""The telnet edge: telnetlib3 set up as TELNET.md says, and one shell per client.

Choices made on purpose (each a pitfall measured in TELNET.md):
- force_binary with UTF-8 and errors="replace": UTF-8 both ways whatever the
  client negotiates, and a bad byte never kills the shell;
- line_mode: clients keep their own line editing and local echo;
- a short connect_maxwait: a client that ignores negotiation still gets the
  banner well within a second;
- no telnetlib3 idle timeout: idle and login deadlines count manager ticks;
- our own line reader with a length cap (readline() has none);
- WILL EOR offered, so clients that want EOR prompts get them, GA otherwise;
- BINARY asked for input only (DO BINARY), never offered for output (WILL
  BINARY is refused even when a client asks): inetutils telnet turns off its
  terminal's output processing once our output is binary, and then its own
  echo of the player's Enter no longer returns the carriage, so every reply
  starts in the column where the typed command ended (the "staircase",
  CLIENTS.md). force_binary keeps UTF-8 flowing both ways regardless, and
  binary input keeps the client from stripping the eighth bit of what is typed.
"""
from __future__ import annotations

import asyncio
import logging
import time
from typing import Any

import telnetlib3
from telnetlib3 import server_base
from telnetlib3.telopt import BINARY, CHARSET, DO, EOR, NAWS, WILL

from server.net.lines import LineSplitter
from server.net.session import Session

log = logging.getLogger("casino.net")


class CasinoTelnetServer(telnetlib3.TelnetServer):
    """Offers EOR and forwards window-size changes to the session."""

    def begin_advanced_negotiation(self) -> None:
        # TelnetServer.begin_advanced_negotiation, less its WILL BINARY (see the
        # module docstring: binary output turns off the client's output
        # processing, so its echoed newline no longer returns the carriage).
        # Its WILL SGA is for character mode and MCCP is off: neither applies.
        server_base.BaseServer.begin_advanced_negotiation(self)
        self.writer.always_wont.add(BINARY)
        self.writer.iac(DO, BINARY)
        self.writer.iac(DO, NAWS)
        if self.default_encoding:
            self.writer.iac(DO, CHARSET)
        self.writer.iac(WILL, EOR)

    def on_charset(self, charset: str) -> None:
        # get_extra_info("charset") defaults to our own encoding; remember
        # what the client really agreed to, for the Unicode guess.
        super().on_charset(charset)
        self._extra["agreed_charset"] = charset

    def on_naws(self, rows: int, cols: int) -> None:
        super().on_naws(rows, cols)
        session = getattr(self.writer, "casino_session", None)
        if session is not None:
            session.on_resize(cols)


async def start_telnet(app: Any, host: str, port: int) -> Any:
    """Listen for telnet clients; each gets a Session driven by `app`."""
    limits = app.config.settings.limits

    async def shell(reader: Any, writer: Any) -> None:
        peer = writer.get_extra_info("peername") or ("?", 0)
        ip = str(peer[0])
        if not app.connections.admit(ip):
            writer.write("Too many connections from your address; try again later.\r\n")
            writer.close()
            return
        session = Session(writer, ip)
        writer.casino_session = session
        try:
            await app.on_connect(session)
            splitter = LineSplitter(limits.max_line)
            while not session.closed:
                data = await reader.read(4096)
                if not data:
                    break
                for line in splitter.feed(data):
                    if session.closed:
                        break
                    await app.on_line(session, line, time.monotonic())
        except (ConnectionError, asyncio.IncompleteReadError):
            pass
        except asyncio.CancelledError:
            raise
        except Exception:
            log.exception("event=shell_error ip=%s", ip)
        finally:
            app.connections.release(ip)
            await app.on_disconnect(session)
            if not session.closed:
                session.close()

    return await telnetlib3.create_server(
        host=host,
        port=port,
        protocol_factory=CasinoTelnetServer,
        shell=shell,
        encoding="utf8",
        encoding_errors="replace",
        force_binary=True,
        line_mode=True,
        connect_maxwait=app.config.settings.connect_maxwait,
        timeout=False,
    )
