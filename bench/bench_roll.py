"""A full bank craps table's roll: one Settle per roll against one per wager, in one run;
and the same table's roll told to 200 watchers.

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

With watchers (--watchers W, default 200; 0 leaves them out): a third
casino, the same seed and the same players and wagers, one Settle per roll,
and W watchers at the table (stand-in sessions in `app.online`, registered
with `host.watch`, as the `watch` command does). Its measures: the time from
`roll` to the last line told to the last watcher (the dice and what they
decided; watchers are not told the players' settlements), and from `roll` to
the last settlement line, against the "one" table's (no watchers, the same
rolls in the same run): what the watchers cost the players.

The bench drives the table host directly (`host.run(host.apply(game.act(...)))`,
what the `bet` and `roll` commands do once a line is parsed), not telnet: 12
logins and 240 bets a roll over sockets would time the telnet edge instead of
the settlement. Each player is a stand-in session in `app.online`, so every
fact is still rendered for every viewer; "delivered" means the rendered line
was handed to `session.tell` (the socket write is not included).

    python -m bench roll                 # 30 rolls, the figures in docs/performance.md
    python -m bench roll --rolls 2       # a CI-sized run
    python -m bench roll --watchers 1000 # the watchers scenario with more watchers
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
WATCHERS = 200


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
    """A stand-in session for one seated player or watcher: records when
    settlement lines, and lines of any kind, arrive."""

    def __init__(self, name: str) -> None:
        from server.accounts.names import name_key
        from server.render.prefs import Prefs
        self.name = name
        self.key = name_key(name)
        self.prefs = Prefs()
        self.closed = False
        self.settled_at: list[float] = []
        self.told_at: list[float] = []

    def tell(self, *lines: str) -> None:
        now = time.perf_counter()
        self.told_at.append(now)
        if any(line.startswith("Settlement:") for line in lines):
            self.settled_at.append(now)


class Commits:
    """Counts the ledger's write transactions (group commits) as they happen."""

    def __init__(self, store: Any) -> None:
        self.n = 0
        real = store.apply_batch

        def counting(items: Any, before_commit: Any, moved: Any = None) -> Any:
            self.n += 1
            return real(items, before_commit, moved)

        store.apply_batch = counting     # the writer thread looks it up on every batch


@dataclass
class Samples:
    seconds: list[float] = field(default_factory=list)     # roll -> last settlement line
    watched: list[float] = field(default_factory=list)     # roll -> last line told to a watcher
    commits: list[int] = field(default_factory=list)       # ledger transactions per roll
    decided: list[int] = field(default_factory=list)       # wagers the roll decided

    def p(self, q: float, of: str = "seconds") -> float:
        """The q-quantile in ms (nearest rank: with 30 rolls, p99 is the slowest)."""
        ms = sorted(s * 1000 for s in getattr(self, of))
        return ms[max(0, math.ceil(q * len(ms)) - 1)]


class Table:
    """One casino with `players` seated at bank craps, driven through its host."""

    def __init__(self, app: Any, players: int, split: bool, watchers: int = 0) -> None:
        self.app = app
        self.host = app.tables[TABLE]
        self.split = split
        self.seats = [Player(f"Player{i:02d}") for i in range(1, players + 1)]
        self.watchers = [Player(f"Watcher{i:04d}") for i in range(1, watchers + 1)]
        self.commits = Commits(app.ledger.store)
        self.samples = Samples()

    async def seat_everyone(self) -> None:
        for seat in self.seats:
            await self.app.ledger.mint(f"bench:{seat.key}", seat.key, CHIPS, "bench chips")
            self.app.online[seat.key] = seat
            await self.host.run(lambda s=seat: self.host.sit(s, CHIPS))
            assert seat.name in self.host.seating, f"{seat.name} was not seated"
        for watcher in self.watchers:
            self.app.online[watcher.key] = watcher
            self.host.watch(watcher)
        assert len(self.host.delivery.viewers(self.host.core)) == len(self.seats) + len(self.watchers)

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
        assert not game.pacing.in_window()

    async def roll(self) -> None:
        """The timed part: the shooter's roll until the last settlement line is told."""
        game, host = self.host.dealer, self.host
        shooter = game.shooter()
        decided: list[int] = []

        def events() -> list[Any]:
            out = game.act(shooter, ["roll"], CHIPS)
            decided.append(sum(len(e.stakes) for e in out if isinstance(e, Settle)))
            return per_wager(out) if self.split else out

        for who in self.seats + self.watchers:
            who.settled_at.clear()
            who.told_at.clear()
        commits = self.commits.n
        start = time.perf_counter()
        await host.run(lambda: host.apply(events()))
        last = max((t for seat in self.seats for t in seat.settled_at), default=None)
        assert last is not None, "the roll settled nothing"
        self.samples.seconds.append(last - start)
        if self.watchers:
            assert all(w.told_at for w in self.watchers), "a watcher was told nothing of the roll"
            self.samples.watched.append(max(t for w in self.watchers for t in w.told_at) - start)
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


async def run(rolls: int, players: int = 12, watchers: int = 0) -> dict[str, Samples]:
    """Play `rolls` rolls at identical tables, one per mode (and, with
    watchers, a third "watchers": one Settle a roll, `watchers` watching);
    their samples by mode.

    Raises AssertionError if the tables end with different chips or a ledger
    file fails `casino ledger check`.
    """
    from server.ledger import check

    modes = MODES + (("watchers",) if watchers else ())
    with tempfile.TemporaryDirectory() as tmp:
        apps = [await _start(Path(tmp) / f"{mode}.db") for mode in modes]
        try:
            tables = [Table(app, players, split=mode == "per-wager",
                            watchers=watchers if mode == "watchers" else 0)
                      for app, mode in zip(apps, modes)]
            for t in tables:
                await t.seat_everyone()
            for k in range(rolls):
                for t in tables:
                    await t.rebet(WAGERS)
                for t in (tables if k % 2 == 0 else tables[::-1]):
                    await t.roll()
            chips = [await t.chips() for t in tables]
            assert all(c == chips[0] for c in chips), "the tables moved different chips"
            assert all(t.host.dealer.last_dice == tables[0].host.dealer.last_dice for t in tables)
        finally:
            for app in apps:
                await app.stop()
        for app in apps:
            report = check(app.database)
            assert report.ok, report
    return {mode: t.samples for mode, t in zip(modes, tables)}


def main(argv: list[str] | None = None) -> None:
    parser = argparse.ArgumentParser(prog="python -m bench roll", description=__doc__.split("\n")[0])
    parser.add_argument("--rolls", type=int, default=30, help="rolls per mode (default 30)")
    parser.add_argument("--players", type=int, default=12)
    parser.add_argument("--watchers", type=int, default=WATCHERS,
                        help=f"watchers at a third table, one Settle a roll (default {WATCHERS}; 0: none)")
    args = parser.parse_args(argv or [])
    result = asyncio.run(run(args.rolls, args.players, args.watchers))
    one, split = result["one"], result["per-wager"]
    print(f"bank craps, {args.players} players x {len(WAGERS)} wagers, {args.rolls} rolls per mode, "
          "roll -> last settlement line delivered (real SQLite ledger, WAL, synchronous=FULL)")
    print(f"{'mode':<12}{'p50 ms':>9}{'p99 ms':>9}{'commits/roll':>14}{'decided/roll':>14}")
    for mode, s in (("per-wager", split), ("one", one)):
        print(f"{mode:<12}{s.p(0.5):>9.2f}{s.p(0.99):>9.2f}{statistics.mean(s.commits):>14.1f}"
              f"{statistics.mean(s.decided):>14.1f}")
    print(f"ratio per-wager : one = {split.p(0.5) / one.p(0.5):.1f}x p50, "
          f"{split.p(0.99) / one.p(0.99):.1f}x p99")
    if "watchers" in result:
        w = result["watchers"]
        print(f"\n{args.players} players and {args.watchers} watchers, one Settle a roll, the same rolls "
              "as the table without watchers (\"one\" above)")
        print(f"{'measure':<48}{'p50 ms':>9}{'p99 ms':>9}")
        print(f"{'roll -> last watcher line':<48}{w.p(0.5, 'watched'):>9.2f}{w.p(0.99, 'watched'):>9.2f}")
        print(f"{f'roll -> last settlement line, {args.watchers} watchers':<48}{w.p(0.5):>9.2f}{w.p(0.99):>9.2f}")
        print(f"{'roll -> last settlement line, no watchers':<48}{one.p(0.5):>9.2f}{one.p(0.99):>9.2f}")
        print(f"ratio {args.watchers} watchers : none (last settlement line) = {w.p(0.5) / one.p(0.5):.1f}x p50, "
              f"{w.p(0.99) / one.p(0.99):.1f}x p99")


if __name__ == "__main__":
    import sys
    main(sys.argv[1:])
