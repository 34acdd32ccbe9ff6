"""A walk into a room another shard hosts: the session moves there, it does not log in again.

The source shard (this process) decides and lets go; the portal moves the
connection; the target shard takes it in (server/portal, "move"). Here, the
source's half: a player seated at a table here, or with chips still held at
one, may not walk away from it into another shard (the table and its ledger
stay here; the wallet moves with the player): they are told why and stay.
Otherwise the room they leave hears them go, as any walk, they leave every
table they watch, this process forgets them (the one thing it does not do
is what a disconnect does: no "leaves the casino", no table's rule for a
dropped player), and `session.moving` tells the link what to do with the
connection and the lines typed after the walk. The target claims the wallet
before the player's first line there, which fences this shard off it
(docs/ledger.md, "Shards"); the player reads the new room, and that room
sees them arrive.
"""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from server.net.session import LoggedIn, Moving

if TYPE_CHECKING:
    from server.casino.hosting import Hosting
    from server.casino.sessions import Sessions
    from server.casino.tables import Tables
    from server.ledger import Ledger
    from server.tables.table import Table
    from server.world.rooms import World
    from server.world.roster import Online


class HandoffApp(Protocol):
    @property
    def hosting(self) -> Hosting: ...
    @property
    def world(self) -> World: ...
    @property
    def online(self) -> Online: ...
    @property
    def tables(self) -> Tables: ...
    @property
    def sessions(self) -> Sessions: ...
    @property
    def ledger(self) -> Ledger: ...

    def seat_of(self, key: str) -> Table | None: ...
    def announce(self, room: str, text: str, exclude: LoggedIn | None = None) -> None: ...


def refusal(app: HandoffApp, session: LoggedIn, held: dict[str, int]) -> str | None:
    """Why this player may not walk into another shard now, or None."""
    seated = app.seat_of(session.key)
    if seated is not None:
        return (f"You are seated at {_place(app, seated.id)}, and a seat cannot follow you that far:"
                " 'leave' the table first, then walk on.")
    if held:
        table = next(iter(held))
        return f"You still have chips in play at {_place(app, table)}; wait for them to settle, then walk on."
    return None


def _place(app: HandoffApp, table_id: str) -> str:
    room = next((r for r in app.world.rooms.values() if table_id in r.tables), None)
    return f"{table_id} in {room.name}" if room is not None else table_id


async def hand_off(app: HandoffApp, session: LoggedIn, target: str, way: str) -> bool:
    """Walk `session` `way` into `target`, a room another shard hosts (False, told
    why, when it may not go)."""
    balance = await app.ledger.balance(session.key)
    why = refusal(app, session, balance.held)
    if why is not None:
        session.tell(why)
        return False
    here = session.room
    if here is not None:
        app.announce(here, f"{session.name} leaves {way}.", exclude=session)
    app.world.remove(session)
    if app.online.get(session.key) is session:
        del app.online[session.key]
    await app.tables.gone(session)             # watching: no longer (a seat was refused above)
    app.sessions.forget(session)
    session.moving = Moving(app.hosting.where[target], target, way)
    return True
