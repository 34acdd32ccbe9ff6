"""Apply a re-read configuration to the running casino (`reload`, SIGHUP).

Everything is validated first: any error and nothing changes. A valid change
is applied at once where that is safe - new rooms and tables appear, room text
and exits change, settings such as limits and starting chips apply to what
happens next - and otherwise when the affected table is idle: a changed table
takes its new settings once no stake is live (bank and simplified craps take
new limits for new wagers at once), a removed table takes no new bets and
closes, refunding what is left, once its live bets are decided.
"""
from __future__ import annotations

import asyncio
import dataclasses
import logging
from pathlib import Path
from typing import Iterable, Mapping, Protocol

from server import logs
from server.casino.settings import Configured, apply_settings, keep_restart_only
from server.config.model import CasinoConfig, GameOptions, TableConfig
from server.world.roster import Online
from server.world.rooms import World

log = logging.getLogger("casino.reload")


def _same_table(a: TableConfig[GameOptions], b: TableConfig[GameOptions]) -> bool:
    """The same table but for where it was read from."""
    return dataclasses.replace(a, source=None) == dataclasses.replace(b, source=None)


class LiveTable(Protocol):
    """What a reload does to a running table (server.tables.table.Table)."""

    @property
    def config(self) -> TableConfig[GameOptions]: ...
    async def retire(self) -> None: ...
    async def reconfigure(self, config: TableConfig[GameOptions]) -> str: ...


class Reloadable(Configured, Protocol):
    """What a reload reads and changes of the running casino (server.app.Casino):
    what its settings reach (Configured), and its rooms and tables."""

    config: CasinoConfig                 # replaced by the re-read one (restart-only settings kept)

    @property
    def config_dir(self) -> Path: ...

    @property
    def rooms_dir(self) -> Path: ...

    @property
    def world(self) -> World: ...

    @property
    def closed_rooms(self) -> set[str]: ...

    @property
    def online(self) -> Online: ...

    @property
    def tables(self) -> Mapping[str, LiveTable]: ...   # table id -> its running table

    async def refuse_squatted_operators(self, names: Iterable[str]) -> list[str]: ...

    def open_tables(self) -> list[str]: ...


async def reload(app: Reloadable) -> tuple[bool, list[str]]:
    """Re-read config/ and rooms/; returns (applied, lines for the operator)."""
    from server.config import load
    try:
        # Read and checked in a worker thread: the event loop keeps serving
        # players while YAML is parsed (refused files are bounded: yamlsrc).
        new = await asyncio.to_thread(load.load_config, app.config_dir, app.rooms_dir)
    except load.ConfigInvalid as err:
        lines = [str(e) for e in err.errors]
        logs.event(log, "reload_refused", errors=len(lines))
        return False, lines

    old = app.config
    report: list[str] = []
    settings, changed_restart = keep_restart_only(old.settings, new.settings)
    if changed_restart:
        report.append("Needs a restart to take effect: " + ", ".join(changed_restart) + ".")
    app.config = dataclasses.replace(new, settings=settings)
    apply_settings(app)
    # A name newly listed whose account a player made gets no rights (Casino.is_operator): say so.
    report += await app.refuse_squatted_operators(set(settings.operators) - set(old.settings.operators))

    # Rooms: replace; anyone standing in a room that is gone goes to the start room.
    app.world.replace_rooms(new.rooms)
    app.closed_rooms.clear()
    for session in list(app.online.values()):
        if session.room not in new.rooms:
            app.world.place(session, settings.start_room)
            session.tell("The room you were in is gone; you find yourself back at the start.")
    added = sorted(set(new.rooms) - set(old.rooms))
    removed = sorted(set(old.rooms) - set(new.rooms))
    if added:
        report.append("Rooms added: " + ", ".join(added) + ".")
    if removed:
        report.append("Rooms removed: " + ", ".join(removed) + ".")

    # Tables.
    for table_id in sorted(set(app.tables) - set(new.tables)):
        await app.tables[table_id].retire()
        report.append(f"Table {table_id} removed: it closes after its current hand.")
    for table_id in sorted(set(app.tables) & set(new.tables)):
        if not _same_table(app.tables[table_id].config, new.tables[table_id]):
            how = await app.tables[table_id].reconfigure(new.tables[table_id])
            report.append(f"Table {table_id} changed: {how}.")
    opened = app.open_tables()
    if opened:
        report.append("Tables opened: " + ", ".join(opened) + ".")
    if not report:
        report.append("Nothing changed.")
    logs.event(log, "reload", changes=len(report))
    return True, ["Reloaded config and rooms."] + report
