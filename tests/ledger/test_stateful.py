"""Random operation sequences against a plain in-memory model (hypothesis stateful).

Mints, wagers, settlements (banked and player-versus-player), refunds,
forfeits, retries with the same or changed arguments, concurrent batches,
failed commits and restarts (with start-up recovery) are run against the real
ledger on a real database (a fresh SQLite file, or a fresh database on the
run's PostgreSQL server, per example) and against `Model`, a few dozen lines of dicts. After
every step the ledger must agree with the model (every balance, every held
stake, the house, what was minted, pending outcomes), `check` must find
every invariant intact, and the writer's in-memory mirror must agree with a
fresh load of the database: equal in everything but the applied keys, of which
it holds at most RECENT (so most retries find their key evicted and the
database decides), each as the database stores it.
"""
from __future__ import annotations

import asyncio
import shutil
import tempfile
import uuid
from collections.abc import Callable
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from server.ledger import (
    Balance,
    InsufficientFunds,
    KeyConflict,
    Ledger,
    LedgerError,
    LedgerUnavailable,
    UnknownPlayer,
    UnknownStake,
    check,
)
from server.ledger.mirror import Mirror
from server.ledger.ops import CLOSING, Kind, Op

from .conftest import raw

PLAYERS = ("ann", "ben", "cat", "dan")
RECENT = 4            # keys the writer's mirror keeps: a run of 30 steps evicts most of them
TABLES = ("t1", "t2")


class Model:
    """What the ledger should hold, with none of its machinery."""

    def __init__(self) -> None:
        self.wallets: dict[str, int] = {}
        self.house = 0
        self.minted = 0
        self.holds: dict[tuple[str, str], list] = {}        # (table, handle) -> [player, amount, open]
        self.ops: dict[tuple[str, str], tuple] = {}         # applied keys -> (kind, args)
        self.pending: dict[tuple[str, str], Op] = {}        # recorded outcomes, in order

    def apply(self, op: Op) -> type | None:
        """Apply like the ledger; return the exception type it should raise, or None."""
        k, sig = (op.scope, op.key), (op.kind, op.args_json())
        if k in self.ops:
            return None if self.ops[k] == sig else KeyConflict
        if op.kind in CLOSING and k in self.pending and \
                (self.pending[k].kind, self.pending[k].args_json()) != sig:
            return KeyConflict
        if op.kind is Kind.MINT:
            self.wallets[op.player] = self.wallets.get(op.player, 0) + op.amount
            self.minted += op.amount
        elif op.kind is Kind.HOLD:
            if self.wallets.get(op.player, 0) < op.amount:
                return InsufficientFunds
            self.wallets[op.player] -= op.amount
            self.holds[(op.table, op.key)] = [op.player, op.amount, True]
        else:
            stakes = [self.holds.get((op.table, h)) for h in op.stakes]
            if any(s is None or not s[2] for s in stakes):
                return UnknownStake
            if any(p not in self.wallets for p, _ in op.pays):
                return UnknownPlayer
            for s in stakes:
                s[2] = False
            total = sum(s[1] for s in stakes)
            if op.kind is Kind.SETTLE:
                for p, pay in op.pays:
                    self.wallets[p] += pay
                self.house += total - sum(pay for _, pay in op.pays)
            elif op.kind is Kind.REFUND:
                for s in stakes:
                    self.wallets[s[0]] += s[1]
            else:
                self.house += total
        self.ops[k] = sig
        self.pending.pop(k, None)
        return None

    def fail(self, op: Op, failures: int) -> type:
        if op.kind in CLOSING and failures == 1:
            self.pending.setdefault((op.scope, op.key), op)
        return LedgerUnavailable

    def restart(self) -> None:
        for op in list(self.pending.values()):
            self.apply(op)
        self.pending.clear()
        for s in self.holds.values():
            if s[2]:
                s[2] = False
                self.wallets[s[0]] += s[1]

    def balance(self, player: str) -> Balance:
        held: dict[str, int] = {}
        for (table, _), (p, amount, is_open) in self.holds.items():
            if p == player and is_open:
                held[table] = held.get(table, 0) + amount
        return Balance(self.wallets.get(player, 0), dict(sorted(held.items())))


async def call(ledger: Ledger, op: Op) -> type | None:
    try:
        if op.kind is Kind.MINT:
            await ledger.mint(op.key, op.player, op.amount, op.reason)
        elif op.kind is Kind.HOLD:
            await ledger.hold(op.key, op.player, op.table, op.amount)
        elif op.kind is Kind.SETTLE:
            await ledger.settle(op.key, op.table, list(op.stakes), dict(op.pays))
        elif op.kind is Kind.REFUND:
            await ledger.refund(op.key, op.table, op.stakes[0])
        else:
            await ledger.forfeit(op.key, op.table, op.stakes[0])
    except LedgerError as exc:
        return type(exc)
    return None


class LedgerMachine(RuleBasedStateMachine):
    """One example: a fresh database from `fresh()`, handed back to `done` at the end."""

    def __init__(self, fresh: Callable[[], str], done: Callable[[str], None]) -> None:
        super().__init__()
        self.path, self.done = fresh(), done
        self.loop = asyncio.new_event_loop()
        self.ledger = self.loop.run_until_complete(Ledger.open(self.path, recent_keys=RECENT))
        self.model = Model()
        self.history: list[Op] = []
        self.n = 0

    def teardown(self) -> None:
        self.loop.run_until_complete(self.ledger.close())
        self.loop.close()
        self.done(self.path)

    def key(self) -> str:
        self.n += 1
        return f"k{self.n}"

    def run(self, op: Op) -> None:
        self.history.append(op)
        expected = self.model.apply(op)
        assert self.loop.run_until_complete(call(self.ledger, op)) is expected, op

    def stakes(self, data, table: str) -> list[str]:
        """Mostly open stakes of the table; sometimes closed or unknown ones."""
        live = sorted(h for (t, h), s in self.model.holds.items() if t == table and s[2])
        if live and data.draw(st.integers(0, 3)):
            return data.draw(st.lists(st.sampled_from(live), min_size=1, max_size=3, unique=True))
        known = sorted(h for (t, h) in self.model.holds if t == table)
        return data.draw(st.lists(st.sampled_from(known + ["bogus"]), min_size=1, max_size=3, unique=True))

    def pays(self, data) -> dict[str, int]:
        """Mostly to players with wallets; sometimes to one without."""
        payees = sorted(self.model.wallets)
        if not payees or not data.draw(st.integers(0, 3)):
            payees = list(PLAYERS) + ["zed"]
        return data.draw(st.dictionaries(st.sampled_from(payees), st.integers(0, 120), max_size=3))

    # -- rules --------------------------------------------------------------------

    @rule(player=st.sampled_from(PLAYERS), amount=st.integers(1, 100))
    def mint(self, player, amount):
        self.run(Op.mint(self.key(), player, amount, "grant"))

    @rule(player=st.sampled_from(PLAYERS), table=st.sampled_from(TABLES), amount=st.integers(1, 60))
    def hold(self, player, table, amount):
        self.run(Op.hold(self.key(), player, table, amount))

    @rule(data=st.data(), table=st.sampled_from(TABLES))
    def settle(self, data, table):
        self.run(Op.settle(self.key(), table, self.stakes(data, table), self.pays(data)))

    @rule(data=st.data(), table=st.sampled_from(TABLES), forfeit=st.booleans())
    def close_one(self, data, table, forfeit):
        stake = self.stakes(data, table)[0]
        self.run((Op.forfeit if forfeit else Op.refund)(self.key(), table, stake))

    @rule(data=st.data(), change=st.booleans())
    def retry(self, data, change):
        op = self.earlier(data, change)
        if op is not None:
            self.run(op)

    def earlier(self, data, change: bool) -> Op | None:
        """An earlier operation again, as is or changed: mostly one that was applied (with
        RECENT keys in the mirror its key is most likely evicted), sometimes any."""
        applied = [op for op in self.history if (op.scope, op.key) in self.model.ops]
        pool = applied if applied and data.draw(st.integers(0, 3)) else self.history
        if not pool:
            return None
        op = data.draw(st.sampled_from(pool))
        if change:
            if op.kind in (Kind.MINT, Kind.HOLD):
                op = Op(op.kind, op.scope, op.key, op.table, op.player, op.amount + 1, op.reason)
            elif op.kind is Kind.SETTLE:
                op = Op.settle(op.key, op.table, op.stakes, {**dict(op.pays), "ann": 1 + dict(op.pays).get("ann", 0)})
            else:
                maker = Op.forfeit if op.kind is Kind.REFUND else Op.refund
                op = maker(op.key, op.table, op.stakes[0])
        return op

    @rule(data=st.data(), table=st.sampled_from(TABLES), player=st.sampled_from(PLAYERS))
    def concurrent_batch(self, data, table, player):
        """Several calls at once, so several land in one group commit; sometimes with an
        earlier operation among them (its key evicted: the batch is judged again)."""
        ops = [Op.hold(self.key(), player, table, data.draw(st.integers(1, 40))) for _ in range(3)]
        ops.append(Op.settle(self.key(), table, self.stakes(data, table), self.pays(data)))
        ops.append(Op.refund(self.key(), table, self.stakes(data, table)[0]))
        if data.draw(st.booleans()):
            again = self.earlier(data, data.draw(st.booleans()))
            if again is not None:
                ops.insert(data.draw(st.integers(0, len(ops))), again)
        self.history += ops
        expected = [self.model.apply(op) for op in ops]
        async def together():
            return await asyncio.gather(*(call(self.ledger, op) for op in ops))

        got = self.loop.run_until_complete(together())
        assert got == expected, (ops, got, expected)

    @rule(data=st.data(), table=st.sampled_from(TABLES), failures=st.integers(1, 2))
    def failed_closing(self, data, table, failures):
        """A settlement (or refund) whose commit fails: 'pending recovery', stake kept."""
        if data.draw(st.booleans()):
            op = Op.settle(self.key(), table, self.stakes(data, table), self.pays(data))
        else:
            op = Op.refund(self.key(), table, self.stakes(data, table)[0])
        self.history.append(op)
        self.ledger.fail_next_commits(failures)
        assert self.loop.run_until_complete(call(self.ledger, op)) is self.model.fail(op, failures)

    @rule(player=st.sampled_from(PLAYERS), table=st.sampled_from(TABLES))
    def failed_hold(self, player, table):
        op = Op.hold(self.key(), player, table, 1)
        self.history.append(op)
        self.ledger.fail_next_commits(1)
        assert self.loop.run_until_complete(call(self.ledger, op)) is self.model.fail(op, 1)

    @rule()
    def restart(self):
        self.loop.run_until_complete(self.ledger.close())
        self.ledger = self.loop.run_until_complete(Ledger.open(self.path, recent_keys=RECENT))
        self.model.restart()

    # -- after every step -------------------------------------------------------------

    @invariant()
    def agrees_with_model_and_invariants_hold(self):
        report = check(self.path)
        assert report.ok, report.broken
        assert report.minted == self.model.minted and report.balances == self.model.minted
        assert report.house == self.model.house
        assert report.pending_outcomes == len(self.model.pending)
        assert report.open_holds == sum(s[2] for s in self.model.holds.values())
        for p in PLAYERS:
            assert self.loop.run_until_complete(self.ledger.balance(p)) == self.model.balance(p), p
        # the writer judges with its in-memory mirror: it must equal what the database says
        with raw(self.path) as conn:
            fresh = Mirror(conn).snapshot()
            stored = {(sc, k): (kind, a) for sc, k, kind, a in
                      conn.execute("SELECT scope, key, kind, args FROM operations")}
        mirror = self.ledger.store.mirror
        live = mirror.snapshot()
        assert live[:3] + live[4:] == fresh[:3] + fresh[4:]
        assert fresh[3] == stored                  # the default bound loads every key
        assert len(mirror.ops) <= RECENT and list(mirror.order) == list(mirror.ops)
        assert all(stored.get(k) == sig for k, sig in mirror.ops.items())


# PostgreSQL: fewer examples, each on a new database of the run's server (~1 s each)
EXAMPLES = {"sqlite": 40, "postgresql": 20}


@pytest.mark.both_stores
def test_the_ledger_agrees_with_the_model(store, tmp_path, request):
    """The machine is built per example with a database of its own: a shrunk example
    must replay from the same empty ledger as the first run of it."""
    fresh: Callable[[], str]
    done: Callable[[str], None]
    if store == "sqlite":
        def fresh() -> str:
            folder = Path(tempfile.mkdtemp(prefix="example-", dir=tmp_path))
            return f"sqlite:///{folder / 'casino.db'}"

        def done(url: str) -> None:
            shutil.rmtree(Path(url[len("sqlite:///"):]).parent, ignore_errors=True)
    else:
        cluster = request.getfixturevalue("postgres")

        def fresh() -> str:
            # FILE_COPY copies the empty template's files: twice as fast here as
            # the default WAL_LOG, which writes them all to the WAL
            import psycopg
            name = f"s_{uuid.uuid4().hex[:16]}"
            with psycopg.connect(cluster.url(), autocommit=True) as conn:
                conn.execute(f'CREATE DATABASE "{name}" STRATEGY FILE_COPY')
            return cluster.url(name)

        done = cluster.drop_database
    run_state_machine_as_test(lambda: LedgerMachine(fresh, done), settings=settings(
        max_examples=EXAMPLES[store], stateful_step_count=30, deadline=None,
        suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large]))
