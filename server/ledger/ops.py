"""The ledger's vocabulary as plain frozen data: operations and what reads return.

An `Op` is one idempotent money operation. Its `scope` and `key` name it (a
table's keys live in that table's scope, mints in their own), and `args_json`
is its canonical argument text: a retry is recognised by an equal key AND equal
arguments, while an equal key with other arguments is a programming error.
Validation happens here, in the caller's thread, so a malformed call never
reaches the writer.
"""
from __future__ import annotations

import json
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from enum import Enum
from typing import final
from json.encoder import encode_basestring_ascii

from server.ledger.errors import InvalidOperation

_CANONICAL = json.JSONEncoder(sort_keys=True, separators=(",", ":"))
_quote = encode_basestring_ascii     # how _CANONICAL writes a string (with its quotes)
_int = int.__repr__                  # ...and an int
MINT_SCOPE = "mint"
RECOVERY_SCOPE = "recovery"
# A stake whose handle ends so is a charge (New York craps' 5%, held and settled to the
# house as the bet is made), not a wager: `statement` says "charge 2 on a bet of 40" and
# `stats` counts it as chips lost, never as a round or as chips wagered.
CHARGE_SUFFIX = ":charge"
# A stake whose handle has this is a table bankroll (alley craps' escrow, held whole and
# re-held after every pass): `statement` says "table bankroll 120 from your wallet".
BANKROLL_MARK = ":stake:"


def wagers(closed: Iterable[tuple[str, str, int]], risked: Iterable[tuple[str, int]] | None,
           charges: bool = False) -> dict[str, int]:
    """Each player's wager in a closing operation, as `stats`, `statement` and `top` count it:
    `closed` are the stakes it closed, (handle, player, chips); `risked` the settlement's own
    figure (Op.risked) when it has one. Without, the stakes closed, leaving out charges
    (which are chips lost, not wagers) unless `charges` (the rule before schema 6)."""
    if risked is not None:
        return {p: a for p, a in risked if a}
    out: dict[str, int] = {}
    for handle, player, amount in closed:
        if charges or not handle.endswith(CHARGE_SUFFIX):
            out[player] = out.get(player, 0) + amount
    return out


class Kind(str, Enum):
    MINT = "mint"
    HOLD = "hold"
    SETTLE = "settle"
    REFUND = "refund"
    FORFEIT = "forfeit"


CLOSING = frozenset({Kind.SETTLE, Kind.REFUND, Kind.FORFEIT})
# `Kind.X` is a Python-level lookup; the hot paths below use these plain references.
_MINT, _HOLD, _SETTLE = Kind.MINT, Kind.HOLD, Kind.SETTLE


def table_scope(table: str) -> str:
    return f"table:{table}"


def _name(what: str, value: object) -> str:
    if not isinstance(value, str) or not value:
        raise InvalidOperation(f"{what} must be a non-empty string, got {value!r}")
    return value


def _chips(what: str, value: object, *, allow_zero: bool = False) -> int:
    if not isinstance(value, int) or isinstance(value, bool):
        raise InvalidOperation(f"{what} must be an int, got {value!r}")
    if value < 0 or (value == 0 and not allow_zero):
        raise InvalidOperation(f"{what} must be {'>= 0' if allow_zero else '> 0'}, got {value}")
    return value


@dataclass(frozen=True)
class Op:
    """One money operation; build it with the classmethods, which validate."""

    kind: Kind
    scope: str
    key: str
    table: str | None = None
    player: str | None = None
    amount: int = 0
    reason: str = ""
    stakes: tuple[str, ...] = ()
    pays: tuple[tuple[str, int], ...] = ()
    # A settlement's wagers when they are not its stakes (alley craps' escrow: intents.Settle);
    # None: the stakes closed are the wagers, and the stored arguments have no "risked".
    risked: tuple[tuple[str, int], ...] | None = None

    @classmethod
    def mint(cls, key: str, player: str, amount: int, reason: str) -> Op:
        return cls(Kind.MINT, MINT_SCOPE, _name("key", key), player=_name("player", player),
                   amount=_chips("amount", amount), reason=str(reason))

    @classmethod
    def hold(cls, key: str, player: str, table: str, amount: int) -> Op:
        table = _name("table", table)
        return cls(_HOLD, table_scope(table), _name("key", key), table=table,
                   player=_name("player", player), amount=_chips("amount", amount))

    @classmethod
    def settle(cls, key: str, table: str, stakes: Sequence[str],
               pays: Mapping[str, int] | Iterable[tuple[str, int]],
               risked: Mapping[str, int] | None = None) -> Op:
        # Every settlement is built on the event loop, so this is written for speed:
        # list comprehensions, no generators, the plain-dict case first.
        table = _name("table", table)
        if isinstance(stakes, str):
            raise InvalidOperation("stakes must be a sequence of handles, not a string")
        handles = [_name("stake", s) for s in stakes]
        if not handles:
            raise InvalidOperation("a settlement closes at least one stake")
        if len(handles) > 1:
            handles.sort()
            if len(set(handles)) != len(handles):
                raise InvalidOperation(f"a stake is named twice: {tuple(handles)}")
        total: dict[str, int] = {}
        # dict first: an ABC isinstance check costs more than the rest of this method
        items = pays.items() if type(pays) is dict or isinstance(pays, Mapping) else pays
        for player, amount in items:
            total[_name("payee", player)] = total.get(player, 0) + _chips("pay", amount, allow_zero=True)
        paid = [pa for pa in total.items() if pa[1]]
        if len(paid) > 1:
            paid.sort()
        at_risk = None if risked is None else tuple(sorted(
            (_name("risker", p), a) for p, a in risked.items() if _chips("risked", a, allow_zero=True)))
        return cls(_SETTLE, table_scope(table), _name("key", key), table=table, stakes=tuple(handles),
                   pays=tuple(paid), risked=at_risk)

    @classmethod
    def refund(cls, key: str, table: str, stake: str, *, scope: str | None = None) -> Op:
        table = _name("table", table)
        return cls(Kind.REFUND, scope or table_scope(table), _name("key", key), table=table,
                   stakes=(_name("stake", stake),))

    @classmethod
    def forfeit(cls, key: str, table: str, stake: str) -> Op:
        table = _name("table", table)
        return cls(Kind.FORFEIT, table_scope(table), _name("key", key), table=table,
                   stakes=(_name("stake", stake),))

    def args(self) -> dict[str, object]:
        """The arguments that make two operations with one key the same operation."""
        if self.kind is Kind.MINT:
            return {"player": self.player, "amount": self.amount, "reason": self.reason}
        if self.kind is Kind.HOLD:
            return {"player": self.player, "amount": self.amount}
        if self.kind is Kind.SETTLE:
            if self.risked is not None:
                return {"stakes": list(self.stakes), "pays": [list(p) for p in self.pays],
                        "risked": [list(r) for r in self.risked]}
            return {"stakes": list(self.stakes), "pays": [list(p) for p in self.pays]}
        return {"stake": self.stakes[0]}

    def args_json(self) -> str:
        """Canonical arguments: equal text means the same operation.

        The text is exactly `_CANONICAL.encode(self.args())` (sorted keys, no
        spaces, ASCII escapes), the form stored in every existing file, but
        built directly: the writer judges every operation with it, and the
        general encoder cost as much as the rest of the judging
        (tests/ledger/test_batch.py checks the two agree).
        """
        kind, q = self.kind, _quote
        if kind is _SETTLE:
            pays = ",".join([f"[{q(p)},{_int(a)}]" for p, a in self.pays])
            stakes = ",".join([q(h) for h in self.stakes])
            if self.risked is not None:
                risked = ",".join([f"[{q(p)},{_int(a)}]" for p, a in self.risked])
                return f'{{"pays":[{pays}],"risked":[{risked}],"stakes":[{stakes}]}}'
            return f'{{"pays":[{pays}],"stakes":[{stakes}]}}'
        if kind is _HOLD or kind is _MINT:
            player = self.player
            assert player is not None, "Op.mint and Op.hold always name the player"
            if kind is _HOLD:
                return f'{{"amount":{_int(self.amount)},"player":{q(player)}}}'
            return f'{{"amount":{_int(self.amount)},"player":{q(player)},"reason":{q(self.reason)}}}'
        return f'{{"stake":{q(self.stakes[0])}}}'

    @classmethod
    def from_record(cls, kind: str, scope: str, key: str, table: str | None, args: str) -> Op:
        """Rebuild an operation from its stored row (pending outcomes, the checker)."""
        a = json.loads(args)
        k = Kind(kind)
        if k is Kind.MINT:
            return cls(k, scope, key, player=a["player"], amount=a["amount"], reason=a["reason"])
        if k is Kind.HOLD:
            return cls(k, scope, key, table=table, player=a["player"], amount=a["amount"])
        if k is Kind.SETTLE:
            risked = a.get("risked")
            return cls(k, scope, key, table=table, stakes=tuple(a["stakes"]),
                       pays=tuple((p, n) for p, n in a["pays"]),
                       risked=None if risked is None else tuple((p, n) for p, n in risked))
        return cls(k, scope, key, table=table, stakes=(a["stake"],))


@final           # final: the writer tells items apart by `type(item) is ...`
@dataclass(frozen=True)
class TakeNotices:
    """Fetch and clear a player's notices (a write, so it goes through the writer)."""

    player: str


@final
@dataclass(frozen=True)
class LeaveNotice:
    """Keep `text` for the player's next login (news that found them gone: bets
    that rode on after they left and were settled to the wallet)."""

    player: str
    text: str


@final
@dataclass(frozen=True)
class ShowOnBoards:
    """`set leaderboard on|off`: list the player on `top`'s boards, or hide them. Kept in
    the ledger's `player_totals` (its `hidden` column), so each board's index holds only
    listed players; written by the writer, the only writer of the ledger's tables."""

    player: str
    shown: bool


@final
@dataclass(frozen=True)
class Claim:
    """A shard takes these players' wallets (they arrived on it): from this batch on it
    writes them, and the shard that had them cannot (docs/ledger.md, "Shards")."""

    players: tuple[str, ...]


Item = Op | TakeNotices | LeaveNotice | ShowOnBoards | Claim     # what the writer takes


@dataclass(frozen=True)
class Balance:
    """Wallet chips first, then chips held as live stakes per table."""

    wallet: int
    held: dict[str, int] = field(default_factory=dict)

    @property
    def total(self) -> int:
        return self.wallet + sum(self.held.values())

    def __str__(self) -> str:
        parts = [f"{self.wallet} chips in your wallet"]
        parts += [f"{amount} held at {table}" for table, amount in sorted(self.held.items())]
        return ", ".join(parts)


@dataclass(frozen=True)
class Movement:
    """One ledger movement from a player's view (amount signed: + into the wallet)."""

    time: datetime
    amount: int
    kind: str
    table: str | None
    memo: str

    def __str__(self) -> str:
        return (f"{self.time:%Y-%m-%d %H:%M:%S}  {self.kind:<7} {self.amount:>+8}  "
                f"{self.table or '-':<12}  {self.memo}")


@dataclass(frozen=True)
class Recovered:
    """One thing start-up recovery did to one stake (or one outcome it could not apply)."""

    action: str          # "settled", "refunded", "forfeited" or "discarded"
    table: str
    stake: str
    player: str | None
    amount: int
    key: str             # the operation that closed it (or the discarded outcome's key)

    def __str__(self) -> str:
        return (f"action={self.action} table={self.table} stake={self.stake} "
                f"player={self.player} amount={self.amount} key={self.key}")
