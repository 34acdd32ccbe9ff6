"""`casino restart`: restart the game process with the code now on disk; nobody is disconnected.

It signals the portal of a running `casino serve` (SIGUSR1, found by its pid
file: `--pid-file`, else where `casino serve` puts it for the same database);
the portal asks the game process to restart, as an operator's `restart` does.
Not while the config or rooms are broken: the ones the running casino was
started with (its command line, unless --config and --rooms name them) are
checked first, as `reload` and `casino serve` check them, and each error is
printed (file:line).
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path


def register(sub: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from server.cli._database import add_options as add_database_options
    p = sub.add_parser("restart", help="restart a running casino's game process; everyone stays connected")
    p.add_argument("--pid-file", default=None,
                   help="the pid file `casino serve` wrote (default: where it writes it for the database)")
    p.add_argument("--config", default=None,
                   help="the casino's config directory, checked first (default: the one it was started with)")
    p.add_argument("--rooms", default=None,
                   help="the casino's rooms directory, checked first (default: the one it was started with)")
    add_database_options(p)
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    here = (Path(args.config or "config"), Path(args.rooms or "rooms"))
    if args.pid_file is None and not _config_ok(*here):     # it names the pid file's place
        return 1
    path = Path(args.pid_file) if args.pid_file else _default(args)
    if path is None:
        return 1
    try:
        pid = int(path.read_text().strip())
    except FileNotFoundError:
        print(f"casino restart: no casino is running here ({path} is missing)", file=sys.stderr)
        return 1
    except (ValueError, OSError):
        print(f"casino restart: {path} holds no pid", file=sys.stderr)
        return 1
    if not _is_casino(pid):
        print(f"casino restart: the casino of {path} (pid {pid}) is not running", file=sys.stderr)
        return 1
    if not _config_ok(*_started_with(pid, args, here)):
        return 1
    try:
        os.kill(pid, signal.SIGUSR1)
    except ProcessLookupError:
        print(f"casino restart: the casino of {path} (pid {pid}) is not running", file=sys.stderr)
        return 1
    except PermissionError:
        print(f"casino restart: not allowed to signal the casino (pid {pid})", file=sys.stderr)
        return 1
    print(f"Restart requested (casino pid {pid}): every player stays connected.")
    return 0


def _config_ok(config: Path, rooms: Path) -> bool:
    """The files a new game process will read: broken, and it would not start."""
    from server.config.load import ConfigInvalid, load_config
    try:
        load_config(config, rooms)
    except ConfigInvalid as e:
        print(f"casino restart: refused, nothing changed: {config} or {rooms} has "
              f"{len(e.errors)} error{'s' if len(e.errors) != 1 else ''}; fix and run it again:",
              file=sys.stderr)
        for error in e.errors:
            print(error, file=sys.stderr)
        return False
    return True


def _default(args: argparse.Namespace) -> Path | None:
    from server.cli._database import chosen, refuse
    from server.cli.serve import pid_default
    from server.config.load import load_settings
    from server.db.url import DatabaseError
    try:
        config = Path(args.config or "config")
        configured = load_settings(config).database if config.is_dir() else None
        database = chosen(args, configured or "sqlite:///data/casino.db")
    except DatabaseError as e:
        print(refuse("casino restart", None, e), file=sys.stderr)
        return None
    except Exception as e:  # noqa: BLE001 - a config that does not load: say which, one line
        print(f"casino restart: cannot read {args.config or 'config'}: {str(e).splitlines()[0] if str(e) else e!r}",
              file=sys.stderr)
        return None
    return pid_default(database)


def _started_with(pid: int, args: argparse.Namespace, here: tuple[Path, Path]) -> tuple[Path, Path]:
    """The config and rooms directories the casino `pid` reads: named here, else those of its
    command line (`--config`, `--rooms`, or their defaults) in its working directory, where
    /proc tells; else `here`."""
    try:
        words = [w.decode() for w in Path(f"/proc/{pid}/cmdline").read_bytes().split(b"\0")]
        cwd = Path(os.readlink(f"/proc/{pid}/cwd"))
    except (OSError, UnicodeDecodeError):
        return here

    def option(name: str, given: str | None, default: str) -> Path:
        if given is not None:
            return Path(given)
        value = default
        for i, word in enumerate(words[:-1]):   # the last one given counts, as for argparse
            if word == name:
                value = words[i + 1]
            elif word.startswith(name + "="):
                value = word[len(name) + 1:]
        return cwd / value          # an absolute value stays as it is

    return option("--config", args.config, "config"), option("--rooms", args.rooms, "rooms")


def _is_casino(pid: int) -> bool:
    """Is `pid` a running `casino serve`? A pid file left by a killed casino may name a
    process that reused the number; where /proc tells, it must be ours."""
    cmdline = Path(f"/proc/{pid}/cmdline")
    try:
        words = cmdline.read_bytes().split(b"\0")
    except FileNotFoundError:
        return not Path("/proc/self").exists() and _alive(pid)
    except OSError:
        return _alive(pid)
    # `casino serve`, `python -m server [serve]` or `python -m server.cli serve`, and the
    # portal that replaced it: `python -m server.portal` and what it was given
    return any(w in (b"serve", b"server", b"server.portal") or w.endswith(b"/casino") for w in words)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    except PermissionError:
        return True
    return True
