"""The portal's own program (`python -m server.portal`): what `casino serve` decided
(server/cli/serve.py, in CASINO_PORTAL as JSON: its settings too), then the game process, the
listeners and the pid file, until a signal or the game process stops for good."""
from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path
from typing import TypedDict

from server import logs

PORTAL_ENV = "CASINO_PORTAL"


class Plan(TypedDict):
    """What `casino serve` passes: its options as read, the settings' defaults applied."""

    config: str
    rooms: str
    host: str
    port: int
    web_port: int | None
    pid_file: str
    games: dict[str, list[str]]      # each shard's game process command line (server.portal.portal.games)
    door: str                        # the shard where a new connection starts (the start room's)
    log_json: bool
    seed: int | None
    settings: dict[str, object]      # the `server:` settings as read (plain_settings)


def plan_env(plan: Plan) -> dict[str, str]:
    return {PORTAL_ENV: json.dumps(plan)}


def main() -> int:
    try:
        plan: Plan = json.loads(os.environ.pop(PORTAL_ENV))
    except (KeyError, ValueError):
        print("python -m server.portal: run by `casino serve` (no CASINO_PORTAL)", file=sys.stderr)
        return 2
    logs.configure(as_json=plan["log_json"])
    return asyncio.run(_serve(plan))


async def _serve(plan: Plan) -> int:
    from server.casino.listeners import CannotListen
    from server.config.model import CasinoConfig, settings_from_plain
    from server.portal.portal import Portal, install_signals
    # the settings alone, as `casino serve` read them (no YAML here): the game process
    # reads the whole config, and tells the portal its settings after each reload
    config = CasinoConfig(settings=settings_from_plain(plan["settings"]), tables={}, rooms={})
    portal = Portal(config, plan["games"], plan["door"], (Path(plan["config"]), Path(plan["rooms"])))
    if not await portal.start_games():
        if portal.last_good is not None:
            portal.last_good.remove()
        return 1
    try:
        await portal.listen(plan["host"], plan["port"], plan["web_port"])
    except CannotListen as e:
        await portal.stop()
        print(e, file=sys.stderr, flush=True)
        return 1
    pid_file = Path(plan["pid_file"])
    made_dir = not pid_file.parent.exists()      # removed again at exit: nothing left behind
    try:
        pid_file.parent.mkdir(parents=True, exist_ok=True)
        pid_file.write_text(f"{os.getpid()}\n")
    except OSError as e:
        print(f"casino serve: cannot write the pid file {pid_file} ({e.strerror}); "
              "`casino restart` will not find this casino", file=sys.stderr)
    if not plan["log_json"]:
        print(f"Listening: {portal.addresses}", file=sys.stderr, flush=True)
    if plan["seed"] is not None:
        print(f"Deterministic dice: every table's dice derive from --seed {plan['seed']}.", file=sys.stderr)
    install_signals(portal)
    await portal.stop_requested.wait()
    await portal.stop()
    try:
        if pid_file.read_text().strip() == str(os.getpid()):
            pid_file.unlink()
        if made_dir:
            pid_file.parent.rmdir()              # only if empty (a database there stays)
    except OSError:
        pass
    return portal.exit_code
