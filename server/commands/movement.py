"""Walking between rooms: the direction words, their short forms, and `go`."""
from __future__ import annotations

from server.commands.registry import REGISTRY
from server.commands.general import describe_room
from server.commands.registry import Context, Handler
from server.world.rooms import DIRECTIONS, arrival_from, direction


async def move(ctx: Context, word: str) -> None:
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
    app.announce(here, f"{session.name} leaves {way}.", exclude=session)
    app.world.place(session, target)
    app.announce(target, f"{session.name} arrives from {arrival_from(way)}.", exclude=session)
    session.tell(*describe_room(app, session))


def _walker(way: str) -> Handler:
    async def walk(ctx: Context) -> None:
        await move(ctx, way)
    return walk


for _way, _short in DIRECTIONS.items():
    REGISTRY.command(_way, aliases=(_short,) if _short else (), topic="movement",
                     help=f"{_way}{' (' + _short + ')' if _short else ''} - walk {_way}, "
                          "if the room has that exit.")(_walker(_way))


@REGISTRY.command("go", topic="movement", help="""go <exit> - walk through an exit, e.g. 'go west'.""")
async def go(ctx: Context) -> None:
    if not ctx.argv:
        if ctx.session.room is None:
            return                      # gone from the world: nowhere to go from
        ctx.tell("Go where? " + (lambda r: f"Exits: {', '.join(r.exits) or 'none'}")(
            ctx.app.world.rooms[ctx.session.room]))
        return
    await move(ctx, ctx.argv[0])
