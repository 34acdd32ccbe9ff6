"""What the casino counts for its operators, as plain numbers (docs/operating.md, "Metrics").

The hot paths (a line in, its prompt out, a command, a refusal, a ledger batch)
add to these counts and nothing more: an increment of an int or of a bucket,
no lock, no call into a library, and nothing here imports one. `/metrics`
(server/metrics/export.py, with the prometheus-client library) turns them into
the Prometheus text format when it is scraped, beside what it reads live then
(sessions, tables, the ledger's figures). MSSP's PLAYERS is `players`, as
casino_players is, and its UPTIME the app's `started_at`, as
casino_start_time_seconds is: a directory and Prometheus never disagree.

Only the counts live here; this module imports nothing of the casino, so every
layer may count into it."""
from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Iterable, Sized

# Upper bounds (seconds) of the reply-time buckets: fine where the replies are
# (a millisecond or two), so a p99 read from them is within a few percent.
REPLY_BOUNDS = (0.00025, 0.0005, 0.00075, 0.001, 0.0015, 0.002, 0.003, 0.004, 0.005, 0.0075, 0.01,
                0.0125, 0.015, 0.02, 0.025, 0.03, 0.04, 0.05, 0.075, 0.1, 0.15, 0.25, 0.5, 1.0, 2.5, 5.0)
COMMIT_BOUNDS = (0.0005, 0.001, 0.002, 0.004, 0.008, 0.016, 0.032, 0.064, 0.128, 0.256, 0.512, 1.0, 2.5)
BATCH_BOUNDS = (1, 2, 4, 8, 16, 32, 64, 128, 256, 512, 1024, 2048)
LAG_BOUNDS = (0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5)


class Buckets:
    """A histogram's counts: one per upper bound (Prometheus' `le`, inclusive) and
    one above them all, and the sum of what was observed."""

    __slots__ = ("bounds", "counts", "sum")

    def __init__(self, bounds: Iterable[float]) -> None:
        self.bounds = tuple(bounds)
        self.counts = [0] * (len(self.bounds) + 1)
        self.sum = 0.0

    def observe(self, value: float) -> None:
        self.counts[bisect_left(self.bounds, value)] += 1
        self.sum += value

    def cumulative(self) -> list[tuple[float, int]]:
        """(upper bound, observations at or under it), the last bound +Inf."""
        out, running = [], 0
        for bound, n in zip((*self.bounds, float("inf")), self.counts):
            running += n
            out.append((bound, running))
        return out

    @property
    def count(self) -> int:
        return sum(self.counts)


class Counts:
    """Every count of this process. Labels are words the code chooses (a command's
    name, a game, a cause), never what a player typed or a player's name."""

    def __init__(self) -> None:
        self.commands: Counter[tuple[str, str]] = Counter()   # (command word, result)
        self.reply = Buckets(REPLY_BOUNDS)                    # a line in to its prompt out
        self.refusals: Counter[str] = Counter()               # cause
        self.disconnects: Counter[str] = Counter()            # cause
        self.rounds: Counter[str] = Counter()                 # game: settlements written
        self.wagered: Counter[str] = Counter()                # game: chips held as stakes
        self.settled: Counter[str] = Counter()                # game: chips of stakes a settlement decided
        self.paid: Counter[str] = Counter()                   # game: chips settlements paid to wallets
        self.ledger_batches = 0
        self.ledger_failed_batches = 0
        self.ledger_items = 0                                 # operations and requests committed
        self.ledger_batch = Buckets(BATCH_BOUNDS)             # items per batch
        self.ledger_commit = Buckets(COMMIT_BOUNDS)           # seconds a batch took to be durable
        self.link_messages: Counter[str] = Counter()          # direction: sent, received
        self.restarts: Counter[str] = Counter()               # shard: game processes started again
        self.loop_lag = Buckets(LAG_BOUNDS)                   # how late the clock woke up

    def reset(self) -> None:
        """Every count back to zero (a test's fresh start)."""
        self.__init__()  # type: ignore[misc]


COUNTS = Counts()


def refused(cause: str) -> None:
    COUNTS.refusals[cause] += 1


def disconnected(cause: str) -> None:
    COUNTS.disconnects[cause] += 1


def players(online: Sized) -> int:
    """Who is logged in, as MSSP's PLAYERS and casino_players count them."""
    return len(online)
