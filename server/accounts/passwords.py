"""Argon2id password hashing, run off the event loop.

Argon2id is memory-hard, which is the point and also why a hash takes tens of
milliseconds: it runs in a worker thread so the event loop keeps serving
everyone else. Passwords are never logged or stored. The cost is config
(`server.password_hash`), by default OWASP's recommended minimum for Argon2id
(Password Storage Cheat Sheet: m=19 MiB, t=2, p=1), which lets two cores check
1,000 logins well inside 30 seconds; a stored hash made with other parameters
still verifies and is re-made with the current ones at that login
(`needs_rehash`).

Hashes run on a pool of `hash_concurrency` threads, so logins can take at most
that many times the configured memory however many arrive at once; at most `hash_queue` more
may wait for a turn, beyond which `HashBusy` is raised and the player told the
casino is busy. One address may have at most `hashes_per_ip` of those running or
waiting, so a login flood from one address is told "busy" itself and cannot fill
the queue for everyone else.

The casino owns one `Passwords` (the pool and today's `Argon2id`), built from
its settings and handed to whatever hashes (login, sign-up, `casino account
create`); nothing about hashing lives in this module's globals, so two casinos
in one process (the tests) never share a cost or a queue.
"""
from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass, field
from typing import Callable, TypeVar

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

from server.config.model import Limits, PasswordHash, Settings

T = TypeVar("T")

MIN_PASSWORD = 6
MAX_PASSWORD = 128


def password_problem(password: str) -> str | None:
    if len(password) < MIN_PASSWORD:
        return f"Passwords need at least {MIN_PASSWORD} characters."
    if len(password) > MAX_PASSWORD:
        return f"Passwords have at most {MAX_PASSWORD} characters."
    return None


@dataclass(frozen=True)
class Argon2id:
    """Hashing at one cost: new hashes are made with it, a stored hash of any
    cost verifies. Immutable, so a worker thread may use it while a reload
    puts a new one in its place."""

    cost: PasswordHash = PasswordHash()
    _argon2: PasswordHasher = field(init=False, repr=False, compare=False)

    def __post_init__(self) -> None:
        hasher = PasswordHasher(time_cost=self.cost.time_cost, memory_cost=self.cost.memory_kib,
                                parallelism=self.cost.parallelism)
        object.__setattr__(self, "_argon2", hasher)     # frozen: set once, here

    def hash(self, password: str) -> str:
        """A new hash (slow: call it on a worker thread)."""
        return self._argon2.hash(password)

    def verify(self, stored: str, password: str) -> bool:
        """Whether `password` matches `stored` (slow: call it on a worker thread)."""
        try:
            return self._argon2.verify(stored, password)
        except (VerificationError, InvalidHashError):
            return False

    def needs_rehash(self, stored: str) -> bool:
        """Whether a stored hash was made with parameters other than this cost (fast)."""
        try:
            return self._argon2.check_needs_rehash(stored)
        except InvalidHashError:
            return False


class HashBusy(Exception):
    """Too many password hashes are already waiting."""


class Passwords:
    """Today's Argon2id and the threads its hashes run on, with the limits
    on how many run, wait, and wait for one address (see the module's docstring)."""

    def __init__(self, cost: PasswordHash = PasswordHash(), limits: Limits = Limits()) -> None:
        self.hasher = Argon2id(cost)
        self.workers = limits.hash_concurrency
        self.queue = limits.hash_queue
        self.per_owner = limits.hashes_per_ip
        self._executor = ThreadPoolExecutor(self.workers, thread_name_prefix="casino-argon2")
        self.pending = 0        # running or waiting
        self._owners: dict[str, int] = {}    # running or waiting, by who asked (an address)
        self._running = 0       # hashing right now (counted in the worker threads)
        self.peak = 0           # the most ever hashing at once
        self._lock = threading.Lock()

    @classmethod
    def of(cls, settings: Settings) -> Passwords:
        """Hashing as the settings' `password_hash` and `limits` say."""
        return cls(settings.password_hash, settings.limits)

    def configure(self, settings: Settings) -> None:
        """Take new settings (a reload): hashes already running finish as they began."""
        if settings.password_hash != self.hasher.cost:
            self.hasher = Argon2id(settings.password_hash)
        limits = settings.limits
        if limits.hash_concurrency != self.workers:
            old, self._executor = self._executor, ThreadPoolExecutor(limits.hash_concurrency,
                                                                     thread_name_prefix="casino-argon2")
            self.workers = limits.hash_concurrency
            old.shutdown(wait=False)
        self.queue = limits.hash_queue
        self.per_owner = limits.hashes_per_ip

    def load(self) -> tuple[int, int]:
        """(hashes running or waiting now, the most ever computed at once)."""
        return self.pending, self.peak

    async def hash(self, password: str, owner: str | None = None) -> str:
        """A new hash at today's cost; `owner` (an address) is held to its share."""
        hasher = self.hasher
        return await self._run(owner, lambda: hasher.hash(password))

    async def verify(self, stored: str, password: str, owner: str | None = None) -> bool:
        """Whether `password` matches; `owner` (an address) is held to its share."""
        hasher = self.hasher
        return await self._run(owner, lambda: hasher.verify(stored, password))

    def needs_rehash(self, stored: str) -> bool:
        """Whether a stored hash was made with parameters other than today's."""
        return self.hasher.needs_rehash(stored)

    def close(self) -> None:
        """Stop the threads once the hashes asked for are done (the casino has stopped)."""
        self._executor.shutdown(wait=False)

    async def _run(self, owner: str | None, work: Callable[[], T]) -> T:
        if self.pending >= self.workers + self.queue:
            raise HashBusy()
        if owner is not None and self._owners.get(owner, 0) >= self.per_owner:
            raise HashBusy()
        self.pending += 1
        if owner is not None:
            self._owners[owner] = self._owners.get(owner, 0) + 1
        try:
            return await asyncio.get_running_loop().run_in_executor(self._executor, self._counted, work)
        finally:
            self.pending -= 1
            if owner is not None:
                left = self._owners.pop(owner) - 1
                if left:
                    self._owners[owner] = left

    def _counted(self, work: Callable[[], T]) -> T:
        """`work` in a worker thread, counted in `peak`."""
        with self._lock:
            self._running += 1
            self.peak = max(self.peak, self._running)
        try:
            return work()
        finally:
            with self._lock:
                self._running -= 1
