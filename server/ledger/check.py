"""`casino ledger check`: prove the ledger's invariants on a live or stopped database.

Everything is read in one read transaction (a consistent snapshot, even while
a server commits). Each invariant is checked from a different angle than the
one that enforces it where possible: balances are recomputed from entries,
closings are counted from the operations' own arguments, not from the
`closed_by` column that the writer guards.
"""
from __future__ import annotations

import json
from collections import Counter
from collections.abc import Mapping
from dataclasses import asdict, dataclass, field
from pathlib import Path

from server.db.connection import Conn, Dialect, connect, dialect_of
from server.db.url import Database
from server.ledger.ops import wagers
from server.ledger.schema import SCHEMA_VERSION, WAGERS_SINCE, version


@dataclass(frozen=True)
class CheckReport:
    ok: bool
    broken: tuple[str, ...] = ()          # "invariant: detail", one per violation (capped)
    open_holds: int = 0                   # legal on a live database
    minted: int = 0                       # chips ever created (-mint balance)
    balances: int = 0                     # sum of every non-mint balance; equals minted
    house: int = 0
    accounts: int = 0
    operations: int = 0
    pending_outcomes: int = 0
    invariants: tuple[str, ...] = field(default_factory=tuple)

    def to_dict(self) -> dict[str, object]:
        d = asdict(self)
        d["broken"] = list(self.broken)
        d["invariants"] = list(self.invariants)
        return d


INVARIANTS = (
    "schema_version",
    "conservation",            # all balances sum to 0 with the mint; non-mint balances == minted
    "mint_only_mints",         # the mint account moves only in mint operations, by their amounts
    "balance_equals_entries",  # each account's balance is the sum of its entries
    "transfer_legs",           # every transfer is two legs summing to 0
    "wallet_non_negative",
    "hold_closed_once",        # each hold is closed by at most one operation, the one it names
    "pending_equals_open_holds",
    "totals_equal_settlements",  # `top`'s player_totals, recomputed from the settlements' own arguments
)
TOTALS_SINCE = 4         # the schema version that added player_totals
MAX_DETAILS = 20


def check(where: str | Path | Database) -> CheckReport:
    """Check every invariant of the ledger at `where` (a Database, a URL or an SQLite
    file's path); raises FileNotFoundError when there is no SQLite file, or no
    ledger in the file or PostgreSQL database."""
    db = where if isinstance(where, Database) else Database.parse(where)
    if db.path is not None and not db.path.is_file():
        raise FileNotFoundError(f"no ledger database at {db.path}")
    dialect = dialect_of(db)
    conn = connect(db)
    try:
        conn.execute(dialect.begin_read)
        try:
            found = version(conn, dialect)
            if found == 0:           # nothing was ever written here: the wrong file or database?
                raise FileNotFoundError(f"no ledger database at {db.shown}")
            return _check(conn, found)
        finally:
            conn.execute("COMMIT")
    finally:
        conn.close()


def check_connection(conn: Conn, dialect: Dialect) -> CheckReport:
    """Check the ledger as `conn` sees it, inside the caller's transaction: `casino
    ledger copy` checks the target before its COMMIT, so a bad copy is never kept."""
    return _check(conn, version(conn, dialect))


def _check(c: Conn, version: int) -> CheckReport:
    broken: list[str] = []

    def fail(name: str, detail: str) -> None:
        if sum(b.startswith(name + ":") for b in broken) < MAX_DETAILS:
            broken.append(f"{name}: {detail}")

    if not 1 <= version <= SCHEMA_VERSION:     # every version has the tables checked here
        fail("schema_version", f"found {version}, expected 1 to {SCHEMA_VERSION}")
        return CheckReport(ok=False, broken=tuple(broken), invariants=INVARIANTS)

    accounts = c.execute("SELECT id, kind, owner, balance FROM accounts").fetchall()
    by_id = {a[0]: a for a in accounts}
    mint_balance = sum(a[3] for a in accounts if a[1] == "mint")
    minted = -mint_balance
    others = sum(a[3] for a in accounts if a[1] != "mint")
    house = sum(a[3] for a in accounts if a[1] == "house")
    if mint_balance + others != 0:
        fail("conservation", f"balances sum to {mint_balance + others}, not 0 (minted {minted}, held {others})")

    mint_ops = [json.loads(a)["amount"] for (a,) in c.execute("SELECT args FROM operations WHERE kind = 'mint'")]
    if sum(mint_ops) != minted:
        fail("mint_only_mints", f"mint operations total {sum(mint_ops)}, mint account shows {minted}")
    stray = c.execute("SELECT COUNT(*) FROM entries e JOIN accounts a ON a.id = e.account"
                      " JOIN operations o ON o.id = e.op_id WHERE a.kind = 'mint' AND o.kind <> 'mint'").fetchone()[0]
    if stray:
        fail("mint_only_mints", f"{stray} mint-account entries belong to non-mint operations")

    sums = {a: int(s) for a, s in c.execute("SELECT account, SUM(amount) FROM entries GROUP BY account")}
    for aid, kind, owner, bal in accounts:
        if sums.get(aid, 0) != bal:
            fail("balance_equals_entries", f"{kind}:{owner} balance {bal} but entries sum to {sums.get(aid, 0)}")
    for aid in sums.keys() - by_id.keys():
        fail("balance_equals_entries", f"entries for unknown account {aid}")

    for t, n, s in c.execute("SELECT transfer, COUNT(*), SUM(amount) FROM entries GROUP BY transfer"
                             " HAVING COUNT(*) <> 2 OR SUM(amount) <> 0"):
        fail("transfer_legs", f"transfer {t} has {n} legs summing to {s}")

    for aid, kind, owner, bal in accounts:
        if kind == "wallet" and bal < 0:
            fail("wallet_non_negative", f"wallet {owner} is {bal}")

    holds = {(t, h): (hid, closed, amt) for hid, t, h, closed, amt in
             c.execute("SELECT id, table_id, handle, closed_by, amount FROM holds")}
    players = dict(c.execute("SELECT id, player FROM holds"))
    claims: Counter[tuple[str, str]] = Counter()      # (table, handle) -> operations closing it
    claimed_by: dict[tuple[str, str], int] = {}
    expected: dict[str, list[int]] = {}      # player -> [wagered, won, net, wins]
    for op_id, kind, table, args in c.execute("SELECT id, kind, table_id, args FROM operations"
                                              " WHERE kind IN ('settle', 'refund', 'forfeit')"):
        a = json.loads(args)
        staked: Counter[str] = Counter()             # player -> chips staked
        closing: list[tuple[str, str, int]] = []
        for handle in a.get("stakes") or [a.get("stake")]:
            claims[(table, handle)] += 1
            claimed_by[(table, handle)] = op_id
            if (table, handle) in holds:
                hid, _, amount = holds[(table, handle)]
                staked[players[hid]] += amount
                closing.append((handle, players[hid], amount))
        if kind != "refund":
            risked = a.get("risked")
            _count(expected, staked, dict(a.get("pays", ())),
                   wagers(closing, None if risked is None else [(p, n) for p, n in risked],
                          charges=version < WAGERS_SINCE))
    for stake, n in claims.items():
        if n > 1:
            fail("hold_closed_once", f"stake {stake[1]} at {stake[0]} closed {n} times")
        if stake not in holds:
            fail("hold_closed_once", f"stake {stake[1]} at {stake[0]} closed but never held")
    for stake, (hid, closed, _) in holds.items():
        if closed is not None and claimed_by.get(stake) != closed:
            fail("hold_closed_once", f"stake {stake[1]} at {stake[0]} marked closed by {closed},"
                                     f" claimed by {claimed_by.get(stake)}")
        if closed is None and stake in claimed_by:
            fail("hold_closed_once", f"stake {stake[1]} at {stake[0]} is open but was closed by {claimed_by[stake]}")

    open_by_table: Counter[str] = Counter()
    open_holds = 0
    for (table, _), (_, closed, amt) in holds.items():
        if closed is None:
            open_by_table[table] += amt
            open_holds += 1
    for aid, kind, owner, bal in accounts:
        if kind == "pending" and bal != open_by_table.get(owner, 0):
            fail("pending_equals_open_holds", f"table {owner} pending {bal}, open holds {open_by_table.get(owner, 0)}")
    pending_tables = {owner for _, kind, owner, _ in accounts if kind == "pending"}
    for table in open_by_table.keys() - pending_tables:
        fail("pending_equals_open_holds", f"table {table} has open holds but no pending account")

    if version >= TOTALS_SINCE:
        kept = {p: [int(w), int(won), int(n), int(wins)] for p, w, won, n, wins in
                c.execute("SELECT player, wagered, won, net, wins FROM player_totals")}
        for player in sorted(kept.keys() | expected.keys()):
            has, should = kept.get(player, [0, 0, 0, 0]), expected.get(player, [0, 0, 0, 0])
            if has != should:
                fail("totals_equal_settlements", f"{player} totals (wagered, won, net, wins) are"
                                                 f" {tuple(has)}, settlements say {tuple(should)}")

    n_ops = c.execute("SELECT COUNT(*) FROM operations").fetchone()[0]
    n_pending = c.execute("SELECT COUNT(*) FROM pending_outcomes").fetchone()[0]
    return CheckReport(ok=not broken, broken=tuple(broken), open_holds=open_holds, minted=minted,
                       balances=others, house=house, accounts=len(accounts), operations=n_ops,
                       pending_outcomes=n_pending, invariants=INVARIANTS)


def _count(totals: dict[str, list[int]], staked: Mapping[str, int], paid: Mapping[str, int],
           wagered: Mapping[str, int]) -> None:
    """One settlement's part in each player's [wagered, won, net, wins] (the rule of
    schema.TOTALS_TABLE, written again here so the writer's version is checked);
    `wagered`: ops.wagers of the settlement (what was at risk, charges left out)."""
    for player in staked.keys() | paid.keys():
        t = totals.setdefault(player, [0, 0, 0, 0])
        gain = paid.get(player, 0) - staked.get(player, 0)
        t[0] += wagered.get(player, 0)
        t[2] += gain
        if gain > 0:
            t[1] += gain
            t[3] += 1
