"""Reads for players: a balance and a readable statement, from committed data.

Each read runs in one read transaction, so the wallet and the held stakes it
reports are a single consistent snapshot even while the writer commits.
"""
from __future__ import annotations

import json
from datetime import UTC, datetime

from server.db.connection import Conn, Dialect
from server.ledger.ops import BANKROLL_MARK, CHARGE_SUFFIX, MINT_SCOPE, RECOVERY_SCOPE, Balance, Movement

MAX_STATEMENT = 1000     # movements in one statement (and SQL parameters in one query)
RISKED = '"risked":'      # in the arguments of a settlement that names its wagers (Op.args_json)


def _is_charge_settle(kind: str, closed: list[tuple[str, int]]) -> bool:
    """A settlement that only takes charges to the house: the charge's own hold is
    its line in the statement (the chips left the wallet there), so this moves none
    of the player's chips and is not shown."""
    return kind == "settle" and bool(closed) and all(h.endswith(CHARGE_SUFFIX) for h, _ in closed)


def balance(conn: Conn, dialect: Dialect, player: str) -> Balance:
    return balances(conn, dialect, [player])[player]


def balances(conn: Conn, dialect: Dialect, players: list[str]) -> dict[str, Balance]:
    """Each player's balance, all from one snapshot: a crowd's `balance`
    commands arriving together cost one read transaction, not one each."""
    wallets: dict[str, int] = {}
    held: dict[str, dict[str, int]] = {p: {} for p in players}
    conn.execute(dialect.begin_read)
    try:
        for i in range(0, len(players), MAX_STATEMENT):
            chunk = players[i:i + MAX_STATEMENT]
            marks = ",".join("?" * len(chunk))
            wallets.update(conn.execute(
                f"SELECT owner, balance FROM accounts WHERE kind = 'wallet' AND owner IN ({marks})",
                chunk).fetchall())
            # the open holds (live stakes only), not the players' whole history of holds
            for player, table, amount in conn.execute(
                    f"SELECT player, table_id, SUM(amount) FROM holds {dialect.open_holds_hint}"
                    f" WHERE player IN ({marks}) AND closed_by IS NULL"
                    " GROUP BY player, table_id ORDER BY player, table_id", chunk):
                held[player][table] = int(amount)     # PostgreSQL sums bigints as numeric
    finally:
        conn.execute("COMMIT")
    return {p: Balance(wallet=wallets.get(p, 0), held=held[p]) for p in players}


def _risked(args: str, player: str) -> int | None:
    """What `player` had at risk in a settlement that names its wagers (alley craps'
    escrow, intents.Settle), or None: its stakes were the wagers."""
    if RISKED not in args:
        return None
    named = json.loads(args).get("risked")
    return None if named is None else dict(named).get(player, 0)


def _escrow_memo(prefix: str, risked: int, staked: int, delta: int) -> str:
    """A settlement of table bankrolls (alley craps): what the pass staked and paid
    back, then the bankroll that came back to the wallet (the amount shown)."""
    bankroll = f"table bankroll {delta} to your wallet"
    net = delta - staked
    if not risked and not net:
        return f"{prefix}{bankroll}"                 # no pass of theirs: a bankroll paid out
    back = risked + net
    result = "won" if net > 0 else "push" if net == 0 else "lost"
    said = f"{prefix}{result}: staked {risked}, paid back {back}"
    return said if delta == back else f"{said}; {bankroll}"


def _memo(kind: str, scope: str, key: str, args: str, delta: int,
          closed: list[tuple[str, int]], charged_on: dict[str, int], player: str) -> str:
    """What a movement was, in a player's words: no stake handles or keys.
    `charged_on`: a charge's hold key -> the stake of the bet it was charged on."""
    staked = sum(a for _, a in closed)
    bets = f"{len(closed)} bets" if len(closed) > 1 else "bet"
    if kind == "mint":
        return json.loads(args)["reason"] or "chips granted"
    if kind == "hold" and key.endswith(CHARGE_SUFFIX):
        on = charged_on.get(key)
        return f"charge {-delta} on a bet of {on}" if on is not None else f"charge {-delta}"
    if kind == "hold" and BANKROLL_MARK in key:
        return f"table bankroll {-delta} from your wallet"    # alley craps' (re-)hold of a bankroll
    if kind == "hold":
        return "wager placed"
    prefix = "recovery: " if scope == RECOVERY_SCOPE else ""
    if kind == "refund":
        return f"{prefix}{bets} of {staked} refunded"
    if kind == "forfeit":
        return f"{prefix}{bets} of {staked} forfeited"
    if kind == "settle" and (risked := _risked(args, player)) is not None:
        return _escrow_memo(prefix, risked, staked, delta)
    if not closed:
        return f"paid {delta} from other players' stakes"
    result = "won" if delta > staked else "push" if delta == staked else "lost"
    return f"{prefix}{result}: staked {staked}, paid back {delta}"


def statement(conn: Conn, dialect: Dialect, player: str, n: int) -> list[Movement]:
    """The player's last `n` movements, oldest first, amounts signed from their view."""
    conn.execute(dialect.begin_read)
    try:
        row = conn.execute("SELECT id FROM accounts WHERE kind = 'wallet' AND owner = ?",
                           (player,)).fetchone()
        if row is None or n <= 0:
            return []
        n = min(n, MAX_STATEMENT)
        wallet = row[0]
        ops = conn.execute(
            "SELECT id, time, kind, table_id, scope, key, args FROM operations WHERE id IN"
            " (SELECT op_id FROM entries WHERE account = ?"
            "  UNION SELECT closed_by FROM holds WHERE player = ? AND closed_by IS NOT NULL)"
            " ORDER BY id DESC LIMIT ?", (wallet, player, n)).fetchall()
        ids = [op[0] for op in ops]
        if not ids:
            return []
        marks = ",".join("?" * len(ids))
        closed_by: dict[int, list[tuple[str, int]]] = {}
        for op_id, handle, amount in conn.execute(
                f"SELECT closed_by, handle, amount FROM holds WHERE player = ? AND closed_by IN ({marks})"
                " ORDER BY id", (player, *ids)):
            closed_by.setdefault(op_id, []).append((handle, amount))
        deltas = {op: int(total) for op, total in conn.execute(f"SELECT op_id, SUM(amount) FROM entries WHERE account = ?"
                                   f" AND op_id IN ({marks}) GROUP BY op_id", (wallet, *ids))}
        charged_on: dict[str, int] = {}      # a charge's hold key -> the stake of its bet
        for _, _, kind, table, _, key, _ in ops:
            if kind == "hold" and key.endswith(CHARGE_SUFFIX):
                row = conn.execute("SELECT amount FROM holds WHERE table_id = ? AND handle = ?",
                                   (table, key[:-len(CHARGE_SUFFIX)])).fetchone()
                if row is not None:
                    charged_on[key] = int(row[0])
        out = []
        for op_id, when, kind, table, scope, key, args in reversed(ops):
            delta = deltas.get(op_id, 0)
            closed = closed_by.get(op_id, [])
            if _is_charge_settle(kind, closed):
                continue
            out.append(Movement(time=datetime.fromtimestamp(when, UTC), amount=delta, kind=kind, table=table,
                                memo=_memo(kind, scope, key, args, delta, closed, charged_on, player)))
        return out
    finally:
        conn.execute("COMMIT")


def last_minted(conn: Conn, dialect: Dialect, prefix: str) -> float | None:
    """When the newest mint whose key starts with `prefix` was written (epoch
    seconds), or None: when a player last had relief (`relief:<player>:`).

    The prefix is compared with substr, not LIKE (`_` in a name is a LIKE
    wildcard, and SQLite's LIKE ignores case) nor a key range (under a
    PostgreSQL locale's collation punctuation sorts as if absent). Mints are
    one per account and per grant or relief, so the scan of the mint scope
    this costs is small next to a player's typing."""
    conn.execute(dialect.begin_read)
    try:
        row = conn.execute(
            "SELECT time FROM operations WHERE scope = ? AND substr(key, 1, ?) = ?"
            " ORDER BY id DESC LIMIT 1", (MINT_SCOPE, len(prefix), prefix)).fetchone()
    finally:
        conn.execute("COMMIT")
    return None if row is None else float(row[0])


def open_holds(conn: Conn, dialect: Dialect, player: str) -> dict[str, int]:
    """The chips `player` has held at each table now, as committed by every shard
    (a login on one shard asks whether they are in play at another's table)."""
    conn.execute(dialect.begin_read)
    try:
        rows = conn.execute("SELECT table_id, SUM(amount) FROM holds WHERE closed_by IS NULL AND player = ?"
                            " GROUP BY table_id", (player,)).fetchall()
    finally:
        conn.execute("COMMIT")
    return {str(table): int(chips) for table, chips in rows}


def figures(conn: Conn, dialect: Dialect) -> dict[str, int]:
    """The whole ledger's figures for /metrics, in one read transaction: chips by
    account kind (wallet, house, pending: at tables; mint: minus what was ever
    created), their sum (0 while conservation holds), open holds and pending outcomes."""
    conn.execute(dialect.begin_read)
    try:
        by_kind = {str(k): int(s) for k, s in
                   conn.execute("SELECT kind, COALESCE(SUM(balance), 0) FROM accounts GROUP BY kind")}
        holds = int(conn.execute("SELECT COUNT(*) FROM holds WHERE closed_by IS NULL").fetchone()[0])
        pending = int(conn.execute("SELECT COUNT(*) FROM pending_outcomes").fetchone()[0])
    finally:
        conn.execute("COMMIT")
    return {"wallets": by_kind.get("wallet", 0), "house": by_kind.get("house", 0),
            "tables": by_kind.get("pending", 0), "minted": -by_kind.get("mint", 0),
            "imbalance": sum(by_kind.values()), "open_holds": holds, "pending_outcomes": pending}
