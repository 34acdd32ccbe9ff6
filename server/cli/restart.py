"""`casino restart`: restart the game process with the code now on disk; nobody is disconnected.

It signals the portal of a running `casino serve` (SIGUSR1, found by its pid
file); the portal asks the game process to restart, as an operator's
`restart` does.
"""
from __future__ import annotations

import argparse
import os
import signal
import sys
from pathlib import Path

from server.cli.serve import PID_FILE


def register(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser("restart", help="restart a running casino's game process; everyone stays connected")
    p.add_argument("--pid-file", default=PID_FILE,
                   help=f"the pid file `casino serve` wrote (default {PID_FILE})")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    path = Path(args.pid_file)
    try:
        pid = int(path.read_text().strip())
        os.kill(pid, signal.SIGUSR1)
    except FileNotFoundError:
        print(f"casino restart: no casino is running here ({path} is missing)", file=sys.stderr)
        return 1
    except ValueError:
        print(f"casino restart: {path} holds no pid", file=sys.stderr)
        return 1
    except ProcessLookupError:
        print(f"casino restart: the casino of {path} (pid {pid}) is not running", file=sys.stderr)
        return 1
    except PermissionError:
        print(f"casino restart: not allowed to signal the casino (pid {pid})", file=sys.stderr)
        return 1
    print(f"Restart requested (casino pid {pid}): every player stays connected.")
    return 0
