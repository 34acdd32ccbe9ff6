"""The portal's record of every player connection, kept across game processes.

A game process can be replaced at any moment (`restart`, a crash), and the
next one must be handed every connection as if nothing had happened: the id
it knows the connection by, what the client said about itself, who is logged
in where, and what was typed while no game process listened. All of that is
kept here, in the portal, beside the sockets, so a game process holds nothing
that its exit would lose. What a game process writes to a connection comes
back through `deliver`, onto the connection's Session as it is.
"""
from __future__ import annotations

from dataclasses import dataclass, field

from server.net.lifecycle import logged_in as count_login
from server.net.lines import TooLong
from server.net.session import Session
from server.net.throttle import ConnectionCounter
from server.portal import protocol

BUFFERED_LINES = 20        # lines a player may type while the game process restarts


@dataclass(slots=True)
class Moving:
    """A relayed connection walking into another shard, until `source` has sent
    back what it had of it (server/portal/protocol.py, `move` .. `released`)."""

    source: str
    via: str
    lines: list[str | TooLong] = field(default_factory=list)


class Clients:
    """Every connection the portal holds, by the id the game process knows it by
    (given here, never reused while the portal runs)."""

    def __init__(self, counter: ConnectionCounter) -> None:
        self.counter = counter                 # the caps: a login moves a connection out of the not-logged-in count
        self.sessions: dict[int, Session] = {}
        self.ids: dict[Session, int] = {}
        self.states: dict[int, protocol.State | None] = {}   # who is logged in on each, and where
        self.told: dict[int, protocol.Facts] = {}   # the client facts the game process has
        self.waiting: dict[int, list[str | TooLong]] = {}   # typed while no game process listens
        self.online: set[int] = set()          # logged in (MSSP counts them)
        self.greeted: set[int] = set()         # handed to a game process (it showed the banner)
        self.known: set[int] = set()           # connections their shard's game process was given
        self.shard: dict[int, str] = {}        # the shard each connection's player is on
        self.moving: dict[int, Moving] = {}    # walking into another shard
        self._next_id = 1

    def next_id(self) -> int:
        """An id for a new connection, relayed or handed (server/portal/handover.py)."""
        cid = self._next_id
        self._next_id += 1
        return cid

    def add(self, session: Session, shard: str) -> int:
        """A new connection, on `shard`: its id, its client facts as they are now."""
        cid = self.next_id()
        self.sessions[cid] = session
        self.ids[session] = cid
        self.shard[cid] = shard
        self.told[cid] = self.facts(session)
        return cid

    def remove(self, session: Session) -> int | None:
        """Forget a connection; its id if the current game process knows it (and must be told `gone`)."""
        cid = self.ids.pop(session, None)
        if cid is None:
            return None
        for kept in (self.sessions, self.states, self.told, self.waiting, self.shard, self.moving):
            kept.pop(cid, None)
        self.online.discard(cid)
        self.greeted.discard(cid)
        if cid not in self.known:
            return None
        self.known.discard(cid)
        return cid

    # --- client facts ---------------------------------------------------------------
    def facts(self, session: Session) -> protocol.Facts:
        """What the game process reads of this client (protocol.FACTS, naws, gmcp),
        each capped (protocol.capped_fact): a hello holds every connection's."""
        out: protocol.Facts = {}
        for key in protocol.FACTS:
            try:
                value = session.writer.get_extra_info(key)
            except Exception:      # a closing transport may refuse
                value = None
            if value is not None:
                out[key] = protocol.capped_fact(value)
        if session.naws_cols:
            out["naws"] = session.naws_cols
        if session.gmcp is not None:
            out["gmcp"] = bool(session.gmcp.enabled)
            if session.gmcp.modules is not None:
                out["gmcp_modules"] = protocol.capped_fact(sorted(session.gmcp.modules))
        return out

    def changed_facts(self, cid: int, session: Session) -> protocol.Facts:
        """The facts that changed since the game process was last told (now told)."""
        now = self.facts(session)
        before = self.told.get(cid, {})
        changed = {k: v for k, v in now.items() if before.get(k) != v}
        if changed:
            self.told[cid] = now
        return changed

    # --- handing connections to a game process --------------------------------------
    def on(self, shard: str) -> list[Session]:
        """The sessions whose player is on `shard` (or walking into it)."""
        return [s for cid, s in self.sessions.items() if self.shard.get(cid) == shard]

    def handover(self, shard: str) -> list[protocol.Conn]:
        """Every connection on `shard`, as `hello` gives them to a new game process of it
        (now known to it); one still walking in joins once its source lets it go."""
        ids = [cid for cid in self.sessions if self.shard.get(cid) == shard and cid not in self.moving]
        conns: list[protocol.Conn] = [{"id": cid, "ip": s.ip, "x": self.told.get(cid) or self.facts(s),
                                       "s": self.states.get(cid), "new": cid not in self.greeted}
                                      for cid, s in ((cid, self.sessions[cid]) for cid in ids)]
        self.greeted.update(ids)
        self.known = {cid for cid in self.known if self.shard.get(cid) != shard} | set(ids)
        return conns

    def opened(self, cid: int, session: Session) -> protocol.Open:
        """The `open` that gives the game process one more connection (now known to it)."""
        self.known.add(cid)
        self.greeted.add(cid)
        return {"t": "open", "id": cid, "ip": session.ip, "x": self.told.get(cid) or self.facts(session)}

    def unknown(self, shard: str) -> list[tuple[int, Session]]:
        """Connections that came to `shard` while its game process was starting."""
        return [(cid, s) for cid, s in self.sessions.items()
                if cid not in self.known and self.shard.get(cid) == shard and cid not in self.moving]

    def wait(self, cid: int, lines: list[str | TooLong]) -> int:
        """Typed while no game process listens, or while it does not read what it was
        sent (server/portal/backlog.py): kept for it, a few lines each; how many of
        `lines` found no room (the caller tells the player)."""
        kept = self.waiting.setdefault(cid, [])
        room = max(0, BUFFERED_LINES - len(kept))
        kept.extend(lines[:room])
        return max(0, len(lines) - room)

    def lines_in(self, cid: int, session: Session, lines: list[str | TooLong]) -> protocol.In:
        """The `in` message of `lines`, with the client facts that changed since last told."""
        message: protocol.In = {"t": "in", "id": cid, "l": protocol.pack_lines(lines)}
        if changed := self.changed_facts(cid, session):
            message["x"] = changed
        return message

    def handed_back(self, returned: dict[int, list[str | TooLong]]) -> None:
        """Lines a stopping game process did not handle (`again`): typed before what
        waits here, so they go first."""
        for cid, lines in returned.items():
            if cid in self.sessions:
                self.waiting[cid] = (lines + self.waiting.get(cid, []))[:BUFFERED_LINES]

    def take_waiting(self, shard: str) -> list[protocol.In]:
        """What waited on `shard`, as `in` messages for its game process that now listens."""
        ids = [cid for cid in self.waiting if self.shard.get(cid) == shard and cid not in self.moving]
        return [{"t": "in", "id": cid, "l": protocol.pack_lines(self.waiting.pop(cid))}
                for cid in ids if cid in self.sessions]

    # --- walking into another shard (server/portal/protocol.py: move .. released) ----
    def move(self, cid: int, to: str, source: str, state: protocol.State, lines: list[str | TooLong],
             via: str) -> None:
        """The player walked into shard `to`; what `source` had of the connection follows."""
        self.shard[cid] = to
        self.states[cid] = state
        self.known.discard(cid)
        self.moving[cid] = Moving(source, via, lines)

    def behind(self, cid: int, lines: list[str | TooLong]) -> None:
        """Lines the source had been sent before it moved: typed before what waits here."""
        moving = self.moving.get(cid)
        if moving is not None:
            moving.lines += lines

    def released(self, cid: int, serving: bool) -> protocol.Join | None:
        """The source has sent back everything: the `join` for the shard's game process,
        now known to it (None when it is not `serving`: its next start is handed the
        connection logged in, and what was typed waits for it)."""
        moving = self.moving.pop(cid, None)
        session = self.sessions.get(cid)
        state = self.states.get(cid)
        if moving is None or session is None or state is None:
            return None
        lines = (moving.lines + self.waiting.pop(cid, []))[:BUFFERED_LINES]
        if not serving:
            self.waiting[cid] = lines
            return None
        self.known.add(cid)
        self.greeted.add(cid)
        return {"t": "join", "id": cid, "ip": session.ip, "x": self.told.get(cid) or self.facts(session),
                "s": state, "via": moving.via, "l": protocol.pack_lines(lines)}

    def moving_from(self, source: str) -> list[int]:
        """The moves `source` had begun (its game process ended: nothing more comes of them)."""
        return [cid for cid, moving in self.moving.items() if moving.source == source]

    # --- what the game process writes ------------------------------------------------
    def deliver(self, m: protocol.ForConnection) -> None:
        """One message from the game process for one connection."""
        session = self.sessions.get(m.get("id", 0))
        if session is None:
            return
        if m["t"] == "w" or m["t"] == "p":
            session.relay(m["d"], prompt=m["t"] == "p")
        elif m["t"] == "g":
            if session.gmcp is not None:
                session.gmcp.send(m["p"], m["d"])
        elif m["t"] == "data":
            session.writer.data(m["p"], m["d"])     # the browser page's own view; telnet ignores it
        elif m["t"] == "s":
            self._state(m["id"], session, m["s"])
        elif m["t"] == "echo":
            try:
                session.writer.echo(bool(m["on"]))
            except Exception:      # noqa: BLE001 - a transport already gone
                session.abort()
        elif m["t"] == "close":
            session.close()
        elif m["t"] == "abort":
            session.abort()

    def _state(self, cid: int, session: Session, state: protocol.State | None) -> None:
        """Who is logged in here and where, kept for the next game process."""
        self.states[cid] = state
        if state is None:
            self.online.discard(cid)
            return
        self.online.add(cid)
        count_login(self.counter, session)   # no longer counted among those logging in
