"""A full bank craps table's roll: one Settle per roll against one per wager, in one run.

What is measured: the time from the shooter's `roll` to the last "Settlement:"
line delivered, at a full table (12 players, 20 wagers each, mostly bets one
roll decides: 15 one-roll bets, place 6 and 8, hard 6 and 8, the pass line),
re-betting before every roll; reported as p50/p99 with the ledger commits
(transactions) and decided wagers per roll.

How: two real Casinos (server.app.Casino started as tests/conftest.py starts
it: the shipped config, a real SQLite ledger file with WAL and
synchronous=FULL in a temporary directory, `run_clock=False`), same seed,
driven identically, so both see the same dice, bets and decisions:
- "one": the table as it is, one Settle per roll (a single ledger transaction);
- "per-wager": a bench-only switch splits that Settle back, before the host
  sees it, into what the game emitted before: one Settle per win or loss and
  a Refund per push, each awaited in turn.
The rolls of the two alternate (which goes first alternates too), so both see
the same machine load; at the end every player's chips must agree.

The bench drives the table host directly (`host.run(host.apply(game.act(...)))`,
what the `bet` and `roll` commands do once a line is parsed), not telnet: 12
logins and 240 bets a roll over sockets would time the telnet edge instead of
the settlement. Each player is a stand-in session in `app.online`, so every
fact is still rendered for every viewer; "delivered" means the rendered line
was handed to `session.tell` (the socket write is not included).

    python -m bench roll                 # 30 rolls, the figures in docs/performance.md
    python -m bench roll --rolls 2       # a CI-sized run
"""
from __future__ import annotations

import argparse
import asyncio
import math
import statistics
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from server.games.craps.events import BetLost, BetPushed, BetWon
from server.games.intents import Refund, Settle

ROOT = Path(__file__).resolve().parents[1]
TABLE = "bank_craps"
SEED = 20261129
CHIPS = 10_000_000
ONE_ROLL = ["field 10", "any7 5", "anycraps 5", "2 1", "3 1", "11 1", "12 1", "horn 4",
            "hop 1 2 1", "hop 1 4 1", "hop 1 6 1", "hop 2 3 1", "hop 2 5 1", "hop 3 4 1",
            "hop 5 6 1"]
STANDING = ["place 6 12", "place 8 12", "hard 6 5", "hard 8 5"]
WAGERS = ONE_ROLL + STANDING + ["pass 10"]           # 20 a player
MODES = ("one", "per-wager")


def per_wager(events: list[Any]) -> list[Any]:
    """Bench-only: a roll's one Settle split into one intent per decided wager.

    Wins and losses each get their own Settle, pushes a Refund (the shape the
    table emitted before one settlement per roll), with keys derived from the
    roll's key so they stay unique. The split pays exactly what the one Settle
    pays, which is checked here.
    """
    decided = {e.wager.handle: e for e in events if isinstance(e, (BetWon, BetLost, BetPushed))}
    out: list[Any] = []
    for e in events:
        if not isinstance(e, Settle):
            out.append(e)
            continue
        paid: dict[str, int] = {}
        for handle in e.stakes:
            fact = decided[handle]
            w, key = fact.wager, f"{e.key}.{handle.rsplit(':', 1)[-1]}"
            if isinstance(fact, BetWon):
                out.append(Settle(key, (handle,), ((w.player, w.bet.amount + fact.amount),)))
                paid[w.player] = paid.get(w.player, 0) + w.bet.amount + fact.amount
            elif isinstance(fact, BetLost):
                out.append(Settle(key, (handle,), ()))
            else:
                out.append(Refund(key, handle))
                paid[w.player] = paid.get(w.player, 0) + w.bet.amount
        assert paid == {p: a for p, a in e.pays if a}, (paid, e.pays)
    return out


class Player:
    """A stand-in session for one seated player: records when settlement lines arrive."""

    def __init__(self, name: str) -> None:
        from server.accounts.names import name_key
        from server.render.prefs import Prefs
        self.name = name
        self.key = name_key(name)
        self.prefs = Prefs()
        self.closed = False
        self.settled_at: list[float] = []

    def tell(self, *lines: str) -> None:
        if any(line.startswith("Settlement:") for line in lines):
            self.settled_at.append(time.perf_counter())


class Commits:
    """Counts the ledger's write transactions (group commits) as they happen."""

    def __init__(self, store: Any) -> None:
        self.n = 0
        real = store.apply_batch

        def counting(items: Any, before_commit: Any) -> Any:
            self.n += 1
            return real(items, before_commit)

        store.apply_batch = counting     # the writer thread looks it up on every batch


@dataclass
class Samples:
    seconds: list[float] = field(default_factory=list)     # roll -> last settlement line
    commits: list[int] = field(default_factory=list)       # ledger transactions per roll
    decided: list[int] = field(default_factory=list)       # wagers the roll decided

    def p(self, q: float) -> float:
        """The q-quantile in ms (nearest rank: with 30 rolls, p99 is the slowest)."""
        ms = sorted(s * 1000 for s in self.seconds)
        return ms[max(0, math.ceil(q * len(ms)) - 1)]


class Table:
    """One casino with `players` seated at bank craps, driven through its host."""

    def __init__(self, app: Any, players: int, split: bool) -> None:
        self.app = app
        self.host = app.tables[TABLE]
        self.split = split
        self.seats = [Player(f"Player{i:02d}") for i in range(1, players + 1)]
        self.commits = Commits(app.ledger.store)
        self.samples = Samples()

    async def seat_everyone(self) -> None:
        for seat in self.seats:
            await self.app.ledger.mint(f"bench:{seat.key}", seat.key, CHIPS, "bench chips")
            self.app.online[seat.key] = seat
            await self.host.run(lambda s=seat: self.host.sit(s, CHIPS))
            assert seat.name in self.host.seating, f"{seat.name} was not seated"

    async def rebet(self, wagers: list[str]) -> None:
        """Bring every player back up to the full set of wagers (the untimed part)."""
        game = self.host.dealer
        for seat in self.seats:
            live = {w.name for w in game.state.bets_of(seat.name)}
            for words in wagers:
                name = _bet_name(words)
                if name in live or (name == "pass" and game.state.point):
                    continue
                await self.host.run(lambda s=seat, w=words: self.host.apply(
                    self.host.dealer.act(s.name, ["bet", *w.split()], CHIPS)))
            assert len(game.state.bets_of(seat.name)) == len(wagers), "a wager was refused"
        # close the betting window, as the manager's ticks would
        self.host.advance(game.pacing.left)
        await self.host.idle()
        assert game.pacing.roll_problem(game.tick_hz) is None

    async def roll(self) -> None:
        """The timed part: the shooter's roll until the last settlement line is told."""
        game, host = self.host.dealer, self.host
        shooter = game.shooter()
        decided: list[int] = []

        def events() -> list[Any]:
            out = game.act(shooter, ["roll"], CHIPS)
            decided.append(sum(len(e.stakes) for e in out if isinstance(e, Settle)))
            return per_wager(out) if self.split else out

        for seat in self.seats:
            seat.settled_at.clear()
        commits = self.commits.n
        start = time.perf_counter()
        await host.run(lambda: host.apply(events()))
        last = max((t for seat in self.seats for t in seat.settled_at), default=None)
        assert last is not None, "the roll settled nothing"
        self.samples.seconds.append(last - start)
        self.samples.commits.append(self.commits.n - commits)
        self.samples.decided.append(decided[0])

    async def chips(self) -> dict[str, int]:
        """Every player's chips, wallet plus held (equal in both modes)."""
        return {s.key: (await self.app.ledger.balance(s.key)).total for s in self.seats}


def _bet_name(words: str) -> str:
    """The name `bets` shows for a bet typed as `words` (what `unbet` calls it)."""
    w = words.split()
    if w[0] == "hop":
        a, b = sorted((int(w[1]), int(w[2])))
        return f"hop{a}{b}"
    return w[0] + "".join(w[1:-1])


async def _start(path: Path) -> Any:
    """A casino as the end-to-end tests start one: shipped config, real file, no clock."""
    from server.app import Casino
    from server.config.load import load_config
    config = load_config(ROOT / "config", ROOT / "rooms")
    app = Casino(config, path, seed=SEED, config_dir=ROOT / "config", rooms_dir=ROOT / "rooms")
    await app.start("127.0.0.1", 0, run_clock=False)
    return app


async def run(rolls: int, players: int = 12) -> dict[str, Samples]:
    """Play `rolls` rolls at two identical tables, one per mode; their samples by mode.

    Raises AssertionError if the modes end with different chips or a ledger
    file fails `casino ledger check`.
    """
    from server.ledger import check

    with tempfile.TemporaryDirectory() as tmp:
        apps = [await _start(Path(tmp) / f"{mode}.db") for mode in MODES]
        try:
            tables = [Table(app, players, split=mode == "per-wager") for app, mode in zip(apps, MODES)]
            for t in tables:
                await t.seat_everyone()
            for k in range(rolls):
                for t in tables:
                    await t.rebet(WAGERS)
                for t in (tables if k % 2 == 0 else tables[::-1]):
                    await t.roll()
            one, split = [await t.chips() for t in tables]
            assert one == split, "the two modes moved different chips"
            assert tables[0].host.dealer.last_dice == tables[1].host.dealer.last_dice
        finally:
            for app in apps:
                await app.stop()
        for app in apps:
            report = check(app.data_path)
            assert report.ok, report
    return {mode: t.samples for mode, t in zip(MODES, tables)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench roll", description=__doc__.split("\n")[0])
    parser.add_argument("--rolls", type=int, default=30, help="rolls per mode (default 30)")
    parser.add_argument("--players", type=int, default=12)
    args = parser.parse_args(argv or [])
    result = asyncio.run(run(args.rolls, args.players))
    one, split = result["one"], result["per-wager"]
    print(f"bank craps, {args.players} players x {len(WAGERS)} wagers, {args.rolls} rolls per mode, "
          "roll -> last settlement line delivered (real SQLite ledger, WAL, synchronous=FULL)")
    print(f"{'mode':<12}{'p50 ms':>9}{'p99 ms':>9}{'commits/roll':>14}{'decided/roll':>14}")
    for mode, s in (("per-wager", split), ("one", one)):
        print(f"{mode:<12}{s.p(0.5):>9.2f}{s.p(0.99):>9.2f}{statistics.mean(s.commits):>14.1f}"
              f"{statistics.mean(s.decided):>14.1f}")
    print(f"ratio per-wager : one = {split.p(0.5) / one.p(0.5):.1f}x p50, "
          f"{split.p(0.99) / one.p(0.99):.1f}x p99")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
