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
the queue for everyone else (`configure` sets all three from the server's limits).
"""
from __future__ import annotations

import asyncio
import threading
from concurrent.futures import ThreadPoolExecutor
from typing import Any, Callable

from argon2 import PasswordHasher
from argon2.exceptions import InvalidHashError, VerificationError

_hasher = PasswordHasher(time_cost=2, memory_cost=19456, parallelism=1)   # see configure_cost


def configure_cost(time_cost: int, memory_kib: int, parallelism: int) -> None:
    """The Argon2id parameters new hashes are made with."""
    global _hasher
    if (time_cost, memory_kib, parallelism) != (_hasher.time_cost, _hasher.memory_cost, _hasher.parallelism):
        _hasher = PasswordHasher(time_cost=time_cost, memory_cost=memory_kib, parallelism=parallelism)


def needs_rehash(stored: str) -> bool:
    """Whether a stored hash was made with parameters other than today's."""
    try:
        return _hasher.check_needs_rehash(stored)
    except InvalidHashError:
        return False

MIN_PASSWORD = 6
MAX_PASSWORD = 128


def password_problem(password: str) -> str | None:
    if len(password) < MIN_PASSWORD:
        return f"Passwords need at least {MIN_PASSWORD} characters."
    if len(password) > MAX_PASSWORD:
        return f"Passwords have at most {MAX_PASSWORD} characters."
    return None


class HashBusy(Exception):
    """Too many password hashes are already waiting."""


class _Pool:
    def __init__(self, workers: int, queue: int, per_owner: int) -> None:
        self.workers, self.queue, self.per_owner = workers, queue, per_owner
        self.executor = ThreadPoolExecutor(workers, thread_name_prefix="casino-argon2")
        self.pending = 0        # running or waiting
        self.owners: dict[str, int] = {}    # running or waiting, by who asked (an address)
        self.running = 0        # hashing right now (counted in the worker threads)
        self.peak = 0
        self.lock = threading.Lock()

    def call(self, fn: Callable[..., Any], *args: Any) -> Any:
        with self.lock:
            self.running += 1
            self.peak = max(self.peak, self.running)
        try:
            return fn(*args)
        finally:
            with self.lock:
                self.running -= 1


_pool = _Pool(2, 32, 4)


def configure(workers: int, queue: int, per_owner: int = 4) -> None:
    """Hashes computed at once, how many more may wait, and how many of
    those (running or waiting) one address may have."""
    if workers != _pool.workers:
        old = _pool.executor
        _pool.executor = ThreadPoolExecutor(workers, thread_name_prefix="casino-argon2")
        _pool.workers = workers
        old.shutdown(wait=False)
    _pool.queue = queue
    _pool.per_owner = per_owner


def load() -> tuple[int, int]:
    """(hashes running or waiting now, the most ever computed at once)."""
    return _pool.pending, _pool.peak


async def _run(owner: str | None, fn: Callable[..., Any], *args: Any) -> Any:
    if _pool.pending >= _pool.workers + _pool.queue:
        raise HashBusy()
    if owner is not None and _pool.owners.get(owner, 0) >= _pool.per_owner:
        raise HashBusy()
    _pool.pending += 1
    if owner is not None:
        _pool.owners[owner] = _pool.owners.get(owner, 0) + 1
    try:
        return await asyncio.get_running_loop().run_in_executor(_pool.executor, _pool.call, fn, *args)
    finally:
        _pool.pending -= 1
        if owner is not None:
            left = _pool.owners.pop(owner) - 1
            if left:
                _pool.owners[owner] = left


async def hash_password(password: str, owner: str | None = None) -> str:
    """A new hash at today's cost; `owner` (an address) is held to its share."""
    return await _run(owner, _hasher.hash, password)


def _verify(stored: str, password: str) -> bool:
    try:
        return _hasher.verify(stored, password)
    except (VerificationError, InvalidHashError):
        return False


async def verify_password(stored: str, password: str, owner: str | None = None) -> bool:
    """Whether `password` matches; `owner` (an address) is held to its share."""
    return await _run(owner, _verify, stored, password)
