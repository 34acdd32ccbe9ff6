"""A player's results, derived from the ledger's own rows (`stats`, GMCP Char.Stats).

Nothing here is kept anywhere else: every figure is read from the operations
that closed the player's stakes and the entries on their wallet, so `stats`
can never disagree with `statement`. What counts:

- a *round* is one closing operation that involved the player: a settlement
  that closed any of their stakes or paid their wallet, or a forfeit of
  their stakes (a dropped connection at craps). Several bets decided by one
  roll are one round.
- *wagered* is the sum of the stakes those rounds closed. A refund (a table
  closing, a seat refused, recovery with no recorded outcome) is not a wager:
  the stake comes back untouched and nothing was decided, so it is neither a
  round nor a figure; a stake still live is not counted until it is decided.
- a round's *net* is what came back to the wallet minus the stakes it closed
  (a forfeit's is minus its stakes). *Won* sums the nets of rounds that gained,
  *lost* the losses of rounds that lost, so `net = won - lost`; a push adds
  to neither.
- a settlement that carries its own wagers (`risked` in its arguments: alley
  craps' escrow closes a whole table bankroll after every pass, though only
  the pass's fade was at risk; intents.Settle) counts those instead: a round
  of a player it names, *wagered* what it names; a player it does not name
  risked nothing in it (their bankroll went back to the wallet untouched), so
  it is no round of theirs. The net is still what came back minus the stakes
  closed, the pass's gain or loss. Settlements recorded before schema 6 have
  no `risked` and read as recorded: an alley craps pass then counts the whole
  bankroll as wagered.
- a *charge* (a stake whose handle ends in `ops.CHARGE_SUFFIX`: New York's 5%,
  taken to the house as the bet is made) is chips lost but not a round: it adds
  to *lost* (so `net` is still the wallet's change) and to neither *rounds* nor
  *wagered*, and does not break a streak.
- the *biggest win* is the largest net of one round; the *longest streak*
  the most rounds in a row, in ledger order, each with a net above zero (a
  push ends a streak). Per table, the streak counts that table's rounds only.

Grouped by table id, or by the group the asker gives each table id (the
`stats` command groups a game's tables): the ledger knows no games.
"""
from __future__ import annotations

import json
from collections.abc import Mapping
from dataclasses import dataclass, field

from server.db.connection import Conn, Dialect
from server.ledger.ops import CHARGE_SUFFIX

RISKED_LIKE = '%"risked":%'      # arguments that may name a settlement's wagers (Op.args_json)


@dataclass
class Results:
    """The money figures of a set of rounds (one table's, or all of them)."""
    rounds: int = 0
    wagered: int = 0
    won: int = 0
    lost: int = 0
    biggest_win: int = 0          # 0 when no round gained
    longest_streak: int = 0
    _streak: int = field(default=0, repr=False, compare=False)   # the run going on at the end

    @property
    def net(self) -> int:
        return self.won - self.lost

    def add(self, staked: int, net: int) -> None:
        """One more round, in ledger order."""
        self.rounds += 1
        self.wagered += staked
        if net > 0:
            self.won += net
            self.biggest_win = max(self.biggest_win, net)
            self._streak += 1
            self.longest_streak = max(self.longest_streak, self._streak)
        else:
            self.lost -= net
            self._streak = 0

    def played(self, rounds: int) -> None:
        """Rounds that moved no chips (Pig against the computer, counted beside
        the ledger): rounds, and no figure else; a streak neither grows nor ends."""
        self.rounds += rounds

    def charge(self, amount: int) -> None:
        """A charge taken: chips lost, not a round (a streak goes on through it)."""
        self.lost += amount

    def to_dict(self) -> dict[str, int]:
        return {"rounds": self.rounds, "wagered": self.wagered, "won": self.won, "lost": self.lost,
                "net": self.net, "biggest_win": self.biggest_win, "longest_streak": self.longest_streak}


@dataclass
class PlayerStats:
    player: str
    total: Results = field(default_factory=Results)
    by_group: dict[str, Results] = field(default_factory=dict)     # group (or table id) -> its rounds


def player_stats(conn: Conn, dialect: Dialect, player: str,
                 groups: Mapping[str, str] | None = None) -> PlayerStats:
    """Every round of `player` (an account key), from one read transaction;
    `groups` maps table ids to the line they count in (a table not in it: its id)."""
    groups = groups or {}
    out = PlayerStats(player)
    conn.execute(dialect.begin_read)
    try:
        row = conn.execute("SELECT id FROM accounts WHERE kind = 'wallet' AND owner = ?",
                           (player,)).fetchone()
        if row is None:
            return out
        wallet = row[0]
        staked = {int(op): int(total) for op, total in conn.execute(
            "SELECT closed_by, SUM(amount) FROM holds WHERE player = ? AND closed_by IS NOT NULL"
            " GROUP BY closed_by", (player,))}
        # the part of those that were charges (LIKE: the suffix has no wildcard, and handles are lower case)
        charged = {int(op): int(total) for op, total in conn.execute(
            "SELECT closed_by, SUM(amount) FROM holds WHERE player = ? AND closed_by IS NOT NULL"
            " AND handle LIKE ? GROUP BY closed_by", (player, f"%{CHARGE_SUFFIX}"))}
        # settlements that paid the wallet without closing a stake of its own (a pot from others' stakes)
        paid = {int(op): int(total) for op, total in conn.execute(
            "SELECT e.op_id, SUM(e.amount) FROM entries e JOIN operations o ON o.id = e.op_id"
            " WHERE e.account = ? AND o.kind = 'settle' GROUP BY e.op_id", (wallet,))}
        ids = sorted(staked.keys() | paid.keys())
        kinds: dict[int, tuple[str, str]] = {}
        risked: dict[int, int] = {}         # settlements that name their wagers -> the player's
        for i in range(0, len(ids), 500):
            chunk = ids[i:i + 500]
            marks = ",".join("?" * len(chunk))
            # the arguments only of settlements that may carry `risked` (a bank craps roll's are long)
            for op_id, kind, table, args in conn.execute(
                    "SELECT id, kind, table_id, CASE WHEN args LIKE ? THEN args ELSE '' END"
                    f" FROM operations WHERE id IN ({marks})", (RISKED_LIKE, *chunk)):
                kinds[int(op_id)] = (kind, table or "")
                named = json.loads(args).get("risked") if args else None
                if named is not None:
                    risked[int(op_id)] = dict(named).get(player, 0)
    finally:
        conn.execute("COMMIT")
    for op_id in ids:
        kind, table = kinds.get(op_id, ("", ""))
        if kind not in ("settle", "forfeit"):
            continue                      # refunds: nothing was decided
        group = out.by_group.setdefault(groups.get(table, table), Results())
        if op_id in risked:               # the settlement says what was at risk
            wager, net = risked[op_id], paid.get(op_id, 0) - staked.get(op_id, 0)
            if wager or net:
                out.total.add(wager, net)
                group.add(wager, net)
            continue
        charge = charged.get(op_id, 0)
        if charge:                        # the charge is its own settlement (craps' state.place)
            out.total.charge(charge)
            group.charge(charge)
        stake = staked.get(op_id, 0) - charge
        if stake or paid.get(op_id, 0) or not charge:      # not a charge alone
            net = paid.get(op_id, 0) - stake
            out.total.add(stake, net)
            group.add(stake, net)
    return out
