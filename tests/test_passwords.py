"""Password hashing is an object each casino owns (server.accounts.passwords):
its cost and its limits are its own, a reload gives it new ones, and nothing
is shared through the module between two of them in one process."""
from __future__ import annotations

import asyncio
import threading
from dataclasses import replace

import pytest

from server.accounts.passwords import Argon2id, HashBusy, Passwords
from server.config.model import Limits, PasswordHash, Settings

CHEAP = PasswordHash(memory_kib=64, time_cost=1, parallelism=1)     # fast enough for a unit test
DEARER = PasswordHash(memory_kib=128, time_cost=2, parallelism=1)


@pytest.fixture
def made():
    """Passwords objects made by a test, closed after it."""
    them: list[Passwords] = []

    def make(cost: PasswordHash = CHEAP, limits: Limits = Limits()) -> Passwords:
        them.append(Passwords(cost, limits))
        return them[-1]
    yield make
    for p in them:
        p.close()


async def test_two_in_one_process_each_hash_at_their_own_cost(made):
    cheap, dear = made(CHEAP), made(DEARER)
    by_cheap, by_dear = await cheap.hash("secret123"), await dear.hash("secret123")
    assert "m=64,t=1,p=1" in by_cheap and "m=128,t=2,p=1" in by_dear
    assert await cheap.verify(by_dear, "secret123") and await dear.verify(by_cheap, "secret123")
    assert not await cheap.verify(by_cheap, "secret124")
    assert (cheap.needs_rehash(by_cheap), cheap.needs_rehash(by_dear)) == (False, True)
    assert (dear.needs_rehash(by_dear), dear.needs_rehash(by_cheap)) == (False, True)
    assert not cheap.needs_rehash("not a hash") and not await cheap.verify("not a hash", "secret123")


async def test_a_reload_brings_a_new_cost_and_new_limits(made):
    passwords = made(CHEAP, Limits(hash_concurrency=1, hash_queue=1, hashes_per_ip=1))
    before = await passwords.hash("secret123")
    hasher = passwords.hasher
    passwords.configure(Settings(password_hash=DEARER, limits=Limits(hash_concurrency=3, hash_queue=5,
                                                                     hashes_per_ip=2)))
    assert passwords.hasher is not hasher and hasher.cost == CHEAP     # the old one is left as it was
    assert (passwords.workers, passwords.queue, passwords.per_owner) == (3, 5, 2)
    after = await passwords.hash("secret123")
    assert "m=128,t=2,p=1" in after and passwords.needs_rehash(before)
    assert await passwords.verify(before, "secret123")                  # older hashes still verify
    same = passwords.hasher
    passwords.configure(Settings(password_hash=DEARER))
    assert passwords.hasher is same                                    # the same cost: kept


async def test_one_address_is_held_to_its_share_and_the_queue_to_its_length(made, monkeypatch):
    gate = threading.Event()
    verify = Argon2id.verify
    monkeypatch.setattr(Argon2id, "verify", lambda hasher, stored, pw: gate.wait(10) and verify(hasher, stored, pw))
    passwords = made(CHEAP, Limits(hash_concurrency=1, hash_queue=2, hashes_per_ip=2))
    stored = Argon2id(CHEAP).hash("secret123")
    waiting = [asyncio.create_task(passwords.verify(stored, "secret123", "10.0.0.1")) for _ in range(2)]
    await asyncio.sleep(0)
    assert passwords.load()[0] == 2
    with pytest.raises(HashBusy):                                      # that address has its two
        await passwords.verify(stored, "secret123", "10.0.0.1")
    third = asyncio.create_task(passwords.verify(stored, "secret123", "10.0.0.2"))
    await asyncio.sleep(0)
    with pytest.raises(HashBusy):                                      # one running, two waiting: full
        await passwords.verify(stored, "secret123", "10.0.0.3")
    gate.set()
    assert await asyncio.gather(*waiting, third) == [True, True, True]
    assert passwords.load() == (0, 1)                                  # never more than one at once


def test_the_settings_say_the_cost_and_the_limits():
    settings = Settings(password_hash=DEARER, limits=replace(Limits(), hash_concurrency=4, hashes_per_ip=7))
    passwords = Passwords.of(settings)
    try:
        assert passwords.hasher == Argon2id(DEARER)
        assert (passwords.workers, passwords.queue, passwords.per_owner) == (4, Limits().hash_queue, 7)
    finally:
        passwords.close()
