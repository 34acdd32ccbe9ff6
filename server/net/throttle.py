"""Rate limits for the edge: input, failed logins, sign-ups, open connections.

These use the real monotonic clock, passed in as `now`: they guard the server
against clients, not game time, so they are not driven by manager ticks.
"""
from __future__ import annotations

from collections import defaultdict, deque
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from server.config.model import Limits

PRUNE_AT = 10_000      # keys remembered before the expired ones are swept out


class TokenBucket:
    """`rate` tokens a second, holding at most `rate` (a one-second burst)."""

    def __init__(self, rate: int, now: float) -> None:
        self.rate = rate
        self.tokens = float(rate)
        self.stamp = now

    def _refill(self, now: float) -> None:
        self.tokens = min(self.rate, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now

    def take(self, now: float) -> bool:
        return self.take_many(1, now) == 1

    def take_many(self, wanted: int, now: float) -> int:
        """Take up to `wanted` tokens; returns how many were taken."""
        self._refill(now)
        got = min(wanted, int(self.tokens))
        self.tokens -= got
        return got

    def full(self, now: float) -> bool:
        """Whether the bucket has refilled completely (the client kept to the rate)."""
        self._refill(now)
        return self.tokens >= self.rate


class ByteBudget:
    """Input bytes a connection may make us process: `rate` a second, a burst
    of `burst`. Spending may overdraw it; the debt says how long to stop
    reading (`wait`), so one huge chunk costs its sender time, not everyone."""

    def __init__(self, rate: int, burst: int, now: float) -> None:
        self.rate = rate
        self.burst = burst
        self.level = float(burst)
        self.stamp = now

    def spend(self, cost: int, now: float) -> float:
        """Charge `cost`; returns the seconds to wait before reading again (0: go on)."""
        self.level = min(self.burst, self.level + (now - self.stamp) * self.rate) - cost
        self.stamp = now
        return 0.0 if self.level >= 0 else -self.level / self.rate


class LoginThrottle:
    """Failed logins, per key (an address, or an address and a name).

    `free` failures cost nothing; each one after that doubles the wait before
    the next attempt (1, 2, 4 ... seconds, at most `max_wait`). A failure is
    remembered for `memory` seconds, so a guesser who waits out one delay
    meets a longer one. Keys never hold a name alone: nobody can lock an
    account's owner out from another address.
    """

    def __init__(self, free: int, max_wait: float, memory: float = 3600.0) -> None:
        self.free = free
        self.max_wait = max_wait
        self.memory = memory
        self._failures: dict[str, deque[float]] = {}

    def _recent(self, key: str, now: float) -> deque[float] | None:
        q = self._failures.get(key)
        if q is None:
            return None
        while q and q[0] <= now - self.memory:
            q.popleft()
        if not q:
            del self._failures[key]
            return None
        return q

    def blocked_for(self, key: str, now: float) -> float:
        """Seconds until `key` may try again; 0 when it may try now."""
        q = self._recent(key, now)
        if q is None or len(q) < self.free:
            return 0.0
        wait = min(self.max_wait, 2.0 ** (len(q) - self.free))
        return max(0.0, q[-1] + wait - now)

    def fail(self, key: str, now: float) -> None:
        if len(self._failures) >= PRUNE_AT:
            for old in list(self._failures):
                self._recent(old, now)
        q = self._recent(key, now)
        if q is None:
            q = self._failures[key] = deque()
        q.append(now)

    def clear(self, key: str) -> None:
        self._failures.pop(key, None)

    def __len__(self) -> int:
        return len(self._failures)


class CreationLimit:
    """At most `limit` new accounts per address per `window` seconds."""

    def __init__(self, limit: int, window: float = 3600.0) -> None:
        self.limit = limit
        self.window = window
        self._made: dict[str, deque[float]] = defaultdict(deque)

    def blocked_for(self, ip: str, now: float) -> float:
        q = self._made.get(ip)
        if not q:
            return 0.0
        while q and q[0] <= now - self.window:
            q.popleft()
        if not q:
            del self._made[ip]
            return 0.0
        return 0.0 if len(q) < self.limit else q[0] + self.window - now

    def made(self, ip: str, now: float) -> None:
        if len(self._made) >= PRUNE_AT:
            for old in list(self._made):
                self.blocked_for(old, now)
        self._made[ip].append(now)

    def cancel(self, ip: str, now: float) -> None:
        """Give back the place of a sign-up that was not made after all."""
        q = self._made.get(ip)
        if q and now in q:
            q.remove(now)


class ConnectionCounter:
    """Open connections: per address, in all, and those not logged in yet
    (in all and per address).

    A connection is counted from the moment its socket is accepted until the
    socket is really closed (not when we merely asked it to close), so a
    client that never reads cannot hold sockets open outside the caps. Every
    connection, telnet or HTTP, counts as not logged in from accept until a
    session on it logs in (the one rule: server.net.lifecycle, which is what
    calls admit, logged_in and release).
    """

    def __init__(self, per_ip: int, total: int = 1_000_000, anonymous: int = 1_000_000,
                 anonymous_per_ip: int = 1_000_000) -> None:
        self.limit = per_ip
        self.total_limit = total
        self.anonymous_limit = anonymous
        self.anonymous_per_ip = anonymous_per_ip
        self._open: dict[str, int] = defaultdict(int)
        self._waiting: dict[str, int] = defaultdict(int)     # not logged in, per address
        self.total = 0
        self.anonymous = 0

    @classmethod
    def of(cls, limits: Limits) -> ConnectionCounter:
        counter = cls(0)
        counter.configure(limits)
        return counter

    def configure(self, limits: Limits) -> None:
        """The caps `limits` sets (a reload changes them for what opens from now on)."""
        self.limit = limits.connections_per_ip
        self.total_limit = limits.max_connections
        self.anonymous_limit = limits.max_login_connections
        self.anonymous_per_ip = limits.login_connections_per_ip

    def refusal(self, ip: str) -> str | None:
        """Why a new connection from `ip` may not open now, or None."""
        if self.total >= self.total_limit:
            return "The casino is full; try again later."
        if self._open.get(ip, 0) >= self.limit:
            return "Too many connections from your address; try again later."
        if self._waiting.get(ip, 0) >= self.anonymous_per_ip:
            return ("Too many connections from your address are logging in; "
                    "finish logging in on one of them, or try again in a minute.")
        if self.anonymous >= self.anonymous_limit:
            return "Too many people are logging in right now; try again in a minute."
        return None

    def admit(self, ip: str) -> bool:
        if self.refusal(ip) is not None:
            return False
        self._open[ip] += 1
        self._waiting[ip] += 1
        self.total += 1
        self.anonymous += 1
        return True

    def logged_in(self, ip: str | None = None) -> None:
        """An admitted connection (from `ip`) finished logging in: no longer anonymous."""
        self.anonymous -= 1
        if ip is not None:
            self._unwait(ip)

    def _unwait(self, ip: str) -> None:
        left = self._waiting.get(ip, 0) - 1
        if left > 0:
            self._waiting[ip] = left
        else:
            self._waiting.pop(ip, None)

    def release(self, ip: str, anonymous: bool = True) -> None:
        self._open[ip] -= 1
        if self._open[ip] <= 0:
            del self._open[ip]
        self.total -= 1
        if anonymous:
            self.anonymous -= 1
            self._unwait(ip)

    def open_from(self, ip: str) -> int:
        return self._open.get(ip, 0)

    def waiting_from(self, ip: str) -> int:
        """Connections from `ip` not logged in yet."""
        return self._waiting.get(ip, 0)
