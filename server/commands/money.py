"""Chips: `balance` and `statement`, read from the ledger."""
from __future__ import annotations

import re

from server.commands.registry import REGISTRY
from server.commands.registry import Context
from server.ledger import Movement
from server.render.width import NBSP, glue

STATEMENT_DEFAULT, STATEMENT_MAX = 10, 100


@REGISTRY.command("balance", aliases=("bal",), help="""balance - your wallet chips, then chips held as live stakes at each table.""")
async def balance(ctx: Context) -> None:
    bal = await ctx.app.ledger.balance(ctx.session.key)
    ctx.tell(f"Wallet: {bal.wallet} chips.")
    for table, amount in sorted(bal.held.items()):
        if amount:
            ctx.tell(f"  Held at {table}: {amount} chips in live stakes.")


@REGISTRY.command("statement", help=f"""statement [N] - your last N chip movements (default {STATEMENT_DEFAULT}, at most {STATEMENT_MAX}).""")
async def statement(ctx: Context) -> None:
    n = STATEMENT_DEFAULT
    if ctx.argv:
        if not (ctx.argv[0].isascii() and ctx.argv[0].isdigit()) or not 1 <= int(ctx.argv[0]) <= STATEMENT_MAX:
            ctx.tell(f"Give a number from 1 to {STATEMENT_MAX}, e.g. statement 20.")
            return
        n = int(ctx.argv[0])
    rows = await ctx.app.ledger.statement(ctx.session.key, n)   # oldest first
    if not rows:
        ctx.tell("No chip movements yet.")
        return
    count = f"{len(rows)} chip movement" + ("s" if len(rows) != 1 else "")
    ctx.tell(f"Your last {count}, newest first:")
    for row in reversed(rows):
        ctx.tell(statement_line(row))


def statement_line(row: Movement) -> str:
    """One movement: when and how much glued, then where and what; it wraps
    between those groups on a narrow screen."""
    when = glue(f"{row.time:%Y-%m-%d}", f"{row.time:%H:%M:%S}")
    where = f"{row.table}:" if row.table else ""
    memo = _NUMBER_AFTER_WORD.sub(NBSP, row.memo)     # "paid back 10" never breaks before the 10
    return f"  {when}  {row.amount:>+7}  " + " ".join(x for x in (where, memo) if x)


_NUMBER_AFTER_WORD = re.compile(r"(?<=[a-z]) (?=[+-]?\d)")
