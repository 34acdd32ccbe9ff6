"""The portal's own program (`python -m server.portal`): what `casino serve` decided
(server/cli/serve.py, in CASINO_PORTAL as JSON: its settings too), then the game process, the
listeners and the pid file, until a signal or the game process stops for good.

With `server.portals` above one the same program is the supervisor (every game
process, then the portals: server/portal/supervisor.py), and each portal it starts
runs it again with `dial` in its plan: the game processes' sockets."""
from __future__ import annotations

import asyncio
import contextlib
import json
import os
import shutil
import signal
import sys
import tempfile
from collections.abc import AsyncIterator, Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, NotRequired, TypedDict

from server import logs

if TYPE_CHECKING:
    from server.config.model import CasinoConfig
    from server.metrics.export import Exporter
    from server.portal.broker import LocalBroker
    from server.portal.portal import Portal

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
    portals: NotRequired[int]        # server.portals: above one, this process supervises them
    dial: NotRequired[dict[str, str]]   # a portal the supervisor started: each shard's socket


def plan_env(plan: Plan) -> dict[str, str]:
    return {PORTAL_ENV: json.dumps(plan)}


def main() -> int:
    try:
        plan: Plan = json.loads(os.environ.pop(PORTAL_ENV))
    except (KeyError, ValueError):
        print("python -m server.portal: run by `casino serve` (no CASINO_PORTAL)", file=sys.stderr)
        return 2
    logs.configure(as_json=plan["log_json"])
    if "dial" in plan:
        return asyncio.run(_dial(plan))
    if plan.get("portals", 1) > 1:
        return asyncio.run(_supervise(plan))
    return asyncio.run(_serve(plan))


def _settings_only(plan: Plan) -> object:
    from server.config.model import CasinoConfig, settings_from_plain
    # the settings alone, as `casino serve` read them (no YAML here): the game process
    # reads the whole config, and tells the portal its settings after each reload
    return CasinoConfig(settings=settings_from_plain(plan["settings"]), tables={}, rooms={})


async def _serve(plan: Plan) -> int:
    """One portal: the parent of every game process, and every connection."""
    from server.config.model import CasinoConfig
    from server.portal.portal import Portal, install_signals
    config = _settings_only(plan)
    assert isinstance(config, CasinoConfig)
    portal = Portal(config, plan["games"], plan["door"], (Path(plan["config"]), Path(plan["rooms"])))
    broker = await _broker(config)
    exporter = await _metrics(portal, config)
    try:
        if not await _games_started(portal):
            return 1
        if not await _listening(portal, plan):
            return 1
        with _serving(plan, portal.addresses):
            install_signals(portal)
            await portal.stop_requested.wait()
            await portal.stop()
        return portal.exit_code
    finally:
        if exporter is not None:
            await exporter.close()
        await broker.stop()


async def _metrics(portal: Portal, config: CasinoConfig, what: str = "portal",
                   port: Callable[[int], int] | None = None, **told: object) -> Exporter | None:
    """The portal's /metrics, when `server.metrics` (or --metrics) is set: on its port,
    or `port(its port)`; `what` and `told` say which process it is in the log.
    The library loads ssl (prometheus_client.exposition imports it), which
    server/portal/__main__.py keeps out of a portal that serves no metrics."""
    metrics = config.settings.metrics
    if metrics is None:
        return None
    if sys.modules.get("ssl", False) is None:
        del sys.modules["ssl"]          # a portal that serves metrics pays OpenSSL's 4 MiB
    from server.metrics.live import PortalLive
    from server.metrics.serving import serve_metrics
    return await serve_metrics(lambda: PortalLive(portal), metrics.host,
                               metrics.port if port is None else port(metrics.port), what, **told)


async def _games_started(portal: Portal) -> bool:
    """Every shard's game process started (False: one could not, and nothing is left behind)."""
    if await portal.start_games():
        return True
    if portal.last_good is not None:
        portal.last_good.remove()
    return False


async def _broker(config: CasinoConfig) -> LocalBroker:
    """The shards' broker, started here if it is to run on this machine and does not."""
    from server.config.shards import sharded
    from server.portal.broker import LocalBroker
    if not sharded(config.settings) or not config.settings.bus:
        return LocalBroker()
    return await LocalBroker.start(config.settings.bus)


async def _supervise(plan: Plan) -> int:
    """Every game process, as one portal starts them, then `portals` portals that
    dial them, on ports held here (server/portal/supervisor.py)."""
    from server.casino.listeners import CannotListen
    from server.config.model import CasinoConfig
    from server.portal import accept
    from server.portal.portal import Portal, install_signals
    from server.portal.supervisor import Portals
    config = _settings_only(plan)
    assert isinstance(config, CasinoConfig)
    host = plan["host"]
    held = []                            # the ports, bound (not listening) while the casino runs
    try:
        held += accept.bound(host, plan["port"], reuse_port=True)
        port = held[0].getsockname()[1]
        web_port = plan["web_port"]
        if web_port is not None:
            try:
                held += accept.bound(host, web_port, reuse_port=True)
            except OSError as e:
                raise CannotListen(host, web_port, "--web-port", e) from e
            web_port = held[-1].getsockname()[1]
    except CannotListen as e:
        print(e, file=sys.stderr, flush=True)
        return 1
    except OSError as e:
        for sock in held:
            sock.close()
        print(CannotListen(host, plan["port"], "--port", e), file=sys.stderr, flush=True)
        return 1
    run_dir = Path(tempfile.mkdtemp(prefix="casino-"))       # 0700: only this user dials
    links = {name: str(run_dir / f"{i}.sock") for i, name in enumerate(plan["games"])}
    games = {name: [*argv, "--links", links[name]] for name, argv in plan["games"].items()}
    portal = Portal(config, games, plan["door"], (Path(plan["config"]), Path(plan["rooms"])))
    portal.listeners.told(port, web_port or 0)                # the ports each hello tells
    portals: Portals | None = None
    broker = await _broker(config)
    exporter = await _metrics(portal, config, "supervisor")    # its game processes, their restarts
    try:
        if not await _games_started(portal):
            return 1
        child: Plan = {**plan, "port": port, "web_port": web_port, "dial": links}
        portals = Portals({"CASINO_PORTAL": json.dumps(child)}, plan.get("portals", 1))
        if not await portals.start():
            portal.request_stop("The casino could not start.")
            portals.stopping()
            await portal.stop()
            await portals.stop()
            return 1
        with _serving(plan, f"{portal.addresses} ({portals.count} portals)"):
            install_signals(portal)
            await portal.stop_requested.wait()
            portals.stopping()
            await portal.stop()
            await portals.stop()
        return portal.exit_code
    finally:
        if exporter is not None:
            await exporter.close()
        await broker.stop()
        for sock in held:
            sock.close()
        shutil.rmtree(run_dir, ignore_errors=True)


async def _dial(plan: Plan) -> int:
    """A portal the supervisor started: it dials every game process, then listens
    on the port it shares with the others, until the casino stops (or SIGTERM)."""
    from server.config.model import CasinoConfig
    from server.metrics.serving import portal_port
    from server.portal.portal import Portal
    from server.portal.supervisor import follow_lifeline, portal_index, tell_ready
    config = _settings_only(plan)
    assert isinstance(config, CasinoConfig)
    portal = Portal(config, {}, plan["door"], dial=plan["dial"])
    loop = asyncio.get_running_loop()
    # a terminal's Ctrl-C and hang-up reach the whole group: the supervisor stops the
    # casino (the game processes' goodbye then stops this portal); SIGTERM alone stops it
    for sig in (signal.SIGINT, signal.SIGHUP, signal.SIGUSR1):
        loop.add_signal_handler(sig, lambda: None)
    loop.add_signal_handler(signal.SIGTERM, portal.request_stop, "The casino is closing for the night.")
    follow_lifeline(lambda: portal.request_stop("The casino is closing."))
    # one of several: its /metrics on the port after the game processes' (docs/operating.md,
    # "Metrics"), first, as one portal's is: ssl back before anything imports urllib.request
    index = portal_index()
    async with _metrics_served(portal, config, "portal",
                               lambda port: portal_port(port, len(plan["dial"]), index), index=index):
        # told to stop while it still dials (a portal started just before the casino
        # stops): it stops, rather than dial game processes that are going for good
        starting = asyncio.ensure_future(portal.start_games())
        stopping = asyncio.ensure_future(portal.stop_requested.wait())
        await asyncio.wait({starting, stopping}, return_when=asyncio.FIRST_COMPLETED)
        if not starting.done():
            starting.cancel()
            return 0
        stopping.cancel()
        if not starting.result() or not await _listening(portal, plan):
            return 1
        tell_ready()
        await portal.stop_requested.wait()
        await portal.stop()
        return portal.exit_code


@contextlib.asynccontextmanager
async def _metrics_served(portal: Portal, config: CasinoConfig, what: str, port: Callable[[int], int],
                          **told: object) -> AsyncIterator[None]:
    """_metrics while the block runs (nothing when `server.metrics` is not set)."""
    exporter = await _metrics(portal, config, what, port, **told)
    try:
        yield
    finally:
        if exporter is not None:
            await exporter.close()


async def _listening(portal: Portal, plan: Plan) -> bool:
    """The portal's edges open on the plan's ports; False (said, stopped) if one cannot be had."""
    from server.casino.listeners import CannotListen
    try:
        await portal.listen(plan["host"], plan["port"], plan["web_port"])
    except CannotListen as e:
        await portal.stop()
        print(e, file=sys.stderr, flush=True)
        return False
    return True


@contextlib.contextmanager
def _serving(plan: Plan, addresses: str) -> Iterator[None]:
    """The pid file while the casino serves (`casino restart` reads it), and the
    operator's "Listening:" line once it is written."""
    pid_file = Path(plan["pid_file"])
    made_dir = not pid_file.parent.exists()      # removed again at exit: nothing left behind
    try:
        pid_file.parent.mkdir(parents=True, exist_ok=True)
        pid_file.write_text(f"{os.getpid()}\n")
    except OSError as e:
        print(f"casino serve: cannot write the pid file {pid_file} ({e.strerror}); "
              "`casino restart` will not find this casino", file=sys.stderr)
    if not plan["log_json"]:
        print(f"Listening: {addresses}", file=sys.stderr, flush=True)
    if plan["seed"] is not None and not plan["log_json"]:   # JSON logs: the seed is in game_ready's
        print(f"Deterministic dice: every table's dice derive from --seed {plan['seed']}.", file=sys.stderr)
    try:
        yield
    finally:
        try:
            if pid_file.read_text().strip() == str(os.getpid()):
                pid_file.unlink()
            if made_dir:
                pid_file.parent.rmdir()              # only if empty (a database there stays)
        except OSError:
            pass
