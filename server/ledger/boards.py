"""`top`'s leaderboards: a page of a board, and a player's own rank, each one indexed query.

Each board is walked down its own index (schema.TOTALS_INDEXES): wealth down
`wallets_by_balance`, the others down `player_totals`' indexes, which hold only
listed players (`set leaderboard off` takes a player out of them). So a page
costs its offset plus ten index entries, whatever the number of accounts. A
B-tree cannot jump to the 50,000th entry, so boards end at MAX_RANK: the
deepest page, and a player's own rank, never walk more than that.

Operators (the caller passes their names: the configuration says who they
are) are skipped by the walk; the house is no wallet and has no totals.
Ties rank by name, so a page is the same page every time it is asked.
"""
from __future__ import annotations

from dataclasses import dataclass

from server.db.connection import Conn, Dialect

PAGE = 10              # players a page
MAX_RANK = 1000        # the boards list the first 1000 players: 100 pages

# board -> (table, its figure column, its player column, the rows it ranks)
BOARDS: dict[str, tuple[str, str, str, str]] = {
    # wallets of players who have not hidden themselves (a hidden player has a totals row)
    "wealth": ("accounts", "balance", "owner",
               "kind = 'wallet' AND NOT EXISTS (SELECT 1 FROM player_totals t"
               " WHERE t.player = accounts.owner AND t.hidden = 1)"),
    "wins": ("player_totals", "wins", "player", "hidden = 0"),
    "wagered": ("player_totals", "wagered", "player", "hidden = 0"),
    "net": ("player_totals", "net", "player", "hidden = 0"),
}


@dataclass(frozen=True)
class Board:
    """One page of a board, and where the asking player stands."""

    rows: list[tuple[int, str, int]]    # (rank, player, figure)
    mine: tuple[int, int] | None        # (rank, figure) of the asker, if listed and within MAX_RANK
    listed: bool                        # whether the asker is on this board at all


def _where(board: str, excluded: list[str]) -> tuple[str, str, str, str]:
    table, figure, player, where = BOARDS[board]
    if excluded:                # PostgreSQL refuses an empty NOT IN ()
        where += f" AND {player} NOT IN ({','.join('?' * len(excluded))})"
    return table, figure, player, where


def page_query(board: str, excluded: list[str]) -> str:
    """The SQL of one page: (player, figure) rows; parameters: *excluded, limit, offset."""
    table, figure, player, where = _where(board, excluded)
    return (f"SELECT {player}, {figure} FROM {table} WHERE {where}"
            f" ORDER BY {figure} DESC, {player} LIMIT ? OFFSET ?")


def read(conn: Conn, dialect: Dialect, board: str, page: int, asker: str,
         excluded: list[str]) -> Board:
    """Page `page` (1-based) of `board`, and `asker`'s place, from one snapshot."""
    if board not in BOARDS or not 1 <= page <= MAX_RANK // PAGE:
        raise ValueError(f"no page {page} of board {board!r}")
    table, figure, player, where = _where(board, excluded)
    conn.execute(dialect.begin_read)
    try:
        found = conn.execute(page_query(board, excluded),
                             (*excluded, PAGE, (page - 1) * PAGE)).fetchall()
        rows = [(rank, p, int(f)) for rank, (p, f) in enumerate(found, (page - 1) * PAGE + 1)]
        mine: tuple[int, int] | None = None
        row = None
        if asker not in excluded:
            row = conn.execute(f"SELECT {figure} FROM {table} WHERE {where} AND {player} = ?",
                               (*excluded, asker)).fetchone()
        if row is not None:
            own = int(row[0])
            # those ahead: a higher figure, or the same and an earlier name; at most MAX_RANK walked
            ahead = conn.execute(
                f"SELECT COUNT(*) FROM (SELECT {figure} AS f, {player} AS p FROM {table}"
                f" WHERE {where} AND {figure} >= ? ORDER BY {figure} DESC, {player} LIMIT ?) AS top"
                " WHERE f > ? OR p < ?", (*excluded, own, MAX_RANK, own, asker)).fetchone()[0]
            if ahead < MAX_RANK:
                mine = (ahead + 1, own)
    finally:
        conn.execute("COMMIT")
    return Board(rows, mine, row is not None)
