"""What a table's people see: facts rendered per viewer, told as one block.

What one input makes people see leaves as one block: lines for each session
are gathered while the input is handled (its ledger writes await in between)
and told together when it is done, so a roll and its settlement reach every
viewer under one prompt, whoever or whatever rolled. For clients that agreed
to GMCP the same facts follow as data, and the table's state if it changed:
data after text, as it was caused.

A fact is rendered for each seated player, but only once for each group of
watchers with the same display preferences (and alone for a watcher it
names): what a fact says to a watcher depends on nothing else (the rule in
server.games.seam.Dealer), so a crowd of watchers costs a few renders, not
one each.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass
from typing import Awaitable, Callable, Mapping, Protocol

from server.accounts.names import name_key
from server.games.seam import Event, Note, Viewer, names_in
from server.net import mud
from server.render.prefs import Prefs
from server.tables.core import TableCore


class Viewing(Protocol):
    """A connected person as a table tells them things (server.net.session.Session)."""

    @property
    def key(self) -> str: ...            # the account's key
    @property
    def name(self) -> str: ...
    @property
    def closed(self) -> bool: ...
    @property
    def gone(self) -> bool: ...          # closed by us or hung up by the client
    @property
    def prefs(self) -> Prefs: ...
    def tell(self, *lines: str) -> None: ...
    def ask(self, prompt: str, answer: Callable[[str], Awaitable[bool]]) -> None: ...
    def after_text(self, send: Callable[[], None]) -> None: ...


@dataclass
class Audience:
    """Who sees a run of facts, as they are rendered for: each seated player
    alone, the watchers a group per Prefs, and the watchers by the name_key
    of the name renderers compare (Viewer.key), to single out one a fact names."""

    everyone: list[tuple[Viewer, Viewing]]
    seated: list[tuple[Viewer, Viewing]]
    groups: list[list[tuple[Viewer, Viewing]]]
    watchers: dict[str, tuple[Viewer, Viewing]]


class Delivery:
    def __init__(self, table: str, online: Mapping[str, Viewing],
                 status: Callable[[Viewing], Awaitable[dict[str, object]]]) -> None:
        self.table = table
        self.online = online                    # who is connected, by account key
        self.status = status                    # Char.Status of one player
        self._outbox: dict[int, tuple[Viewing, list[str]]] = {}   # this input's lines per session
        self._data: list[tuple[Viewing, str, object]] = []      # GMCP to send after the text

    # --- who -------------------------------------------------------------------
    def session_of(self, player: str) -> Viewing | None:
        """The connected session of a player a game names (by display name)."""
        return self.online.get(name_key(player))

    def viewers(self, core: TableCore) -> list[tuple[Viewer, Viewing]]:
        seen: dict[str, tuple[Viewer, Viewing]] = {}
        for player in core.seating.names():
            session = self.session_of(player)
            if session is not None:
                seen[session.key] = (Viewer(session.name, session.prefs, seated=True), session)
        for key in core.seating.watchers:
            session = self.online.get(key)
            if key not in seen and session is not None and not session.closed:
                seen[key] = (Viewer(session.name, session.prefs, seated=False), session)
        return list(seen.values())

    def audience(self, core: TableCore) -> Audience:
        everyone = self.viewers(core)
        seated: list[tuple[Viewer, Viewing]] = []
        groups: dict[Prefs, list[tuple[Viewer, Viewing]]] = {}
        watchers: dict[str, tuple[Viewer, Viewing]] = {}
        for pair in everyone:
            viewer = pair[0]
            if viewer.seated:
                seated.append(pair)
            else:
                groups.setdefault(viewer.prefs, []).append(pair)
                watchers[name_key(viewer.key)] = pair
        return Audience(everyone, seated, list(groups.values()), watchers)

    # --- text --------------------------------------------------------------------
    def tell(self, session: Viewing, *lines: str) -> None:
        """Lines for one person, sent with the rest of this input's output."""
        entry = self._outbox.get(id(session))
        if entry is None:
            self._outbox[id(session)] = (session, list(lines))
        else:
            entry[1].extend(lines)

    def tell_player(self, player: str, *lines: str) -> None:
        session = self.session_of(player)
        if session is not None:
            self.tell(session, *lines)

    def tell_table(self, core: TableCore, text: str) -> None:
        for _, session in self.viewers(core):
            self.tell(session, text)

    def show(self, core: TableCore, event: Event, audience: Audience) -> None:
        """One fact to everyone who sees it, rendered as few times as the rule allows."""
        if isinstance(event, Note) and event.to is not None:
            # Addressed lines reach their players seated or not (a refused `play`).
            for player in event.to:
                self.tell_player(player, event.text)
            return
        for pair in audience.seated:
            self._render(core, event, pair[0], [pair])
        if audience.watchers:
            named = {key for key in map(name_key, names_in(event)) if key in audience.watchers}
            for group in audience.groups:
                rest = [p for p in group if name_key(p[0].key) not in named] if named else group
                if rest:
                    self._render(core, event, rest[0][0], rest)
            for key in named:
                pair = audience.watchers[key]
                self._render(core, event, pair[0], [pair])
        self._gmcp_facts(core, event, audience.everyone)

    def _render(self, core: TableCore, event: Event, viewer: Viewer,
                told: list[tuple[Viewer, Viewing]]) -> None:
        """`event` as `viewer` sees it, told to each of `told` (who see it the same)."""
        lines = core.dealer.render(event, viewer)
        if lines:
            for _, session in told:
                self.tell(session, *lines)

    # --- data for client scripts (GMCP, docs/gmcp.md) ----------------------------
    def _gmcp_facts(self, core: TableCore, event: Event, viewers: list[tuple[Viewer, Viewing]]) -> None:
        for package, payload, to in core.dealer.event_data(event):
            sessions = ([self.session_of(p) for p in to] if to is not None else [s for _, s in viewers])
            data = {"table": self.table, **payload}      # one dict for all: it is only read
            for session in sessions:
                if session is not None and mud.wants(session, package):
                    self._data.append((session, package, data))

    def _table_state(self, core: TableCore, state: Callable[[], dict[str, object]]) -> None:
        made: dict[str, object] | None = None
        for _, session in self.viewers(core):
            channel = mud.gmcp_of(session)
            if channel is None or not channel.wants("Casino.Table"):
                continue
            made = made or state()
            if channel.last_table != made:
                channel.last_table = made
                self._data.append((session, "Casino.Table", made))

    async def status_updates(self, touched: set[str]) -> None:
        """Char.Status for each player whose chips moved."""
        for player in touched:
            session = self.session_of(player)
            if session is not None and mud.wants(session, "Char.Status"):
                self._data.append((session, "Char.Status", await self.status(session)))

    def deliver(self, core: TableCore, state: Callable[[], dict[str, object]]) -> None:
        """This input is done: each person gets its lines as one block, then
        (for clients that agreed to GMCP) the facts as data and the table's
        state if it changed."""
        outbox, self._outbox = self._outbox, {}
        for session, lines in outbox.values():
            session.tell(*lines)
        self._table_state(core, state)
        data, self._data = self._data, []
        for session, package, payload in data:
            session.after_text(functools.partial(mud.send, session, package, payload))
