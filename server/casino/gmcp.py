"""What GMCP clients are told of the casino itself: a player's chips
(Char.Status) and the room they arrive in (Room.Info)."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from server.config.model import CasinoConfig
from server.tables.delivery import Viewing
from server.world.rooms import Occupant, World

if TYPE_CHECKING:
    from server.ledger import Ledger


async def status(ledger: Ledger, session: Viewing) -> dict[str, object]:
    """A player's chips as data (GMCP Char.Status): wallet and what each table holds."""
    bal = await ledger.balance(session.key)
    return {"name": session.name, "wallet": bal.wallet, "held": sum(bal.held.values()),
            "held_at": dict(bal.held)}


class Place(Protocol):
    """What describing a room as data reads of the casino."""

    @property
    def config(self) -> CasinoConfig: ...
    @property
    def world(self) -> World: ...


def room_info(casino: Place, session: Occupant, room_id: str) -> None:
    """GMCP Room.Info on arrival (World.on_enter): the room as data, its tables by game."""
    from server.games.catalogue import entry_for
    from server.net import mud
    room = casino.world.rooms.get(room_id)
    if room is None or not mud.wants(session, "Room.Info"):
        return
    tables = casino.config.tables
    mud.send(session, "Room.Info", {"id": room.id, "name": room.name, "exits": dict(room.exits),
                                    "tables": [{"id": t, "game": entry_for(tables[t]).key,
                                                "word": entry_for(tables[t]).word}
                                               for t in room.tables if t in tables]})
