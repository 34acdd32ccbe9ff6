"""Walking between rooms: the direction words, their short forms, and `go`."""
from __future__ import annotations

from typing import TYPE_CHECKING, Protocol

from server.commands.general import RoomApp, describe_room
from server.commands.registry import REGISTRY, Context, Handler
from server.net.session import LoggedIn, Session, logged_in
from server.world.rooms import DIRECTIONS, arrival_from, direction

if TYPE_CHECKING:
    from server.casino.hosting import Hosting


class MovementApp(RoomApp, Protocol):
    """What walking uses of the casino: the rooms and their exits, the rooms
    an operator closed, the arrival and departure told to each room, and
    what describing the room arrived in reads (RoomApp)."""

    @property
    def closed_rooms(self) -> set[str]: ...
    @property
    def hosting(self) -> Hosting: ...

    async def hand_off(self, session: LoggedIn, room: str, way: str) -> bool: ...

    def announce(self, room: str, text: str, exclude: Session | None = None) -> None: ...


Ctx = Context[MovementApp]


async def move(ctx: Ctx, word: str) -> None:
    app, session = ctx.app, ctx.session
    way = direction(word) or word.lower()
    if session.room is None:
        return                          # gone from the world: nowhere to walk from
    here = session.room
    room = app.world.rooms[here]
    target = room.exits.get(way)
    if target is None:
        exits = ", ".join(room.exits) or "none"
        session.tell(f"You can't go {word} from here. Exits: {exits}")
        return
    if target in app.closed_rooms:
        session.tell("That room has been closed by the management.")
        return
    if not app.hosting.hosts(target):   # another shard's: the session moves there
        if logged_in(session):
            await app.hand_off(session, target, way)
        return
    app.announce(here, f"{session.name} leaves {way}.", exclude=session)
    app.world.place(session, target)
    app.announce(target, f"{session.name} arrives from {arrival_from(way)}.", exclude=session)
    session.tell(*describe_room(app, session))


def _walker(way: str) -> Handler:
    async def walk(ctx: Ctx) -> None:
        await move(ctx, way)
    return walk


for _way, _short in DIRECTIONS.items():
    REGISTRY.command(_way, aliases=(_short,) if _short else (), topic="movement",
                     help=f"{_way}{' (' + _short + ')' if _short else ''} - walk {_way}, "
                          "if the room has that exit.")(_walker(_way))


@REGISTRY.command("go", topic="movement", help="""go <exit> - walk through an exit, e.g. 'go west'.""")
async def go(ctx: Ctx) -> None:
    if not ctx.argv:
        if ctx.session.room is None:
            return                      # gone from the world: nowhere to go from
        ctx.tell("Go where? " + (lambda r: f"Exits: {', '.join(r.exits) or 'none'}")(
            ctx.app.world.rooms[ctx.session.room]))
        return
    await move(ctx, ctx.argv[0])
