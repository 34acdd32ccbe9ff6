"""`casino ledger check` and `casino ledger copy`: the chip ledger from the server's machine.

`check [--database URL | --data FILE] [--json]` verifies the invariants. It
works on a live database (a consistent read snapshot; open holds are legal
there and only counted) or a stopped one. Exit 0 when every invariant holds,
1 naming each broken invariant, 2 when there is nothing to check (no ledger
there, a bad URL, a database that cannot be reached): a script can tell a
broken ledger from a missing one.

`copy --from URL --to URL` moves a stopped casino to an empty database
(server/ledger/copy.py says what it refuses and why). Exit 0 when copied and
proven, 1 when refused; the target is then unchanged.
"""
from __future__ import annotations

import argparse
import json
import sys
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server.ledger.check import CheckReport


def register(subparsers: argparse._SubParsersAction[argparse.ArgumentParser]) -> None:
    from server.cli._database import add_options
    parser = subparsers.add_parser("ledger", help="inspect or move the chip ledger")
    sub = parser.add_subparsers(dest="ledger_command", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="verify every ledger invariant (exit 1 if one is broken)")
    add_options(check)
    check.add_argument("--config", default=None, metavar="DIR",
                       help="config directory whose server.database is checked when neither --database"
                            " nor --data is given (default ./config when it exists, else sqlite:///data/casino.db)")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.set_defaults(func=run_check)
    copy = sub.add_parser("copy", help="copy a stopped casino (ledger, notices, accounts) into an empty"
                                       " database, e.g. from SQLite to PostgreSQL, checking both sides")
    copy.add_argument("--from", dest="source", required=True, metavar="URL",
                      help="the casino to copy (stopped): sqlite:///path/to/file.db or postgresql://...")
    copy.add_argument("--to", dest="target", required=True, metavar="URL",
                      help="an empty database (an SQLite file is created): sqlite:///... or postgresql://...")
    copy.set_defaults(func=run_copy)


def _configured(args: argparse.Namespace) -> str | None:
    """The config's `server.database`, or None after printing why the config cannot be read."""
    from server.config.load import ConfigInvalid, load_settings
    from server.config.model import Settings
    if args.config is None and not Path("config").is_dir():
        return Settings().database
    try:
        return load_settings(Path(args.config or "config")).database
    except ConfigInvalid as exc:
        for error in exc.errors:
            print(error, file=sys.stderr)
        return None


def run_check(args: argparse.Namespace) -> int:
    from server.cli._database import chosen, open_errors, refuse
    from server.db.url import DatabaseError
    from server.ledger.check import check

    configured = _configured(args) if args.database is None and args.data is None else ""
    if configured is None:
        return 2
    db = None
    try:
        db = chosen(args, configured)
        report = check(db)
    except FileNotFoundError as exc:
        print(f"ledger check: {exc}", file=sys.stderr)
        return 2
    except DatabaseError as exc:
        print(refuse("ledger check", None, exc), file=sys.stderr)
        return 2
    except open_errors() as exc:
        print(refuse("ledger check", db, exc), file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_dict(), sort_keys=True))
    else:
        print(*report_lines(report), sep="\n")
    return 0 if report.ok else 1


def report_lines(report: CheckReport) -> list[str]:
    """A check's report as `casino ledger check` prints it: one line of
    counts, then a line per broken invariant. The in-game `ledger check`
    (server/commands/operator.py) says the same lines."""
    state = "ok" if report.ok else "BROKEN"
    return [f"ledger check: {state} open_holds={report.open_holds} minted={report.minted}"
            f" balances={report.balances} house={report.house} accounts={report.accounts}"
            f" operations={report.operations} pending_outcomes={report.pending_outcomes}",
            *(f"broken invariant {line}" for line in report.broken)]


def run_copy(args: argparse.Namespace) -> int:
    from server.cli._database import open_errors, refuse
    from server.db.url import Database, DatabaseError
    from server.ledger.copy import copy

    source = target = None
    try:
        source = Database.parse(args.source)
        target = Database.parse(args.target)
        done = copy(source, target)
    except DatabaseError as exc:
        which = "--from" if source is None else "--to"
        print(f"ledger copy: {which}: {exc}", file=sys.stderr)
        return 1
    except open_errors() as exc:         # CopyRefused is a LedgerError: its message names the database
        print(refuse("ledger copy", None, exc), file=sys.stderr)
        return 1
    r, n = done.source, done.rows
    print(f"ledger copy: copied {source.shown} to {target.shown}: {n['accounts']} accounts,"
          f" {n['operations']} operations, {n['entries']} entries, {n['holds']} holds"
          f" ({r.open_holds} open), {n['pending_outcomes']} pending outcomes, {n['notices']} notices,"
          f" {n.get('players', 0)} players")
    print(f"ledger copy: ok on both: minted={r.minted} balances={r.balances} house={r.house}"
          f" accounts={r.accounts} operations={r.operations}")
    if r.open_holds or r.pending_outcomes:
        print("ledger copy: the open holds are closed by recovery when the casino first starts on the copy")
    print(f"ledger copy: run the casino on {target.shown} from now on; {source.shown} is unchanged")
    return 0

