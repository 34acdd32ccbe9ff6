"""Telnet sockets handed to the game process: the portal off the data path.

The portal accepts every telnet connection and counts it in its caps, then
passes the socket itself to the game process (SCM_RIGHTS over a socket
pair of its own, beside the link), which reads and writes it as one process
would: telnet negotiation, the byte budget, every line and prompt. Nothing a
player types or reads crosses the link, so a command costs what it costs in
one process (docs/architecture.md, "How a connection's bytes travel").

The portal keeps its own descriptor of each socket, and with it what a
restart must keep: the negotiated telnet state (`k`, server.net.telnet
kept_state, told by the game process whenever negotiation changed it) and
who is logged in where (`s`). When the game process exits, for a restart or
killed, the sockets stay open (the kernel closes a socket with its last
descriptor), what was typed waits in the kernel, and the next game process
adopts each one without negotiating again (server.net.telnetlib3_adapter
restore). The game process tells `gone` when a connection ends; the portal
then closes its descriptor, the last, and frees its place in the caps.

Messages on the handover socket (SOCK_SEQPACKET: one message a packet, with
the socket in its ancillary data), portal to game only:
  adopt  {id, ip, k, s, new, why, l}   a socket to serve: `k` its negotiated state, JSON text (None:
                                    a new connection, negotiate), `s` who is logged in,
                                    `new` if no game process greeted it yet, `why` told
                                    to those logged in again, `l` lines the process before
                                    read but did not handle (`again`): handled first; `via`
                                    and `r` for one that walked in from another shard (the
                                    way it walked, an unfinished line)
"""
from __future__ import annotations

import asyncio
import json
import logging
import socket
from collections import deque
from dataclasses import dataclass, field
from typing import Callable, Literal, NotRequired, TypedDict, cast

from server.net.lines import TooLong
from server.net.throttle import ConnectionCounter
from server.portal import protocol

log = logging.getLogger("casino.portal")

BUFFERED_LINES = 20        # lines handed back a connection (as the relayed ones: clients.py)
PACKET = 1 << 16           # bytes: the largest adopt message (kept state is capped well below)
NOTICE_LIMIT = 4096        # bytes the portal itself writes to a socket at once (a notice)

Kept = str   # a connection's negotiated telnet state as JSON text (server.net.telnet kept_state):
             # kept as the game process wrote it, never parsed here (a dict a connection costs KiBs)


class Adopt(TypedDict):
    t: Literal["adopt"]
    id: int
    ip: str
    k: Kept | None
    s: protocol.State | None
    new: bool
    why: str | None
    l: NotRequired[list[protocol.PackedLine]]
    via: NotRequired[str]            # walked in from another shard, that way (a handoff)
    r: NotRequired[str]              # an unfinished line the shard before read


def channel() -> tuple[socket.socket, socket.socket]:
    """The portal's end and the game process's end of a handover socket pair."""
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    ours.setblocking(False)
    return ours, theirs


def _packed(message: Adopt) -> bytes:
    return protocol.encode(cast(protocol.Message, message))[:-1]      # less the line's end


def fitted(message: Adopt) -> bytes:
    """An adopt message as one packet of at most PACKET bytes (the receiver reads
    no more; a longer one would arrive cut, unreadable, and the player dropped):
    lines handed back are left off from the last until it fits (20 lines of a
    max_line of 512 control characters are 61 KiB in JSON), then, were the kept
    state itself too big, that too (the next game process negotiates again)."""
    data = _packed(message)
    lines = message.get("l")
    while len(data) > PACKET and lines:
        lines.pop()
        data = _packed(message)
    if len(data) > PACKET:
        log.warning("event=adopt_too_long id=%s bytes=%d", message["id"], len(data))
        message["k"] = None
        data = _packed(message)
    return data


class Sender:
    """The portal's end: adopt messages with their sockets, sent in order;
    what the kernel cannot take now waits for the socket to be writable."""

    def __init__(self, sock: socket.socket) -> None:
        self.sock = sock
        self._queue: deque[tuple[bytes, int]] = deque()
        self._waiting = False
        self.closed = False

    def send(self, message: Adopt, fd: int) -> None:
        if self.closed:
            return
        self._queue.append((fitted(message), fd))
        self._drain()

    def _drain(self) -> None:
        while self._queue and not self.closed:
            data, fd = self._queue[0]
            try:
                socket.send_fds(self.sock, [data], [fd])
            except BlockingIOError:
                if not self._waiting:
                    self._waiting = True
                    asyncio.get_running_loop().add_writer(self.sock.fileno(), self._writable)
                return
            except OSError:                 # the game process is gone: the next one is sent all
                self._queue.clear()
                return
            self._queue.popleft()

    def _writable(self) -> None:
        self._waiting = False
        asyncio.get_running_loop().remove_writer(self.sock.fileno())
        self._drain()

    def close(self) -> None:
        self.closed = True
        if self._waiting:
            asyncio.get_running_loop().remove_writer(self.sock.fileno())
        self.sock.close()


class Receiver:
    """The game process's end: each adopt message with its socket, to `take`."""

    def __init__(self, sock: socket.socket, take: Callable[[Adopt, socket.socket], None]) -> None:
        sock.setblocking(False)
        self.sock = sock
        self.take = take
        asyncio.get_running_loop().add_reader(sock.fileno(), self._readable)

    def _readable(self) -> None:
        for _ in range(256):                # a bounded batch a turn: input waits behind no handover
            try:
                data, fds, _flags, _addr = socket.recv_fds(self.sock, PACKET, 1)
            except BlockingIOError:
                return
            except OSError:
                self.close()
                return
            if not data and not fds:        # the portal's end is gone
                self.close()
                return
            if not fds:
                continue
            conn = socket.socket(fileno=fds[0])
            try:
                message = json.loads(data)
            except ValueError:
                conn.close()
                continue
            if isinstance(message, dict) and message.get("t") == "adopt":
                self.take(cast(Adopt, message), conn)
            else:
                conn.close()

    def close(self) -> None:
        if self.sock.fileno() >= 0:
            asyncio.get_running_loop().remove_reader(self.sock.fileno())
            self.sock.close()


@dataclass(eq=False, slots=True)
class HandedSocket:
    """One telnet connection as the portal keeps it while a game process serves it."""

    sock: socket.socket
    ip: str
    kept: Kept | None = None               # negotiated state, once the game process told it
    state: protocol.State | None = None    # who is logged in and where
    greeted: bool = False                  # a game process has shown it the banner
    again: list[str | TooLong] = field(default_factory=list)   # read, not handled: for the next one
    anonymous: bool = True                 # counted among the not logged in (the caps)
    shard: str = ""                        # the shard its player is on
    via: str | None = None                 # walking in from another shard, that way
    partial: str = ""                      # ... with this unfinished line

    def notice(self, text: str) -> None:
        """A line of the portal's own (the casino is restarting), written
        straight to the socket; what the kernel will not take now is dropped."""
        try:
            self.sock.send(text.encode("utf-8", "replace")[:NOTICE_LIMIT])
        except OSError:
            pass


class Handed:
    """Every telnet socket the portal has handed out (or will), by the id the
    game process knows it by; ids are shared with the relayed connections
    (server/portal/clients.py) and never reused while the portal runs."""

    def __init__(self, counter: ConnectionCounter) -> None:
        self.counter = counter
        self.sockets: dict[int, HandedSocket] = {}
        self.known: set[int] = set()          # given to the game process now serving

    def add(self, cid: int, sock: socket.socket, ip: str, shard: str) -> HandedSocket:
        handed = self.sockets[cid] = HandedSocket(sock, ip, shard=shard)
        return handed

    def on(self, shard: str) -> list[int]:
        return [cid for cid, h in self.sockets.items() if h.shard == shard]

    def move(self, cid: int, to: str, state: protocol.State, kept: Kept | None,
             lines: list[str | TooLong], partial: str, via: str) -> None:
        """The player walked into shard `to` (its game process let the socket go):
        adopted there next, logged in, with what the shard before read of it."""
        h = self.sockets[cid]
        h.shard, h.state, h.via, h.partial = to, state, via, partial
        if kept is not None:
            h.kept = kept
        h.again = (lines + h.again)[:BUFFERED_LINES]
        self.known.discard(cid)

    def adopt(self, cid: int, why: str | None = None) -> Adopt:
        """The adopt message for one socket (now known to the serving game process)."""
        h = self.sockets[cid]
        new = not h.greeted
        h.greeted = True
        self.known.add(cid)
        message: Adopt = {"t": "adopt", "id": cid, "ip": h.ip, "k": h.kept, "s": h.state, "new": new,
                          "why": why if h.state is not None else None}
        if h.again:
            message["l"] = protocol.pack_lines(h.again[:BUFFERED_LINES])
            h.again = []
        if h.via is not None:
            message["via"] = h.via
            message["r"] = h.partial
            h.via, h.partial = None, ""
        return message

    def handed_back(self, returned: dict[int, list[str | TooLong]]) -> None:
        """Lines a stopping game process read and did not handle, for the next one."""
        for cid, lines in returned.items():
            h = self.sockets.get(cid)
            if h is not None:
                h.again = (h.again + lines)[:BUFFERED_LINES]

    def forget(self, shard: str) -> None:
        """`shard`'s game process ended: none of its sockets is known to the next one yet."""
        self.known -= set(self.on(shard))

    def unknown(self, shard: str) -> list[int]:
        return [cid for cid, h in self.sockets.items() if cid not in self.known and h.shard == shard]

    def kept(self, cid: int, kept: Kept) -> None:
        h = self.sockets.get(cid)
        if h is not None:
            h.kept = kept

    def state(self, cid: int, state: protocol.State | None) -> None:
        h = self.sockets.get(cid)
        if h is None:
            return
        h.state = state
        if state is not None and h.anonymous:
            h.anonymous = False
            self.counter.logged_in(h.ip)

    def gone(self, cid: int) -> None:
        """The connection ended: the portal's descriptor, the last, closes; out of the caps."""
        h = self.sockets.pop(cid, None)
        self.known.discard(cid)
        if h is None:
            return
        h.sock.close()
        self.counter.release(h.ip, anonymous=h.anonymous)

    def notice(self, text: str, shard: str | None = None) -> None:
        """To every socket (on `shard`, when given)."""
        for h in self.sockets.values():
            if shard is None or h.shard == shard:
                h.notice(text)

    def close_all(self) -> None:
        for cid in list(self.sockets):
            self.gone(cid)

    @property
    def online(self) -> set[int]:
        return {cid for cid, h in self.sockets.items() if h.state is not None}
