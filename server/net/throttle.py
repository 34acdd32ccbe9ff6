"""Rate limits for the edge: commands per second, failed logins, connections per IP.

These use the real monotonic clock, passed in as `now`: they guard the server
against clients, not game time, so they are not driven by manager ticks.
"""
from __future__ import annotations

from collections import defaultdict, deque


class TokenBucket:
    """`rate` tokens a second, holding at most `rate` (a one-second burst)."""

    def __init__(self, rate: int, now: float) -> None:
        self.rate = rate
        self.tokens = float(rate)
        self.stamp = now

    def take(self, now: float) -> bool:
        self.tokens = min(self.rate, self.tokens + (now - self.stamp) * self.rate)
        self.stamp = now
        if self.tokens >= 1:
            self.tokens -= 1
            return True
        return False


class FailureThrottle:
    """At most `limit` failures per `window` seconds for each key (an IP or a name)."""

    def __init__(self, limit: int, window: float = 60.0) -> None:
        self.limit = limit
        self.window = window
        self._failures: dict[str, deque[float]] = defaultdict(deque)

    def _recent(self, key: str, now: float) -> deque[float]:
        q = self._failures[key]
        while q and q[0] <= now - self.window:
            q.popleft()
        return q

    def blocked_for(self, key: str, now: float) -> float:
        """Seconds until `key` may try again; 0 when it may try now."""
        q = self._recent(key, now)
        if len(q) < self.limit:
            if not q:
                self._failures.pop(key, None)
            return 0.0
        return q[0] + self.window - now

    def fail(self, key: str, now: float) -> None:
        self._recent(key, now).append(now)

    def clear(self, key: str) -> None:
        self._failures.pop(key, None)


class ConnectionCounter:
    """Open connections per IP address."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self._open: dict[str, int] = defaultdict(int)

    def admit(self, ip: str) -> bool:
        if self._open[ip] >= self.limit:
            return False
        self._open[ip] += 1
        return True

    def release(self, ip: str) -> None:
        self._open[ip] -= 1
        if self._open[ip] <= 0:
            del self._open[ip]
