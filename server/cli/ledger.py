"""`casino ledger check [--data FILE] [--json]`: verify the chip ledger's invariants.

Works on a live database (a consistent read snapshot; open holds are legal
there and only counted) or a stopped one. Exit 0 when every invariant holds,
1 naming each broken invariant, 2 when there is no database to check.
"""
from __future__ import annotations

import argparse
import json
import sys


def register(subparsers: argparse._SubParsersAction) -> None:
    parser = subparsers.add_parser("ledger", help="inspect the chip ledger")
    sub = parser.add_subparsers(dest="ledger_command", metavar="ACTION", required=True)
    check = sub.add_parser("check", help="verify every ledger invariant (exit 1 if one is broken)")
    check.add_argument("--data", default="./data/casino.db", help="the SQLite file (default ./data/casino.db)")
    check.add_argument("--json", action="store_true", help="print the report as JSON")
    check.set_defaults(func=run_check)


def run_check(args: argparse.Namespace) -> int:
    from server.ledger.check import check

    try:
        report = check(args.data)
    except FileNotFoundError as exc:
        print(f"ledger check: {exc}", file=sys.stderr)
        return 2
    if args.json:
        print(json.dumps(report.to_dict(), sort_keys=True))
    else:
        state = "ok" if report.ok else "BROKEN"
        print(f"ledger check: {state} open_holds={report.open_holds} minted={report.minted}"
              f" balances={report.balances} house={report.house} accounts={report.accounts}"
              f" operations={report.operations} pending_outcomes={report.pending_outcomes}")
        for line in report.broken:
            print(f"broken invariant {line}")
    return 0 if report.ok else 1
