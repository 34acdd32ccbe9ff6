"""Chips: `balance` and `statement`, read from the ledger."""
from __future__ import annotations

import re
from datetime import datetime, timezone
from typing import Protocol

from server.commands.registry import REGISTRY, Context
from server.ledger import Ledger, Movement
from server.ledger.boards import BOARDS, MAX_RANK, PAGE
from server.render.width import NBSP, glue

STATEMENT_DEFAULT, STATEMENT_MAX = 10, 100


class MoneyApp(Protocol):
    """What the chip commands use of the casino: the ledger, and the
    operators' names, which `top` never lists."""

    @property
    def ledger(self) -> Ledger: ...
    @property
    def operators(self) -> set[str]: ...


Ctx = Context[MoneyApp]


@REGISTRY.command("balance", aliases=("bal",), help="""balance - your wallet chips, then chips held as live stakes at each table.""")
async def balance(ctx: Ctx) -> None:
    bal = await ctx.app.ledger.balance(ctx.session.key)
    ctx.tell(f"Wallet: {bal.wallet} chips.")
    for table, amount in sorted(bal.held.items()):
        if amount:
            ctx.tell(f"  Held at {table}: {amount} chips in live stakes.")


@REGISTRY.command("statement", help=f"""statement [N] - your last N chip movements (default {STATEMENT_DEFAULT}, at most {STATEMENT_MAX}).""")
async def statement(ctx: Ctx) -> None:
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
        ctx.tell(spoken_statement_line(row) if ctx.session.prefs.screenreader else statement_line(row))


TOP_PAGES = MAX_RANK // PAGE
# board -> what its figure is, said in the heading
_FIGURES = {
    "wealth": "wallet chips",
    "wins": "winning settlements",
    "wagered": "chips wagered",
    "net": "net chips won",
}
assert _FIGURES.keys() == BOARDS.keys()
TOP_USAGE = f"Use: top [wealth|wins|wagered|net] [page 1-{TOP_PAGES}]"


@REGISTRY.command("top", aliases=("leaderboard",), help=f"""top [wealth|wins|wagered|net] [page] - the casino's leaderboards, {PAGE} players a page.
wealth: chips in the wallet (chips on a table right now are not counted).
wins: settlements you won (paid more than you staked), counted once each.
wagered: chips staked on settled bets (a refunded bet and a charge do not count; alley craps
counts each pass's fade or covered action, not the bankroll held).
net: chips won minus chips lost, over all your settled bets.
Without a board word: wealth. Boards list the first {MAX_RANK} players ({TOP_PAGES} pages); your own
rank is shown below the page when you are not on it. Operators and the house are never
listed. 'set leaderboard off' takes you off every board; 'set leaderboard on' brings you back.""")
async def top(ctx: Ctx) -> None:
    board, page = "wealth", 1
    words = [w.lower() for w in ctx.argv]
    if words and words[0] in BOARDS:
        board = words.pop(0)
    if words and words[0].isascii() and words[0].isdigit() and 1 <= int(words[0]) <= TOP_PAGES:
        page = int(words.pop(0))
    if words:
        ctx.tell(f"'{words[0][:20]}' is not a board or page. {TOP_USAGE}.")
        return
    me = ctx.session.key
    found = await ctx.app.ledger.board(board, page, me, sorted(ctx.app.operators))
    ctx.tell(f"Top {board} ({_FIGURES[board]}), page {page}:")
    if not found.rows:
        ctx.tell("  Nobody here yet." if page == 1 else f"  Nobody this far down: try top {board}.")
    for rank, player, figure in found.rows:
        ctx.tell(_top_line(rank, player, figure, player == me, ctx.session.prefs.screenreader))
    if found.mine is not None and all(player != me for _, player, _ in found.rows):
        rank, figure = found.mine
        ctx.tell(_top_line(rank, me, figure, True, ctx.session.prefs.screenreader))
    elif found.listed and found.mine is None:
        ctx.tell(f"  You: beyond rank {MAX_RANK}.")


def _top_line(rank: int, player: str, figure: int, mine: bool, spoken: bool = False) -> str:
    """Rank, name, figure in 39 columns (names are at most 20 characters); yours marked
    with a star (not '>', which a player reads as the prompt); for a screen reader
    "3. bob (you): 983." with no padding to listen through."""
    if spoken:
        return f"{rank}. {player}{' (you)' if mine else ''}: {figure}."
    return f"{'*' if mine else ' '}{rank:>4}. {player:<20} {figure:>11}"


def statement_line(row: Movement) -> str:
    """One movement: when and how much glued, then where and what; it wraps
    between those groups on a narrow screen."""
    when = glue(f"{row.time:%Y-%m-%d}", f"{row.time:%H:%M:%S}")
    where = f"{row.table}:" if row.table else ""
    memo = _NUMBER_AFTER_WORD.sub(NBSP, row.memo)     # "paid back 10" never breaks before the 10
    return f"  {when}  {row.amount:>+7}  " + " ".join(x for x in (where, memo) if x)


def spoken_statement_line(row: Movement) -> str:
    """One movement for a screen reader: the amount first, then what, then when
    (the date only when it is not today): "+10, bank_craps: won: staked 5, paid back 10; 20:43."."""
    where = f"{row.table}: " if row.table else ""
    now = datetime.now(row.time.tzinfo or timezone.utc)
    day = "" if row.time.date() == now.date() else f" on {row.time:%Y-%m-%d}"
    return f"{row.amount:+d}, {where}{row.memo}; {row.time:%H:%M}{day}."


_NUMBER_AFTER_WORD = re.compile(r"(?<=[a-z]) (?=[+-]?\d)")
